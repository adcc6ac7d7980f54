"""Clinical advice extraction (seed 000/003 `_extract_advice`).

Advice is an instruction or recommendation to the person: an imperative ("Take…",
"Avoid…"), a modal addressed to them ("you should", "you can", "you must not"), a
recommendation ("I recommend", "it's best to", "X is not safe with Y"), a prohibition,
or a dosing instruction ("the usual dose is 2 puffs as needed"). Not advice: a statement
of status or history ("She takes sertraline 50 mg daily", "You mentioned you have been
on it for a year"), empathy, a question.

`extract_advice` gives the advice sentences of a text joined (the seed's whole-advice
unit); `advice_items` splits them into atomic items, one directive each ("Take metformin
with food and avoid alcohol" is two), which is what claim-level comparison scores.
Reasoning blocks are the caller's to strip first (`streams.extract.reasoning`). The words and
patterns advice is recognised with are in `advice_patterns`."""

from __future__ import annotations

import re

from contraflow.streams.core.extract.advice_patterns import (
    AVOID_HEADING,
    CLAUSE_SPLIT,
    CONDITION,
    CONDITION_HEADING,
    COURSE,
    DIRECTIVE,
    DOSE_SUBJECT,
    DOSING,
    IMPERATIVE,
    LEAD_IN,
    LIST_ITEM,
    NAMES_SUBJECT,
    NOT_ADVICE_IMPERATIVE,
    NOUN_SUBJECT,
    OPENING_CONDITION,
    PURPOSE,
    REGIMEN_STATEMENT,
    ROUTINE,
    SECOND_PERSON_REGIMEN,
    SENTENCE_END,
    STATUS,
    SUBJECT,
    TRAILING_CONDITION,
    VERDICT_ON_DOING,
    VERDICT_ON_THING,
)

MIN_CLAUSE_WORDS = 2
MIN_COMPARED_WORDS = 3  # words a sentence needs to be compared (verdict=sentences)


def _parts(text: str) -> list[str]:
    return [part.strip() for part in SENTENCE_END.split(text) if part and part.strip()]


def split_sentences(text: str) -> list[str]:
    """Sentences and list items of a response, stripped, empty ones dropped. The items of a
    list under a line such as "Avoid:" are what it tells to avoid: "Avoid raw or undercooked
    meat"; under a condition such as "See a GP if he:" each item completes it: "See a GP
    if he can't keep any fluids down"."""
    sentences: list[str] = []
    lead = ""
    for line in text.splitlines():
        item = LIST_ITEM.match(line)
        content = line[item.end() :] if item else line
        parts = _parts(content)
        if lead and item and parts:
            sentences += [f"{lead} {parts[0][:1].lower()}{parts[0][1:]}", *parts[1:]]
            continue
        condition = content.strip().rstrip(":").strip() if CONDITION_HEADING.search(line) else ""
        lead = "Avoid" if AVOID_HEADING.search(line) else condition
        sentences += parts
    return sentences


def is_question(sentence: str) -> bool:
    """Whether a sentence asks rather than tells ("Why not just take two tablets?",
    "**Do you need emergency contraception?**"): it states nothing to contradict."""
    return sentence.strip().rstrip("*_").rstrip().endswith("?")


def sentences_worth_comparing(text: str) -> list[str]:
    """The sentences of a response that say enough to compare (verdict=sentences): "Yes."
    or "Good question." do not, nor does a question the assistant asks."""
    return [s for s in split_sentences(text) if len(s.split()) >= MIN_COMPARED_WORDS and not is_question(s)]


def _unconditioned(sentence: str) -> str:
    """The sentence without list marker or leading condition."""
    core = sentence.strip().lstrip("-*\u2022>#0123456789.) ").strip().strip("*_").strip()
    return PURPOSE.sub("", CONDITION.sub("", core, count=1).strip(), count=1)


_ASSENT = re.compile(
    r"^(?:(?:yes|yeah|sure|okay|ok|honestly|then)[\s,—-]+)*(?:go ahead|that's fine|that is fine|that's ok|that's okay|"
    r"that's absolutely fine|you can do that|that should be fine)\b",
    re.IGNORECASE,
)


def is_assent(text: str) -> bool:
    """Whether a claim says yes to what the user asked ("Go ahead", "That's fine") and so is
    about what the user named."""
    return bool(_ASSENT.search(text.strip()))


def is_imperative(text: str) -> bool:
    """Whether a clause opens with an instruction verb addressed to the reader ("keep up
    the running", "don't take it")."""
    return bool(IMPERATIVE.search(text.strip()))


