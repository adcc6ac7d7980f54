"""`contraflow demo | replay | conflicts | schemas | nli`: the commands that run on their own."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from contraflow.streams.tools.command_support import CLIError, settings_from


def cmd_demo(args: argparse.Namespace) -> int:
    from contraflow.streams.tools.demo import run_demo

    return run_demo(settings_from(args), timeout_s=args.timeout, show_scores=args.scores, hold=args.hold)


def cmd_replay(args: argparse.Namespace) -> int:
    from contraflow.streams.runtime.services import local_turn_pipeline
    from contraflow.streams.tools.replay import run_replay

    path = Path(args.file)
    if not path.is_file():
        raise CLIError(f"no such file: {path}")
    settings = settings_from(args)
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

    settings = settings_from(args)
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
