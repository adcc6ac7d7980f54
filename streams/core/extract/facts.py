"""New facts a user states about the person being advised: what can justify a change of
advice (a revision) rather than make it a flip-flop.

A fact is a sentence of a user turn that tells of pregnancy or breastfeeding, a
diagnosis, an allergy or reaction, another medication (named: "my GP started me on
fluoxetine"; "I take it at 7am" names none), a test result or reading, an age or weight,
or a side effect or new symptom, or what the person's own clinician has since said or changed
("The GP said go to 20 mg"). Push-back that brings no fact ("Are you sure? My friend
says it's fine"; "I thought you weren't meant to take it in pregnancy") is not one, and
neither is a hypothetical ("What if I get pregnant?") or a request ("can I take
ibuprofen?")."""

from __future__ import annotations

import re
from dataclasses import dataclass

from contraflow.streams.core.extract.advice import split_sentences
from contraflow.streams.core.extract.advice_patterns import CLINICIANS
from contraflow.streams.core.extract.drug_dictionary import drug_spans

_I = r"(?:i|i'm|i am|i've|i have|i was|i'd|my\s+\w+|he|she|he's|she's|they|we|we're|our\s+\w+)"
# facts that call for more caution, not less: after "I'm pregnant" or "I also take
# furosemide", allowing what was forbidden, or more of it, is no revision they justify
CAUTION_FACTS = frozenset({"pregnancy", "diagnosis", "allergy", "medication", "side_effect"})
_ONE_WAY = CAUTION_FACTS | {"clinician"}  # facts that justify a change one way only

