"""Whether two claims' slots (`Regimen`) are about the same target, and the slot on which
they disagree: polarity, amount, frequency, duration, food or time of day, with the
conditions, limits, permissions and planned stages that keep two claims from disagreeing;
and whether one claim already says what another says on a slot (`restates`)."""

from __future__ import annotations

from contraflow.streams.core.extract.regimen_patterns import CIRCUMSTANCES, CLASS_ALIASES, CLASS_NAMES
from contraflow.streams.core.extract.regimen_slots import Regimen
from contraflow.streams.core.extract.regimen_values import EVERY_DAY
from contraflow.streams.core.extract.targets import substance_name


def _specific(targets: frozenset[str]) -> frozenset[str]:
    """The targets that name one drug or thing, not a class ("nsaid") or an everyday
    substance under another of its names ("pints" is alcohol)."""
    return frozenset(
        t
        for t in targets
        if t not in CLASS_ALIASES and not any(t.startswith(name) for name in CLASS_NAMES) and not substance_name(t)
    )


def _spread(times: frozenset[str]) -> frozenset[str]:
    """The parts of the day doses spread over, evening and night as one ("morning and
    evening" and "breakfast and bedtime" are one schedule)."""
    return frozenset("evening" if t == "night" else t for t in times)


def _frequencies_differ(x: float, y: float) -> bool:
    """Doses a day that disagree; "every day" disagrees only with less than once a day."""
    if EVERY_DAY in (x, y):
        other = y if x == EVERY_DAY else x
        return other != EVERY_DAY and other < 1
    return x != y


def same_target(a: Regimen, b: Regimen) -> bool:
    """Both instructions are about the same thing: a shared drug or concept name; when both
    name specific drugs ("ibuprofen", "aspirin"), their shared class ("nsaid") is not enough.
    Pregnancy is the circumstance, not a thing to do: "runny yolks are fine
    in pregnancy" and "steer clear of pâté while you're pregnant" are about two foods."""
    a_targets, b_targets = a.targets - CIRCUMSTANCES, b.targets - CIRCUMSTANCES
    specific_a = frozenset() if a.whole_class else _specific(a_targets)
    specific_b = frozenset() if b.whole_class else _specific(b_targets)
    # "naproxen twice a day" / "no other anti-inflammatories": the others are not the one in hand
    if (a.others and specific_b and not b.others) or (b.others and specific_a and not a.others):
        return False
    if specific_a and specific_b:
        return not specific_a.isdisjoint(specific_b)
    return not a_targets.isdisjoint(b_targets)


def _one_thing(a: Regimen, b: Regimen) -> bool:
    """Both about one specific thing, or both only about the same kind of thing: a class
    they share ("steroid") does not make hydrocortisone and another cream one thing."""
    specific_a, specific_b = _specific(a.targets), _specific(b.targets)
    if specific_a or specific_b:
        return not specific_a.isdisjoint(specific_b)
    return not a.targets.isdisjoint(b.targets)


def comparable(a: Regimen, b: Regimen) -> bool:
    """Whether the slots can decide: both name what they are about."""
    return bool(a.targets) and bool(b.targets)


def actions_meet(a: Regimen, b: Regimen) -> bool:
    """Whether two instructions are about the same action on their thing: both about doing
    it, or both about one other action (checking, booking); a thing not needed at all rules
    out any action on it ("book a kidney blood test" / "you don't need any more kidney blood
    tests")."""
    if a.other_action == b.other_action:
        return True
    needless, acting = (a, b) if a.other_action is None else (b, a)
    return needless.thing_not_needed and needless.other_action is None and acting.other_action != "extra dose"


def _amounts_in(regimen: Regimen, unit: str, daily: bool) -> set[float]:
    """The amounts a claim gives in `unit`; `daily`, also what they come to in a day where it
    says how often: "two 500 mg tablets four times a day" keeps to "no more than 4 g a day"."""
    given = {v for v, u in regimen.amounts if u == unit}
    often = regimen.per_day if daily and regimen.per_day and regimen.per_day > 0 else None
    return given | {v * often for v in given} if often else given


def _cap_moved(a: Regimen, b: Regimen, unit: str) -> bool:
    """Two limits with the same dose and a different ceiling: "2 tablets every 4–6 hours, a
    maximum of 8 in 24 hours" / "up to 2 tablets at a time, no more than 12 in 24 hours"."""
    first, second = sorted(v for v, u in a.amounts if u == unit), sorted(v for v, u in b.amounts if u == unit)
    return len(first) > 1 and len(second) > 1 and first[0] == second[0] and first[-1] != second[-1]


def larger_amount(more: Regimen, less: Regimen) -> bool:
    """Whether `more` gives a larger amount than `less` in a unit both give."""
    units = {u for _, u in more.amounts} & {u for _, u in less.amounts}
    return any(
        max(v for v, u in more.amounts if u == unit) > max(v for v, u in less.amounts if u == unit) for unit in units
    )


