"""The turn pipeline with a scripted NLI function (the NLI model is not under test here:
its verdicts are given, and the pipeline's counting, sampling and events are checked). The
claim pipeline (verdict=regimen) is under test unless a test names another rule; those of
verdict=sentences are at the end."""

import numpy as np
import pytest

from contraflow.models.events import Role
from contraflow.streams.core.extract.advice import extract_advice
from contraflow.streams.core.turns import TurnPipeline, TurnServices, TurnSettings
from tests.fixtures import CONTRA, NEAR_CONTRA, ScriptedNLI, run, turn


async def test_every_assistant_turn_gets_a_score_and_user_turns_none() -> None:
    pipeline = TurnPipeline(ScriptedNLI({}), TurnSettings(verdict="regimen", stride=1))
    turns = [
        turn(0, "hi", Role.user),
        turn(1, "Take aspirin daily."),
        turn(2, "ok?", Role.user),
        turn(3, "Keep taking aspirin."),
    ]
    state, outcomes = await run(pipeline, turns)
    assert [len(o.scores) for o in outcomes] == [0, 1, 0, 1]
    assert state.turn_count == 4 and state.assistant_turns == 2 and state.evaluated_pairs == 1


async def test_stride_two_evaluates_pairs_one_and_three_only() -> None:
    nli = ScriptedNLI({})
    pipeline = TurnPipeline(nli, TurnSettings(verdict="regimen", stride=2, global_window=0))
    turns = [turn(i, f"Take drug {i} daily.") for i in range(5)]  # 4 adjacent pairs
    state, outcomes = await run(pipeline, turns)
    assert [o.scores[0].pair_evaluated for o in outcomes] == [False, True, False, True, False]
    assert nli.calls == [  # both directions of each sampled pair (the items share "drug")
        ("Take drug 0 daily.", "Take drug 1 daily."),
        ("Take drug 1 daily.", "Take drug 0 daily."),
        ("Take drug 2 daily.", "Take drug 3 daily."),
        ("Take drug 3 daily.", "Take drug 2 daily."),
    ]
    assert state.evaluated_pairs == 2


async def test_pair_without_advice_on_either_side_is_not_evaluated() -> None:
    nli = ScriptedNLI({})
    pipeline = TurnPipeline(nli, TurnSettings(verdict="regimen", stride=1, global_window=0))
    turns = [turn(0, "Take aspirin daily."), turn(1, "That sounds difficult."), turn(2, "Stop aspirin now.")]
    state, outcomes = await run(pipeline, turns)
    assert [o.scores[0].pair_evaluated for o in outcomes] == [False, False, False]
    assert nli.calls == [] and state.evaluated_pairs == 0
    assert outcomes[1].scores[0].advice == ""


async def test_seed_verdict_counts_only_the_argmax_contradiction() -> None:
    pipeline = TurnPipeline(
        ScriptedNLI({"Stop": NEAR_CONTRA, "Never": CONTRA}), TurnSettings(stride=1, global_window=0, verdict="seed")
    )
    turns = [turn(0, "Take aspirin daily."), turn(1, "Stop aspirin now."), turn(2, "Never take aspirin.")]
    state, outcomes = await run(pipeline, turns)
    assert state.evaluated_pairs == 2 and state.contradictions == 1
    assert outcomes[1].conflicts == []
    [conflict] = outcomes[2].conflicts
    assert conflict.claim_a.text == "Stop aspirin now." and conflict.claim_a.turn_index == 1
    assert conflict.claim_b.text == "Never take aspirin." and conflict.claim_b.turn_index == 2
    assert conflict.nli_ab.contradiction == np.float32(0.9)
    assert conflict.kind == "turn_self_contradiction" and conflict.session_id == "s1"
    assert outcomes[2].scores[0].k_conflict == 0.5


async def test_alerts_fire_on_each_status_change_only() -> None:
    nli = ScriptedNLI({"Never": CONTRA}, premise_word="Take")  # only "Take…" -> "Never…" contradicts
    pipeline = TurnPipeline(nli, TurnSettings(stride=1, verdict="seed"))
    texts = ["Take aspirin daily.", "Never take aspirin."] + ["Take aspirin daily."] * 20
    state, outcomes = await run(pipeline, [turn(i, t) for i, t in enumerate(texts)])
    alerts = [(o.state.evaluated_pairs, a.previous_status, a.status) for o in outcomes for a in o.alerts]
    # 1/1 = 1.0 failure; 1/10 = 0.10 is still caution; 1/21 < 0.05 is pass again
    assert alerts == [(1, "pass", "failure"), (10, "failure", "caution"), (21, "caution", "pass")]
    assert state.status == "pass"


async def test_repeated_event_or_old_turn_changes_nothing() -> None:
    pipeline = TurnPipeline(ScriptedNLI({"Never": CONTRA}), TurnSettings(verdict="regimen", stride=1))
    state, _ = await run(pipeline, [turn(0, "Take aspirin daily."), turn(1, "Never take aspirin.")])
    again = await pipeline.process(state, turn(1, "Never take aspirin."))
    older = await pipeline.process(state, turn(0, "Something else entirely.", event_id="new-id"))
    same_id = await pipeline.process(state, turn(5, "Never take aspirin.", event_id="s1-1"))
    for outcome in (again, older, same_id):
        assert outcome.duplicate
        assert outcome.state == state
        assert not (outcome.scores or outcome.conflicts or outcome.alerts)


