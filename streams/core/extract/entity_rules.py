"""Token patterns for the rules mode of `streams.extract.entities`: clinical abbreviations,
allergies, doses and disease-like words by suffix (the curated phrases are in
`entity_phrases`)."""

from __future__ import annotations

from typing import Any

# Clinical abbreviations found even when the text does not define them. Matched case-sensitively as
# written here, so "PE" and "MS" match but "pe" and "Ms" do not; entities are the lower-cased form.
ABBREVIATIONS: tuple[str, ...] = (
    "PTSD",
    "C-PTSD",
    "CPTSD",
    "ADHD",
    "OCD",
    "GAD",
    "MDD",
    "BPD",
    "ASD",
    "COPD",
    "CKD",
    "AKI",
    "T1DM",
    "T2DM",
    "DM",
    "HTN",
    "CAD",
    "CHF",
    "AF",
    "AFib",
    "MI",
    "TIA",
    "DVT",
    "PE",
    "UTI",
    "IBS",
    "IBD",
    "GERD",
    "GORD",
    "PCOS",
    "MS",
    "RA",
    "HIV",
    "OSA",
    "TB",
    "SSRI",
    "SSRIs",
    "SNRI",
    "SNRIs",
    "NSAID",
    "NSAIDs",
    "MAOI",
    "CBT",
    "DBT",
    "EMDR",
)

# Allergy patterns: "allergic to X", "allergy to X", "X allergy". The allergen is one token.
_ALLERGY_WORDS = ["allergy", "allergies", "allergic"]
_NOT_ALLERGENS = [
    "severe",
    "known",
    "mild",
    "serious",
    "drug",
    "food",
    "seasonal",
    "skin",
    "an",
    "any",
    "no",
    "other",
    "multiple",
]
_ALLERGEN: dict[str, Any] = {"IS_ALPHA": True, "IS_STOP": False, "LOWER": {"NOT_IN": _NOT_ALLERGENS}}

ALLERGY_PATTERNS: list[list[dict[str, Any]]] = [
    [{"LOWER": {"IN": _ALLERGY_WORDS}}, {"LOWER": "to"}, _ALLERGEN],
    [_ALLERGEN, {"LOWER": {"IN": ["allergy", "allergies"]}}],
]

DOSE_UNITS: tuple[str, ...] = (
    "mg",
    "mcg",
    "µg",
    "ug",
    "g",
    "ml",
    "iu",
    "unit",
    "units",
    "mmol",
    "meq",
    "tablet",
    "tablets",
    "capsule",
    "capsules",
    "puff",
    "puffs",
    "drop",
    "drops",
    "milligrams",
    "micrograms",
)

# A dose is a number followed by a unit: "50 mg", "50mg", "0.5 ml", "2 puffs" (the tokenizer keeps
# some of the unspaced forms, "0.5mcg" and "500ml", as one token).
DOSAGE_PATTERNS: list[list[dict[str, Any]]] = [
    [{"LIKE_NUM": True}, {"LOWER": {"IN": list(DOSE_UNITS)}}],
    [{"LOWER": {"REGEX": r"^\d+(?:\.\d+)?(?:mg|mcg|µg|ug|g|ml|iu|units?)$"}}],
]

# Disease-like single words by suffix ("arthritis", "neuropathy", "fibromyalgia", "leukaemia").
CONDITION_SUFFIX_PATTERNS: list[list[dict[str, Any]]] = [
    [
        {
            "LOWER": {
                "REGEX": r"^[a-z]{3,}(?:itis|osis|aemia|emia|pathy|algia)$",
                "NOT_IN": [
                    "diagnosis",
                    "prognosis",
                    "hypnosis",
                    "osmosis",
                    "academia",
                    "empathy",
                    "sympathy",
                    "apathy",
                    "nostalgia",
                ],
            }
        }
    ],
]
