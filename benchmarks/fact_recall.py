"""Does the fact detector read the news that justifies a revision? On the hand-written sessions:
for each marked revision, whether a fact is read in the user turns between its two assistant
turns; for each marked reversal, whether one is read there too (a fact there can excuse it).
Regex only, no model: it runs in seconds.

    python benchmarks/fact_recall.py                 # every set in sessions/ whose marks are not sealed
    python benchmarks/fact_recall.py --set train29   # one set (any --set of trust.py)
    python benchmarks/fact_recall.py --misses        # also print each revision whose fact is not read

A set whose marks are still in data/sealed/ is blind: it is left out unless named with --set.
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict
from pathlib import Path

from trust import DATA, SETS, read_jsonl, session_files

from contraflow.streams.core.extract.facts import user_facts


def sealed(path: Path) -> bool:
    return (DATA / "sealed" / path.name).exists()


def user_texts_between(turns: dict[int, dict], earlier: int, later: int) -> list[str]:
    return [turns[i]["text"] for i in range(earlier + 1, later) if turns.get(i, {}).get("role") == "user"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", choices=sorted(SETS), metavar="SET", help="one set (default: all not sealed)")
    parser.add_argument("--misses", action="store_true", help="print each revision whose fact is not read")
    args = parser.parse_args()
    every = sorted(p for p in (DATA / "sessions").glob("*.jsonl") if not p.name.endswith(".labels.jsonl"))
    files = session_files(args.set) if args.set else [p for p in every if not sealed(p)]

    revisions = read = reversals = with_fact = 0
    missed: Counter[str] = Counter()
    for path in files:
        turns: dict[str, dict[int, dict]] = defaultdict(dict)
        for row in read_jsonl(path):
            turns[row["session_id"]][row["turn_index"]] = row
        for label in read_jsonl(path.with_suffix(".labels.jsonl")):
            session = turns[label["session_id"]]
            if revision := label.get("revision"):
                revisions += 1
                texts = user_texts_between(session, revision["earlier_turn"], revision["later_turn"])
                if any(user_facts(text) for text in texts):
                    read += 1
                else:
                    missed[revision["reason"]] += 1
                    if args.misses:
                        print(f"{label['session_id']} {revision['reason']}: {' // '.join(texts)}")
            if reversal := label.get("reversal"):
                reversals += 1
                texts = user_texts_between(session, reversal["earlier_turn"], reversal["later_turn"])
                with_fact += any(user_facts(text) for text in texts)
    print(f"{len(files)} files")
    print(f"revisions whose fact is read: {read} of {revisions} ({read / max(revisions, 1):.3f})")
    print(f"  not read, by the writer's reason: {dict(missed.most_common())}")
    share = with_fact / max(reversals, 1)
    print(f"reversals with a fact read between their turns: {with_fact} of {reversals} ({share:.3f})")


if __name__ == "__main__":
    main()
