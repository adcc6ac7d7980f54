"""New facts in user turns (streams/core/extract/facts.py): what justifies a revision."""

from contraflow.streams.core.extract.facts import asked_case, user_facts
from contraflow.streams.core.extract.regimen import supports


def test_a_question_is_not_a_fact_even_when_it_opens_with_a_connective() -> None:
    assert user_facts("And just to confirm, when in the day should I take the omeprazole?") == []
    assert user_facts("So can I take it with my other medicines?") == []


def test_a_fact_followed_by_a_question_is_still_a_fact() -> None:
    facts = user_facts("I found out I'm pregnant, is that still OK?")
    assert [f.reason for f in facts] == ["pregnancy"]


def test_another_medication_is_a_fact_only_when_it_is_named() -> None:
    assert [f.reason for f in user_facts("Oh, my GP also started me on fluoxetine 20 mg last week.")] == ["medication"]
    assert [f.reason for f in user_facts("I also take amlodipine and furosemide.")] == ["medication"]
    assert user_facts("I take it at 7am.") == []  # how they take the drug under discussion: nothing new
    assert user_facts("I started on Monday so I'll be done Friday, yeah?") == []


def test_asking_leave_and_what_one_believed_are_not_facts() -> None:
    assert user_facts("I've also got a cold, can I take Lemsip or ibuprofen?") == []
    assert user_facts("I thought you weren't meant to take it in pregnancy.") == []
    assert user_facts("I've read that it's bad for the kidneys.") == []
    assert [f.reason for f in user_facts("Actually, I did a pregnancy test this morning and it's positive!")] == [
        "pregnancy"
    ]


def test_reactions_diagnoses_and_new_symptoms_in_everyday_words() -> None:
    reasons = [
        ("I came out in a big itchy rash all over when I had penicillin.", "allergy"),
        ("My GP did tell me I've got an enlarged prostate.", "diagnosis"),
        ("They said it's an inguinal hernia.", "diagnosis"),
        ("The last time I took it I got really wheezy.", "side_effect"),
        ("She's had a dry tickly cough for about a month.", "side_effect"),
        ("There's blood in the diarrhoea now.", "side_effect"),
        ("It's day 3 and now there's some yellow gunk coming out of the ear.", "worsening"),
    ]
    for text, reason in reasons:
        assert [f.reason for f in user_facts(text)] == [reason], text


def test_what_the_clinician_said_justifies_only_a_change_its_way() -> None:
    [fact] = user_facts("The GP said go to 20 mg. How do I take that?")
    assert fact.reason == "clinician"
    assert supports(fact.text, "Take one 10 mg tablet at night.", "Take two 10 mg tablets together at night.")
    [prescribed] = user_facts("The GP prescribed senna 15 mg at night and she started it 3 days ago.")
    assert not supports(prescribed.text, "Give her the senna at night.", "She can leave out the senna.")
    # going up is no reason for a lower top dose, and going down none for a higher one
    [up] = user_facts("Prescriber says I can go up again next month.")
    top, lower_top = "The maximum dose of Mounjaro is 15 mg once a week.", "The top dose of Mounjaro is 10 mg."
    assert not supports(up.text, top, lower_top)
    assert supports(up.text, lower_top, top)
    [down] = user_facts("My GP has reduced my amlodipine because my ankles swelled.")
    assert not supports(down.text, "Take amlodipine 5 mg once a day.", "Take amlodipine 10 mg once a day.")
    assert user_facts("My friend said her GP increased hers.") == []


def test_a_lab_value_by_its_short_name_is_a_test_result_and_a_dose_is_not() -> None:
    for text in ("ALT 212 (range 7-56) and AST 148 (range 10-40).", "TSH was 9.8.", "Her sodium is 127."):
        assert [f.reason for f in user_facts(text)] == ["test_result"], text
    assert [f.reason for f in user_facts("I take lithium 800 mg at night for bipolar disorder.")] == ["medication"]


def test_a_request_and_a_weight_aimed_at_tell_nothing() -> None:
    assert user_facts("Yes please explain exactly how and when to take readings.") == []
    assert user_facts("Can you walk me through the blood tests?") == []
    assert user_facts("Aiming for about 20kg total.") == []
    assert [f.reason for f in user_facts("She weighs 20 kg.")] == ["age"]


