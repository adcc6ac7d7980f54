"""General NLI rows for a student to keep the shipped model's general answers (learning
without forgetting, student D of session 28 and student E of session 29): every SNLI-like
row of the shared `natural.jsonl.gz` (counterfactually-augmented SNLI and MPE), other
natural rows up to 24,000 in all, and 3,000 synthetic rows, drawn with a fixed seed. The
shipped model then labels them with its probabilities, which `nli train` distils towards:

    python benchmarks/general_replay.py runs/general.jsonl
    contraflow nli unpack builtin runs/shipped-hf
    contraflow nli label runs/general.jsonl --model runs/shipped-hf --out runs/lwf.jsonl --threads 2
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
from collections import Counter
from pathlib import Path

TRAIN = Path(__file__).resolve().parents[2] / "shared" / "data" / "nli" / "train"
CLASSES = {"entailment", "neutral", "contradiction"}
SNLI_LIKE = ("cad_snli/", "mpe/")


def labelled(name: str) -> list[dict]:
    with gzip.open(TRAIN / name, "rt", encoding="utf-8") as rows:
        return [row for row in map(json.loads, rows) if row["label"] in CLASSES]


def general_rows(natural_total: int, synthetic: int, seed: int) -> list[dict]:
    natural = labelled("natural.jsonl.gz")
    snli_like = [row for row in natural if row["source"].startswith(SNLI_LIKE)]
    other = [row for row in natural if not row["source"].startswith(SNLI_LIKE)]
    draw = random.Random(seed)
    rows = snli_like + draw.sample(other, natural_total - len(snli_like))
    rows += draw.sample(labelled("synthetic.jsonl.gz"), synthetic)
    draw.shuffle(rows)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the JSONL file to write")
    parser.add_argument("--natural", type=int, default=24_000, help="natural rows in all, SNLI-like ones first")
    parser.add_argument("--synthetic", type=int, default=3_000, help="synthetic rows")
    parser.add_argument("--seed", type=int, default=28)
    args = parser.parse_args()
    rows = general_rows(args.natural, args.synthetic, args.seed)
    args.out.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    print(f"wrote {len(rows)} rows to {args.out}: {dict(Counter(row['label'] for row in rows))}")


if __name__ == "__main__":
    main()