async def test_outputs_have_deterministic_ids() -> None:
    turns = [turn(0, "Take aspirin daily."), turn(1, "Never take aspirin.")]
    first = await run(TurnPipeline(ScriptedNLI({"Never": CONTRA}), TurnSettings(verdict="regimen", stride=1)), turns)
    second = await run(TurnPipeline(ScriptedNLI({"Never": CONTRA}), TurnSettings(verdict="regimen", stride=1)), turns)
    ids = [[e.model_dump() for e in o.scores + o.conflicts + o.alerts] for o in first[1]]
    assert ids == [[e.model_dump() for e in o.scores + o.conflicts + o.alerts] for o in second[1]]
    assert first[1][1].conflicts[0].conflict_id.startswith("conflict-")


async def test_input_state_is_not_mutated() -> None:
    pipeline = TurnPipeline(ScriptedNLI({}), TurnSettings(verdict="regimen", stride=1))
    state, _ = await run(pipeline, [turn(0, "Take aspirin daily.")])
    before = state.model_dump()
    await pipeline.process(state, turn(1, "Keep taking aspirin."))
    assert state.model_dump() == before


async def test_global_consistency_checks_earlier_advice_and_names_both_turns() -> None:
    nli = ScriptedNLI({"Never": CONTRA}, premise_word="aspirin")
    pipeline = TurnPipeline(nli, TurnSettings(verdict="regimen", stride=2, global_window=20))
    texts = ["Take aspirin daily.", "Rest your knee.", "Drink more water.", "Never take aspirin."]
    _state, outcomes = await run(pipeline, [turn(i, t) for i, t in enumerate(texts)])
    # turn 3 is compared only with the earlier advice about aspirin (the knee and the water
    # are other topics: gated out, never scored), and it flips
    assert ("Take aspirin daily.", "Never take aspirin.") in nli.calls
    assert not [c for c in nli.calls if "knee" in c[0] + c[1] or "water" in c[0] + c[1]]
    [conflict] = outcomes[3].conflicts
    assert conflict.scope == "global" and conflict.claim_a.turn_index == 0 and conflict.claim_b.turn_index == 3
    score = outcomes[3].scores[0]
    assert (score.global_evaluated_pairs, score.global_contradictions) == (1, 1)
    assert score.global_rate == pytest.approx(1.0)
    # K_Conflict keeps the seed's adjacent definition: pairs 1 and 3 sampled, neither contradicts
    assert (score.evaluated_pairs, score.contradictions) == (2, 0)


async def test_an_adjacent_contradiction_is_reported_once() -> None:
    pipeline = TurnPipeline(ScriptedNLI({"Never": CONTRA}), TurnSettings(verdict="regimen", stride=1, global_window=20))
    _, outcomes = await run(pipeline, [turn(0, "Take aspirin daily."), turn(1, "Never take aspirin.")])
    assert [c.scope for c in outcomes[1].conflicts] == ["adjacent"]


async def test_ncp_scores_both_directions_against_every_candidate() -> None:
    nli = ScriptedNLI({"Never": CONTRA}, premise_word="Take")
    pipeline = TurnPipeline(nli, TurnSettings(verdict="regimen", stride=1, global_window=0))
    event = turn(0, "Take aspirin daily.").model_copy(update={"candidates": ["Never take aspirin.", "Take aspirin."]})
    _, [outcome] = await run(pipeline, [event])
    # p_contra(y, c1) = 0.9 (hypothesis "Never…"), p_contra(c1, y) = 0.02; c2 both 0.02
    assert outcome.scores[0].ncp == pytest.approx(1 - ((0.9 + 0.02) / 2 + (0.02 + 0.02) / 2) / 2, abs=1e-6)
    assert len(nli.calls) == 4


async def test_statements_mode_compares_declarative_sentences() -> None:
    nli = ScriptedNLI({"never": CONTRA})
    pipeline = TurnPipeline(
        nli,
        TurnSettings(verdict="regimen", stride=1, global_window=0, compare="statements", contradiction_threshold=0.5),
    )
    texts = ["I live in Paris. Do you like travel?", "I have never lived in Paris."]
    state, outcomes = await run(pipeline, [turn(i, t) for i, t in enumerate(texts)])
    assert nli.calls == [
        ("I live in Paris.", "I have never lived in Paris."),
        ("I have never lived in Paris.", "I live in Paris."),
    ]
    assert state.contradictions == 1 and outcomes[0].scores[0].advice == "I live in Paris."


async def test_repetitive_text_is_cleaned_for_the_history_only() -> None:
    pipeline = TurnPipeline(ScriptedNLI({}), TurnSettings(verdict="regimen", stride=1))
    text = "Take aspirin daily. " * 5
    state, [outcome] = await run(pipeline, [turn(0, text)])
    score = outcome.scores[0]
    assert score.cleaned and score.repetition_ratio > 0.3
    assert score.advice == extract_advice(text)  # metrics: the raw text
    assert state.advice_history[-1].text == "Take aspirin daily."  # history: the cleaned one