def test_symptoms_told_in_everyday_words_are_side_effects() -> None:
    for text in (
        "She's been on it 10 days. She's waking in the night with really vivid dreams and she's frightened.",
        "I've had a headache every afternoon since the new tablets.",
        "My ankles have swollen up this week.",
        "He gets pins and needles in his feet now.",
        # sedation: stopping a drowsy antihistamine that "zonked" someone is a revision, not a flip-flop
        "Took a Piriton yesterday lunchtime and I was absolutely zonked all afternoon, nearly nodded off at my desk.",
        "The amitriptyline knocks me out and I'm groggy until lunch.",
        "He dozed off in class twice after his morning dose.",
        "I couldn't keep my eyes open at work yesterday.",
    ):
        assert "side_effect" in [f.reason for f in user_facts(text)], text
    assert user_facts("Should I look out for headaches?") == []  # a question tells nothing
    assert user_facts("Will it make me sleepy?") == []


def test_the_case_a_user_asks_about_is_kept_and_a_request_under_a_condition_is_not_one() -> None:
    assert asked_case("What should I do if I ever get a stomach bug while on this?") == (
        "if I ever get a stomach bug while on this"
    )
    assert asked_case("Thanks. What if I miss a dose?") == "if I miss a dose"
    assert asked_case("Can't I just take it with breakfast if I'm in a rush?") is None
    assert asked_case("What should I do? It's still sore.") is None


def test_a_symptom_denied_is_no_symptom() -> None:
    assert user_facts("They said as long as I feel fine and I'm not short of breath I can fly.") == []
    assert user_facts("No dizziness so far, and I don't get headaches any more.") == []
    assert [f.reason for f in user_facts("I've got a rash on my arms since Tuesday.")] == ["side_effect"]


def test_pain_somewhere_and_dark_urine_are_new_symptoms() -> None:
    text = "For the last 4 days I have severe pain in both thighs, and today my urine is dark like cola."
    assert [f.reason for f in user_facts(text)] == ["side_effect"]


def test_a_medicine_someone_gave_is_another_medication() -> None:
    for text in (
        "I just got back from the walk-in, they gave me clarithromycin 500 twice a day for 7 days.",
        "I was given amoxicillin at the hospital.",
    ):
        assert [f.reason for f in user_facts(text)] == ["medication"], text


def test_what_the_family_believes_is_push_back() -> None:
    assert user_facts("My mother says antibiotics are heavy for the body and once fever goes we should stop.") == []


def test_what_a_shared_neighbour_or_friend_takes_is_push_back() -> None:
    """Someone else's medicine, whoever's neighbour they are, is no fact about the person
    advised: "Are you sure it's twice a day? Our neighbour takes rivaroxaban once a day"."""
    assert user_facts("Our neighbour takes rivaroxaban and she only takes it once a day.") == []
    assert user_facts("Their friend is on sertraline and was told to take it at night.") == []
    assert [f.reason for f in user_facts("Our son takes montelukast at night now.")] == ["medication"]


def test_a_reassuring_result_outranks_the_caution_in_the_same_sentence() -> None:
    """A caution fact cannot justify allowing more; a sentence that also gives a reassuring
    result can ("don't take paracetamol" → assessed, bloods fine → "paracetamol is fine")."""
    [fact] = user_facts("They took bloods, gave me IV antibiotics, and my neutrophils were actually fine.")
    assert fact.reason == "test_result"


def test_facts_in_the_words_people_use() -> None:
    def reasons(text: str) -> list[str]:
        return [f.reason for f in user_facts(text)]

    assert reasons("I'm on apixaban for AF since last year, and bisoprolol.") == ["medication"]
    assert reasons("My period was late so I did a test and it's positive.") == ["pregnancy"]
    assert reasons("Since then I'm running to the loo 6-7 times a day, with cramps.") == ["side_effect"]
    assert reasons("It's 11pm now and she's much worse.") == ["worsening"]
    assert reasons("Her lips look a bit blue and she's confused.") == ["worsening"]
    assert set(reasons("Urine culture: E. coli, resistant to nitrofurantoin.")) == {"test_result"}
    assert reasons("I'm on holiday next week.") == []


def test_a_statement_asked_in_disbelief_and_a_terse_clinicians_change_are_facts() -> None:
    def reasons(text: str) -> list[str]:
        return [f.reason for f in user_facts(text)]

    assert reasons("random update, my period was late so i did a test and its positive??") == ["pregnancy"]
    assert reasons("GP switched me to pivmecillinam, 400mg first dose then 200mg three times a day.") == ["clinician"]
    assert reasons("Also the ibuprofen, is it ok with my blood pressure tablets?") == []


def test_a_statement_without_its_subject_is_no_question_and_feeling_sick_is_a_symptom() -> None:
    def reasons(text: str) -> list[str]:
        return [f.reason for f in user_facts(text)]

    assert reasons("did a test this morning bc my period was late and it's positive.") == ["pregnancy"]
    assert reasons("Did I take it at the right time after the scan") == []
    assert reasons("a week in and I feel so sick every morning after taking it.") == ["side_effect"]
    assert reasons("I've not pooped in 4 days.") == ["side_effect"]


