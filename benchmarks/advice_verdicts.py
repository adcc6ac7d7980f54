"""How an NLI model judges the clinical advice of the Study C profiles, in both orders:

- reversals: each piece of advice against its reversal (should be contradictions);
- different topics: two different pieces of advice for the same patient (should not be:
  this is what drives K_Conflict up on steady sessions when the model gets it wrong).

    python benchmarks/advice_verdicts.py [MODEL_DIR ...]   (default: the shipped model)

Prints, per model, the share of each set whose argmax is "contradiction".
"""

from __future__ import annotations

import argparse
from itertools import permutations

from study_c_long import PROFILES

from contraflow.streams.core.nli.scorer import load_scorer
from contraflow.streams.settings import BUILTIN_MODEL_DIR
from contraflow.streams.training.evaluate import CONTRADICTION


def advice_sets() -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(advice vs its reversal, advice vs other advice of the same profile), both orders."""
    reversals, other_topics = [], []
    for profile in PROFILES:
        for advice, reversal in zip(profile.advice, profile.reversals, strict=True):
            reversals += [(advice, reversal), (reversal, advice)]
        other_topics += list(permutations(profile.advice, 2))
    return reversals, other_topics


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("models", nargs="*", default=[str(BUILTIN_MODEL_DIR)])
    args = parser.parse_args()
    reversals, other_topics = advice_sets()
    for model in args.models:
        scorer = load_scorer(model)
        caught = (scorer.score(reversals).argmax(axis=1) == CONTRADICTION).mean()
        flagged = (scorer.score(other_topics).argmax(axis=1) == CONTRADICTION).mean()
        print(
            f"{model}: reversals called contradiction {caught:.1%} of {len(reversals)}; "
            f"different-topic advice called contradiction {flagged:.1%} of {len(other_topics)}"
        )


if __name__ == "__main__":
    main()
