"""Write a long Study C file (seed 003's replay format) for `contraflow replay`.

Cases are drawn, with a seed, from a handful of clinical profiles and three behaviours:
`steady` (keeps every critical fact and its advice), `forgetting` (stops mentioning the
critical facts one by one, so entity recall decays) and `flip` (now and then reverses an
earlier piece of advice). The default is 50 cases of 20 turns: 1,000 turns.

    python benchmarks/study_c_long.py long_study_c.json [--cases 50] [--turns 20] [--seed 7]
    contraflow replay long_study_c.json --out long-report
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from pydantic import BaseModel


class Profile(BaseModel):
    name: str
    summary: str
    entities: list[str]
    plan: str
    advice: list[str]
    reversals: list[str]  # reversals[i] contradicts advice[i]


PROFILES = [
    Profile(
        name="t2d-ckd",
        summary="61-year-old man with type 2 diabetes and chronic kidney disease stage 3, on metformin; "
        "hypertension treated with lisinopril.",
        entities=["type 2 diabetes", "chronic kidney disease", "metformin", "hypertension", "lisinopril"],
        plan="Adjust metformin for kidney function, control blood pressure with lisinopril, monitor the kidneys.",
        advice=[
            "Take metformin 500 mg twice daily with meals.",
            "Keep taking lisinopril 10 mg once a day.",
            "Check your blood pressure at home every morning.",
            "Book a kidney function blood test in three months.",
        ],
        reversals=[
            "Stop taking metformin straight away.",
            "Stop taking lisinopril.",
            "There is no need to check your blood pressure at home.",
            "You do not need any more kidney blood tests.",
        ],
    ),
    Profile(
        name="af-warfarin",
        summary="72-year-old woman with atrial fibrillation on warfarin, knee osteoarthritis and a past stomach ulcer.",
        entities=["atrial fibrillation", "warfarin", "osteoarthritis", "stomach ulcer"],
        plan="Keep anticoagulation with warfarin, avoid NSAIDs, manage knee pain with paracetamol and physiotherapy.",
        advice=[
            "Do not take ibuprofen while you are on warfarin.",
            "Keep taking warfarin every evening.",
            "Use paracetamol for the knee pain.",
            "Go to your INR check every two weeks.",
        ],
        reversals=[
            "You can take ibuprofen with warfarin for your knee.",
            "Stop taking warfarin for a week.",
            "Avoid paracetamol for the knee pain.",
            "You can skip your INR checks.",
        ],
    ),
    Profile(
        name="asthma",
        summary="19-year-old student with asthma using a salbutamol reliever and a beclometasone preventer; "
        "troubled by a nocturnal cough.",
        entities=["asthma", "salbutamol", "beclometasone", "nocturnal cough"],
        plan="Use the preventer inhaler daily, salbutamol as needed, and review asthma control.",
        advice=[
            "Use your beclometasone preventer inhaler twice daily.",
            "Use salbutamol two puffs as needed for wheeze.",
            "Keep using the preventer every day, even when you feel well.",
            "See your GP if you need salbutamol more than three times a week.",
        ],
        reversals=[
            "Stop using the beclometasone preventer.",
            "Do not use salbutamol when you wheeze.",
            "Only use the preventer on days when you feel unwell.",
            "Using salbutamol every day is nothing to report.",
        ],
    ),
    Profile(
        name="mdd-sertraline",
        summary="34-year-old woman with major depressive disorder and insomnia, taking sertraline 50 mg daily; "
        "penicillin allergy.",
        entities=["major depressive disorder", "sertraline", "penicillin allergy", "insomnia"],
        plan="Continue sertraline, support sleep hygiene for insomnia, monitor mood and review in four weeks.",
        advice=[
            "Keep taking sertraline 50 mg every morning.",
            "Keep a regular bedtime and avoid screens an hour before sleep.",
            "Track your mood every day in a diary.",
            "Avoid caffeine after midday to help your insomnia.",
        ],
        reversals=[
            "Stop taking sertraline now.",
            "Use your phone in bed until you fall asleep.",
            "Stop tracking your mood.",
            "Drink coffee in the evening if you feel tired.",
        ],
    ),
    Profile(
        name="heart-failure",
        summary="68-year-old man with heart failure on furosemide and bisoprolol, with gout and a sulfa allergy.",
        entities=["heart failure", "furosemide", "bisoprolol", "gout", "sulfa allergy"],
        plan="Keep the diuretic and beta blocker, weigh daily, limit salt and fluids, and treat gout flares safely.",
        advice=[
            "Take furosemide 40 mg every morning.",
            "Keep taking bisoprolol 5 mg once a day.",
            "Weigh yourself every morning and call us if you gain two kilograms in three days.",
            "Limit your salt intake.",
        ],
        reversals=[
            "Stop taking furosemide.",
            "Stop taking bisoprolol.",
            "There is no need to weigh yourself.",
            "You can eat as much salt as you like.",
        ],
    ),
    Profile(
        name="pregnancy-anxiety",
        summary="29-year-old pregnant woman with generalized anxiety disorder and migraine, previously on propranolol.",
        entities=["generalized anxiety disorder", "pregnancy", "migraine", "propranolol"],
        plan="Offer psychological therapy for anxiety, review propranolol in pregnancy, and manage migraine safely.",
        advice=[
            "Try a course of cognitive behavioural therapy for your anxiety.",
            "Do not take propranolol without talking to your midwife.",
            "Take paracetamol for migraine attacks.",
            "Practise slow breathing when you feel anxious.",
        ],
        reversals=[
            "Therapy will not help your anxiety, so do not start it.",
            "Take propranolol every day without asking anyone.",
            "Never take paracetamol for migraine attacks.",
            "Breathing exercises are useless for anxiety.",
        ],
    ),
]

OPENINGS = [
    "Thinking about {facts}, here is where things stand.",
    "Given {facts}, this is my advice for today.",
    "With {facts} in mind, let us go through the plan.",
    "Taking into account {facts}, here is what I suggest.",
]
FILLERS = [
    "Let me know how you get on.",
    "Write down any questions for your next appointment.",
    "Call the clinic if anything changes.",
    "",
]


def _facts(entities: list[str]) -> str:
    if not entities:
        return "what you have told me"
    return (
        ", ".join(f"your {e}" for e in entities[:-1]) + (" and " if len(entities) > 1 else "") + f"your {entities[-1]}"
    )


def make_case(index: int, turns: int, rng: random.Random) -> dict:
    profile = rng.choice(PROFILES)
    behaviour = rng.choice(["steady", "forgetting", "flip"])
    remembered = list(profile.entities)
    messages = []
    for turn in range(1, turns + 1):
        if behaviour == "forgetting" and turn > 2 and remembered and rng.random() < 0.35:
            remembered.pop()
        which = (turn - 1) % len(profile.advice)
        advice = profile.advice[which]
        if behaviour == "flip" and turn > 1 and rng.random() < 0.25:
            advice = profile.reversals[which]
        opening = rng.choice(OPENINGS).format(facts=_facts(remembered))
        messages.append({"turn": turn, "message": " ".join(p for p in (opening, advice, rng.choice(FILLERS)) if p)})
    return {
        "id": f"case-{index:03d}-{profile.name}-{behaviour}",
        "patient_summary": profile.summary,
        "critical_entities": profile.entities,
        "target_plan": profile.plan,
        "turns": messages,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", help="JSON file to write")
    parser.add_argument("--cases", type=int, default=50)
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    cases = [make_case(i, args.turns, rng) for i in range(args.cases)]
    Path(args.out).write_text(json.dumps(cases, indent=1))
    print(f"wrote {args.out}: {len(cases)} cases, {sum(len(c['turns']) for c in cases)} turns")


if __name__ == "__main__":
    main()