def test_a_bare_pipeline_uses_the_service_defaults() -> None:
    from contraflow.streams.core.knowledge.pipeline import KnowledgeSettings
    from contraflow.streams.core.metrics.rates import RateSettings, rate_settings
    from contraflow.streams.runtime.services import knowledge_settings, turn_settings
    from contraflow.streams.settings import Settings

    defaults = Settings.model_construct()  # the declared defaults, whatever the environment says
    assert TurnSettings() == turn_settings(defaults)
    assert RateSettings() == rate_settings(defaults)
    assert KnowledgeSettings() == knowledge_settings(defaults)


def pipeline_finding(*names: str) -> TurnPipeline:
    """A pipeline whose entity extractor finds these names (drugs, symptoms) where a text has them."""

    async def extract(text: str) -> list[str]:
        return [name for name in names if name in text.lower()]

    return TurnPipeline(
        TurnServices(score=ScriptedNLI({}), extract_entities=extract), TurnSettings(verdict="regimen", stride=1)
    )


async def test_your_tablet_is_the_drug_the_turn_named_just_before() -> None:
    pipeline = pipeline_finding("mirtazapine", "sertraline")
    texts = [
        "Take mirtazapine an hour before bed.",
        "Weight gain is common with mirtazapine. Take your tablet each morning.",
    ]
    state, outcomes = await run(pipeline, [turn(i, t) for i, t in enumerate(texts)])
    assert state is not None and state.previous_advice is not None
    assert "mirtazapine" in state.previous_advice.claims[0].targets
    [conflict] = outcomes[1].conflicts
    assert conflict.disagrees_on == "time of day"


async def test_it_after_a_question_naming_nothing_is_the_medicine_under_discussion() -> None:
    """ "Should I take it earlier?" names nothing: "keep it as a night-time dose" is about the
    mirtazapine the conversation is about, not the alcohol the user asked about before."""
    pipeline = pipeline_finding("mirtazapine")
    turns = [
        turn(0, "My GP started me on mirtazapine. When do I take it?", Role.user),
        turn(1, "Take it once a day at bedtime."),
        turn(2, "Can I have a couple of beers on a Friday?", Role.user),
        turn(3, "It's best to avoid alcohol while you're on mirtazapine."),
        turn(4, "I'm groggy in the mornings. Should I take it earlier?", Role.user),
        turn(5, "Take it in the morning with breakfast instead."),
    ]
    state, outcomes = await run(pipeline, turns)
    assert state is not None and state.previous_advice is not None
    assert state.previous_advice.claims[0].targets == ["mirtazapine"]
    [conflict] = outcomes[5].conflicts
    assert conflict.claim_a.turn_index == 1 and conflict.disagrees_on == "time of day"


async def test_a_dose_is_about_the_drug_not_the_things_its_reasons_name() -> None:
    pipeline = pipeline_finding("ibuprofen", "bleeding")  # the extractor finds the symptom too
    texts = [
        "Ibuprofen works best for period pain. Take 400 mg up to three times a day, as soon as the bleeding begins.",
        "You can take 800 mg at a time, up to three times a day.",
    ]
    state, outcomes = await run(pipeline, [turn(i, t) for i, t in enumerate(texts)])
    assert state is not None and state.previous_advice is not None
    assert "ibuprofen" in state.previous_advice.claims[0].targets
    [conflict] = outcomes[1].conflicts
    assert conflict.disagrees_on == "amount"


async def test_a_schedule_that_names_nothing_is_the_schedule_of_the_medicine_under_discussion() -> None:
    pipeline = pipeline_finding("metformin")
    turns = [
        turn(0, "Take metformin with your evening meal."),
        turn(1, "When exactly is the best time to take the tablet each day?", Role.user),
        turn(2, "The best time to take one is first thing in the morning on an empty stomach."),
    ]
    state, outcomes = await run(pipeline, turns)
    assert state is not None and state.previous_advice is not None
    assert state.previous_advice.claims[0].targets == ["metformin"]
    [conflict] = outcomes[2].conflicts
    assert conflict.disagrees_on == "food"


async def test_a_fact_calling_for_caution_justifies_more_caution_not_less() -> None:
    pipeline = pipeline_finding("ibuprofen", "naproxen", "furosemide")
    cautious = [
        turn(0, "You can take ibuprofen for the pain."),
        turn(1, "I've just found out I'm pregnant.", Role.user),
        turn(2, "Don't take ibuprofen now."),
    ]
    _, outcomes = await run(pipeline, cautious)
    [revision] = outcomes[2].conflicts
    assert revision.kind == "turn_revision"
    loosened = [
        turn(0, "Please don't take naproxen.", session="s2"),
        turn(1, "I also take furosemide.", Role.user, session="s2"),
        turn(2, "Naproxen is fine to take for a few days.", session="s2"),
    ]
    _, outcomes = await run(pipeline, loosened)
    [contradiction] = outcomes[2].conflicts
    assert contradiction.kind == "turn_self_contradiction"


