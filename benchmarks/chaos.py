"""Chaos benchmark: SIGKILL the worker N times under a steady stream of turns (and,
optionally, take the broker away), then compare every output with a run without kills.

    python benchmarks/chaos.py [--kills 20] [--sessions 60] [--rate 2] [--outage 60 [--outage-mode pause|empty]]
                               [--model builtin]

Starts its own Tansu brokers and workers (local profile, stride 1) under a temporary
folder; prints lost assistant turns, duplicate ids, sessions whose final state differs
from the reference, kill -> first output times and, with --outage, what /readyz answered
while the broker was away. Exits 1 when anything was lost or differs.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
from pathlib import Path

from contraflow.streams.tools.chaos import ChaosConfig, run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kills", type=int, default=20, help="SIGKILLs of the worker")
    parser.add_argument("--sessions", type=int, default=60, help="sessions the turns are spread over")
    parser.add_argument("--rate", type=float, default=2.0, help="turns per second (user and assistant alternate)")
    parser.add_argument("--outage", type=float, default=0.0, help="seconds of broker outage after the kills (0: none)")
    parser.add_argument(
        "--outage-mode",
        choices=("pause", "empty"),
        default="pause",
        help="pause: the broker freezes and comes back with its data; empty: a new, empty broker replaces it",
    )
    parser.add_argument("--model", default="builtin")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    # the harness's own clients see the outage it causes; their connection errors are expected
    # (the worker's log, under the temporary folder, keeps its own at WARNING and above)
    logging.getLogger("aiokafka").setLevel(logging.CRITICAL)
    with tempfile.TemporaryDirectory() as tmp:
        config = ChaosConfig(
            kills=args.kills,
            sessions=args.sessions,
            rate=args.rate,
            outage_s=args.outage,
            outage=args.outage_mode,
            model=args.model,
            seed=args.seed,
            workdir=Path(tmp),
        )
        report = asyncio.run(run(config))
    print("\n".join(report.lines()))
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