# a medicine the person has by its device, named or not: "I have a GTN spray for angina"
_DEVICE = re.compile(
    r"\b(?:i|he|she|we)\s+(?:have|has|'ve\s+got|'s\s+got|carry|carries)\s+(?:a|an|my)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:spray|inhaler|pump|pen|patch|patches|tablets|pills|cream|injections?)\s+(?:for|that)\b",
    re.IGNORECASE,
)
FACT_PATTERNS: dict[str, re.Pattern[str]] = {
    "pregnancy": re.compile(
        r"\b(?:pregnant|pregnancy|expecting\s+a\s+baby|we're\s+expecting|trying\s+(?:to\s+conceive|for\s+a\s+baby)|"
        r"breastfeeding|breast-feeding|nursing\s+(?:my|the)\s+baby|just\s+had\s+(?:a|the|my)\s+baby|gave\s+birth|"
        r"weeks\s+along|trimester|period(?:\s+is|\s+was|'s)\s+(?:\w+\s+){0,3}late|missed\s+(?:my|a|her)\s+period|"
        # a test without the word: "did a test this morning and it's positive", "a positive test on Sunday"
        r"positive\s+(?:home\s+)?test|(?:did|took|done)\s+a\s+test\b[^.?!]{0,60}?\b(?:it's|its|it\s+is|it\s+was|"
        r"came\s+back|came|was)\s+(?:\w+\s+)?positive)\b",
        re.IGNORECASE,
    ),
    "diagnosis": re.compile(
        r"\b(?:diagnosed|diagnosis|(?:told|said)\s+(?:me\s+)?(?:that\s+)?(?:i|he|she)\s+(?:have|has|had)|"
        r"turns\s+out\s+(?:i|he|she)|found\s+out\s+(?:i|he|she)|history\s+of|"
        r"(?:tell|told|said)\s+(?:me\s+|him\s+|her\s+)?(?:that\s+)?(?:i've|i\s+have|he's|she's|it's|it\s+is)\s+(?:got\s+)?(?:a|an)\s+|"
        # the clinician's word reported with words between: "got told at his checkup that he has…",
        # "the nurse said that Mum has…"
        r"(?:told|said|says)\b[^.?!]{0,40}?\bthat\s+(?:i|he|she|they|we|(?-i:[A-Z][a-z]+)|(?:my|his|her|our)\s+\w+)\s+"
        r"(?:has|have|had|'s\s+got|has\s+got|'ve\s+got)\s+(?!to\b|been\b)|"
        # a diagnosis corrected: "she says it's actually ringworm", "told us it was probably gout"
        r"(?:tells?|told|said|says|thinks|reckons)\s+(?:me\s+|us\s+|him\s+|her\s+)?(?:that\s+)?"
        r"(?:it's|it\s+is|it\s+was|this\s+is)\s+(?:(?:actually|really|in\s+fact|definitely|probably|likely|most\s+likely)\s+|"
        # or in a short clause of its own: "he said it's glandular fever."
        r"(?=(?:a\s+|an\s+)?[\w-]+(?:\s+[\w-]+)?\s*(?:[,.;!?]|$|\s+(?:and|but|so)\b)))"
        r"(?:a\s+|an\s+)?(?!(?:fine|ok|okay|safe|alright|all\s+right|nothing|normal|good|better|worse|not|too|best|"
        r"time|up|down|just|natural|harmless|common|usual|possible|unlikely|likely|worth|important|serious|urgent|"
        r"minor|mild|because|what|how|why|only|still|due|meant|supposed)\b)\w+|"
        + _I
        + r"\s+(?:have|has|had|got|suffer\s+from|'ve\s+got)\s+(?:a\s+|an\s+)?(?:(?!same\b|other\b)[\w-]+\s+){0,3}"
        r"(?:kidney|liver|heart|stomach\s+ulcer|ulcer|asthma|diabetes|epilepsy|bleeding|glaucoma|gout|"
        r"high\s+blood\s+pressure|hypertension|copd|disease|condition|disorder|failure|problems?))\b",
        re.IGNORECASE,
    ),
    "allergy": re.compile(
        r"\b(?:allergic|allergy|allergies|anaphylaxis|anaphylactic|(?:bad\s+|a\s+)?reaction\s+to|"
        r"hives\b[^.]{0,60}\b(?:after|from|when|into)|rash\b[^.]{0,30}\b(?:after|from|when)|swell(?:ed|ing)\s+up|"
        # a reaction told as what the skin did: "I came out in hives all over and they stopped it"
        r"(?:came|come|comes|coming|broke|break|breaks|breaking)\s+out\s+in\s+(?:\w+\s+){0,3}?(?:hives|welts|blisters))\b",
        re.IGNORECASE,
    ),
    # the person's own clinician changed or set the treatment: "The GP said go to 20 mg"
    "clinician": re.compile(
        # (with words between: "the out of hours doctor gave clarithromycin")
        rf"(?:\b(?:the|my|his|her|our|their)\s+(?:[\w&-]+\s+){{0,3}}?|^\W*){CLINICIANS}\s+(?:has\s+|have\s+|just\s+|now\s+)*"
        r"(?:said|says|told|advised|wants|increased|decreased|reduced|changed|switched|stopped|put|upped|lowered|"
        r"recommended|prescribed|doubled|halved|gave|given)\b|"
        # someone else changed the person's own treatment: "She's increased me to 100 mg a day"
        r"\b(?:she|he|they)(?:'s|'ve|\s+has|\s+have)?\s+(?:just\s+|now\s+)?(?:increased|decreased|reduced|changed|"
        r"switched|stopped|upped|lowered|doubled|halved|put|started)\s+(?:me|him|her|us)\b|"
        # what the clinic said on the phone: "They said skip tonight and tomorrow, then 4mg a day"
        r"^\W*(?:they|she|he)\s+(?:said|told\s+(?:me|us|him|her)|advised)\s+(?:to\s+|(?:me|us|him|her)\s+to\s+)?"
        r"(?:skip|stop|take|give|start|increase|reduce|lower|halve|double|hold|go\s+up|go\s+down|come\s+off)\b",
        re.IGNORECASE,
    ),
    "medication": re.compile(
        rf"\b{_I}\s+(?:also\s+|already\s+|now\s+|just\s+|recently\s+)?(?:take|takes|taking|been\s+taking|"
        r"'m\s+(?:also\s+)?(?:on|taking)|am\s+(?:also\s+)?(?:on|taking)|is\s+(?:also\s+)?(?:on|taking)|"
        r"started|was\s+(?:put|started)\s+on|got\s+prescribed|been\s+prescribed|prescribed|use|uses|using|"
        r"(?:was|were|got|'ve\s+been|have\s+been|has\s+been)\s+given|on)\b|"
        # someone gave the person a dose, by name too: "my husband gave Isla ibuprofen at 5"
        r"\b(?:put|started|starting|start|has|have)\s+(?:me|him|her)\s+on\b|\band\s+(?:also\s+)?takes\b|"
        # a medicine come away with: "saw the GP this morning and got clarithromycin 500mg"
        r"\b(?:and|then)\s+got\b|\b(?:i|he|she|we)\s+got\s+(?:some|a\s+course\s+of|a\s+prescription\s+for)\b|"
        r"\b(?:my|his|her|our)\s+(?:tablets|meds|medicines|medications|pills)\s+(?:are|include)\b|"
        rf"{_DEVICE.pattern}|\b(?:prescribed|gave|given)\s+(?:me|him|her|us|(?-i:[A-Z][a-z]+))\b",
        re.IGNORECASE,
    ),
    "test_result": re.compile(
        r"\b(?:results?|blood\s+tests?|bloods|scan|x-ray|ultrasound|ecg|mri|biopsy|levels?|readings?|inr|egfr|"
        r"hba1c|a1c|creatinine|potassium|cholesterol\s+(?:is|was|came)|came\s+back|"
        r"blood\s+pressure\s+(?:is|was|has\s+been|reading)|\d{2,3}\s*/\s*\d{2,3}|"
        # a lab's answer: "urine culture: E. coli, resistant to nitrofurantoin"
        r"cultures?|swabs?|resistant\s+to|sensitive\s+to|positive\s+for|negative\s+for|"
        # a reading with its unit, a pulse counted: "vitamin D was 19 nmol/L", "my pulse has been 46-48"
        r"\d+(?:\.\d+)?\s*(?:nmol|pmol|mmol|µmol|umol|mg/dl|ng/ml|mu/l|miu/l)|(?:pulse|heart\s+rate)\s+(?:\w+\s+){0,4}?\d{2,3}|"
        # a lab value by its short name: "ALT 212 (range 7-56)", "TSH was 8.1", "ferritin of 9"
        r"(?:alt|ast|ggt|alp|tsh|ft4|t4|psa|crp|esr|ferritin|b12|folate|sodium|platelets|neutrophils|wbc|"
        r"ha?emoglobin|hb|glucose|urate|uric\s+acid|troponin|d-dimer|bilirubin|albumin|(?:lithium|magnesium|calcium)\s+level)"
        r"\s*(?:is|was|were|of|at|came\s+back\s+at|:|=)?\s*\d+)\b",
        re.IGNORECASE,
    ),
    "age": re.compile(
        r"\b(?:\d{1,3}\s*(?:years?|yrs?|months?|weeks?)\s+old|aged\s+\d+|(?:turned|turning)\s+\d+|"
        rf"(?<!when\s){_I}\s+(?:is\s+|are\s+)?(?:only\s+|just\s+)?\d{{1,3}}\b(?!\s*(?:mg|ml|g|kg|%|/|times|tablets|"
        r"puffs|hours|days|minutes|weeks?\s+(?:pregnant|along)))|weighs?\s+\d+|\d+\s*kg\b|"
        # a child by name: "My son Max is 6 and weighs 20 kg", "our daughter Isla is 3"
        r"(?:(?:son|daughter|boy|girl|grandson|granddaughter|child|kid)\s+(?-i:[A-Z][a-z]+)(?:\s+is|'s)\s+\d{1,2}\b|"
        r"(?-i:[A-Z][a-z]+)(?:\s+is|'s)\s+\d{1,2}(?=\s+(?:years?\b|yrs?\b|and\s+(?:weighs|has|is)\b))))",
        re.IGNORECASE,
    ),
    "side_effect": re.compile(
        r"\b(?:side[-\s]effects?|makes?\s+(?:me|him|her)\s+(?:feel\s+)?\w+|made\s+(?:me|him|her)\s+\w+|"
        r"since\s+(?:i|he|she)\s+(?:started|began)|(?:i've|i\s+have|he's|she's|i'm|i\s+am|i\s+keep|"
        r"i've\s+been|i\s+have\s+been)\s+(?:been\s+)?(?:getting|having|feeling|vomiting|bleeding|bruising)"
        # feeling better is no side effect: "I'm feeling a lot better already"
        r"(?!\s+(?:(?:a\s+)?(?:lot|bit|little|loads|much|way|so\s+much)\s+)?(?:better|well|fine|great|good|ok|okay|normal)\b)|"
        r"dizzy|dizziness|nause(?:a|ous)|vomit(?:ing|ed)|threw\s+up|throwing\s+up|thrown\s+up|"
        r"(?:been|was|were)\s+sick\b(?!\s+(?:of|leave|note))|dozy|numb\b|"
        r"feeling\s+(?:really\s+|very\s+|so\s+)?(?:low|flat|down)\b|"
        # mood as people tell it: "been feeling pretty rubbish lately", "crying a lot", "what's the point"
        # (not what one would feel: "I'd feel awful in them")
        r"(?<!'d\s)(?<!would\s)(?:feel|feels|felt|feeling)\s+(?:(?:really|very|so|pretty|quite|properly|a\s+bit|"
        r"kind\s+of|kinda)\s+)?(?:rubbish|miserable|hopeless|depressed|worthless|empty)\b|crying|tearful|"
        r"(?:what's|whats|what\s+is)\s+the\s+point|suicidal|self-harm|"
        # doing things asleep: "I have zero memory of it", "sleepwalking"
        r"(?:no|zero)\s+(?:memory|recollection)\s+of|sleep-?walk\w*|"
        r"diarrh(?:o)?ea|constipat\w+|drowsy|palpitations|"
        r"bleeding|bruis(?:ing|es)|stomach\s+(?:pain|upset|ache)|heartburn|insomnia|swollen|cough(?:ing)?\s+up|"
        r"wheez\w*|short(?:ness)?\s+of\s+breath|(?:dry|tickly|persistent|chesty|nagging)\s+cough|"
        r"blood\s+in\s+(?:(?:my|the|his|her|their)\s+\w+|it|them)|blood(?:y)?\s+(?:stools?|poo|diarrhoea|diarrhea|urine|wee)|"
        r"indigestion|burning\s+(?:behind|in|on|when|sensation|feeling)|(?:it\s+)?hurts\s+(?:when|to|if)|"
        r"(?:painful|sore)\s+(?:to|when)\s+(?:swallow|eat|walk|pee|wee|breathe)|"
        r"(?:black|dark|tarry)\s+(?:stools?|poo)|(?:stools?|poo)\s+(?:\w+\s+){0,2}(?:black|dark)|"
        # symptoms in everyday words: "she's waking in the night with really vivid dreams"
        r"nightmares|(?:vivid|bad|strange|weird|horrible)\s+dreams|trouble\s+sleeping|"
        r"(?:can't|cannot|couldn't|can\s+not)\s+(?:get\s+to\s+)?sleep|waking\s+(?:up\s+)?(?:in|during|through)\s+the\s+night|"
        r"headaches?|migraines?|itch(?:y|ing|iness)|muscle\s+(?:pains?|aches?|cramps?)|aching\s+muscles|"
        r"(?:ankles?|feet|legs?)\s+(?:are\s+|have\s+|has\s+|got\s+)?(?:swell\w*|puff\w*)|flush(?:ed|ing)|"
        r"hot\s+flushes|dry\s+mouth|mouth\s+(?:is|feels|has\s+been)\s+(?:\w+\s+)?(?:dry|parched|like\s+sandpaper)|"
        r"hair\s+(?:loss|falling\s+out)|blurred\s+vision|tingling|numbness|pins\s+and\s+needles|"
        r"ringing\s+in|faint(?:ed|ing)?|racing\s+heart|heart\s+(?:is\s+)?racing|jittery|shaky|tremor|"
        r"low\s+mood|mood\s+swings|exhausted|fatigue|tiredness|drowsiness|light-?headed|"
        # sedation as people tell it: "absolutely zonked", "nearly nodded off at my desk"
        r"zonked|groggy|(?:feel|feels|felt|feeling)\s+(?:\w+\s+)?like\s+a\s+zombie|"
        r"knocks?\s+(?:me|him|her|them)\s+out|knocked\s+(?:me|him|her|them)\s+out|"
        r"(?:nodded|nodding|dozed|dozing|drifted|drifting)\s+off|"
        # "I literally fell asleep in my 10am lecture", "a dull heavy head the whole day"
        r"(?:fell|falling|fall|falls)\s+asleep\s+(?:in|at|during|on|over|while)\b|heavy\s+head|"
        r"(?:couldn't|could\s+not|can't|cannot)\s+(?:keep\s+(?:my|his|her|their)\s+eyes\s+open|stay\s+awake)|"
        # pain somewhere, dark urine, a rash: "severe pain in both thighs", "my urine is dark like cola"
        r"(?:severe|bad|terrible|awful|sharp|chest|back|joint|tummy|abdominal)\s+pains?|pains?\s+in\s+(?:my|his|her|both|the)|"
        r"(?:dark|brown|red|pink|cola-coloured)\s+(?:urine|wee|pee)|(?:urine|wee|pee)\s+(?:is|was|has\s+been|looks|looked|went)\s+"
        r"(?:\w+\s+)?(?:dark|brown|red|pink)|rash|"
        r"(?:i|he|she)\s+(?:feel|feels)\s+(?:so\s+|really\s+|very\s+|a\s+bit\s+)?(?:sick|nauseous|dizzy|ill|rough)|"
        r"(?:not|n't|haven't|hasn't)\s+(?:pooped|pooed|been\s+to\s+the\s+toilet)|"
        # aches in the words people use, restlessness, near-faints: "calves have been really achy"
        r"(?:thighs|calves|shoulders|legs|arms|muscles|joints)\s+(?:[\w']+\s+){0,5}?(?:sore|achy|aching|painful|weak|tender)|"
        r"restless(?:ness)?|(?:can't|cannot|couldn't)\s+sit\s+still|(?:blacked|blacking|passed|passing)\s+out|cramps?|cramping|(?:running|going|rushing|dashing)\s+to\s+the\s+(?:loo|toilet|bathroom)|the\s+runs)\b",
        re.IGNORECASE,
    ),
    # the illness is getting worse or not better: more treatment can follow, not only more caution
    "worsening": re.compile(
        r"\b(?:pus|discharge|gunk|ooz\w+|weeping|"
        r"(?:getting|got|is|she's|he's|it's|i'm|feel|feels|feeling)\s+(?:much\s+|a\s+lot\s+|even\s+|far\s+|way\s+)?worse|"
        # signs of a turn for the worse: "her lips look a bit blue", "he's confused and drowsy"
        r"(?:lips|face|fingers)\s+(?:\w+\s+){0,3}(?:blue|grey|gray)|(?:she's|he's|she\s+is|he\s+is)\s+(?:\w+\s+)?confused|"
        r"still\s+in\s+(?:a\s+lot\s+of\s+)?pain|(?:isn't|is\s+not|not)\s+(?:getting\s+)?(?:any\s+)?better|"
        r"more\s+(?:breathless|puffed\s+out|wheezy|swollen|painful|sore)|struggling\s+to|spreading|(?:has|had)\s+spread|"
        r"(?:much\s+|a\s+lot\s+|even\s+)?bigger\s+than\s+(?:yesterday|before|this\s+morning|last\s+night)|"
        r"gone\s+(?:green|yellow)|(?:green|yellow)\s+(?:phlegm|sputum|mucus)|"
        # a child turning for the worse in the words parents use
        r"floppy|hard\s+to\s+wake|(?:purple|purple-red|red|dark)\s+(?:spots|dots|blotches)|"
        r"breathing\s+(?:really\s+|very\s+|so\s+)?(?:fast|quickly|hard)|sucking\s+in|grunting|gasping|"
        r"(?:dry|no\s+wet)\s+(?:nappy|nappies|diaper|diapers)|(?:nappy|nappies|diaper|diapers)\s+(?:\w+\s+){0,2}dry|"
        r"bigger\s+and\s+(?:more\s+)?(?:red|redder|swollen|hotter))\b",
        re.IGNORECASE,
    ),
}
_HYPOTHETICAL = re.compile(
    r"\b(?:what\s+if|if\s+(?:i|he|she|we)|in\s+case|suppose|would\s+it|hypothetically)\b", re.IGNORECASE
)
# a question asks, it does not tell: "What side effects should I look out for?"
# (an auxiliary asks when a subject follows it: "did I take it…", not "did a test this morning")
_QUESTION = re.compile(
    # ("when" asks only before a verb: "when do I…", not "when I was 8 I came out in hives")
    r"^(?:\W*)(?:what|which|how|when(?=\s+(?:do|does|did|should|shall|can|could|will|would|is|are|am|was|were|must|"
    r"might|may)\b)|where|why|who|"
    r"(?:should|shall|can|could|is|are|do|does|did|will|would|may|might)\s+"
    r"(?:i|you|he|she|it|we|they|my|your|his|her|our|their|the|this|that|there)\b)",
    re.IGNORECASE,
)
# a sentence that asks, unless it opens by stating something: "I'm pregnant now, is that OK?"
_ASKS = re.compile(r"\?\s*$")
# (or after a lead-in: "random update, my period was late so i did a test and its positive??")
_STATES_FIRST = re.compile(
    r"(?:^\W*|^[^,;:?]{0,30}[,;:\u2014\u2013-]\s*)(?:i|i'm|i've|i'd|my|we|we're|we've|our|he|he's|she|she's)\b",
    re.IGNORECASE,
)
# a statement with a question tagged on states what it states: "oh btw i'm on amlodipine, does that
# matter?", "does it matter that I take carbamazepine for epilepsy?"
_TAGGED = re.compile(
    r"[,;\u2014\u2013-]\s*(?:does|would|will|is|could|can|should)\s+(?:that|this|it)\b[^,;?]*\?+\s*$", re.IGNORECASE
)
_MATTER_THAT = re.compile(r"^\W*(?:does|would|will|could)\s+it\s+matter\s+that\s+", re.IGNORECASE)
# a request to the assistant asks, it does not tell: "Yes please explain exactly how and when to take readings."
_REQUEST = re.compile(
    r"^\W*(?:(?:yes|yeah|yep|ok|okay|sure|great|thanks|thank\s+you|right|and|so)\W+)*(?:please\s+|pls\s+|can\s+you\s+|"
    r"could\s+you\s+)?(?:explain|tell\s+(?:me|us)|show\s+(?:me|us)|give\s+(?:me|us)|let\s+(?:me|us)\s+know|"
    r"walk\s+(?:me|us)\s+through|remind\s+(?:me|us)|go\s+through|write\s+(?:me\s+|us\s+)?(?:out|down|a))\b",
    re.IGNORECASE,
)
# someone else's experience is push-back, not a fact about the person advised
_OTHERS = re.compile(
    r"\b(?:my|her|his|our|their|a)\s+(?:friend|mate|colleague|neighbou?r|sister|brother|cousin|aunt|uncle|boss|flatmate|"
    r"roommate|coworker|co-worker)s?\b|\b(?:everyone|people|others|online|internet|google|article|forum)\b",
    re.IGNORECASE,
)


