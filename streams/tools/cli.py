"""`contraflow`: the command line. Every subcommand reads Settings (CONTRAFLOW_*), and
its flags override them. Errors a user can fix end as one line on stderr, exit 2."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import orjson

from contraflow.streams.errors import UserError
from contraflow.streams.settings import Settings, load_settings

EXIT_USER_ERROR = 2
DEBUG_VARIABLE = "CONTRAFLOW_DEBUG"
# what the user can fix is one line (exit 2): contraflow's own user errors and a path that is
# missing, a folder or not readable; any other exception is a bug and shows its traceback
USER_ERRORS = (UserError, FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError)


class CLIError(UserError, RuntimeError):
    """An error the user can fix; printed as one line."""


def _settings(args: argparse.Namespace) -> Settings:
    overrides = {}
    if getattr(args, "broker", None):
        url = args.broker if "://" in args.broker else f"kafka://{args.broker}"
        overrides["broker_url"] = url
    if getattr(args, "model", None):
        overrides["nli_model"] = args.model
    if getattr(args, "web_port", None):
        overrides["web_port"] = args.web_port
    return load_settings(overrides, {"broker_url": "--broker", "nli_model": "--model", "web_port": "--web-port"})


@contextlib.contextmanager
def _aiokafka_quiet() -> Iterator[None]:
    """aiokafka's own logging off while a command reports broker errors itself; a running
    worker keeps it (warnings and errors reach the worker's log)."""
    logger = logging.getLogger("aiokafka")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


def _add_broker(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--broker", help="Kafka bootstrap server, host:port (default: CONTRAFLOW_BROKER_URL)")


# -- broker -------------------------------------------------------------------------


def cmd_broker(args: argparse.Namespace) -> int:
    import time

    from contraflow.streams.runtime.signals import sigterm_interrupts
    from contraflow.streams.tools.broker import TansuBroker

    sigterm_interrupts()
    with TansuBroker(port=args.port or None) as broker:
        print(f"Tansu broker on {broker.bootstrap} (memory only). Use --broker {broker.bootstrap}. Ctrl-C stops it.")
        try:
            while broker.running:
                time.sleep(0.5)
        except KeyboardInterrupt:
            return 0
    raise CLIError("the broker exited on its own")


# -- worker -------------------------------------------------------------------------


def cmd_worker(args: argparse.Namespace) -> int:
    from contraflow.streams.core.nli.scorer import check_installed, resolve_model_dir
    from contraflow.streams.runtime.kafka import ensure_topics
    from contraflow.streams.runtime.model_host import ModelHost, needs_models
    from contraflow.topics.catalog import ALL_TOPICS

    settings = _settings(args)
    if needs_models(settings):  # quick checks first: the model is there, its backend installed,
        check_installed(resolve_model_dir(settings.nli_model_path), settings.nli_backend)
    with _aiokafka_quiet():  # (its connection errors become our one-line error)
        asyncio.run(ensure_topics(settings, ALL_TOPICS))  # the broker answers; then the slow imports and loading
    print(f"contraflow worker: broker {settings.broker_url} answers, topics in place; starting", flush=True)
    # the models load in their own process from here on, while faust is imported and started
    host = ModelHost(settings, logging.getLevelName(args.loglevel.upper())) if needs_models(settings) else None
    from contraflow.agents.worker import run_worker

    run_worker(settings, host, args.loglevel)
    return 0


# -- send ---------------------------------------------------------------------------


def cmd_send(args: argparse.Namespace) -> int:
    path = Path(args.file)
    if not path.is_file():
        raise CLIError(f"no such file: {path}")
    _known_topics([args.topic], args.force)
    numbered = [(n, line.strip()) for n, line in enumerate(path.read_bytes().splitlines(), 1) if line.strip()]
    lines = [line for _, line in numbered]
    for number, line in [] if args.force else numbered:
        try:
            orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            raise CLIError(
                f"{path}:{number} is not JSON ({exc}); fix it, or pass --force to send every line as it is "
                "(the worker dead-letters what it cannot read)"
            ) from None
    from contraflow.streams.runtime.kafka import produce_lines

    sent = asyncio.run(produce_lines(_settings(args), args.topic, lines, args.key_field))
    print(f"sent {sent} records to {args.topic}")
    return 0


# -- tail ---------------------------------------------------------------------------


async def tail_topics(
    settings: Settings, topics: list[str], emit: Callable[[str, dict], None], limit: int | None, idle_s: float | None
) -> int:
    """Print events from `topics` until `limit` events or `idle_s` seconds without one."""
    from contraflow.streams.runtime.kafka import OutputReader

    seen = 0
    async with OutputReader(settings, topics) as reader:
        while limit is None or seen < limit:
            records = await reader.poll(idle_s if idle_s is not None else 3600.0)
            if not records and idle_s is not None:
                break
            for topic, _key, value in records[: None if limit is None else limit - seen]:
                emit(topic, orjson.loads(value) if value else {})
                seen += 1
    return seen


def _known_topics(topics: list[str], force: bool) -> None:
    """A misspelled topic is refused (unless --force): sending or listening to it would
    succeed silently and do nothing."""
    from contraflow.topics.catalog import ALL_TOPICS

    known = [spec.name for spec in ALL_TOPICS]
    unknown = [topic for topic in topics if topic not in known]
    if unknown and not force:
        raise CLIError(
            f"unknown topic {', '.join(map(repr, unknown))}: contraflow's topics are {', '.join(known)} "
            "(--force to use another)"
        )


def cmd_tail(args: argparse.Namespace) -> int:
    from contraflow.streams.tools.render import render
    from contraflow.topics.catalog import OUTPUT_TOPICS

    _known_topics(args.topics, args.force)
    topics = args.topics or [spec.name for spec in OUTPUT_TOPICS if spec.name != "contraflow.scores" or args.scores]

    def emit(topic: str, event: dict) -> None:
        print(
            orjson.dumps({"topic": topic, "event": event}).decode() if args.json else render(topic, event), flush=True
        )

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(tail_topics(_settings(args), topics, emit, args.limit, args.idle))
    return 0


# -- demo, schemas, nli -------------------------------------------------------------


def cmd_demo(args: argparse.Namespace) -> int:
    from contraflow.streams.tools.demo import run_demo

    return run_demo(_settings(args), timeout_s=args.timeout, show_scores=args.scores, hold=args.hold)


def cmd_replay(args: argparse.Namespace) -> int:
    from contraflow.streams.runtime.services import local_turn_pipeline
    from contraflow.streams.tools.replay import run_replay

    path = Path(args.file)
    if not path.is_file():
        raise CLIError(f"no such file: {path}")
    settings = _settings(args)
    pipeline = local_turn_pipeline(settings)
    try:
        results, report, skipped = run_replay(pipeline, path, Path(args.out), progress=not args.quiet)
    except ValueError as exc:
        raise CLIError(str(exc)) from exc
    for problem in skipped:
        print(f"skipped {problem}", file=sys.stderr)
    print(f"wrote {results} and {report}" + (f" ({len(skipped)} skipped, listed in both)" if skipped else ""))
    return 0


def cmd_conflicts(args: argparse.Namespace) -> int:
    from contraflow.streams.core.knowledge.report import format_report
    from contraflow.streams.core.knowledge.search import knowledge_conflicts
    from contraflow.streams.runtime.services import load_components, open_store, turn_services

    settings = _settings(args)
    components = load_components(settings)
    services = turn_services(components)
    assert services.embed is not None
    store = open_store(settings)
    threshold = getattr(settings, f"sensitivity_{args.sensitivity}")
    report = asyncio.run(
        knowledge_conflicts(
            store,
            args.topic,
            services.score,
            services.embed,
            tenant=args.tenant,
            collections=args.collection or None,
            sensitivity=args.sensitivity,
            threshold=threshold,
            limit=args.limit,
        )
    )
    store.close()
    print(report.model_dump_json(indent=2) if args.json else format_report(report))
    return 0


def cmd_schemas(args: argparse.Namespace) -> int:
    from contraflow.topics.schema import check_schemas, write_schemas

    out = Path(args.out)
    if args.check:
        stale = check_schemas(out)
        if stale:
            raise CLIError(f"schemas out of date: {', '.join(stale)}; run `contraflow schemas`")
        print(f"schemas in {out} are current")
        return 0
    for path in write_schemas(out):
        print(f"wrote {path}")
    return 0


def cmd_nli(args: argparse.Namespace) -> int:
    from contraflow.streams.training import commands

    return commands.run(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="contraflow",
        description="Watch LLM conversations on Kafka and publish contradiction events and drift alerts.",
    )
    parser.add_argument(
        "--debug", action="store_true", help=f"show the traceback of user errors too (or {DEBUG_VARIABLE}=1)"
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("broker", help="run the bundled Tansu broker on loopback (memory only)")
    p.add_argument("--port", type=int, default=9092, help="TCP port on 127.0.0.1 (default 9092; 0 picks a free one)")
    p.set_defaults(func=cmd_broker)

    p = sub.add_parser("worker", help="run a stream-processing worker")
    _add_broker(p)
    p.add_argument("--model", help="NLI model: 'builtin', a local directory, or a cached Hugging Face id")
    p.add_argument("--web-port", type=int, help="port of the worker's web server (default 6066)")
    p.add_argument("--loglevel", default="warning", choices=["debug", "info", "warning", "error"])
    p.set_defaults(func=cmd_worker)

    p = sub.add_parser("send", help="produce a JSONL file, one record per line")
    p.add_argument("file", help="JSONL file (one event per line)")
    _add_broker(p)
    p.add_argument("--topic", default="contraflow.turns", help="topic to send to (default contraflow.turns)")
    p.add_argument("--key-field", default="session_id", help="field whose value is the record key")
    p.add_argument("--force", action="store_true", help="send lines that are not JSON, or to a topic not in catalog")
    p.set_defaults(func=cmd_send)

    p = sub.add_parser("tail", help="print output events as they arrive")
    _add_broker(p)
    p.add_argument("topics", nargs="*", help="topics to follow (default: conflicts, alerts, dead letters)")
    p.add_argument("--scores", action="store_true", help="also follow contraflow.scores")
    p.add_argument("--json", action="store_true", help="one JSON object per line instead of text")
    p.add_argument("--limit", type=int, help="stop after this many events")
    p.add_argument("--idle", type=float, help="stop after this many seconds without an event")
    p.add_argument("--force", action="store_true", help="follow topics that are not in the catalog")
    p.set_defaults(func=cmd_tail)

    p = sub.add_parser("demo", help="start a broker and a worker, send sample conversations, print what comes out")
    p.add_argument("--model", help="NLI model (default: the shipped one)")
    p.add_argument("--timeout", type=float, default=180.0, help="give up after this many seconds")
    p.add_argument("--scores", action="store_true", help="print per-turn scores too")
    p.add_argument("--hold", action="store_true", help="keep broker and worker running afterwards (Ctrl-C stops)")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("replay", help="score recorded conversations offline: results JSON and an HTML report")
    p.add_argument("file", help="Study C JSON (list of cases) or contraflow turn JSONL")
    p.add_argument("--out", default="replay-report", help="output folder (default replay-report)")
    p.add_argument("--model", help="NLI model (default: the configured one)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("conflicts", help="check the stored knowledge about a topic for contradictions")
    p.add_argument("topic", help="the topic or claim to check")
    p.add_argument("--collection", action="append", help="restrict to a collection (repeatable)")
    p.add_argument("--tenant", help="the tenant whose entries to check (default: entries without a tenant)")
    p.add_argument("--sensitivity", choices=["strict", "balanced", "lenient"], default="balanced")
    p.add_argument("--limit", type=int, default=20, help="entries to retrieve and compare (default 20)")
    p.add_argument("--model", help="NLI model (default: the configured one)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=cmd_conflicts)

    p = sub.add_parser("schemas", help="export the JSON Schema and doc page of every topic")
    p.add_argument("--out", default="docs/topics", help="output folder (default docs/topics)")
    p.add_argument("--check", action="store_true", help="only check that the files are current")
    p.set_defaults(func=cmd_schemas)

    p = sub.add_parser("nli", help="train, evaluate, export and calibrate NLI models")
    from contraflow.streams.training.arguments import add_arguments

    add_arguments(p)
    p.set_defaults(func=cmd_nli)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # models come from disk only
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    try:
        if args.command == "worker":
            return args.func(args)
        with _aiokafka_quiet():
            return args.func(args)
    except USER_ERRORS as exc:
        if args.debug or os.environ.get(DEBUG_VARIABLE, "").strip().lower() in {"1", "true", "yes", "on"}:
            raise
        print(f"contraflow {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_USER_ERROR


if __name__ == "__main__":
    sys.exit(main())