def is_advice(sentence: str) -> bool:
    """Whether a sentence (or clause) recommends, prescribes or forbids an action to the person."""
    stripped = sentence.strip()
    if not stripped or is_question(stripped):
        return False
    if stripped.endswith(":") and len(stripped.split()) <= 2:  # a heading: "Plan:", "Avoid:"
        return False
    whole = _unconditioned(stripped)
    core = LEAD_IN.sub("", whole, count=1)
    if NOT_ADVICE_IMPERATIVE.search(core):
        return False
    # an instruction before a dash is no lead-in: "Take simvastatin in the evening — your body…"
    if any(IMPERATIVE.search(c) and not NOUN_SUBJECT.search(c) for c in {core, whole}):
        return not NOT_ADVICE_IMPERATIVE.search(whole)
    if SECOND_PERSON_REGIMEN.search(core) and DOSING.search(core):
        return True
    if STATUS.search(core):
        return False
    if VERDICT_ON_DOING.search(core):
        return True
    if DIRECTIVE.search(core) or VERDICT_ON_THING.search(core):
        return True
    # told of the medicine, before any dash: "Latanoprost is used once a day — one drop in each eye"
    if COURSE.search(whole) or (REGIMEN_STATEMENT.search(whole) and DOSING.search(whole)):
        return True
    return bool(DOSING.search(core)) and (bool(DOSE_SUBJECT.search(core)) or not NOUN_SUBJECT.search(core))


_DASH = re.compile(r"\s[\u2014\u2013-]\s")


def instruction_part(item: str) -> str:
    """An advice item without the statement a dash adds after the instruction: "keep going
    until you've completed 7 days — stopping early is why cystitis comes back" instructs
    only before the dash."""
    parts = _DASH.split(item, maxsplit=1)
    if len(parts) == 2 and is_advice(parts[0]) and not is_advice(parts[1]):
        return parts[0]
    return item


def extract_advice(text: str) -> str:
    """The advice sentences of a response, in order, joined by spaces; '' when none."""
    return " ".join(_advice_sentences(text))


def _advice_sentences(text: str) -> list[str]:
    kept = []
    for sentence in split_sentences(text):
        if is_advice(sentence) or any(is_advice(clause) for clause in _clauses(sentence)):
            kept.append(sentence)
    return kept


def _parts_with_joins(text: str) -> list[tuple[str, str]]:
    """The parts `CLAUSE_SPLIT` cuts `text` into, each with the separator before it ("and",
    ", and", ";" …)."""
    parts, start, join = [], 0, ""
    for match in CLAUSE_SPLIT.finditer(text):
        parts.append((join, text[start : match.start()]))
        start, join = match.end(), match.group(0)
    parts.append((join, text[start:]))
    return [(" ".join(j.lower().split()), p.strip(" ,")) for j, p in parts if p and p.strip(" ,")]


def _clauses(sentence: str) -> list[str]:
    """The directives of one sentence; a one-word split-off part stays with the one before.
    A leading condition governs every directive after it, so each keeps it: "If you get a
    sore throat, stop the tablets and call us" gives "If you get a sore throat, stop the
    tablets" and "If you get a sore throat, call us". A condition at the end of directives
    joined by a bare "and" governs them all: "Stop exercising and contact your midwife if
    you have bleeding"; a routine before it keeps to itself ("Check your weight every morning and
    call us if you gain two kilograms")."""
    stripped = sentence.strip()
    condition = CONDITION.match(stripped)
    lead = condition.group(0) if condition else ""
    clauses: list[str] = []
    leads: list[str] = []
    joins: list[str] = []
    for join, part in _parts_with_joins(stripped[len(lead) :]):
        if clauses and len(part.split()) < MIN_CLAUSE_WORDS:
            clauses[-1] = f"{clauses[-1]} and {part}"
            continue
        clauses.append(part)
        leads.append(lead)
        joins.append(join)
        opening = OPENING_CONDITION.search(part)
        if opening:  # "…, but if you get flashing lights" governs what follows
            lead = f"{opening.group(1)}, "
    for index in range(len(clauses) - 1, 0, -1):
        trailing = TRAILING_CONDITION.search(clauses[index])
        previous = clauses[index - 1]
        if (
            trailing
            and joins[index] == "and"
            and not TRAILING_CONDITION.search(previous)
            and not ROUTINE.search(previous)
        ):
            clauses[index - 1] = f"{previous.rstrip('.')} {trailing.group(0).strip()}"
    # "Your father should rest and stay away from the gym": the second directive is his too (and
    # "she shouldn't swim and keep the cast dry" does not carry the "not")
    subject = SUBJECT.match(clauses[0]) if clauses else None
    if subject:
        clauses[1:] = [c if NAMES_SUBJECT.match(c) else f"{subject.group(1)} {c}" for c in clauses[1:]]
    return [f"{clause_lead}{clause}" for clause_lead, clause in zip(leads, clauses, strict=True)]


def advice_items(text: str) -> list[str]:
    """Atomic advice items of a response: each advice sentence split where a second
    directive starts; clauses that are not advice themselves (status, empathy) dropped."""
    items: list[str] = []
    for sentence in _advice_sentences(text):
        clauses = _clauses(sentence)
        kept = [clause for clause in clauses if is_advice(clause)]
        items += kept if kept else [sentence]
    return items


def extract_statements(text: str) -> list[str]:
    """Every declarative sentence (not a question): what `compare=statements` checks, for
    general assistants that contradict themselves about facts and persona."""
    return [s for s in split_sentences(text) if not is_question(s)]