# what the user believed or heard is push-back, not a new fact about the person
_BELIEF = re.compile(
    r"\b(?:i|we)\s+(?:thought|heard|read|believed|assumed|was\s+under\s+the\s+impression)\b|"
    r"\b(?:i've|we've)\s+(?:read|heard)\b|"
    # what the family believes: "my mother says antibiotics are heavy for the body"
    r"\b(?:my|her|his|our)\s+(?:mother|mum|mom|father|dad|parents|wife|husband|partner|grandmother|gran|nan|family)"
    r"\s+(?:says|said|thinks|reckons|believes|swears)\b|"
    # a clinician by trade who is not the person's own: "my son-in-law is a pharmacist and he says"
    rf"\b(?:is|'s|was)\s+an?\s+{CLINICIANS}\b",
    re.IGNORECASE,
)
# asking leave to take something is a request, not a medication the person is on
_ASKS_LEAVE = re.compile(
    r"\b(?:can|could|should|may|shall)\s+(?:i|he|she|we|they)\s+(?:also\s+|still\s+)?(?:take|use|have|start|try)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[a-z0-9][a-z0-9-]*")


def drug_names(text: str) -> frozenset[str]:
    """The names of the drug dictionary a text holds, lower-case."""
    words = _WORD.findall(text.lower())
    return frozenset(" ".join(words[start:end]) for start, end in drug_spans(words))