def test_what_they_said_after_a_call_is_the_clinicians_word() -> None:
    assert [f.reason for f in user_facts("They said skip tonight and tomorrow, then 4mg a day.")] == ["clinician"]
    assert user_facts("My friends said it's fine to drink on it.") == []


def test_weight_lost_or_gained_is_progress_not_a_dosing_weight() -> None:
    assert user_facts("Loss picked up again, 9kg down now.") == []
    assert user_facts("I've lost about 6 kg since March.") == []
    assert [f.reason for f in user_facts("He weighs 14 kg.")] == ["age"]
    assert [f.reason for f in user_facts("She's gone up to 16 kg now.")] == ["age"]


def test_what_a_relative_who_works_as_a_clinician_says_is_push_back() -> None:
    """Not the person's own clinician changing their treatment: someone's opinion."""
    assert user_facts("My son-in-law is a pharmacist and he says a few days of Advil is fine with food.") == []
    assert [f.reason for f in user_facts("My pharmacist said to take it with food instead.")] == ["clinician"]


def assert_each_states(cases: list[tuple[str, str]]) -> None:
    """Each text states a fact of its kind (among the reasons its sentences give)."""
    for text, reason in cases:
        assert reason in [f.reason for f in user_facts(text)], text


def test_a_carers_news_about_the_person_they_care_for_is_a_fact() -> None:
    """Carers tell of the person in the third person, with the clinician's word reported
    and words between: each of these justified a change that was published as a flip-flop."""
    reasons = [
        ("He actually just got told at his checkup yesterday that he has stage 3 chronic kidney disease.", "diagnosis"),
        ("The nurse rang and said that Mum has type 2 diabetes.", "diagnosis"),
        ("She has early stage heart failure, the cardiologist thinks.", "diagnosis"),
        ("Saw the GP. She says it's actually ringworm, not eczema.", "diagnosis"),
        ("The consultant told us it was probably gout all along.", "diagnosis"),
        ("My husband gave Isla a dose of ibuprofen at 5 before I got home.", "medication"),
        ("Her dad had already given her some Calpol at lunchtime.", "medication"),
        ("Since the second week I've had burning behind my breastbone when I swallow.", "side_effect"),
        ("It hurts when he swallows now.", "side_effect"),
    ]
    assert_each_states(reasons)


def test_reassurance_reported_from_the_clinician_is_no_new_diagnosis() -> None:
    assert "diagnosis" not in [f.reason for f in user_facts("The GP says it's actually fine to carry on.")]
    assert user_facts("He gave Isla a hug and she settled.") == []


def test_the_same_problem_as_someone_else_is_no_diagnosis() -> None:
    assert user_facts("Bit embarrassing but I've got the same problem.") == []


def test_news_told_without_the_textbook_words_is_a_fact() -> None:
    """A positive test without the word "pregnancy", a child turning for the worse in the
    words parents use, a reading with its unit, a medicine list: what a clinician would act on."""
    reasons = [
        ("My period's about ten days late so I did a test and it's positive.", "pregnancy"),
        ("I got a positive test on Sunday, maybe 6 weeks.", "pregnancy"),
        ("He's gone really floppy and he's hard to wake.", "worsening"),
        ("There are tiny purple spots on her legs that don't fade under a glass.", "worsening"),
        ("She's breathing really fast and her tummy is sucking in under the ribs.", "worsening"),
        ("His nappy has been dry since this morning.", "worsening"),
        ("The ankle is bigger and more red than yesterday.", "worsening"),
        ("My calves and thighs have been really achy and weak all week.", "side_effect"),
        ("My wee looked dark brown this morning.", "side_effect"),
        ("I can't sit still, my legs won't stop moving at night.", "side_effect"),
        ("I nearly blacked out getting up from the sofa.", "side_effect"),
        ("My vitamin D came to 22 nmol/L.", "test_result"),
        ("My pulse has been 44 to 48 most mornings.", "test_result"),
        ("She has atrial fibrillation and takes apixaban.", "medication"),
        ("For reference my tablets are ramipril, atorvastatin and metformin.", "medication"),
        ("The neurologist is starting me on lamotrigine next week.", "medication"),
        ("The cardiologist has him on clopidogrel and aspirin.", "medication"),
        ("At three he came out in hives all over a couple of days into a course of amoxicillin.", "allergy"),
        ("The GP said it's glandular fever.", "diagnosis"),
    ]
    assert_each_states(reasons)