async def test_a_fact_the_assistant_already_answered_does_not_excuse_a_later_change() -> None:
    """ "I also take omeprazole and calcium" was answered with the levothyroxine advice unchanged; the switch
    to breakfast two turns later answers "mornings are chaos", which is no new fact: a
    flip-flop. The same switch right after a new fact that calls for it (the tablets on an empty
    stomach make her sick) is a revision."""
    pipeline = pipeline_finding("levothyroxine", "omeprazole", "calcium", "coeliac disease")
    turns = [
        turn(0, "Take levothyroxine first thing in the morning on an empty stomach."),
        turn(1, "I also take omeprazole and calcium tablets.", Role.user),
        turn(2, "Keep the calcium at least four hours away from the levothyroxine."),
        turn(3, "Mornings are chaos with the kids. Is there an easier way?", Role.user),
        turn(4, "Take levothyroxine with your breakfast."),
    ]
    _, outcomes = await run(pipeline, turns)
    [flip] = outcomes[4].conflicts
    assert flip.kind == "turn_self_contradiction" and flip.justified_by is None
    told_now = [t.model_copy(update={"session_id": "s2"}) for t in turns[:3]] + [
        turn(3, "Taking it on an empty stomach makes me feel sick every morning.", Role.user, session="s2"),
        turn(4, "Take levothyroxine with your breakfast.", session="s2"),
    ]
    _, outcomes = await run(pipeline, told_now)
    [revision] = outcomes[4].conflicts
    assert revision.kind == "turn_revision" and revision.justified_by is not None
    assert revision.justified_by.turn_index == 3


async def test_go_ahead_says_yes_to_what_the_user_asked_about() -> None:
    pipeline = TurnPipeline(TurnServices(score=ScriptedNLI({})), TurnSettings(verdict="regimen", stride=1))
    turns = [
        turn(0, "Avoid tea and coffee for an hour either side of the iron tablet."),
        turn(1, "I always have my tea with breakfast. Can't I just do that?", Role.user),
        turn(2, "Go ahead."),
    ]
    state, outcomes = await run(pipeline, turns)
    assert state is not None and state.previous_advice is not None
    assert "caffeine" in state.previous_advice.claims[0].targets
    [conflict] = outcomes[2].conflicts
    assert conflict.disagrees_on == "polarity"


async def test_superseded_advice_is_not_held_against_what_followed() -> None:
    pipeline = pipeline_finding("amitriptyline")  # the default global window holds all these turns
    titration = [
        "Take amitriptyline 10 mg once a day in the evening. After two weeks the dose is usually increased to 20 mg.",
        "Two weeks on, I'm still getting headaches.",
        "Keep taking your 20 mg of amitriptyline in the evening.",
    ]
    _, outcomes = await run(pipeline, [turn(0, titration[0]), turn(1, titration[1], Role.user), turn(2, titration[2])])
    assert outcomes[2].conflicts == []  # the plan in the first turn already said 20 mg
    flip = ["Take 10 mg of amitriptyline a day.", "Take 20 mg of amitriptyline a day.", "Take 20 mg of amitriptyline."]
    _, outcomes = await run(pipeline, [turn(i, t, session="s2") for i, t in enumerate(flip)])
    # the change is reported where it happened, not again when the next turn repeats it
    assert [c.disagrees_on for c in outcomes[1].conflicts] == ["amount"]
    assert outcomes[2].conflicts == []
    # a yes/no stage is not a titration: "don't drive for a week; after that you can" does not
    # make a next-day permission agree
    staged = [
        "Don't drive for a week after the operation. After that, you can drive once you can do an emergency stop.",
        "You're fine to drive to the wedding tomorrow.",
    ]
    _, outcomes = await run(pipeline, [turn(i, t, session="s3") for i, t in enumerate(staged)])
    assert [c.disagrees_on for c in outcomes[1].conflicts] == ["polarity"]


async def test_a_dose_that_names_nothing_is_the_medicine_last_dosed_in_that_unit() -> None:
    pipeline = pipeline_finding("paracetamol", "antibiotics")
    turns = [
        turn(0, "For pain, take paracetamol: two 500 mg tablets up to four times a day, no more than 8 in 24 hours."),
        turn(1, "Do I need antibiotics?", Role.user),
        turn(2, "Usually not for sinusitis."),
        turn(3, "Two tablets doesn't sound like much. Are you sure?", Role.user),
        turn(4, "You're right, you can take three 500 mg tablets at a time."),
    ]
    state, outcomes = await run(pipeline, turns)
    assert state is not None and state.previous_advice is not None
    assert state.previous_advice.claims[0].targets == ["paracetamol"]
    assert [c.disagrees_on for c in outcomes[4].conflicts] == ["amount"]