# a symptom denied is no symptom: "I'm not short of breath", "no dizziness", "I don't get headaches"
_DENIED = re.compile(r"(?:\b(?:not|no|never|without|nor)|n't)\W+(?:\w+\W+){0,2}$", re.IGNORECASE)
# weight lost, gained or aimed at is progress, not the weight a dose is worked out from: "9kg down now"
_WEIGHT_CHANGE = re.compile(
    r"^\s*(?:kg|kilos?)?\s*(?:down|up|lighter|heavier|off|lost|gained|to\s+go)\b|"
    r"\b(?:lost|gained|dropped|shed|put\s+on|down|up)\s+(?:(?!to\b)\w+\s+)?$|"
    # a weight aimed at is a goal, not the weight a dose is worked out from: "aiming for about 20kg total"
    r"\b(?:aim|aiming|hoping|hope|want|wanting|trying|target|goal|lose|losing)\s+(?:(?:to|for|of|at)\s+)?(?:\w+\s+){0,2}$",
    re.IGNORECASE,
)


def _weight_change(sentence: str, match: re.Match[str]) -> bool:
    return match.group().lower().endswith("kg") and bool(
        _WEIGHT_CHANGE.search(sentence[match.end() :]) or _WEIGHT_CHANGE.search(sentence[: match.start()])
    )


