"""What the claims of an assistant turn are about: the turn's advice (or, with
compare=statements, its statements) split into atomic claims, each with its targets and
content words; "it", "the tablets" or a bare schedule take what the conversation last named.
Plain functions and one reader class; the turn pipeline (turns.py) holds one reader."""

from __future__ import annotations

from collections.abc import Sequence

from contraflow.models.state import AdviceClaim, SessionState
from contraflow.streams.core.calls import ExtractFn
from contraflow.streams.core.extract.advice import (
    advice_items,
    extract_advice,
    extract_statements,
    instruction_part,
    is_assent,
    sentences_worth_comparing,
    split_sentences,
)
from contraflow.streams.core.extract.advice_patterns import CONDITION
from contraflow.streams.core.extract.content_words import content_words
from contraflow.streams.core.extract.regimen import (
    dose_marks,
    main_clause,
    states_schedule,
    takes_medicine,
    without_slots,
)
from contraflow.streams.core.extract.regimen_slots import RATHER
from contraflow.streams.core.extract.targets import medicines, targets_of, topic_of


def claim_topic(
    item: str, entities: Sequence[str], context: list[str], medicines_before: list[str]
) -> tuple[list[str], list[str], bool]:
    """An advice item's targets, its content words, and whether the targets are inherited:
    a claim whose instruction names nothing but "it", "the tablets" or a schedule ("take
    1600 mg tonight", "take them first thing in the morning") is about what was named
    before (`context`); a dose or a tablet is a medicine's, though the user last named a
    symptom. Its reasons and condition do not name what it is about: "take 400 mg three
    times a day, as soon as the bleeding starts"."""
    lowered = instruction_part(item).lower()
    named = [e for e in entities if e in lowered]
    found = topic_of(without_slots(lowered), named)  # "take it with your evening meal" is about "it"
    main = main_clause(without_slots(lowered))
    instruction = topic_of(main, [e for e in named if e in main])
    # what the instruction turns away from ("rather than stopping") and the case it holds in ("if she's
    # feeding, …") are no words it shares
    words = sorted(content_words(without_slots(RATHER.sub(" ", CONDITION.sub("", lowered, count=1)))))
    if instruction.targets:
        return sorted(found.targets), words, False
    if is_assent(item):  # "Go ahead": yes to what the user asked about
        return context, words, True
    if instruction.refers_back or found.refers_back or states_schedule(item):
        return (medicines(context) or medicines_before or context) if takes_medicine(item) else context, words, True
    return sorted(found.targets or targets_of(lowered, named)), words, False


def dose_owner(state: SessionState, item: str) -> list[str] | None:
    """The medicines of the latest earlier advice given the way this claim speaks of a dose
    (unit, form or times a day; `dose_marks`): after "two 500 mg paracetamol tablets" and a
    question about antibiotics, "you can take three 500 mg tablets" is about the paracetamol.
    None when the claim speaks of no dose."""
    marks = dose_marks(item)
    if not marks:
        return None
    for advice in reversed(state.advice_history):
        for claim in reversed(advice.claims):
            named = medicines(claim.targets)
            if named and marks & dose_marks(claim.text):
                return named
    return None


class ClaimReader:
    """Reads a turn's claims as the verdict rule needs them: none for the seed's rule,
    every sentence worth comparing for verdict=sentences, else advice items with topics."""

    def __init__(
        self,
        extract_entities: ExtractFn | None,
        *,
        statements: bool = False,
        sentences: bool = False,
        medicine_gate: bool = False,
        seed: bool = False,
    ) -> None:
        self.extract_entities = extract_entities
        self.statements, self.sentences, self.seed = statements, sentences, seed
        self.medicine_gate = medicine_gate  # sentences: read the medicines each names (one extractor call a turn)

    async def entities(self, text: str) -> list[str]:
        return await self.extract_entities(text) if self.extract_entities and text else []

    def unit_text(self, text: str) -> str:
        """What a turn advises (every rule: K_Conflict's evaluated pairs are those whose two
        turns both carry advice, as seed 000 counts them)."""
        return " ".join(extract_statements(text)) if self.statements else extract_advice(text)

    async def claims(self, state: SessionState, text: str) -> list[AdviceClaim]:
        """The atomic claims of a turn with their topics; a claim that names its object only
        as "it" or "the medication" takes the targets of the claim before it, or of the
        user's last turn, or the medicines last named in the conversation."""
        if self.seed:
            return []
        if self.sentences and not self.medicine_gate:
            return [AdviceClaim(text=sentence) for sentence in sentences_worth_comparing(text)]
        if self.sentences:
            return await self.sentence_claims(text)
        by_sentence = self.items_by_sentence(text)
        entities = await self.entities(text) if any(items for _, items in by_sentence) else []
        named_entities = {" ".join(e.lower().split()) for e in entities}
        # "it" is what the user just asked about or, when they named nothing ("How long until
        # it works?"), the medicine the conversation was last about
        claims, context = [], list(state.focus or state.medicines)
        default = not medicines(state.focus)  # the user named no medicine: "Two tablets doesn't sound like much"
        for sentence, sentence_items in by_sentence:
            if not sentence_items:  # "Weight gain is common with mirtazapine." names what "your tablet" is next
                mentioned = targets_of(sentence, [e for e in entities if e in sentence.lower()])
                default = default and not (mentioned & named_entities)
                context = sorted(mentioned) if mentioned & named_entities else context
            for item in sentence_items:
                owner = dose_owner(state, item) if default else None
                before = owner or state.medicines
                targets, words, inherited = claim_topic(item, entities, owner or context, before)
                default = default and inherited
                context = context if inherited else targets or context
                claims.append(AdviceClaim(text=item, targets=targets, words=words, condition=state.asked_case))
        state.medicines = medicines(targets_of(text, entities)) or state.medicines
        return claims

    async def sentence_claims(self, text: str) -> list[AdviceClaim]:
        """Every sentence worth comparing, each with the medicines it names (for the sentence
        rule's medicine gate)."""
        sentences = sentences_worth_comparing(text)
        entities = [" ".join(e.lower().split()) for e in await self.entities(text)] if sentences else []
        return [
            AdviceClaim(
                text=sentence,
                targets=medicines(targets_of(sentence, [e for e in entities if e in sentence.lower()])),
            )
            for sentence in sentences
        ]

    def items_by_sentence(self, text: str) -> list[tuple[str, list[str]]]:
        """The turn's sentences in order, each with its advice items (statements mode: one
        sentence, all of them)."""
        if self.statements:
            return [(text, extract_statements(text))]
        return [(sentence, advice_items(sentence)) for sentence in split_sentences(text)]