async def test_a_form_named_without_a_dose_is_the_medicine_last_given_in_that_form() -> None:
    # "the capsules" after a turn about painkillers is still the antibiotic given as capsules, and
    # the statement after the dash ("… cystitis comes back") is not what the instruction is about
    pipeline = pipeline_finding("nitrofurantoin", "paracetamol", "cystitis")
    turns = [
        turn(0, "Take nitrofurantoin, one 100 mg capsule twice a day for 3 days."),
        turn(1, "And for the pain?", Role.user),
        turn(2, "Take paracetamol for the discomfort."),
        turn(3, "I'm feeling a lot better already. When can I stop?", Role.user),
        turn(
            4,
            "Keep going with the capsules twice a day until you've completed 7 days — stopping early "
            "is one of the main reasons cystitis comes back.",
        ),
    ]
    state, outcomes = await run(pipeline, turns)
    assert state is not None and state.previous_advice is not None
    assert state.previous_advice.claims[0].targets == ["antibiotic", "nitrofurantoin"]
    assert [(c.kind, c.disagrees_on) for c in outcomes[4].conflicts] == [("turn_self_contradiction", "duration")]


async def test_a_step_of_a_schedule_gives_way_to_its_later_step() -> None:
    pipeline = pipeline_finding("gabapentin")
    turns = [
        turn(
            0,
            "Start gabapentin like this:\n- Day 1: 300 mg once, at bedtime\n- Day 2: 300 mg twice a day "
            "(morning and bedtime)\n- Day 3 onwards: 300 mg three times a day",
        ),
        turn(1, "What times should I take the three doses?", Role.user),
        turn(2, "Spread the gabapentin doses through your waking day, for example 8am, 2pm and 10pm."),
    ]
    _, outcomes = await run(pipeline, turns)
    assert outcomes[2].conflicts == []  # day 2's morning and bedtime were one step of the plan
    flip = [turn(0, "Take gabapentin 300 mg at bedtime."), turn(1, "Take the gabapentin in the morning.")]
    _, outcomes = await run(pipeline, [t.model_copy(update={"session_id": "s2"}) for t in flip])
    assert [c.disagrees_on for c in outcomes[1].conflicts] == ["time of day"]


async def test_doses_named_by_how_often_are_the_medicine_last_given_that_often() -> None:
    pipeline = pipeline_finding("nitrofurantoin", "paracetamol", "ibuprofen")
    turns = [
        turn(0, "Nitrofurantoin 100 mg is taken twice a day for 3 days."),
        turn(1, "Can I take painkillers too?", Role.user),
        turn(2, "Paracetamol or ibuprofen are fine; check with a pharmacist first as they can interact."),
        turn(3, "When should I start feeling better?", Role.user),
        turn(4, "Keep going with the twice-daily doses for the full 7 days, even if you feel better."),
    ]
    state, outcomes = await run(pipeline, turns)
    assert state is not None and state.previous_advice is not None
    assert "nitrofurantoin" in state.previous_advice.claims[0].targets
    assert [c.disagrees_on for c in outcomes[4].conflicts] == ["duration"]


async def test_markdown_in_advice_is_formatting_not_words() -> None:
    pipeline = pipeline_finding("allopurinol")
    turns = [
        turn(0, "**Keep taking the allopurinol every day, even during a flare.**"),
        turn(1, "Should I stop it while my toe is bad?", Role.user),
        turn(2, "No - carry on taking the *allopurinol* right through a flare."),
    ]
    state, outcomes = await run(pipeline, turns)
    assert state is not None and state.previous_advice is not None
    assert state.previous_advice.claims[0].text == "No - carry on taking the allopurinol right through a flare."
    assert outcomes[2].conflicts == []


async def test_one_dose_of_a_days_schedule_does_not_say_when_the_medicine_is_taken() -> None:
    pipeline = pipeline_finding("metformin")
    turns = [
        turn(0, "Here's your day:\n- With breakfast: metformin 1 g\n- With your evening meal: metformin 1 g"),
        turn(1, "What if I sleep through breakfast?", Role.user),
        turn(2, "Take your morning metformin with whatever your first meal turns out to be instead."),
    ]
    _, outcomes = await run(pipeline, turns)
    assert outcomes[2].conflicts == []
    flip = [turn(0, "Take your metformin with your evening meal."), turn(1, "Take the metformin with breakfast.")]
    _, outcomes = await run(pipeline, [t.model_copy(update={"session_id": "s2"}) for t in flip])
    assert [c.disagrees_on for c in outcomes[1].conflicts] == ["time of day"]


async def test_an_answer_to_what_to_do_in_a_case_holds_in_that_case_only() -> None:
    """Sick-day rules: "stop the metformin", asked what to do if a stomach bug comes, does not
    reverse "take it every day with food"; the same words unasked do."""
    pipeline = pipeline_finding("metformin")
    asked = [
        turn(0, "Take metformin 500 mg twice a day with meals."),
        turn(1, "What should I do if I ever get a stomach bug while on this?", Role.user),
        turn(2, "Stop the metformin temporarily and restart once you're eating normally."),
    ]
    _, outcomes = await run(pipeline, asked)
    assert outcomes[2].conflicts == []
    unasked = [
        turn(0, "Take metformin 500 mg twice a day with meals.", session="s2"),
        turn(1, "Thanks, anything else?", Role.user, session="s2"),
        turn(2, "Stop the metformin.", session="s2"),
    ]
    _, outcomes = await run(pipeline, unasked)
    [conflict] = outcomes[2].conflicts
    assert conflict.kind == "turn_self_contradiction"


