"""How contraflow decides that a new claim contradicts an earlier one (plain Python, no faust).

Four rules, chosen by the `verdict` setting (`streams.settings`; ``sentences`` is the
service's default):

- ``regimen``: the ``claims`` rule, except that a gated pair of claims whose
  main clauses both name what they are about is decided by the instruction's slots
  (`streams.extract.regimen`): it contradicts when they are about the same target and
  disagree on polarity, amount, frequency, time of day or food, and does not otherwise,
  whatever the NLI model says. Only the other pairs fall back to the threshold.
- ``claims``: each side is a list of atomic claims with their topics. A new
  claim is compared only with earlier claims about the same thing (a shared target or
  content word, `streams.extract.targets.same_topic`, or embedding cosine at or above
  `topic_similarity`); each gated pair is scored in both directions and the two
  p(contradiction) are averaged, as seed 002's NCP does; the pair contradicts when that
  mean is at or above `contradiction_threshold`.
- ``sentences``: no advice extraction, no topic gate and no slots: every sentence of the
  new turn is scored against the `neighbours` earlier sentences of the compared turns
  nearest to it by embedding cosine, those under `min_similarity` left out (all of them
  without an embedder), earlier → new
  first and the reverse only where the mean can still reach the threshold, and
  contradicts when the two-way mean reaches it. Built for the model
  fine-tuned on hand-marked sessions (docs/verdicts.md), which learned which sentence
  pairs of a conversation change the advice.
- ``seed``: seed 000 as written: the whole advice of one turn against the whole advice of
  the other, one direction (earlier → later), contradiction when it is the argmax.

`plan_pairs` says which pairs to score (`plan_reverse` the second round of ``sentences``);
`judge` reads the scores back and gives, per earlier turn, the strongest pair and whether it
contradicts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from contraflow.models.events import NLIProbabilities
from contraflow.models.state import AdviceClaim, AdviceItem
from contraflow.streams.core.extract.content_words import content_words
from contraflow.streams.core.extract.regimen import Regimen, compare, detail_kinds, plans_change, regimen_of
from contraflow.streams.core.extract.regimen_disagreement import restates, same_target
from contraflow.streams.core.extract.targets import targets_of
from contraflow.streams.core.nli.scorer import CONTRADICTION  # column of p(contradiction) in a scorer row
from contraflow.streams.settings import default

Similarity = Callable[[str, str], float]


@dataclass(frozen=True)
class VerdictRule:
    """The settings of one verdict rule (turns.py fills them from the service's settings)."""

    verdict: str  # CONTRAFLOW_VERDICT
    threshold: float  # sentence_threshold for the sentence rule, else contradiction_threshold
    topic_similarity: float  # claims: cosine at which claims naming no target are compared
    neighbours: int = default("sentence_neighbours")  # sentences: earlier sentences each new one is scored against
    min_similarity: float = default("sentence_min_similarity")  # sentences: less similar ones are not scored
    medicine_gate: bool = default("sentence_medicine_gate")  # sentences: no pair naming medicines that share none
    # sentences: more earlier sentences that give the new one's kind of regimen detail
    detail_neighbours: int = default("sentence_detail_neighbours")

    @property
    def seed(self) -> bool:
        return self.verdict == "seed"

    @property
    def sentences(self) -> bool:
        return self.verdict == "sentences"

    @property
    def regimen(self) -> bool:
        return self.verdict == "regimen"


@dataclass(frozen=True)
class PlannedPair:
    """One (earlier claim, new claim) pair to score; rows index the scorer's batch."""

    earlier: AdviceItem
    earlier_claim: str
    new_claim: str
    row_ab: int
    row_ba: int | None
    decided: bool = False  # the regimen slots decide this pair, not the threshold
    slot: str | None = None  # the slot the two claims disagree on (when decided)


@dataclass(frozen=True)
class TurnVerdict:
    """The judgment of the new turn against one earlier turn."""

    earlier: AdviceItem
    earlier_claim: str
    new_claim: str
    nli_ab: NLIProbabilities
    nli_ba: NLIProbabilities | None
    score: float  # the two-way mean, or the one-way p(contradiction) (seed; sentences when one way cannot reach it)
    contradicts: bool
    pairs: int  # gated claim pairs scored against this turn
    slot: str | None = None  # regimen rule: the slot the claims disagree on


def probabilities(row: np.ndarray) -> NLIProbabilities:
    """One (entailment, neutral, contradiction) row as an event field."""
    return NLIProbabilities(entailment=float(row[0]), neutral=float(row[1]), contradiction=float(row[2]))


def needs_similarity(claim: AdviceClaim) -> bool:
    """Claims without a named target can only be gated by content words or embeddings."""
    return not claim.targets


def claim_of(text: str) -> AdviceClaim:
    """A claim and its topic from the text alone (no entity extractor): knowledge entries."""
    return AdviceClaim(text=text, targets=sorted(targets_of(text)), words=sorted(content_words(text)))


def two_way(nli_ab: NLIProbabilities, nli_ba: NLIProbabilities) -> float:
    """Seed 002's bidirectional contradiction score: the mean of both directions."""
    return (nli_ab.contradiction + nli_ba.contradiction) / 2


def gated(earlier: AdviceClaim, new: AdviceClaim, min_similarity: float, similarity: Similarity | None = None) -> bool:
    """Whether two claims are about the same thing and so worth scoring: when both name
    targets, a shared target decides ("stop the ibuprofen" and "keep taking the
    paracetamol" are about different things); otherwise a shared content word, or an
    embedding cosine at or above `topic_similarity`."""
    if earlier.targets and new.targets:
        return not set(earlier.targets).isdisjoint(new.targets)
    if not set(earlier.words).isdisjoint(new.words):
        return True
    return similarity is not None and min_similarity < 1.0 and similarity(earlier.text, new.text) >= min_similarity


def slot_decision(earlier: AdviceClaim, new: AdviceClaim) -> tuple[bool, str | None]:
    """(decided, slot): whether the regimen slots decide the pair, and the slot the two
    claims disagree on (None: they agree, or are about different things)."""
    return compare(_conditioned(earlier), frozenset(earlier.targets), _conditioned(new), frozenset(new.targets))


def _conditioned(claim: AdviceClaim) -> str:
    """The claim with the case the user asked about, which it answers: "stop the metformin
    for now", asked "what should I do if I get a stomach bug?", holds only then."""
    return f"{claim.condition}, {claim.text}" if claim.condition else claim.text


def _regimen(claim: AdviceClaim) -> Regimen:
    return regimen_of(_conditioned(claim), frozenset(claim.targets))


def superseded(
    earlier_turns: Sequence[AdviceItem], earlier: AdviceItem, index: int, new: AdviceClaim, slot: str
) -> bool:
    """Whether advice given after claim `index` of `earlier` already said what `new` says on
    `slot` about the target the two share: then the change happened there, and was judged
    there. A later turn's claim counts; so does a planned change of dose, frequency, timing
    or duration later in the same turn ("take 10 mg…; after two weeks the dose is usually
    increased to 20 mg" against a later "keep taking your 20 mg")."""
    target = _regimen(new)
    about = _regimen(earlier.claims[index]).targets & target.targets
    later = [c for turn in earlier_turns if turn.turn_index > earlier.turn_index for c in turn.claims]
    # a planned titration says what comes next; a yes/no stage ("don't drive for a week; after that…")
    # says when, which a later permission may not have reached
    planned = [c for c in earlier.claims[index + 1 :] if slot != "polarity" and plans_change(c.text)]
    # a step of a schedule gives way to the schedule's later step ("Day 2: twice a day" / "Day 3
    # onwards: three times a day"), whatever the later advice says of it
    later_steps = (r for c in earlier.claims[index + 1 :] if (r := _regimen(c)).stage)
    if _regimen(earlier.claims[index]).stage and any(not r.targets.isdisjoint(about) for r in later_steps):
        return True
    return any(restates(_regimen(c), target, slot, about) for c in (*planned, *later))


def one_dose_of_a_schedule(claims: Sequence[AdviceClaim], index: int) -> bool:
    """Whether another claim of the same turn times the same thing differently: then each is
    one dose of a day's schedule ("With breakfast: metformin 1 g" / "With your evening meal:
    metformin 1 g"), and neither alone says when the thing is taken."""
    own = _regimen(claims[index])
    return bool(own.times) and any(
        i != index and (other := _regimen(c)).times and other.times.isdisjoint(own.times) and same_target(own, other)
        for i, c in enumerate(claims)
    )


def other_medicines(earlier: AdviceClaim, new: AdviceClaim) -> bool:
    """Whether two sentences both name medicines and share none ("Take metformin 500 mg twice
    daily" / "Keep taking lisinopril 10 mg once a day"): advice on different drugs, which the
    sentence rule does not judge against each other. A class and its member share the class
    ("avoid NSAIDs" / "ibuprofen is fine")."""
    return bool(earlier.targets) and bool(new.targets) and set(earlier.targets).isdisjoint(new.targets)


def nearest(
    earlier_turns: Sequence[AdviceItem], new: AdviceClaim, rule: VerdictRule, similarity: Similarity | None
) -> list[tuple[AdviceItem, str]]:
    """The earlier sentences a new sentence is scored against: the `rule.neighbours` most
    similar to it over all compared turns whose cosine reaches `rule.min_similarity` (all of
    them when there is no embedder; every one over the floor when neighbours=0), leaving out
    those about other medicines when `rule.medicine_gate` is on; then the
    `rule.detail_neighbours` most similar of the others that give the same kind of regimen
    detail as the new sentence (`detail_kinds`: "the standard course is 3 days" for "keep
    taking it for the full 7 days", which other sentences about the infection outrank)."""
    candidates = [
        (turn, claim.text)
        for turn in earlier_turns
        for claim in turn.claims
        if not (rule.medicine_gate and other_medicines(claim, new))
    ]
    if similarity is None:
        return candidates
    scored = [(similarity(text, new.text), (turn, text)) for turn, text in candidates]
    floor = rule.min_similarity if rule.min_similarity > 0 else -np.inf  # 0: no floor
    kept = sorted((item for item in scored if item[0] >= floor), key=lambda item: -item[0])
    chosen, others = kept[: rule.neighbours or None], kept[rule.neighbours or len(kept) :]
    details = detail_kinds(new.text) if rule.detail_neighbours and others else frozenset()
    if details:
        alike = [item for item in others if details & detail_kinds(item[1][1])]
        chosen = chosen + alike[: rule.detail_neighbours]
    return [candidate for _, candidate in chosen]


def plan_pairs(
    earlier_turns: Sequence[AdviceItem],
    new: AdviceItem,
    rule: VerdictRule,
    add: Callable[[str, str], int],
    similarity: Similarity | None = None,
) -> list[PlannedPair]:
    """The pairs of `new` against each earlier turn that the rule scores; `add` puts one
    (premise, hypothesis) into the scorer's batch and returns its row."""
    planned: list[PlannedPair] = []
    if rule.sentences:
        for claim in new.claims:
            for earlier, text in nearest(earlier_turns, claim, rule, similarity):
                planned.append(PlannedPair(earlier, text, claim.text, add(text, claim.text), None))
        return planned
    for earlier in earlier_turns:
        if rule.seed:
            if earlier.text and new.text:
                planned.append(PlannedPair(earlier, earlier.text, new.text, add(earlier.text, new.text), None))
            continue
        for index, old in enumerate(earlier.claims):
            for new_index, claim in enumerate(new.claims):
                if gated(old, claim, rule.topic_similarity, similarity):
                    decided, slot = slot_decision(old, claim) if rule.regimen else (False, None)
                    if slot is not None and superseded(earlier_turns, earlier, index, claim, slot):
                        slot = None
                    if slot == "time of day" and (
                        one_dose_of_a_schedule(earlier.claims, index) or one_dose_of_a_schedule(new.claims, new_index)
                    ):
                        slot = None
                    row_ab = add(old.text, claim.text)
                    row_ba = add(claim.text, old.text)
                    planned.append(PlannedPair(earlier, old.text, claim.text, row_ab, row_ba, decided, slot))
    return planned


def plan_reverse(
    planned: Sequence[PlannedPair], rows: np.ndarray, rule: VerdictRule, add: Callable[[str, str], int]
) -> list[PlannedPair]:
    """verdict=sentences scores each pair earlier → new first, and the reverse only where the
    two-way mean can still reach the threshold (p ≥ 2 × threshold − 1): the verdict is the
    same as scoring both directions of every pair, and most pairs cost one row."""
    if not rule.sentences:
        return list(planned)
    floor = 2 * rule.threshold - 1
    return [
        replace(pair, row_ba=add(pair.new_claim, pair.earlier_claim))
        if pair.row_ba is None and rows[pair.row_ab, CONTRADICTION] >= floor
        else pair
        for pair in planned
    ]


def judge(planned: Sequence[PlannedPair], rows: np.ndarray, rule: VerdictRule) -> dict[str, TurnVerdict]:
    """Per earlier turn (by event id), its strongest pair and whether it contradicts."""
    verdicts: dict[str, TurnVerdict] = {}
    counts: dict[str, int] = {}
    for pair in planned:
        nli_ab = probabilities(rows[pair.row_ab])
        nli_ba = probabilities(rows[pair.row_ba]) if pair.row_ba is not None else None
        if nli_ba is None:  # seed: one direction, argmax; sentences: the reverse was not needed
            score, contradicts = nli_ab.contradiction, not rule.sentences and nli_ab.verdict == "contradiction"
        else:
            score = two_way(nli_ab, nli_ba)
            contradicts = pair.slot is not None if pair.decided else score >= rule.threshold
        key = pair.earlier.event_id
        counts[key] = counts.get(key, 0) + 1
        best = verdicts.get(key)
        if best is None or (contradicts, score) > (best.contradicts, best.score):
            verdicts[key] = TurnVerdict(
                pair.earlier, pair.earlier_claim, pair.new_claim, nli_ab, nli_ba, score, contradicts, 0, pair.slot
            )
    return {key: replace(verdict, pairs=counts[key]) for key, verdict in verdicts.items()}