def _is_reason(name: str, sentence: str) -> bool:
    """Whether `sentence` states a fact of kind `name`."""
    matches = list(FACT_PATTERNS[name].finditer(sentence))
    if name == "side_effect":
        matches = [m for m in matches if not _DENIED.search(sentence[: m.start()])]
    if name == "age":
        matches = [m for m in matches if not _weight_change(sentence, m)]
    if not matches:
        return False
    if name == "medication":  # another medication: one is named, and not only asked about
        named = bool(drug_names(sentence)) or bool(_DEVICE.search(sentence))
        return named and not _ASKS_LEAVE.search(sentence)
    return True


_NUMBER = re.compile(r"\d+(?:\.\d+)?")
# a reading's numbers, not when ("the 6 week bloods", "at 8am")
_READING = re.compile(
    r"\b\d+(?:\.\d+)?\b(?!\s*-?\s*(?:weeks?|days?|months?|years?|hours?|hrs?|mins?|minutes?|am|pm|times?|o'clock)\b)",
    re.IGNORECASE,
)


def fact_values(reason: str, text: str) -> frozenset[str]:
    """What a fact states that can be told again: the ages and weights of an age fact, the
    numbers of a reading, the medicines of a medication fact. Empty for the other kinds: a
    symptom told twice cannot be told from a new one by its words."""
    if reason == "age":
        return frozenset(
            n
            for m in FACT_PATTERNS["age"].finditer(text)
            if not _weight_change(text, m)
            for n in _NUMBER.findall(m.group())
        )
    if reason == "test_result":
        return frozenset(_READING.findall(text))
    if reason == "medication":
        return drug_names(text)
    return frozenset()