async def _embed(texts: list[str]) -> np.ndarray:
    from contraflow.streams.core.embeddings import shared_embedder

    return shared_embedder().embed(texts)


def sentence_pipeline(
    nli: ScriptedNLI,
    neighbours: int = 1,
    embed: bool = True,
    min_similarity: float = 0.0,
    medicine_gate: bool = True,
    detail_neighbours: int = 0,
) -> TurnPipeline:
    services = TurnServices(score=nli, embed=_embed if embed else None)
    settings = TurnSettings(
        stride=1,
        verdict="sentences",
        sentence_threshold=0.8,
        sentence_neighbours=neighbours,
        sentence_min_similarity=min_similarity,
        sentence_medicine_gate=medicine_gate,
        sentence_detail_neighbours=detail_neighbours,
    )
    return TurnPipeline(services, settings)


async def test_sentences_mode_does_not_judge_advice_on_different_medicines_against_each_other() -> None:
    """Advice on one drug and advice on another are not a reversal, however the model reads
    them: with the medicine gate (the default) the paracetamol sentence is never scored
    against the ibuprofen one, while a class and its member ("NSAIDs" / "ibuprofen") still
    meet. Without the gate the pair is scored, and the scripted model calls it opposite."""
    texts = [
        "Take paracetamol 1 g four times a day. Avoid NSAIDs for now.",
        "Stop the ibuprofen.",
    ]
    scored = {}
    for gate in (True, False):
        nli = ScriptedNLI({"Stop the ibuprofen.": CONTRA})
        await run(sentence_pipeline(nli, neighbours=0, medicine_gate=gate), [turn(i, t) for i, t in enumerate(texts)])
        scored[gate] = {premise for premise, hypothesis in nli.calls if hypothesis == "Stop the ibuprofen."}
    assert scored[True] == {"Avoid NSAIDs for now."}
    assert scored[False] == {"Avoid NSAIDs for now.", "Take paracetamol 1 g four times a day."}


async def test_sentences_mode_judges_each_sentence_against_its_nearest_earlier_one() -> None:
    nli = ScriptedNLI({"twice a day": CONTRA})
    pipeline = sentence_pipeline(nli)
    texts = [
        "Take the amlodipine once a day. Your blood pressure readings look good. Yes.",
        "The amlodipine should be taken twice a day. Keep checking your blood pressure.",
    ]
    state, outcomes = await run(pipeline, [turn(i, t) for i, t in enumerate(texts)])
    # each later sentence meets only the earlier sentence nearest to it (neighbours=1); "Yes."
    # says too little to compare; a statement of the dose is compared too (the advice
    # extractor would have dropped it). The reverse direction is scored only for the pair
    # whose first direction can still bring the two-way mean to the threshold.
    assert nli.calls == [
        ("Take the amlodipine once a day.", "The amlodipine should be taken twice a day."),
        ("Your blood pressure readings look good.", "Keep checking your blood pressure."),
        ("The amlodipine should be taken twice a day.", "Take the amlodipine once a day."),
    ]
    [conflict] = outcomes[1].conflicts
    assert conflict.kind == "turn_self_contradiction" and conflict.disagrees_on is None
    assert conflict.claim_b.text == "The amlodipine should be taken twice a day."
    assert conflict.nli_ba is not None
    assert (state.evaluated_pairs, state.contradictions) == (1, 1)
    assert outcomes[1].scores[0].nli_pairs == 3


async def test_sentences_mode_also_judges_the_earlier_sentence_that_gives_the_same_kind_of_detail() -> None:
    """ "Keep taking it for the full 7 days" reverses "usually prescribed for 5 days", but the
    sentences about getting better are nearer to it by embedding: only the nearest is judged
    (neighbours=1) unless an earlier sentence that also says how long is added beside it."""
    texts = [
        "For a chest infection, amoxicillin 500 mg three times a day is usually prescribed for 5 days. "
        "You should start to feel better soon. Rest and drink plenty of fluids while you recover.",
        "Even though you're feeling better, keep taking it for the full 7 days.",
    ]
    judged = {}
    for detail in (0, 1):
        nli = ScriptedNLI({"days": CONTRA}, premise_word="days")
        pipeline = sentence_pipeline(nli, neighbours=1, detail_neighbours=detail)
        _, outcomes = await run(pipeline, [turn(i, t) for i, t in enumerate(texts)])
        judged[detail] = [c.claim_a.text for c in outcomes[1].conflicts]
    assert judged[0] == []
    assert judged[1] == [
        "For a chest infection, amoxicillin 500 mg three times a day is usually prescribed for 5 days."
    ]


