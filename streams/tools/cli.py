"""`contraflow`: the command line. Every subcommand reads Settings (CONTRAFLOW_*), and
its flags override them. Errors a user can fix end as one line on stderr, exit 2."""

from __future__ import annotations

import argparse
import os
import sys

from contraflow.streams.errors import UserError
from contraflow.streams.tools.command_support import add_broker_option, aiokafka_quiet
from contraflow.streams.tools.offline_commands import cmd_conflicts, cmd_demo, cmd_nli, cmd_replay, cmd_schemas
from contraflow.streams.tools.service_commands import cmd_broker, cmd_send, cmd_tail, cmd_worker

EXIT_USER_ERROR = 2
DEBUG_VARIABLE = "CONTRAFLOW_DEBUG"
# what the user can fix is one line (exit 2): contraflow's own user errors and a path that is
# missing, a folder or not readable; any other exception is a bug and shows its traceback
USER_ERRORS = (UserError, FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError)


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
    add_broker_option(p)
    p.add_argument("--model", help="NLI model: 'builtin', a local directory, or a cached Hugging Face id")
    p.add_argument("--web-port", type=int, help="port of the worker's web server (default 6066)")
    p.add_argument("--loglevel", default="warning", choices=["debug", "info", "warning", "error"])
    p.set_defaults(func=cmd_worker)

    p = sub.add_parser("send", help="produce a JSONL file, one record per line")
    p.add_argument("file", help="JSONL file (one event per line)")
    add_broker_option(p)
    p.add_argument("--topic", default="contraflow.turns", help="topic to send to (default contraflow.turns)")
    p.add_argument("--key-field", default="session_id", help="field whose value is the record key")
    p.add_argument("--force", action="store_true", help="send lines that are not JSON, or to a topic not in catalog")
    p.set_defaults(func=cmd_send)

    p = sub.add_parser("tail", help="print output events as they arrive")
    add_broker_option(p)
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
        with aiokafka_quiet():
            return args.func(args)
    except USER_ERRORS as exc:
        if args.debug or os.environ.get(DEBUG_VARIABLE, "").strip().lower() in {"1", "true", "yes", "on"}:
            raise
        print(f"contraflow {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_USER_ERROR


if __name__ == "__main__":
    sys.exit(main())
