"""What the clinical advice pairs (`clinical_pairs.py`) are about: a `Target` (a drug, an
activity or a substance) with the words that name it, the activities and substances
advice is given on, and a drug as a target. How advice on a target is said is in
`clinical_phrasings.py`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Target:
    """Something advice is about: a drug, an activity or a substance."""

    base: str  # verb phrase: "drive", "take ibuprofen"
    gerund: str  # "driving", "taking ibuprofen"
    noun: str  # "driving", "ibuprofen"
    words: frozenset[str]  # the words that name it in every sentence about it
    small: tuple[str, ...] = ()  # a small amount that may be allowed ("a glass of wine")
    encouraged: bool = False  # advice may recommend it
    consumable: bool = False  # "don't have any ..." reads well
    drug: bool = False


def _activity(base: str, gerund: str, words: str, noun: str = "", small: tuple[str, ...] = (), **flags: bool) -> Target:
    return Target(base, gerund, noun or gerund, frozenset(words.split()), small, **flags)


ACTIVITIES: tuple[Target, ...] = (
    _activity("drive", "driving", "drive driving"),
    _activity(
        "drink alcohol",
        "drinking alcohol",
        "alcohol wine beer",
        noun="alcohol",
        small=("a glass of wine", "the odd beer", "a small glass of wine with dinner"),
        consumable=True,
    ),
    _activity(
        "exercise", "exercising", "exercise exercising", noun="exercise", small=("light exercise",), encouraged=True
    ),
    _activity(
        "have caffeine",
        "having caffeine",
        "caffeine coffee",
        noun="caffeine",
        small=("one coffee a day", "a cup of coffee in the morning"),
        consumable=True,
    ),
    _activity("fly", "flying", "fly flying flights"),
    _activity("swim", "swimming", "swim swimming", encouraged=True),
    _activity("lift heavy things", "lifting heavy things", "lift lifting heavy"),
    _activity("go out in the sun", "going out in the sun", "sun", noun="the sun", small=("a little sun",)),
    _activity("nap during the day", "napping during the day", "nap napping naps", noun="daytime naps"),
    _activity("take hot baths", "taking hot baths", "bath baths", noun="hot baths"),
    _activity("drink lots of fluids", "drinking lots of fluids", "fluids", noun="extra fluids", encouraged=True),
    _activity(
        "add salt to your food", "adding salt to your food", "salt salty", noun="salt", small=("a pinch of salt",)
    ),
    _activity(
        "eat sugary foods",
        "eating sugary foods",
        "sugary sugar sweets",
        noun="sugar",
        small=("a little sugar in your tea",),
    ),
    _activity("use screens before bed", "using screens before bed", "screens", noun="screens at bedtime"),
    _activity("go back to work", "going back to work", "work", noun="work", small=("light duties at work",)),
    _activity("go to school", "going to school", "school", noun="school"),
    _activity("smoke", "smoking", "smoke smoking cigarettes", noun="cigarettes", consumable=True),
    _activity("eat grapefruit", "eating grapefruit", "grapefruit", noun="grapefruit", consumable=True),
    _activity("play contact sports", "playing contact sports", "contact sports", noun="contact sports"),
    _activity("get the wound wet", "getting the wound wet", "wound wet"),
    _activity("put weight on the ankle", "putting weight on the ankle", "ankle"),
    _activity("climb stairs", "climbing stairs", "stairs", encouraged=True),
    _activity("travel abroad", "travelling abroad", "travel travelling abroad"),
    _activity("eat dairy", "eating dairy", "dairy milk cheese", noun="dairy", small=("a splash of milk in your tea",)),
    _activity("go to the gym", "going to the gym", "gym", noun="the gym", encouraged=True),
    _activity("cycle", "cycling", "cycle cycling", encouraged=True),
    _activity("walk", "walking", "walk walking walks", encouraged=True, small=("short walks",)),
    _activity("use your inhaler", "using your inhaler", "inhaler", noun="your inhaler", encouraged=True),
    _activity("put the cream on", "putting the cream on", "cream", noun="the cream", encouraged=True),
    _activity("use the eye drops", "using the eye drops", "eye drops", noun="the eye drops", encouraged=True),
    _activity("wear the brace", "wearing the brace", "brace", noun="the brace", encouraged=True),
)


def drug_target(name: str) -> Target:
    return Target(f"take {name}", f"taking {name}", name, frozenset({name}), consumable=True, drug=True)