async def test_sentences_mode_does_not_judge_a_question_the_assistant_asks() -> None:
    """A question states nothing to contradict: the assistant echoing the patient ("Why not
    just take two tablets?") after "Take one 5 mg tablet once a day", or asking "**Do you
    need condoms or emergency contraception?**" before "You don't need condoms this time",
    is never scored, though the scripted model would call either pair opposite. The
    statement beside the question still is, and a real change in it still contradicts."""
    nli = ScriptedNLI({"Why not": CONTRA, "emergency contraception": CONTRA})
    texts = [
        "Take one 5 mg tablet once a day. **Do you need condoms or emergency contraception?**",
        "Why not just take two tablets? Because one 5 mg tablet once a day is the dose. "
        "You don't need condoms this time either.",
    ]
    _, outcomes = await run(sentence_pipeline(nli, neighbours=0), [turn(i, t) for i, t in enumerate(texts)])
    asked = {side for pair in nli.calls for side in pair}
    assert not any("?" in side for side in asked)
    assert outcomes[1].conflicts == []
    nli = ScriptedNLI({"two tablets": CONTRA})
    changed = [texts[0], "Take two tablets once a day from now on."]
    _, outcomes = await run(sentence_pipeline(nli, neighbours=0), [turn(i, t) for i, t in enumerate(changed)])
    assert [c.claim_a.text for c in outcomes[1].conflicts] == ["Take one 5 mg tablet once a day."]


async def test_sentences_mode_needs_both_directions_to_reach_the_threshold() -> None:
    """A pair that one direction calls a contradiction (p 0.9) and the other does not
    (p 0.5) has a two-way mean of 0.7: under the threshold of 0.8, no conflict."""
    one_way = [0.05, 0.05, 0.9]
    nli = ScriptedNLI({"twice a day": one_way, "once a day": [0.3, 0.2, 0.5]})
    texts = ["Take the amlodipine once a day.", "The amlodipine should be taken twice a day."]
    _, outcomes = await run(sentence_pipeline(nli), [turn(i, t) for i, t in enumerate(texts)])
    assert len(nli.calls) == 2 and outcomes[1].conflicts == []


async def test_sentences_mode_leaves_out_earlier_sentences_under_the_similarity_floor() -> None:
    """With a floor, a new sentence about something else entirely (the physiotherapy
    exercises) is not judged against the dose; the dose change still is, and contradicts."""
    texts = [
        "Take the amlodipine once a day.",
        "Do the knee exercises every morning. The amlodipine should be taken twice a day.",
    ]
    floors = {}
    for floor in (0.0, 0.3):
        nli = ScriptedNLI({"twice a day": CONTRA})
        _, outcomes = await run(sentence_pipeline(nli, min_similarity=floor), [turn(i, t) for i, t in enumerate(texts)])
        assert [c.claim_b.text for c in outcomes[1].conflicts] == ["The amlodipine should be taken twice a day."]
        floors[floor] = [hypothesis for premise, hypothesis in nli.calls if premise == texts[0]]
    assert "Do the knee exercises every morning." in floors[0.0]
    assert floors[0.3] == ["The amlodipine should be taken twice a day."]


async def test_sentences_mode_without_an_embedder_judges_every_pair() -> None:
    nli = ScriptedNLI({})
    pipeline = sentence_pipeline(nli, embed=False)
    texts = ["Take the amlodipine once a day. Check your blood pressure weekly.", "Keep going with the amlodipine."]
    await run(pipeline, [turn(i, t) for i, t in enumerate(texts)])
    assert len(nli.calls) == 2  # both earlier sentences; no reverse: neither can contradict


async def test_sentences_mode_publishes_a_change_after_a_new_fact_as_a_revision() -> None:
    nli = ScriptedNLI({"Stop taking": CONTRA}, premise_word="ibuprofen")
    pipeline = sentence_pipeline(nli, neighbours=0)
    turns = [
        turn(0, "You can take ibuprofen for the back pain."),
        turn(1, "I've just found out I'm pregnant.", Role.user),
        turn(2, "Stop taking the ibuprofen now."),
    ]
    state, outcomes = await run(pipeline, turns)
    [revision] = outcomes[2].conflicts
    assert revision.kind == "turn_revision" and revision.justified_by is not None
    assert revision.justified_by.turn_index == 1 and state.contradictions == 0


LOOSENINGS = {
    # hay fever (an allergy) is no reason to allow what was forbidden for the blood pressure
    "allowed": (
        "Sudafed",
        "With your high blood pressure, don't take Sudafed.",
        "My spring allergies have kicked in and my nose is blocked.",
        "Sudafed is fine to use for a few days.",
    ),
    # being sick after a dose calls for caution, not for giving the medicine more often
    "more often": (
        "ibuprofen",
        "Give him the ibuprofen three times a day with food.",
        "He threw up after the last dose.",
        "You can give the ibuprofen every 4 hours.",
    ),
    # a rash still itching is no reason to use a steroid cream for longer than its limit
    "longer": (
        "hydrocortisone",
        "Use the hydrocortisone 1% cream twice a day for no more than 7 days.",
        "It's still really itchy, especially at night.",
        "You can keep using the hydrocortisone 1% twice daily for up to 4 weeks.",
    ),
    # iron in a multivitamin is a reason to keep the thyroid tablet away from breakfast, not to join them
    "with food": (
        "levothyroxine",
        "Take the levothyroxine on an empty stomach, 30 minutes before breakfast.",
        "I also take a multivitamin with iron, Ferrous Fumarate.",
        "Just take the levothyroxine with your breakfast.",
    ),
}