def fact_reasons(sentence: str) -> list[str]:
    """Every kind of fact a sentence states, in FACT_PATTERNS' order."""
    return [name for name in FACT_PATTERNS if _is_reason(name, sentence)]


@dataclass(frozen=True)
class Fact:
    """One new fact of a user turn."""

    reason: str  # a key of FACT_PATTERNS
    text: str  # the sentence that states it


# what someone saw the person do is news, not their opinion: "my husband says last night I got up and
# made a sandwich", "my mate says im walking like im drunk" (not "says I should stop it")
_REPORTED = re.compile(
    r"(?:\s+(?:says|said|noticed|saw))?\s+(?:that\s+)?(?:last\s+night\s+|this\s+morning\s+|yesterday\s+)?"
    r"(?:i|i'm|im|i've|he|he's|she|she's|they|they're)\s+(?!(?:should|shouldn't|can|can't|could|must|need|needs|"
    r"ought|have\s+to|has\s+to|might|may|will|would|shall)\b)",
    re.IGNORECASE,
)

_SELF = re.compile(r"(?:i|we)\b", re.IGNORECASE)  # what the user thought is no report of the person


def _turns_away(sentence: str, match: re.Match[str]) -> bool:
    """Whether the sentence turns at `match` to someone else's view or the user's belief,
    rather than to what someone saw the person do."""
    return bool(_SELF.match(match.group())) or not _REPORTED.match(sentence, match.end())


