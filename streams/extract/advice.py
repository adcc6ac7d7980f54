"""Clinical advice extraction (seed 000/003 `_extract_advice`): the sentences of a
response that carry an action or recommendation, joined; '' when there are none."""

from __future__ import annotations

import re

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+\s*(?:[-*\u2022]|\d+[.)])?\s*")

_RECOMMENDATION = re.compile(
    r"\b(?:you\s+(?:should|must|need\s+to|have\s+to|ought\s+to|can\s+(?:try|take|use))|"
    r"(?:i|we)\s+(?:would\s+|'d\s+)?(?:recommend|suggest|advise|prescribe)|"
    r"(?:i|we)'d\s+(?:recommend|suggest|advise)|"
    r"it(?:'s|\s+is)\s+(?:important|best|advisable|recommended|safe|fine|okay|ok|essential|necessary|crucial)\s+to|"
    r"(?:is|are)\s+(?:recommended|advised|contraindicated|not\s+recommended)|"
    r"make\s+sure|be\s+sure\s+to|try\s+to|please|don't|do\s+not|never|avoid|refrain\s+from|"
    r"(?:should|must)\s+(?:not\s+)?(?:take|avoid|stop|start|continue|use)|"
    r"safe\s+to|recommended\s+dose)\b",
    re.IGNORECASE,
)

_IMPERATIVE_VERBS = (
    "take|avoid|stop|start|continue|discontinue|increase|reduce|decrease|lower|raise|use|apply|"
    "drink|eat|rest|schedule|see|call|contact|seek|go|keep|monitor|check|limit|get|try|consider|"
    "switch|begin|resume|skip|wait|book|follow|practice|practise|exercise|walk|sleep|cut|add|"
    "replace|restart|hold|pause|taper|double|halve|inject|inhale|swallow|ice|elevate|measure|"
    "record|track|visit|talk|ask|tell|remember|keep|quit|maintain|wear|wash"
)
_IMPERATIVE = re.compile(
    rf"^(?:(?:please|also|then|so|and|now|instead|first|next|finally)[\s,]+)*(?:{_IMPERATIVE_VERBS})\b", re.IGNORECASE
)

_DOSING = re.compile(
    r"\b\d+(?:\.\d+)?\s?(?:mg|mcg|µg|g|ml|mL|units?|iu|IU|tablets?|capsules?|puffs?|drops?)\b|"
    r"\b(?:once|twice|three\s+times|four\s+times)\s+(?:a|per)\s+(?:day|week)\b|"
    r"\b(?:daily|every\s+\d+\s+hours|as\s+needed|at\s+bedtime)\b",
    re.IGNORECASE,
)


# "Sleep problems are common": a verb-like first word used as a noun subject.
_NOUN_SUBJECT = re.compile(r"^\w+\s+(?:\w+\s+)?(?:is|are|was|were|can|could|may|might|has|have|had)\b", re.IGNORECASE)


def split_sentences(text: str) -> list[str]:
    """Sentences and list items of a response, stripped, empty ones dropped."""
    return [part.strip() for part in _SENTENCE_END.split(text) if part and part.strip()]


def is_advice(sentence: str) -> bool:
    """Whether a sentence recommends, prescribes or forbids an action."""
    core = sentence.strip().lstrip("-*\u2022 ").strip()
    imperative = bool(_IMPERATIVE.search(core)) and not _NOUN_SUBJECT.search(core)
    return bool(imperative or _RECOMMENDATION.search(core) or _DOSING.search(core))


def extract_advice(text: str) -> str:
    """The advice sentences of a response, in order, joined by spaces; '' when none."""
    return " ".join(sentence for sentence in split_sentences(text) if is_advice(sentence))


def extract_statements(text: str) -> str:
    """Every declarative sentence (not a question), joined: what `compare=statements` checks,
    for general assistants that contradict themselves about facts and persona."""
    return " ".join(s for s in split_sentences(text) if not s.rstrip().endswith("?"))