@pytest.mark.parametrize("case", sorted(LOOSENINGS))
async def test_sentences_mode_keeps_a_loosening_after_a_fact_calling_for_caution_a_contradiction(case: str) -> None:
    """No slot decides a sentence pair, yet the rule of §4 holds there too: a fact that calls
    for caution does not justify allowing what the assistant forbade, or giving more of it."""
    word, earlier, fact, later = LOOSENINGS[case]
    nli = ScriptedNLI({later[-20:]: CONTRA}, premise_word=word)
    _, outcomes = await run(
        sentence_pipeline(nli, neighbours=0), [turn(0, earlier), turn(1, fact, Role.user), turn(2, later)]
    )
    [flip] = outcomes[2].conflicts
    assert flip.kind == "turn_self_contradiction" and flip.justified_by is None


REVISIONS = {
    # a reassuring result can justify allowing what was forbidden
    "allowed": "My blood pressure readings this week were all normal, about 120/80.",
    # a stomach upset is what taking it with food is for
    "with food": "It makes me feel really nauseous every morning.",
}


@pytest.mark.parametrize("case", sorted(REVISIONS))
async def test_sentences_mode_publishes_a_loosening_the_fact_calls_for_as_a_revision(case: str) -> None:
    word, earlier, _, later = LOOSENINGS[case]
    nli = ScriptedNLI({later[-20:]: CONTRA}, premise_word=word)
    _, outcomes = await run(
        sentence_pipeline(nli, neighbours=0), [turn(0, earlier), turn(1, REVISIONS[case], Role.user), turn(2, later)]
    )
    [revision] = outcomes[2].conflicts
    assert revision.kind == "turn_revision" and revision.justified_by is not None


TOLD_AGAIN = {
    # the age the dose was worked out from, told again as push-back: no news
    "Max is 6 and weighs 20 kg.": ("That seems like a lot for a 6 year old, I don't want to overdose him.", None),
    # a new age is news
    "Max weighs 20 kg.": ("Sorry, I should have said he's only 4.", "age"),
    # a medicine told again with a new symptom is news
    "He's been on ibuprofen since Monday.": ("Since he started the ibuprofen he's been really sick.", "side_effect"),
}


CLINICIAN_SAID = {
    # the clinician changed another medicine: no reason to move the Lasix
    "Doctor reduced other tablet.": "turn_self_contradiction",
    "The GP has reduced my ramipril.": "turn_self_contradiction",
    # the clinician's word about this one, by its generic name: a revision
    "The GP said to take the furosemide in the afternoon from now on.": "turn_revision",
}


@pytest.mark.parametrize("said", sorted(CLINICIAN_SAID))
async def test_the_clinicians_word_justifies_a_change_of_the_medicine_it_is_about(said: str) -> None:
    nli = ScriptedNLI({"afternoon": CONTRA}, premise_word="Lasix")
    texts = [("Take your Lasix 40 mg in the morning.", Role.assistant), (said, Role.user)]
    texts.append(("Take your Lasix 40 mg in the early afternoon.", Role.assistant))
    _, outcomes = await run(sentence_pipeline(nli, neighbours=0), [turn(i, t, r) for i, (t, r) in enumerate(texts)])
    [conflict] = outcomes[2].conflicts
    assert conflict.kind == CLINICIAN_SAID[said]


@pytest.mark.parametrize("first", sorted(TOLD_AGAIN))
async def test_a_fact_told_again_does_not_excuse_a_change_and_a_new_one_does(first: str) -> None:
    again, reason = TOLD_AGAIN[first]
    nli = ScriptedNLI({"5 ml": CONTRA}, premise_word="ibuprofen")
    texts = [(first, Role.user), ("Give him 10 ml of ibuprofen.", Role.assistant), (again, Role.user)]
    texts.append(("For Max the right dose of ibuprofen is 5 ml.", Role.assistant))
    _, outcomes = await run(sentence_pipeline(nli, neighbours=0), [turn(i, t, r) for i, (t, r) in enumerate(texts)])
    [conflict] = outcomes[3].conflicts
    assert conflict.kind == ("turn_revision" if reason else "turn_self_contradiction")


async def test_sentences_mode_counts_in_k_conflict_only_pairs_of_turns_that_both_advise() -> None:
    """Seed 000's denominator stays: a turn the advice extractor finds no advice in makes no
    evaluated pair, but its sentences are still judged against the earlier ones and a
    contradiction there is published (scope global), not counted in K_Conflict."""
    nli = ScriptedNLI({"mostly for show": CONTRA})
    texts = ["Take the amlodipine once a day in the morning.", "Honestly, that morning routine is mostly for show."]
    state, outcomes = await run(sentence_pipeline(nli), [turn(i, t) for i, t in enumerate(texts)])
    [conflict] = outcomes[1].conflicts
    assert conflict.kind == "turn_self_contradiction" and conflict.scope == "global"
    assert (state.evaluated_pairs, state.contradictions, state.global_contradictions) == (0, 0, 1)
    assert outcomes[1].scores[0].advice == ""