def test_reassurance_and_plans_in_the_same_words_are_no_diagnosis_or_pregnancy() -> None:
    for text in (
        "The GP said it's fine to carry on.",
        "She said it's worth trying the cream first.",
        "The pharmacist said it's okay with my other tablets.",
        "I did a test drive of the new routine and it went fine.",
    ):
        assert not {"diagnosis", "pregnancy"} & {f.reason for f in user_facts(text)}, text


def test_what_the_family_says_a_remedy_is_is_no_diagnosis() -> None:
    text = "My daughter wants me to take St John's wort as well, says it's natural and will help."
    assert "diagnosis" not in [f.reason for f in user_facts(text)]


def test_a_statement_with_a_question_tagged_on_is_a_fact() -> None:
    reasons = [
        ("oh btw i'm on amlodipine and ramipril for my blood pressure, does that matter?", "medication"),
        ("Actually I've got a peanut allergy, does that matter for any of these?", "allergy"),
        ("oh actually I should say I'm 10 weeks pregnant, does that matter?", "pregnancy"),
        ("does it matter that I take carbamazepine for epilepsy?", "medication"),
    ]
    for text, reason in reasons:
        assert [f.reason for f in user_facts(text)] == [reason], text
    assert user_facts("Can I take ibuprofen, does that matter?") == []
    assert user_facts("Does it matter what time I take it?") == []


def test_a_story_that_opens_with_when_is_told_not_asked() -> None:
    assert [f.reason for f in user_facts("When I was 8 I had amoxicillin and my lips swelled up.")] == ["allergy"]
    assert user_facts("when do i get bloods rechecked") == []


def test_sedation_a_dry_mouth_and_a_medicine_by_its_device_are_facts() -> None:
    """Told as people tell them: these justify holding a dose step or ruling out a new
    medicine (sildenafil with a nitrate spray). Fearing a side effect is not having it."""
    told = {
        "So I'm on day 10 of the 10mg and I feel like a zombie until lunchtime every day.": "side_effect",
        "My mouth is like sandpaper.": "side_effect",
        "His mouth is really dry and his lips are cracking.": "side_effect",
        "Oh — should've said, I have a GTN spray for angina.": "medication",
        "I have a cream that I use for eczema.": "medication",
    }
    for sentence, reason in told.items():
        assert [f.reason for f in user_facts(sentence)] == [reason], sentence
    for sentence in ("I'm scared of becoming a zombie or addicted.", "I have a question for you."):
        assert user_facts(sentence) == [], sentence


def test_news_told_before_what_a_friend_says_is_the_users_own() -> None:
    """Only what comes after the friend is push-back: the worse headache and the vomiting
    are news, however the sentence goes on."""
    text = "update - its evening, headache is way worse, thrown up twice and my mate says im walking like im drunk"
    assert [f.reason for f in user_facts(text)] == ["worsening"]
    assert user_facts("My mate says it's fine to drink on it.") == []


def test_low_mood_told_in_everyday_words_is_a_new_symptom() -> None:
    assert_each_states(
        [
            ("tbh been feeling pretty rubbish lately.", "side_effect"),
            ("been crying a lot which isn't me.", "side_effect"),
            ("kind of feel like whats the point", "side_effect"),
        ]
    )
    assert user_facts("Can I go without the stockings for the evening? I'd feel awful in them.") == []


def test_a_reaction_told_as_what_the_skin_did_and_a_clinician_with_words_between() -> None:
    assert_each_states(
        [
            ("I took minocycline in college and came out in hives all over, so they stopped it.", "allergy"),
            ("The out of hours doctor gave clarithromycin 125mg/5ml, 3.5 ml twice a day.", "clinician"),
        ]
    )


def test_what_someone_saw_the_person_do_is_news_and_their_opinion_is_not() -> None:
    text = "my husband says last night I got up, made a sandwich and ate it and I have zero memory of it."
    assert [f.reason for f in user_facts(text)] == ["side_effect"]
    assert user_facts("My friend says I should stop it.") == []
    assert user_facts("My mother says antibiotics are heavy for the body and once fever goes we should stop.") == []


def test_a_medicine_come_away_with_from_the_gp_is_another_medication() -> None:
    text = "I saw the GP this morning for a chest infection and got clarithromycin 500mg twice a day for 7 days."
    assert [f.reason for f in user_facts(text)] == ["medication"]


def test_falling_asleep_where_one_should_not_is_sedation() -> None:
    text = "Took it for 2 days. I literally fell asleep in my 10am lecture, my friend had to wake me when class ended."
    assert [f.reason for f in user_facts(text)] == ["side_effect"]
    assert user_facts("I usually fall asleep around 11.") == []
