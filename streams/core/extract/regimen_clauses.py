"""The parts of a claim `regimen.py` reads its slots from: the claim normalised (lower case,
list marker, answer word and contractions gone, a topic heading turned into "as for …"),
without its reasons and asides, split into the segments that carry the instruction; its
main clause; and the condition the instruction holds under."""

from __future__ import annotations

import re

from contraflow.streams.core.extract.regimen_patterns import (
    CONCESSIVE,
    CONDITIONAL,
    CONTEXT_PHRASE,
    CONTRACTIONS,
    CONTRAST,
    EXPLANATION,
    LIST_MARKER,
    PUNCTUATION,
    SUBJECT_MODAL,
    SUBORDINATE,
)

# a topic named before a colon: "And alcohol: the safest approach is not to drink at all"
_TOPIC_HEADING = re.compile(r"^(?:(?:and|also|now|then)\s+)?([a-z][\w'-]*(?:\s+[\w'-]+){0,2}):\s+(?=\S)")


# "No - carry on taking it", "Yes, take it": the answer to the user's question, not a word of the
# instruction (a leading "no" would turn it around)
_ANSWER = re.compile(r"^(?:yes|no|nope|yeah|yep|sure|okay|ok)\s*[,.!:;\u2014\u2013]+\s*")


def normalise(text: str) -> str:
    # a spaced hyphen is a dash
    lowered = LIST_MARKER.sub("", text.lower().replace("’", "'")).replace(" - ", " \u2014 ")
    lowered = _ANSWER.sub("", lowered.strip())
    for pattern, replacement in CONTRACTIONS:
        lowered = pattern.sub(replacement, lowered)
    return _TOPIC_HEADING.sub(r"as for \1, ", lowered, count=1)


# an aside in brackets: "with a full glass of water (not tea, coffee or juice)"
_ASIDE = re.compile(r"\([^()]*\)")


def _parts(text: str) -> list[str]:
    """The claim up to its reasons, without its asides, split at punctuation."""
    return PUNCTUATION.split(_ASIDE.sub(" ", without_explanation(text)))


def indexed_segments(text: str) -> list[tuple[int, str]]:
    """The parts of a claim that carry its instruction, with their places among `_parts`:
    segments that do not open with a subordinate clause, each cut where one starts, without
    "with …" context."""
    kept: list[tuple[int, str]] = []
    for index, part in enumerate(_parts(text)):
        segment = CONTRAST.sub("", part.strip(), count=1)  # "…, but a short pause is safer": the point
        if segment and SUBORDINATE.match(segment):  # "if you feel ready you can stop": no comma closes it
            main = SUBJECT_MODAL.search(segment)
            segment = segment[main.start() :] if main else ""
        if not segment:
            continue
        cut = SUBORDINATE.search(segment)
        if cut and len(segment[: cut.start()].split()) <= 1:  # "so while you're on it you should stop…"
            main = SUBJECT_MODAL.search(segment, cut.end())
            segment = segment[main.start() :] if main else segment
            cut = SUBORDINATE.search(segment)
        segment = " ".join(CONTEXT_PHRASE.sub(" ", segment[: cut.start()] if cut else segment).split())
        if segment:
            kept.append((index, segment))
    return kept


def _segments(text: str) -> list[str]:
    return [segment for _, segment in indexed_segments(text)]


def condition_of(lowered: str, at: int) -> str | None:
    """The condition the instruction (the part at `at`) holds under: one that comes before it
    or inside it, or the part right after it ("take it, if you need to"); not one in the
    reasons or in a later remark. None when it holds regardless."""
    parts = [CONCESSIVE.sub(" ", part) for part in _parts(lowered)]
    found = [part[match.start() :] for part in parts[: at + 1] if (match := CONDITIONAL.search(part))]
    after = parts[at + 1].strip() if at + 1 < len(parts) else ""
    if CONDITIONAL.match(after):
        found.append(after)
    return " ".join(found) if found else None


def without_explanation(text: str) -> str:
    """The claim up to the reasons it gives ("…, because the combination can cause flushing,
    vomiting…"); a claim that opens with one ("Since the seizures were long ago, …") keeps it."""
    for match in EXPLANATION.finditer(text):
        if text[: match.start()].strip(" ,"):
            return text[: match.start()]
    return text


def main_clause(text: str) -> str:
    """The claim without its subordinate clauses and "with …" context phrases."""
    return " ".join(_segments(text))