def disagreement(a: Regimen, b: Regimen) -> str | None:
    """The slot on which two comparable claims disagree, or None when they agree (or are
    about different things, or one is conditional and the other is not)."""
    # an instruction about another action on the thing (checking, booking, calling) meets only another such
    # one: "check your blood pressure every morning" / "there's no need to check your blood pressure"
    if not same_target(a, b) or not actions_meet(a, b) or a.other_action == "extra dose":
        return None
    if a.step and b.step and a.step != b.step:  # two steps of a schedule: "Day 3: …" / "Days 4–5: …"
        return None
    if a.person and b.person and a.person != b.person:  # "you can keep running" / "he shouldn't be running"
        return None
    if a.conditions and b.conditions and a.conditions.isdisjoint(b.conditions):
        return None  # "once your skin has adjusted, go up to every night" / "if you become pregnant, stop it"
    # a condition that says nothing of its own ("if you haven't already", "if needed") leaves the claim flat
    if (a.conditional and bool(a.conditions)) != (b.conditional and bool(b.conditions)):
        # a permission under a condition lifts a flat prohibition ("don't drive the morning after" /
        # "you can drive the morning after if you feel alert"); a prohibition under a condition only
        # narrows a flat permission ("you can drive" / "don't drive if your sugar is low")
        conditional, plain = (a, b) if a.conditional and a.conditions else (b, a)
        planned = a.resumes or b.resumes or a.changing or b.changing or a.stage or b.stage
        if planned:
            return None
        # "use it every day, even when you feel well" / "only use it on days when you feel unwell": only
        # in that case is not every day
        regular = plain.regardless or plain.per_day is not None
        if conditional.only_when and conditional.polarity > 0 < plain.polarity and regular and _one_thing(a, b):
            return "frequency"
        if conditional.polarity > 0 > plain.polarity and not plain.not_required:
            return "polarity"
        # "stop it while you're vomiting" / "keep taking it even while you've got this bug": the plain claim
        # says the condition changes nothing
        if plain.regardless and conditional.polarity != plain.polarity and not plain.not_required:
            return "polarity"
        # so does more than a flat limit allows ("two tablets, no more than 8 in 24 hours" / "if the pain's
        # bad, three at a time"); a larger dose for a worse case under no stated limit is an action plan
        exceeds = conditional.polarity > 0 and plain.polarity > 0 and plain.limit and larger_amount(conditional, plain)
        return "amount" if exceeds else None
    if a.polarity != b.polarity:
        allowed, negative = (a, b) if a.polarity > 0 else (b, a)
        if negative.not_required and allowed.permission:  # "you don't need to give it" / "you can give it"
            return None
        # a prohibition of a time or a way of taking restricts how, not whether: "take one every day" /
        # "don't take it at bedtime", unless the other claim says that time or way ("take it at bedtime")
        if (negative.times and negative.times.isdisjoint(allowed.times)) or (
            negative.food and negative.food != allowed.food
        ):
            return None
        return None if a.resumes or b.resumes or a.stage or b.stage else "polarity"
    if a.polarity < 0:  # two prohibitions do not disagree on how to take the thing
        return None
    # no most against a most: "limit your salt intake" / "you can eat as much salt as you like"
    if a.unlimited != b.unlimited and (b if a.unlimited else a).limit and _one_thing(a, b):
        return "amount"
    if not (a.changing or b.changing):
        units = {unit for _, unit in a.amounts} & {unit for _, unit in b.amounts}
        if a.limit and b.limit and any(_cap_moved(a, b, unit) for unit in units):
            return "amount"
        limit, dose = (a, b) if a.limit else (b, a)
        # a dose within a limit keeps to it ("no more than 300 mg in 24 hours" / "take 50 mg"); a permission
        # "up to" an amount is an allowance, compared as one ("keep it to 2 units" / "you can have up to 6")
        if limit.limit and not dose.limit and not limit.permission:
            for unit in units:
                cap = max(v for v, u in limit.amounts if u == unit)
                doses = {v for v, u in dose.amounts if u == unit}
                # the dose a limit's own schedule gives: "400 mg three times a day, no more than 1,200 mg" /
                # "800 mg at a time, three times a day"
                own = {v for v, u in limit.amounts if u == unit and v != cap}
                same_schedule = limit.per_day is not None and limit.per_day == dose.per_day
                if max(doses) > cap or (same_schedule and own and own.isdisjoint(doses)):
                    return "amount"
            units = set()
        for unit in units:
            if _amounts_in(a, unit, b.limit).isdisjoint(_amounts_in(b, unit, a.limit)):
                return "amount"
        if a.per_day is not None and b.per_day is not None and _frequencies_differ(a.per_day, b.per_day):
            return "frequency"
        if a.days is not None and b.days is not None and a.days != b.days:
            # a course within a limit keeps to it: "don't use it for more than 7 days" / "use it for 5 days"
            limit, course = (a, b) if a.limit else (b, a)
            if not (limit.limit and not course.limit) or course.days > limit.days:
                return "duration"
    if a.food and b.food and a.food != b.food:
        return "food"
    several = a.one_dose_of_several or b.one_dose_of_several or (a.per_day or 0) > 1 or (b.per_day or 0) > 1
    # evening and bedtime are one part of the day here too ("around 8 pm" / "each evening")
    if a.times and b.times and _spread(a.times).isdisjoint(_spread(b.times)) and not several:
        return "time of day"
    if several and _spread(a.times) != _spread(b.times) and min(len(_spread(a.times)), len(_spread(b.times))) >= 2:
        return "time of day"  # "breakfast and no later than 2pm" / "breakfast and bedtime"
    return None


def restates(m: Regimen, n: Regimen, slot: str, about: frozenset[str]) -> bool:
    """Whether `m` already says what `n` says on `slot` (both state it, with a value in
    common) about one of the targets `about`, without disagreeing on any other: after
    "increase to 20 mg", a later "keep taking your 20 mg" restates it."""
    if not comparable(m, n) or disagreement(m, n) is not None or m.targets.isdisjoint(about):
        return False
    if m.other_action or n.other_action or (m.person and n.person and m.person != n.person):
        return False
    if slot == "polarity":
        return m.polarity == n.polarity
    if slot == "amount":
        return not m.amounts.isdisjoint(n.amounts)
    values = {
        "frequency": (m.per_day, n.per_day),
        "duration": (m.days, n.days),
        "food": (m.food, n.food),
    }
    if slot in values:
        x, y = values[slot]
        return x is not None and x == y
    return slot == "time of day" and bool(m.times & n.times)