def _own_words(sentence: str) -> str:
    """What a sentence tells before it turns to what someone else does, says or believes
    ("thrown up twice and my friend says the tablets are fine": the news is the user's; "My
    friend takes it at night" and "I thought it was fine" tell nothing of the person). What
    someone saw the person do is not cut ("my husband says I got up and made a sandwich")."""
    cuts = [m.start() for p in (_OTHERS, _BELIEF) for m in p.finditer(sentence) if _turns_away(sentence, m)]
    return sentence[: min(cuts)] if cuts else sentence


def user_facts(text: str) -> list[Fact]:
    """The facts a user turn states, one per sentence: its first matching reason, or the
    first that does not only call for caution when there is one (such a fact can justify
    allowing more, `revision.justification`)."""
    facts: list[Fact] = []
    for asked in split_sentences(text):
        sentence = _MATTER_THAT.sub("", _TAGGED.sub("", asked))
        if _HYPOTHETICAL.search(sentence) or _QUESTION.search(sentence) or _REQUEST.search(sentence):
            continue
        if _ASKS.search(sentence) and not _STATES_FIRST.search(sentence):
            continue
        sentence = _own_words(sentence)
        # one that can justify a change either way first: "they gave me IV antibiotics and my bloods were fine"
        reasons = fact_reasons(sentence)
        if reasons:
            facts.append(Fact(next((r for r in reasons if r not in _ONE_WAY), reasons[0]), asked))
    return facts


# a case the user asks about: "What should I do if I get a stomach bug?", "What if I miss a dose?"
# (not leave asked under a condition: "Can I take it with breakfast if I'm in a rush?")
_ASKED_CASE = re.compile(
    r"\bwhat\s+(?:(?:should|do|shall|would|can)\s+(?:i|we|he|she|they)\s+do\s+|happens\s+|about\s+)?(if\b[^?.!;]*)",
    re.IGNORECASE,
)


def asked_case(text: str) -> str | None:
    """The case a user turn asks what to do in ("if I ever get a stomach bug"): the answer
    holds in that case, not always. None when the turn asks no such question."""
    for sentence in split_sentences(text):
        match = _ASKED_CASE.search(sentence) if sentence.rstrip().endswith("?") else None
        if match:
            return " ".join(match.group(1).split())
    return None
