"""What an advice item or statement is about: its targets, for the topic gate.

Two kinds, both normalised:
- `targets`: named things — the clinical entities the entity extractor finds (drugs,
  conditions, symptoms, allergies; doses and numbers are left out), and the concepts of a
  small lexicon of everyday activities, substances and body parts, under one name each
  ("wine", "beer", "drinking" → "alcohol"; "jog", "gym" → "exercise"; drug classes name
  their members too: "NSAIDs" → "nsaid", and "ibuprofen" → "ibuprofen" and "nsaid").
- `words`: the item's content words, stemmed (Snowball), without stop words and the
  generic words of advice ("take", "day", "dose", "doctor"): the fallback for items whose
  targets the lexicon and the extractor do not know.

How these decide which items are compared: `streams.verdict.gated`."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import snowballstemmer

from contraflow.streams.core.extract.drug_dictionary import drug_variants, generic_names
from contraflow.streams.core.extract.stop_words import STOP_WORDS

# concept -> the words and phrases that name it (lower case; matched as whole words)
CONCEPTS: dict[str, tuple[str, ...]] = {
    "alcohol": (
        "alcohol",
        "alcoholic",
        "wine",
        "beer",
        "beers",
        "spirits",
        "booze",
        "pint",
        "pints",
        "cocktail",
        "cocktails",
        "liquor",
        "vodka",
        "whisky",
        "whiskey",
        "gin",
        "a drink",
        "champagne",
        "prosecco",
        "cider",
        "rum",
        "lager",
    ),
    "driving": ("drive", "driving", "drove", "car", "behind the wheel", "operate machinery", "heavy machinery"),
    "exercise": (
        "exercise",
        "exercises",
        "exercising",
        "gym",
        "workout",
        "workouts",
        "running",
        "jogging",
        "jog",
        "sport",
        "sports",
        "training",
        "weightlifting",
        "lifting",
        "weights",
        "cycling",
        "physical activity",
        "work out",
        "working out",
        "cardio",
        "hiking",
        "football",
        "spin class",
        "spinning",
        "exercise class",
        "exercise classes",
    ),
    "caffeine": (
        "caffeine",
        "coffee",
        "coffees",
        "espresso",
        "energy drink",
        "energy drinks",
        "cola",
        "caffeinated",
        "tea",
        "cuppa",
    ),
    "smoking": ("smoke", "smoking", "cigarette", "cigarettes", "vape", "vaping", "nicotine", "tobacco"),
    "sleep": ("sleep", "sleeping", "nap", "naps", "napping", "bedtime", "bed"),
    "sun": ("sun", "sunlight", "sunbathing", "tanning", "sunbed", "sunscreen", "sunblock", "uv", "spf"),
    "sex": ("sex", "intercourse", "sexual activity"),
    "flying": ("fly", "flying", "flight", "flights", "plane", "air travel"),
    "swimming": ("swim", "swimming", "pool", "bath", "baths", "bathing", "hot tub", "sauna"),
    "breastfeeding": ("breastfeed", "breastfeeding", "breast-feeding", "nursing", "breast milk", "pumping"),
    "fluids": ("water", "fluids", "fluid", "hydration", "hydrated", "fluid intake"),
    "salt": ("salt", "sodium", "salty"),
    "sugar": ("sugar", "sugary", "sweets", "carbohydrates", "carbs"),
    "food": ("food", "meal", "meals", "eating", "empty stomach", "snack", "breakfast", "dinner", "lunch"),
    "grapefruit": ("grapefruit",),
    "dairy": ("dairy", "milk", "cheese", "yoghurt", "yogurt"),
    "weight": ("weight", "weigh", "weight loss", "lose weight"),
    "screens": ("screen", "screens", "phone", "tablet screen", "tv", "television"),
    "work": ("work", "job", "office", "shift", "shifts"),
    "school": ("school", "nursery", "daycare", "childcare"),
    "stairs": ("stairs", "climbing"),
    "lifting": ("lift", "lifting", "heavy objects", "carrying"),
    "vaccine": ("vaccine", "vaccines", "vaccination", "jab", "jabs", "booster", "immunisation", "immunization"),
    "ice": ("ice", "ice pack", "cold pack", "icing"),
    "heat": ("heat", "heat pack", "hot water bottle", "warm compress"),
    "contact lenses": ("contact lens", "contact lenses", "contacts"),
    "makeup": ("makeup", "make-up", "cosmetics"),
    "pregnancy": ("pregnant", "pregnancy", "trying to conceive", "conceive", "conception"),
    "contraception": ("contraception", "contraceptive", "condom", "condoms", "the pill"),
    # a one-off after unprotected sex, not the regular method
    "emergency contraception": (
        "emergency contraception",
        "emergency contraceptive",
        "morning-after pill",
        "morning after pill",
    ),
    "nsaid": (
        "nsaid",
        "nsaids",
        "anti-inflammatory",
        "anti-inflammatories",
        "antiinflammatory",
        "ibuprofen",
        "naproxen",
        "diclofenac",
        "aspirin",
        "celecoxib",
        "mefenamic acid",
        "advil",
        "nurofen",
        "motrin",
        "aleve",
        "voltaren",
    ),
    "paracetamol": ("paracetamol", "acetaminophen", "tylenol", "panadol", "calpol"),
    "antibiotic": (
        "antibiotic",
        "antibiotics",
        "amoxicillin",
        "penicillin",
        "doxycycline",
        "clarithromycin",
        "azithromycin",
        "cefalexin",
        "cephalexin",
        "nitrofurantoin",
        "trimethoprim",
        "metronidazole",
        "flucloxacillin",
        "co-amoxiclav",
        "augmentin",
        "ciprofloxacin",
    ),
    "anticoagulant": (
        "anticoagulant",
        "anticoagulants",
        "blood thinner",
        "blood thinners",
        "warfarin",
        "apixaban",
        "rivaroxaban",
        "edoxaban",
        "dabigatran",
        "heparin",
        "enoxaparin",
        "coumadin",
        "eliquis",
        "xarelto",
    ),
    "antihistamine": (
        "antihistamine",
        "antihistamines",
        "cetirizine",
        "loratadine",
        "fexofenadine",
        "chlorphenamine",
        "diphenhydramine",
        "benadryl",
    ),
    "opioid": ("opioid", "opioids", "codeine", "tramadol", "morphine", "oxycodone", "co-codamol"),
    "ssri": (
        "ssri",
        "ssris",
        "sertraline",
        "fluoxetine",
        "citalopram",
        "escitalopram",
        "paroxetine",
        "zoloft",
        "prozac",
        "lexapro",
    ),
    "benzodiazepine": (
        "benzodiazepine",
        "benzodiazepines",
        "diazepam",
        "lorazepam",
        "alprazolam",
        "clonazepam",
        "valium",
        "xanax",
    ),
    "statin": ("statin", "statins", "atorvastatin", "simvastatin", "rosuvastatin", "pravastatin", "lipitor"),
    "inhaler": (
        "inhaler",
        "inhalers",
        "puffer",
        "salbutamol",
        "albuterol",
        "ventolin",
        "reliever",
        "preventer",
        "blue inhaler",
        "blue puffer",
        "brown inhaler",
        "brown puffer",
    ),
    "steroid": ("steroid", "steroids", "prednisolone", "prednisone", "hydrocortisone", "corticosteroid"),
    "insulin": ("insulin",),
    "supplements": ("supplement", "supplements", "vitamin", "vitamins", "iron tablets", "herbal", "st john's wort"),
}
BODY_PARTS = (
    "knee",
    "knees",
    "ankle",
    "ankles",
    "neck",
    "shoulder",
    "shoulders",
    "hip",
    "hips",
    "wrist",
    "wrists",
    "elbow",
    "foot",
    "feet",
    "hand",
    "hands",
    "eye",
    "eyes",
    "ear",
    "ears",
    "skin",
    "scalp",
    "mouth",
    "teeth",
    "tooth",
    "gums",
    "throat",
    "nose",
    "chest",
    "stomach",
    "belly",
    "leg",
    "legs",
    "arm",
    "arms",
    "wound",
    "scar",
    "stitches",
    "incision",
    "dressing",
    "bandage",
    "cast",
    "splint",
    "rash",
    "blister",
    "mole",
)
# words that say "the medicine we are talking about" without naming it
# "it's better to use sachets": an "it" that stands for what follows, not for something named before
_EXPLETIVE_IT = re.compile(r"\bit(?:'s| is| would be| will be)\s+(?:\w+\s+){0,2}?(?:to|that)\b")
_REFERENCES = frozenset(
    {
        "it",
        "them",
        "medication",
        "medications",
        "medicine",
        "medicines",
        "tablet",
        "tablets",
        "pill",
        "pills",
        "capsule",
        "capsules",
        "dose",
        "course",
        "prescription",
        "drug",
        "drugs",
    }
)
# doses and amounts the entity extractor reports ("50 mg", "two puffs"): what is said, not what about
_AMOUNT = re.compile(
    r"\d|\b(?:mg|mcg|micrograms?|g|ml|units?|puffs?|tablets?|capsules?|drops?|sachets?|doses?|one|two|three|"
    r"four|half)\b"
)
_GENERIC = frozenset(
    {
        "take",
        "taking",
        "took",
        "use",
        "using",
        "keep",
        "stop",
        "start",
        "avoid",
        "continue",
        "try",
        "make",
        "sure",
        "need",
        "should",
        "must",
        "can",
        "could",
        "may",
        "might",
        "will",
        "would",
        "please",
        "also",
        "just",
        "really",
        "day",
        "days",
        "daily",
        "week",
        "weeks",
        "month",
        "months",
        "time",
        "times",
        "hour",
        "hours",
        "morning",
        "evening",
        "night",
        "tonight",
        "today",
        "tomorrow",
        "mg",
        "ml",
        "dose",
        "doses",
        "amount",
        "doctor",
        "gp",
        "nurse",
        "pharmacist",
        "clinic",
        "appointment",
        "good",
        "fine",
        "okay",
        "ok",
        "best",
        "important",
        "safe",
        "recommend",
        "suggest",
        "advise",
        "go",
        "get",
        "let",
        "know",
        "thing",
        "things",
        "way",
        "bit",
        "lot",
        "well",
        "feel",
        "feeling",
        "better",
        "worse",
        "help",
        "helps",
        "symptoms",
        "symptom",
        "medication",
        "medicine",
        "medicines",
        "medications",
        "tablet",
        "tablets",
        "pill",
        "pills",
        "twice",
        "once",
        "regular",
        "regularly",
        "usual",
        "normal",
        "little",
        "much",
        "plenty",
        "enough",
        "right",
        "now",
        "still",
        "again",
        "back",
        "next",
        "first",
        "new",
        "less",
        "more",
        "yes",
        "no",
        "don't",
        "instead",
        "ahead",
        "completely",
        "entirely",
    }
)
_WORD = re.compile(r"[a-z]+")
_STEMMER = snowballstemmer.stemmer("english")


def _phrase_pattern(phrases: Iterable[str]) -> re.Pattern[str]:
    ordered = sorted(set(phrases), key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(re.escape(p) for p in ordered) + r")\b")


# everyday names of one member: "the blue inhaler" is the reliever
SAME_AS = {
    "blue inhaler": "reliever",
    "blue puffer": "reliever",
    "brown inhaler": "preventer",
    "brown puffer": "preventer",
    "spf": "sunscreen",
}
_CONCEPT_OF: dict[str, list[str]] = {}
for _concept, _phrases in CONCEPTS.items():
    for _phrase in _phrases:
        _CONCEPT_OF.setdefault(_phrase, []).append(_concept)
_CONCEPT_PATTERN = _phrase_pattern(_CONCEPT_OF)
_BODY_PATTERN = _phrase_pattern(BODY_PARTS)


# the concepts above that are medicines (classes and members), as against activities and foods
MEDICINE_CONCEPTS = frozenset(
    {
        "nsaid",
        "paracetamol",
        "antibiotic",
        "anticoagulant",
        "antihistamine",
        "opioid",
        "ssri",
        "benzodiazepine",
        "statin",
        "inhaler",
        "steroid",
        "insulin",
        "supplements",
        "vaccine",
        "contraception",
        "emergency contraception",
    }
)


def medicines(targets: Iterable[str]) -> list[str]:
    """The targets that are medicines: a medicine concept or one of its names, or a name of
    the drug dictionary that names no other concept (the dictionary lists "sunscreen" too)."""
    names = drug_variants()
    return sorted(t for t in targets if _is_medicine(t, names))


# everyday substances: every name of one is the substance ("beer", "pints": alcohol), unlike
# the members of a medicine class or the kinds of an activity (a nap is not a night's sleep)
SUBSTANCE_CONCEPTS = frozenset({"alcohol", "caffeine", "smoking", "fluids", "salt", "sugar", "dairy", "grapefruit"})


def substance_name(target: str) -> bool:
    """Whether a target is another name of an everyday substance ("pints" for alcohol)."""
    concepts = _CONCEPT_OF.get(target)
    return concepts is not None and target not in CONCEPTS and not SUBSTANCE_CONCEPTS.isdisjoint(concepts)


def _is_medicine(target: str, names: frozenset[str]) -> bool:
    if target in MEDICINE_CONCEPTS:
        return True
    concepts = _CONCEPT_OF.get(target)
    return target in names if concepts is None else not MEDICINE_CONCEPTS.isdisjoint(concepts)


@dataclass(frozen=True)
class Topic:
    """What one item is about."""

    targets: frozenset[str]
    words: frozenset[str]
    refers_back: bool  # names its object only by "it", "the medication", …


def _singular(word: str) -> str:
    return word[:-1] if word.endswith("s") and not word.endswith("ss") and len(word) > 3 else word


@lru_cache(maxsize=8192)
def content_words(text: str) -> frozenset[str]:
    """Stemmed content words of `text` (no stop words, no generic advice words)."""
    words = _WORD.findall(text.lower())
    return frozenset(_STEMMER.stemWord(w) for w in words if len(w) > 2 and w not in STOP_WORDS and w not in _GENERIC)


def topic_of(text: str, entities: Iterable[str] = ()) -> Topic:
    """The targets and content words of one item; `entities` are the extractor's for it."""
    targets = targets_of(text, entities)
    tokens = set(_WORD.findall(_EXPLETIVE_IT.sub(" ", text.lower())))
    return Topic(targets, content_words(text), not targets and bool(tokens & _REFERENCES))


def targets_of(text: str, entities: Iterable[str] = ()) -> frozenset[str]:
    """The targets of one item (`topic_of` without the content words, whose stemming costs
    most of the work where only the targets are wanted)."""
    lowered = text.lower()
    targets: set[str] = set()
    for match in _CONCEPT_PATTERN.finditer(lowered):
        phrase = match.group(0)
        targets.update(_CONCEPT_OF[phrase])
        # a member of a class names itself too ("ibuprofen" and "nsaid"), a class only itself
        if phrase not in CONCEPTS:
            targets.add(SAME_AS.get(phrase, phrase))
    targets.update(_singular(m.group(0)) for m in _BODY_PATTERN.finditer(lowered))
    for entity in entities:
        name = " ".join(entity.lower().split())
        if name and not _AMOUNT.search(name) and name not in STOP_WORDS:
            targets.update(_CONCEPT_OF.get(name, [name]))
    # a brand or another spelling names its generic too ("Nurofen": ibuprofen); not a concept's
    # own name, whose dictionary entries are classes ("antibiotic": anti-bacterial agents)
    generics = generic_names()
    return frozenset(targets).union(*(generics.get(t, ()) for t in targets if t not in CONCEPTS))
