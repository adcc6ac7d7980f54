"""Realistic pairs of clinical advice, for benchmarks (deterministic)."""

from __future__ import annotations

import random

DRUGS = ["ibuprofen", "paracetamol", "metformin", "warfarin", "sertraline", "amoxicillin", "lisinopril", "salbutamol"]
AMOUNTS = ["200 mg", "400 mg", "500 mg", "1 g", "two puffs", "10 mg"]
SCHEDULES = ["once a day", "twice daily", "every 6 hours as needed", "at bedtime", "with meals"]
OPENERS = ["You should", "I recommend that you", "Please", "It is best to", "Make sure you"]
ACTIONS = ["take", "keep taking", "stop taking", "avoid", "reduce your dose of", "switch away from"]
EXTRAS = [
    "",
    " and drink plenty of water",
    " until you see your GP next week",
    " because it may interact with your other medicines",
    " and book a blood test in two weeks to check your kidney function and liver enzymes",
]


def advice(rng: random.Random) -> str:
    return (
        f"{rng.choice(OPENERS)} {rng.choice(ACTIONS)} {rng.choice(DRUGS)} {rng.choice(AMOUNTS)} "
        f"{rng.choice(SCHEDULES)}{rng.choice(EXTRAS)}."
    )


def advice_pairs(n: int, seed: int = 7) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    return [(advice(rng), advice(rng)) for _ in range(n)]
