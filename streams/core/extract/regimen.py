"""What one advice claim tells the person to do, as comparable slots: the instruction's
polarity (do / don't), its amounts, how often, when in the day, and with or without food.

Two claims about the same target contradict when they disagree on a slot both state:
"avoid alcohol" against "a glass of wine is fine" (polarity), "two puffs" against "one
puff" (amount), "once a day" against "twice a day" (frequency), "with your evening meal"
against "first thing in the morning on an empty stomach" (time of day, food). They agree
when every slot both state is the same, whatever the wording ("keep taking it" and "don't
stop taking it" are both "do"). Slots are read from the claim's main clause, so the
object of the instruction is what counts: in "avoid ibuprofen while you're on warfarin"
the instruction is about ibuprofen, not warfarin.

Conditional claims ("if the pain comes back, take…") and planned changes ("increase to…
after a week") are not held against plain instructions: they are not reversals.

How a verdict uses this: `streams.verdict` (the `regimen` rule)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from contraflow.streams.core.extract.advice import CLINICIANS, RELATIVES, instruction_part, is_advice, is_imperative
from contraflow.streams.core.extract.drug_dictionary import generic_names
from contraflow.streams.core.extract.targets import BODY_PARTS, CONCEPTS, content_words, substance_name, targets_of

_LIST_MARKER = re.compile(r"^\s*(?:[-*\u2022>]+|\d+[.)])\s*")
_CONTRACTIONS = (
    (re.compile(r"\bwon't\b"), "will not"),
    (re.compile(r"\bcan't\b|\bcannot\b"), "can not"),
    (re.compile(r"\bshan't\b"), "shall not"),
    (re.compile(r"n't\b"), " not"),
)
# words and phrases that turn an instruction around; each one flips the polarity
_FLIPS = re.compile(
    r"\b(?:not|never|no|none|nothing|neither|nor|avoid\w*|stop\w*|skip\w*|quit\w*|discontinu\w*|"
    r"cut out|cut it out|hold off|stay off|keep off|lay off|stay away|keep away|holding off|refrain\w*|"
    r"steer clear|come off|coming off|give up(?!\s+to\b)|"
    r"pause\w*|withh[oe]ld\w*|unsafe|dangerous|harmful|risky|inadvisable|off-limits|abstain\w*|"
    r"useless|pointless|no use|a waste of time|"
    r"cease\w*|halt\w*|give (?:\w+ ){1,2}a miss|leave (?:\w+ ){1,3}(?:out|off)|leave out|leave off|"
    r"(?:advise|advised|advises|recommend|recommends|recommended|warn|warns|caution|argue) against)\b"
)
# flips joined as alternatives say one thing: "no need to stop or pause breastfeeding"
_ALTERNATIVE = re.compile(r"\s*,?\s*(?:or|and|/)\s*")
# words with a flip that do not turn the instruction around: a service's name ("the stop smoking
# service"), a limit ("no more than four doses" still says take them)
_NAMES_WITH_FLIPS = re.compile(
    r"\bstop[- ]smoking (?:service|clinic|team|support|adviser|advisor|programme|program|nurse|group)s?\b|"
    r"\b(?:no|not|never) (?:more|longer|later|sooner|earlier) than\b|\b(?:do )?not (?:to )?exceed\b|"
    # "don't give more than 3 doses", "try not to take painkillers on more than 10 days a month": a limit
    r"\b(?:not|never) (?:to )?(?:take|give|use|have|drink)(?: [\w-]+){0,5}? (?:on |for )?more than\b|"
    r"\b(?:do not|never) (?:go|get) (?:over|above|beyond)\b|"  # "don't go over 1,200 mg in 24 hours"
    # the end of a course: "you simply stop after the fifth dose", "stop at the end of the course"
    r"\bstop (?:\w+ )?(?:after|at) the (?:last|final|end|fifth|seventh|tenth|\w+th) (?:dose|day|tablet|of the course)\b"
)
# "you don't need to", "there's no need": the thing is not required, which is not a prohibition
_NOT_REQUIRED = re.compile(
    r"\b(?:no need|not need|need not|needn't|not necessary|not needed|not required|unnecessary|not essential)\b"
)
# an instruction that allows rather than asks: "you can give it", "it's fine to swim"
_PERMISSION = re.compile(
    r"\b(?:can|could|may|(?:is|are|'s|'re|be) (?:\w+ )?(?:fine|okay|ok|alright|safe|allowed|free) to|"
    r"(?:is|are|'s|'re) (?:\w+ )?(?:fine|okay|ok|alright|safe)\b|no problem)"
)
# a most: "no more than", "up to", "a maximum of", "don't exceed"
# a most: "no more than 8 tablets", "don't take more than 300 mg", "try not to take painkillers on more than 10 days"
_LIMIT = re.compile(
    r"\b(?:(?:no|not|never) (?:[\w-]+ ){0,6}?more than|up to|maximum|max|at most|(?:do not|never|not to) exceed|"
    r"(?:do not|never|not to) (?:go|get) (?:over|above|beyond))\b"
)
# a change of the regimen that the instruction rules out: "don't increase it", "hold off on the increase"
_RULED_OUT_CHANGE = re.compile(
    r"\b(?:not|never|hold off|holding off|no need to|avoid)\s+"
    r"(?:(?:on|with|the|your|any|a|planned|to|be|try|need)\s+){0,3}(?:increas|decreas|reduc|rais|lower|switch|chang|taper|wean)\w*"
)
_CONDITIONAL = re.compile(
    r"\b(?:if|unless|in case|as needed|when needed|if needed|as required|whenever|should you|in the event|"
    r"once (?:you|your|it|the|they|he|she|that|this)|"
    r"without (?:first )?(?:checking|asking|talking|speaking|consulting|getting advice|advice)|"
    # a passing state: "while you can't keep fluids down", "while you're being sick"
    r"while (?:you|he|she|they)(?: are|'re| is|'s)? (?:can not|are not able|not able|unable|being sick|vomiting|"
    r"unwell|ill|poorly|dehydrated))\b"
)
# "even once it has settled", "even if you feel fine": the instruction holds regardless, no condition;
# nor is the person's wish a condition: "if it's bothering you, it's reasonable to stop" gives in to it
_EVEN = r"\beven (?:if|when|while|once|though|on days when)\b"
_CONCESSIVE = re.compile(
    rf"{_EVEN}|"
    r"\b(?:if|since) (?:you(?:'d| would) (?:rather|prefer|like)|you (?:really )?(?:want|prefer|wish)|"
    r"it(?:'s| is) (?:bothering|worrying|troubling) you|it (?:bothers|worries|troubles) you|"
    r"you(?:'re| are) (?:keen|set on|uncomfortable)|you feel ready)\b[^,;:]*|"
    # the usual deferral to a clinician: "don't go over 1,200 mg unless a doctor tells you to"
    rf"\bunless (?:(?:a|your|the) )?{CLINICIANS}(?: or (?:(?:a|your|the) )?\w+)? (?:tells|advises|says|recommends|"
    r"suggests|has (?:told|advised|said))\b[^,;:]*|\bunless (?:you(?:'re| are|'ve been| have been) )?(?:advised|told|"
    r"directed|instructed) (?:to )?otherwise\b"
)
_UNSURE = re.compile(r"\b(?:not sure|unsure|in doubt|can not remember|do not remember|do not know whether)\b")
# the instruction holds whatever happens: "keep taking it even while you've got this bug"
_REGARDLESS = re.compile(rf"{_EVEN}|\bregardless\b|\bwhatever happens\b")
_CHANGING = re.compile(
    r"\b(?:increas\w*|decreas\w*|reduc\w*|lower\w*|rais\w*|build(?:ing)? up|step(?:ping)? (?:up|down)|"
    r"(?<!can )go(?:ing)? up|go(?:ing)? down|taper\w*|titrat\w*|gradually|for the first|from next|"
    r"after (?:a|one|two|three|four|\d+) (?:days?|weeks?|months?)|start\w*|"
    r"from (?:day|week) \d+|(?:for|on) (?:days|weeks) \d+ to \d+|(?:day|week) \d+ onwards?)\b"
)
# subordinate clauses: context, not the instruction
_SUBORDINATE = re.compile(
    r"\b(?:if|unless|while|whilst|when|whenever|because|since|as long as|until|in case|so that|"
    r"though|although|however|except|but|as you|as soon as|now that|given that|rather than|instead of|"
    r"once (?:you|your|it|the|they|he|she|that|this))\b"
)
# the reasons given after an instruction: "avoid alcohol, because it can cause flushing, vomiting…"
_EXPLANATION = re.compile(
    r"\b(?:because|since|as (?:this|it|that|they)|so that|which|otherwise|that way|"
    r"(?:and )?then you (?:do not|will not) (?:have|need) to)\b|"
    # a purpose: "take it with food to protect your stomach", "use it to help you quit"
    r"(?<!try )(?<!need )(?<!want )(?<!you )(?<!sure )(?<!best )(?<!important )(?<!idea )"
    r"\b(?:in order )?to (?:protect|help|prevent|reduce|ease|lower|settle|boost|minimi[sz]e)\b"
)
_PUNCTUATION = re.compile(r"[;:()—]|(?<!\d)–|–(?!\d)|,(?!\d{3}\b)")  # not "1,200 mg", nor "2–3 hours"
# where a main clause starts after a subordinate one that no comma closes
_SUBJECT_MODAL = re.compile(r"\b(?:you|he|she|they|we)\s+(?:should|must|can|need|have to|will|may)\b")
# a contrast that opens a segment leads to its main point rather than to context
_CONTRAST = re.compile(r"^(?:but|however|yet)\s+(?=\S)")
_CONTEXT_PHRASE = re.compile(
    # "carry on with the ibuprofen": the object, not the context
    r"(?<!carry on )(?<!go ahead )(?<!get on )(?<!keep going )(?<!stick )(?<!continue )(?<!persevere )"
    r"\b(?:with|alongside|together with|on top of|as well as|along with|apart from|away from|separately from|unlike)\s+"
    r"(?:(?:your|the|a|an|any|some|other|my|his|her|their)\s+)?[\w-]+|"
    r"\b(?:in|during|through|throughout|all through|for the rest of)\s+(?:your\s+|her\s+|the\s+)?"
    r"(?:pregnancy|breastfeeding)\b|"  # the circumstances, not the object of the instruction
    # when, by another activity: "reapply straight after swimming", "avoid swimming after drinking"
    r"\b(?:after|before)\s+(?:\w+\s+)?\w+ing\b"
)

_NUMBER_WORDS = {"a": 1.0, "an": 1.0, "one": 1.0, "two": 2.0, "three": 3.0, "four": 4.0, "half": 0.5, "half a": 0.5}
_UNITS = {
    "mg": "mg",
    "milligram": "mg",
    "mcg": "mcg",
    "microgram": "mcg",
    "µg": "mcg",
    "g": "g",
    "gram": "g",
    "ml": "ml",
    "millilitre": "ml",
    "milliliter": "ml",
    "unit": "unit",
    "iu": "unit",
    "puff": "puff",
    "tablet": "tablet",
    "pill": "tablet",
    "capsule": "capsule",
    "drop": "drop",
    "spray": "spray",
    "teaspoon": "teaspoon",
    "tsp": "teaspoon",
    "spoonful": "teaspoon",
    "sachet": "sachet",
    "patch": "patch",
    "dose": "dose",
    "piece": "piece",
    "litre": "litre",
    "liter": "litre",
    "l": "litre",
}
_AMOUNT = re.compile(
    r"\b(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?|half a|a|an|one|two|three|four|half)\s*-?\s*"
    r"(mg|milligrams?|mcg|micrograms?|µg|g|grams?|ml|millilit(?:re|er)s?|units?|iu|puffs?|tablets?|pills?|"
    r"capsules?|drops?|sprays?|teaspoons?|tsp|spoonfuls?|sachets?|patch(?:es)?|doses?|lit(?:re|er)s?|l|pieces?)\b"
)
# a count of tablets of a strength: "two 500 mg tablets" is 2 tablets, 1000 mg
_COUNTED_STRENGTH = re.compile(
    r"\b(\d+|a|an|one|two|three|four|half)\s+(\d+(?:\.\d+)?)\s*(mg|mcg|micrograms?|g)\s+"
    r"(?:[\w-]+\s+)?(tablets?|capsules?|pills?)\b"
)
# a count of a form with the medicine's name between: "12 paracetamol tablets", "two cetirizine tablets"
_NAMED_FORM = re.compile(
    r"\b(\d+|one|two|three|four)\s+(?!(?:mg|mcg|g|ml|more|extra|other|of|separate|different|small|large)\b)[a-z][\w-]*\s+"
    r"(tablets?|capsules?|pills?|puffs?|drops?|sachets?|sprays?)\b"
)
# amounts of a mass in milligrams: "1 g" is "1,000 mg", "400 micrograms" is "0.4 mg"
_IN_MG = {"mg": 1.0, "g": 1000.0, "mcg": 0.001}
# a dose restated beside the new one: "take 1600 mg — your usual 800 mg plus the 800 mg you missed"
_RESTATED = re.compile(r"\b(?:(?:your|the|his|her) usual|plus(?: the)?|on top of(?: the)?)\s+\d[\d.,]*\s*\w+")
# a product's strength, not a dose: "the 120 mg/5 ml suspension", "250 mg per 5 ml"
# a product's strength, not a dose: "the 120 mg/5 ml suspension", "250 mg per 5 ml", and the
# strength of the tablets one has: "six of your 5 mg tablets", "with 200 mg tablets" ("one 100 mg
# capsule" is a dose)
_STRENGTH = re.compile(
    r"\b\d+(?:\.\d+)?\s*(?:mg|mcg|micrograms?|g)\s*(?:/|per|in)\s*(?:\d+(?:\.\d+)?\s*)?(?:ml|millilit(?:re|er)s?)\b|"
    r"\b(?:the|your|his|her|their|these|those|with|using)\s+\d+(?:\.\d+)?\s*(?:mg|mcg|micrograms?|g)\s+"
    r"(?:[\w-]+\s+)?(?:tablets?|capsules?|pills?|sachets?|patch(?:es)?|suppositor(?:y|ies))\b"
)
# "daily", "every day": each day, without saying how many times ("every morning and evening" is daily too)
EVERY_DAY = -1.0
_FREQUENCIES = (
    (re.compile(r"\b(?:four times|4 times|qds|qid) (?:a|per|each) day\b|\bfour[- ]times[- ]daily\b"), 4.0),
    (re.compile(r"\b(?:three times|3 times|tds|tid) (?:a|per|each) day\b|\bthree[- ]times[- ]daily\b"), 3.0),
    (
        re.compile(
            r"\b(?:twice|two times|2 times) (?:a|per|each) day\b|\btwice[- ]daily\b|\bbd\b|\bbid\b|"
            r"\b(?:every |each )?morning and (?:every |each )?(?:evening|night)\b|\bevery 12 hours\b"
        ),
        2.0,
    ),
    (re.compile(r"\bevery (\d+) hours\b|(?<!at least )(?<!at least about )\b(\d+) hours apart\b"), None),
    # all of the day's tablets at once: "take both tablets together", "1000 mg in one go"
    (re.compile(r"\b(?:both|all) (?:\w+ )?(?:tablets|capsules|doses) (?:together|at once)\b|\bin one go\b"), 1.0),
    (re.compile(r"\bevery hour\b|\bhourly\b"), 24.0),
    (
        re.compile(
            r"\b(?:once|one time) (?:a|per|each) day\b|\bonce[- ]daily\b|"
            r"\b(?:every|each) (?:morning|evening|night)\b|\bnightly\b"
        ),
        1.0,
    ),
    (re.compile(r"\bdaily\b|\b(?:every|each) day\b"), EVERY_DAY),
    (re.compile(r"\bevery other day\b|\bon alternate days\b"), 0.5),
    (re.compile(r"\b(?:once|one time) (?:a|per|each) week\b|\bweekly\b|\bevery week\b"), 1 / 7),
    (re.compile(r"\b(?:once|one time) (?:a|per|each) month\b|\bmonthly\b|\bevery month\b"), 1 / 30),
)
_TIMES = (
    (
        "morning",
        re.compile(
            r"\b(?:morning|breakfast|when you wake|on waking|first thing|(?:when|as soon as) you (?:get|wake) up)\b"
        ),
    ),
    ("midday", re.compile(r"\b(?:midday|lunch|lunchtime|noon)\b")),
    ("evening", re.compile(r"\b(?:evening|dinner|supper|teatime|evening meal)\b")),
    ("night", re.compile(r"\b(?:night|bedtime|bed|before sleep|nighttime)\b")),
)
_WITHOUT_FOOD = re.compile(
    r"\b(?:empty stomach|before (?:food|eating|meals?|breakfast|you eat)|without food|"
    r"(?:\d+|thirty|an hour|one hour) (?:minutes? |hours? )?before (?:food|eating|breakfast|meals?|you eat))\b"
)
_EITHER_WAY = re.compile(r"\bwith or without (?:food|a meal|meals|eating)\b")
_WITH_FOOD = re.compile(
    r"\b(?:(?:with|alongside|along with) (?:food|a meal|meals|a snack|something to eat|milk|"
    r"(?:(?:your|each|every|a|the) )?(?:\w+ )?(?:meals?|breakfast|lunch|dinner|supper|snack|cereal))"
    r"(?: or (?:a )?(?:meal|snack|food))?|"
    r"after (?:food|eating|a meal|meals|your (?:\w+ )?meal|breakfast|lunch|dinner|supper)|"
    r"straight after (?:\w+ )?(?:eating|food|a meal|it)|"
    r"on a full stomach)\b"
)
# names of a class, not of one drug: the concepts, their plurals, and lay names for them
_COUNT_WORDS = {
    "five": 5.0,
    "six": 6.0,
    "seven": 7.0,
    "eight": 8.0,
    "nine": 9.0,
    "ten": 10.0,
    "twelve": 12.0,
    "fourteen": 14.0,
    "twenty one": 21.0,
    "twenty eight": 28.0,
    "a couple of": 2.0,
    "couple of": 2.0,
}
_COUNT = (
    r"(\d+|a couple of|couple of|a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fourteen|twenty[- ]one|"
    r"twenty[- ]eight)"
)
# "for 5 days", "for up to 7 days", "for a full week", "no more than 14 days", "a 7-day course",
# "five days of penicillin"
_DURATION = re.compile(
    r"\b(?:for|course of|lasts?|in total of|no (?:more|longer) than|beyond|past)\s+"
    r"(?:another\s+|a total of\s+|at least\s+|up to\s+|more than\s+|a full\s+|the full\s+|the next\s+|only\s+|just\s+)?"
    rf"{_COUNT}\s+(?:more\s+)?(day|week|month)s?\b|"
    rf"\b{_COUNT}[- ](day|week|month)s?(?:\s+|-)(?:course|in total|treatment)\b|"
    # "until you've completed 7 days", "until she has finished all five days"
    r"\buntil\s+(?:you|he|she|they)(?:'ve|'s|\s+have|\s+has)\s+(?:completed|finished|done|taken)\s+"
    rf"(?:all\s+|the\s+(?:full\s+)?)?{_COUNT}\s+(day|week|month)s?\b|"
    rf"^(?:(?:a|an|only|just)\s+)?{_COUNT}\s+(day|week|month)s?\s+of\b"
)
# "as for alcohol, it's best to avoid it": the first part names the topic, the second instructs
_TOPIC_INTRODUCER = re.compile(r"^(?:as for|as to|regarding|about|when it comes to|on the subject of)\b")
_RESUME = re.compile(r"\b(?:restart\w*|resum\w*|start \w+ again|start again|go back on|back on|back to \d)")
# a stage of a plan: "for the first two weeks, don't lift…" / "from two weeks he can begin to…"
_PLANNED_STAGE = re.compile(
    # a step of a schedule by day or week: "Day 2: 300 mg twice a day", "on days 3 to 5", "in week 2"
    r"^(?:as for )?(?:day|week) \d+\b|\b(?:on|in) (?:days?|weeks?) \d+\b|"
    r"\b(?:for the first|from (?:day|week) \d+|from (?:\w+ )?(?:days?|weeks?|months?)\b|after that|after this|"
    r"after (?:a|one|two|three|four|five|six|\d+) (?:days?|weeks?|months?)|gradually|step by step)"
)
# instructions about another action on the thing: sharing, storing, asking about it
_OTHER_ACTION = re.compile(
    r"^(?:(?:you|he|she|they|we|i) (?:could|can|should|may|might|must|will|need to|would|'d) )?"
    r"(?:(?:please|just|also|and|so|do not|never|always|remember to|make sure you|try to|"
    r"(?:there is |there's )?no need to|(?:you )?do not need to)\s+)*"
    r"(?:share|lend|store|carry(?! on)|tell|let|ask|check|contact|call|ring|phone|email|book|mention|discuss|read|see|"
    r"talk|speak|bring|show|throw|dispose|pass|write|note|record|report|keep (?:\w+ )?out of|"
    r"judge|expect|notice|worry|wonder|think|know|understand|"
    r"(?:get|seek) (?:\w+ )?(?:help|advice|attention|care)|get (?:it|them|\w+ \w+) (?:x-rayed|checked|looked at|seen)|"
    r"take (?:\w+ ){1,2}with you|take (?:\w+ ){0,2}(?:readings?|measurements?)|"
    r"take (?:him|her|them|the \w+|your \w+) (?:to|in to|into)\b|give (?:\w+ )?away|"
    r"give\b(?=.*\bto (?:anyone|anybody|someone|somebody|others|other people|friends|family|\w+ else)\b))\b"
)
# the gap between two things, not whether to do them: "leave 30 minutes between the emollient and the
# steroid", "try not to leave more than 12 hours between doses" ("take the doses 12 hours apart" is a
# schedule, read as a frequency)
_SPACING = re.compile(
    r"\b(?:minutes?|hours?|days?)\s+between\b|\bbetween\s+(?:any\s+)?(?:two\s+|the\s+|your\s+)?doses\b"
)
# other things kept away from a dose: "don't take indigestion remedies, iron or calcium within 2–3 hours of a dose"
_SPACED_FROM = re.compile(
    r"\bwithin\s+(?:\w+\s+)?[\d\u2013-]+\s*(?:to\s+\d+\s+)?(?:minutes?|hours?)\s+of\s+(?:a|each|your|the)\s+dose\b"
)
# whom an instruction is for; not whose thing it names ("at your sister's wedding")
_PERSON = re.compile(rf"\b(?:your (?:{RELATIVES})|you|he|him|she|her|they|them)\b(?!'s)")
_PERSON_OF = {"him": "he", "her": "she", "them": "they"}
_GIVING_VERBS = "give|let|allow|help"  # verbs whose object is the one who takes the medicine
_GIVING = re.compile(rf"^(?:(?:please|just|then|and|do not|never)\s+)*(?:{_GIVING_VERBS})\b")
_ONE_DOSE_OF_SEVERAL = re.compile(
    r"\b(?:first|second|third|last|morning|evening|lunchtime|night-?time|bedtime|afternoon) (?:dose|tablet)s?\b|"
    r"\bthe other (?:dose|tablet)\b"  # "with your other tablets" are other medicines
)
_MEDICINE_WORDS = re.compile(
    r"\b(?:(?:take|taking)(?! (?:off|care|a break|time|a rest|it easy|part|a seat|a look|a walk|a breath))|"
    r"swallow|doses?|tablets?|capsules?|pills?|medicines?|medications?|prescription|"
    r"(?:best|right|ideal|usual) time(?! (?:to|for) (?!take\b))(?: to take)?)\b"
)
# the one a medicine is given to: "you can give him ibuprofen" is about him
_RECIPIENT = re.compile(rf"\b(?:{_GIVING_VERBS})\s+(your (?:{RELATIVES})|him|her|them)\b")
# a missed or extra dose: "never take a double dose to catch up" is about that dose, not the drug
_EXTRA_DOSE = re.compile(
    r"\b(?:double (?:dose|up)|doubling up|to make up for|to catch up|missed (?:dose|tablet|pill)s?|extra doses?)\b"
)
_CLASS_NAMES = frozenset(CONCEPTS)
_CIRCUMSTANCES = frozenset(("pregnancy", *CONCEPTS["pregnancy"]))
_CLASS_ALIASES = frozenset(
    {
        "blood thinner",
        "blood thinners",
        "anti-inflammatory",
        "anti-inflammatories",
        "antiinflammatory",
        "painkiller",
        "painkillers",
        "pain relief",
        "pain reliever",
        "pain relievers",
        # lay words for any vaccine: "a tetanus jab" and "a tetanus booster" are one thing
        "jab",
        "jabs",
        "booster",
        "shot",
    }
)


def _specific(targets: frozenset[str]) -> frozenset[str]:
    """The targets that name one drug or thing, not a class ("nsaid") or an everyday
    substance under another of its names ("pints" is alcohol)."""
    return frozenset(
        t
        for t in targets
        if t not in _CLASS_ALIASES and not any(t.startswith(name) for name in _CLASS_NAMES) and not substance_name(t)
    )


@dataclass(frozen=True)
class Regimen:
    """The slots of one claim; None or empty where the claim says nothing."""

    targets: frozenset[str]  # what the instruction is about (main clause)
    polarity: int  # +1 do / allowed, -1 don't / not allowed
    amounts: frozenset[tuple[float, str]]
    per_day: float | None
    times: frozenset[str]
    food: str | None  # "with" or "without"
    conditional: bool
    changing: bool
    days: float | None = None  # how long, in days
    resumes: bool = False  # restarts something paused
    other_action: str | None = None  # about sharing, storing, asking …, not doing: the action ("check")
    not_required: bool = False  # "you don't need to": not a prohibition
    permission: bool = False  # "you can", "it's fine to": allowed, not required
    limit: bool = False  # states a most: "no more than 8 tablets in 24 hours", "up to four times a day"
    person: str | None = None  # whom the instruction is for, where it says: "you", "he", "your son" …
    conditions: frozenset[str] = frozenset()  # content words of the condition ("if you become pregnant")
    one_dose_of_several: bool = False  # "the second dose", "his morning dose": one of the day's doses
    stage: bool = False  # one stage of a plan: "for the first two weeks", "from two weeks"
    regardless: bool = False  # holds whatever happens: "even if you feel better", "even while you're ill"


# a topic named before a colon: "And alcohol: the safest approach is not to drink at all"
_TOPIC_HEADING = re.compile(r"^(?:(?:and|also|now|then)\s+)?([a-z][\w'-]*(?:\s+[\w'-]+){0,2}):\s+(?=\S)")


# "No - carry on taking it", "Yes, take it": the answer to the user's question, not a word of the
# instruction (a leading "no" would turn it around)
_ANSWER = re.compile(r"^(?:yes|no|nope|yeah|yep|sure|okay|ok)\s*[,.!:;\u2014\u2013]+\s*")


def _normalise(text: str) -> str:
    # a spaced hyphen is a dash
    lowered = _LIST_MARKER.sub("", text.lower().replace("’", "'")).replace(" - ", " \u2014 ")
    lowered = _ANSWER.sub("", lowered.strip())
    for pattern, replacement in _CONTRACTIONS:
        lowered = pattern.sub(replacement, lowered)
    return _TOPIC_HEADING.sub(r"as for \1, ", lowered, count=1)


# an aside in brackets: "with a full glass of water (not tea, coffee or juice)"
_ASIDE = re.compile(r"\([^()]*\)")


def _parts(text: str) -> list[str]:
    """The claim up to its reasons, without its asides, split at punctuation."""
    return _PUNCTUATION.split(_ASIDE.sub(" ", _without_explanation(text)))


def _indexed_segments(text: str) -> list[tuple[int, str]]:
    """The parts of a claim that carry its instruction, with their places among `_parts`:
    segments that do not open with a subordinate clause, each cut where one starts, without
    "with …" context."""
    kept: list[tuple[int, str]] = []
    for index, part in enumerate(_parts(text)):
        segment = _CONTRAST.sub("", part.strip(), count=1)  # "…, but a short pause is safer": the point
        if segment and _SUBORDINATE.match(segment):  # "if you feel ready you can stop": no comma closes it
            main = _SUBJECT_MODAL.search(segment)
            segment = segment[main.start() :] if main else ""
        if not segment:
            continue
        cut = _SUBORDINATE.search(segment)
        if cut and len(segment[: cut.start()].split()) <= 1:  # "so while you're on it you should stop…"
            main = _SUBJECT_MODAL.search(segment, cut.end())
            segment = segment[main.start() :] if main else segment
            cut = _SUBORDINATE.search(segment)
        segment = " ".join(_CONTEXT_PHRASE.sub(" ", segment[: cut.start()] if cut else segment).split())
        if segment:
            kept.append((index, segment))
    return kept


def _segments(text: str) -> list[str]:
    return [segment for _, segment in _indexed_segments(text)]


def _condition(lowered: str, at: int) -> str | None:
    """The condition the instruction (the part at `at`) holds under: one that comes before it
    or inside it, or the part right after it ("take it, if you need to"); not one in the
    reasons or in a later remark. None when it holds regardless."""
    parts = [_CONCESSIVE.sub(" ", part) for part in _parts(lowered)]
    found = [part[match.start() :] for part in parts[: at + 1] if (match := _CONDITIONAL.search(part))]
    after = parts[at + 1].strip() if at + 1 < len(parts) else ""
    if _CONDITIONAL.match(after):
        found.append(after)
    return " ".join(found) if found else None


def _without_explanation(text: str) -> str:
    """The claim up to the reasons it gives ("…, because the combination can cause flushing,
    vomiting…"); a claim that opens with one ("Since the seizures were long ago, …") keeps it."""
    for match in _EXPLANATION.finditer(text):
        if text[: match.start()].strip(" ,"):
            return text[: match.start()]
    return text


def main_clause(text: str) -> str:
    """The claim without its subordinate clauses and "with …" context phrases."""
    return " ".join(_segments(text))


# words for a medicine's form: "the tablets" are whichever medicine is under discussion
_FORM_WORDS = frozenset(content_words("tablet tablets pill pills capsule capsules medicine medicines medication"))
# words of time: "for 30 minutes" is how long, not what an instruction is about
_TIME_WORDS = frozenset(
    content_words("second seconds minute minutes hour hours day days week weeks month months year years time times")
)


def instruction_words(text: str) -> frozenset[str]:
    """The content words of a claim's main clause, without words for a medicine's form: what
    an instruction is about when it names nothing the lexicon knows ("keep wearing the brace")."""
    return content_words(main_clause(_normalise(text))) - _FORM_WORDS - _TIME_WORDS


def dose_units(text: str) -> frozenset[str]:
    """The units of the amounts a claim gives ("mg", "tablet")."""
    return frozenset(unit for _, unit in _amounts(_normalise(text)))


_FORM = re.compile(r"\b(puff|tablet|pill|capsule|drop|spray|sachet|patch)(?:e?s)?\b")


def dose_marks(text: str) -> frozenset[str]:
    """What ties a claim that names no medicine to the one last given that way: the units it
    gives amounts in, the forms it names without one ("keep going with the capsules") and
    how often a day ("the twice-daily doses")."""
    lowered = _normalise(text)
    per_day = _per_day(lowered)
    often = {f"{per_day:g} a day"} if per_day is not None and per_day > 0 else set()
    return dose_units(text) | {_UNITS[match.group(1)] for match in _FORM.finditer(lowered)} | often


def states_dose(text: str) -> bool:
    """Whether a claim gives an amount or a frequency ("take 10 mg twice a day"): a dosing
    instruction that names no drug is about the one under discussion."""
    lowered = _normalise(text)
    return bool(_amounts(lowered)) or _per_day(lowered) is not None


def states_schedule(text: str) -> bool:
    """Whether a claim gives a dose, or says when to take something ("take it first thing in
    the morning on an empty stomach"): a schedule that names nothing is the schedule of what
    is under discussion."""
    lowered = _normalise(text)
    timed = _food(lowered) is not None or bool(_times(lowered))
    return states_dose(text) or (timed and bool(_MEDICINE_WORDS.search(lowered)))


def takes_medicine(text: str) -> bool:
    """Whether a claim is about taking a medicine: it gives a dose, or speaks of taking,
    tablets or doses ("take it with food", "the capsules")."""
    return states_dose(text) or bool(_MEDICINE_WORDS.search(_normalise(text)))


_ADVISES_READER = re.compile(r"^(?:i|we)(?:'d| would)?\s+(?:strongly\s+)?(?:advise|recommend|suggest|urge)\b")


def _person(instruction: str, lowered: str) -> str | None:
    """Whom an instruction is for, when its main clause says: "he shouldn't be running" is for
    "he", "you can keep running" and an imperative ("keep up the running") for "you"; "you can give him
    ibuprofen" is for "he" (the reader gives, he takes); "give the paracetamol if she seems
    uncomfortable" is for "she", whom the rest of the claim names."""
    match = _RECIPIENT.search(instruction) or _PERSON.search(instruction)
    if match is None and _GIVING.match(instruction.strip()):
        match = next((m for m in _PERSON.finditer(lowered) if m.group(0) != "you"), None)
    if match is None:
        # "give 2.5 ml" is for someone the reader looks after, not for the reader; "I'd advise against
        # ibuprofen" is advice to the reader
        addressed = is_imperative(instruction) or _ADVISES_READER.match(instruction.strip())
        return "you" if addressed and not _GIVING.match(instruction.strip()) else None
    word = match.group(match.lastindex or 0)
    if word.startswith("your "):
        return word.split()[1].rstrip("s")
    return _PERSON_OF.get(word, word)


def _days(text: str) -> float | None:
    match = _DURATION.search(text)
    if not match:
        return None
    count, unit = next((match.group(i), match.group(i + 1)) for i in range(1, match.re.groups, 2) if match.group(i))
    count = count.replace("-", " ")
    number = _NUMBER_WORDS.get(count) or _COUNT_WORDS.get(count) or float(count)
    return number * {"day": 1.0, "week": 7.0, "month": 30.0}[unit]


def _given_amounts(lowered: str) -> frozenset[tuple[float, str]]:
    """The amounts a claim gives: not those of its reasons, nor a dose it only restates
    beside the new one; a claim that only restates one gives that one."""
    return _amounts(_RESTATED.sub(" ", _without_explanation(lowered))) or _amounts(lowered)


def _count(number: str) -> float:
    value = _NUMBER_WORDS.get(number)
    return value if value is not None else float(number.replace(",", ""))


# a range of amounts: "2–4 puffs", "200 to 400 mg" allow each end
_RANGE = re.compile(r"\b(\d+(?:\.\d+)?)\s*(?:\u2013|-|to)\s*(\d+(?:\.\d+)?)\s*([a-z\u00b5]+)\b")


def _amounts(text: str) -> frozenset[tuple[float, str]]:
    text = _RANGE.sub(r"\1 \3 \2 \3", text)
    found = set()
    for count, strength, unit, form in _COUNTED_STRENGTH.findall(text):
        found |= {
            (_count(count), _UNITS[form.rstrip("s")]),
            (_count(count) * float(strength), _UNITS[unit.rstrip("s")]),
        }
    rest = _STRENGTH.sub(" ", _COUNTED_STRENGTH.sub(" ", text))
    for number, unit in [*_AMOUNT.findall(rest), *_NAMED_FORM.findall(rest)]:
        stem = unit[:-2] if unit.endswith("es") and unit.startswith("patch") else unit.rstrip("s")
        found.add((_count(number), _UNITS.get(stem, stem)))
    return frozenset(
        (round(value * _IN_MG[unit], 6), "mg") if unit in _IN_MG else (value, unit) for value, unit in found
    )


# used as often as needed: no fixed number a day ("as often as she needs, commonly three or four times a day")
_AS_NEEDED = re.compile(r"\bas often as (?:you|she|he|they|needed|necessary|required)\b|\bfreely\b")


def _per_day(text: str) -> float | None:
    if _AS_NEEDED.search(text):
        return None
    for pattern, value in _FREQUENCIES:
        match = pattern.search(text)
        if match:
            return 24.0 / float(next(g for g in match.groups() if g)) if value is None else value
    return None


# a time or meal the instruction turns away from: "at bedtime rather than in the morning", "not right at
# bedtime" (the negation is of the time, not of the instruction)
_RATHER = re.compile(
    r"\b(?:rather than|instead of)\b[^,.;:\u2014\u2013]*|"
    r"\bnot (?:right |just |straight )?(?:at|before|after|with|on|in|near|close to) (?:\w+ ){0,3}?"
    r"(?:bedtime|bed|night|morning|evening|food|meals?|breakfast|lunch|dinner|stomach)\b"
)
# a clock time: "by 2pm", "at 10 pm", "7:30am"
_CLOCK = re.compile(r"\b(\d{1,2})(?:[:.]\d{2})?\s*(am|pm)\b")


def _schedule_text(lowered: str) -> str:
    """The part of a claim that says when and how to take something: not its reasons, nor
    the time it turns away from."""
    return _RATHER.sub(" ", _without_explanation(lowered))


def _clock_part(hour: int, half: str) -> str:
    hour = hour % 12 + (12 if half == "pm" else 0)
    if 5 <= hour < 12:
        return "morning"
    if 12 <= hour < 17:
        return "midday"
    return "evening" if 17 <= hour < 21 else "night"


def _times(text: str) -> frozenset[str]:
    """The parts of the day a claim names: words ("at bedtime") and clock times ("by 2pm")."""
    named = {name for name, pattern in _TIMES if pattern.search(text)}
    return frozenset(named | {_clock_part(int(h), half) for h, half in _CLOCK.findall(text)})


def _food(text: str) -> str | None:
    if _EITHER_WAY.search(text):  # "with or without food": either
        return None
    if _WITHOUT_FOOD.search(text):
        return "without"
    if _WITH_FOOD.search(text):
        return "with"
    return None


# when to take something relative to meals: "about 30 minutes after the same meal each day",
# "before breakfast, lunch and your evening meal": a schedule, not what the claim is about
_MEAL = (
    r"(?:(?:the|your|each|a|every|same|main|evening|morning|midday)\s+)*"
    r"(?:meals?|food|eating|snacks?|breakfast|lunch|dinner|supper)\b"
)
_MEAL_TIMING = re.compile(rf"\b(?:before|after|with|at|around|between)\s+{_MEAL}(?:\s*(?:,|and|or)\s*{_MEAL})*")


# where a thing is put, not what: "apply a thin layer to the affected skin", "one drop in each affected eye"
_PLACE = re.compile(
    r"\b(?:to|on|onto|into|over|in)\s+(?:the|your|his|her|their|each|both)\s+(?:\w+\s+)?"
    rf"(?:{'|'.join(sorted(BODY_PARTS, key=len, reverse=True))})\b"
)
# water a medicine is taken with: "with a small sip of water", "with a full glass of plain tap water"
_WITH_WATER = re.compile(
    r"\bwith (?:a |an |plenty of )?(?:\w+ ){0,2}?(?:(?:glass|sip|drink|cup) of )?(?:plain |tap |still )*water\b"
)


def without_slots(text: str) -> str:
    """The text without its food and time-of-day phrases, the water it is taken with and the
    body part it is put on: "take it at bedtime with your evening meal" is about "it"."""
    for pattern in (_WITH_WATER, _PLACE, _MEAL_TIMING, _WITHOUT_FOOD, _WITH_FOOD, *(pattern for _, pattern in _TIMES)):
        text = pattern.sub(" ", text)
    return text


def _targets(core: str, inherited: frozenset[str], main: str) -> frozenset[str]:
    """What the instruction is about: the named things of its main clause with food and
    times of day taken out (`core`: "take it at bedtime" is about the drug, not sleep);
    else what it inherits; else the named things of the whole main clause."""
    named = _with_generics(targets_of(core) | {name for name in inherited if name in core}, inherited)
    return frozenset(named or inherited or targets_of(main))


def _with_generics(named: frozenset[str], pool: frozenset[str]) -> frozenset[str]:
    """`named` and the targets of `pool` that are generic names of them: "one Zirtek tablet"
    names cetirizine too."""
    generics = generic_names()
    return named | {t for t in pool if any(t in generics.get(name, ()) for name in named)}


@lru_cache(maxsize=8192)
def regimen_of(text: str, inherited: frozenset[str] = frozenset()) -> Regimen:
    """The slots of one claim; `inherited` are its targets when its main clause names none
    ("take it with food" after "start metformin"). A statement after a dash is no part of
    it ("don't use it for more than 7 days - longer can cause rebound congestion")."""
    lowered = _normalise(instruction_part(text))
    indexed = _indexed_segments(without_slots(_RATHER.sub(" ", lowered)))
    segments = [segment for _, segment in indexed]
    targets = _targets(" ".join(segments), inherited, main_clause(lowered))
    own = [
        (index, seg)
        for index, seg in indexed
        if not _TOPIC_INTRODUCER.match(seg) and (targets_of(seg) & targets or any(n in seg for n in targets))
    ]
    head = segments[0] if segments else ""  # what the claim opens with: "call 111 (if …)", "contact your GP"
    if not own:  # "as for alcohol, it's best to avoid it": the instruction follows the topic
        own = [(index, seg) for index, seg in indexed if not _TOPIC_INTRODUCER.match(seg)]
    # the part that instructs, where several name the target ("sertraline passes into breast milk, so
    # you should stop breastfeeding")
    # "avoid tea, coffee, milk and antacids": a list after the instruction is its object
    listed = bool(own) and len(own[0][1].split()) <= 3
    fallback = indexed[0] if indexed and is_advice(head) and listed else own[0] if own else (0, head)
    # a statement that names the thing is no instruction where another part instructs: "doxycycline
    # doesn't affect desogestrel - you can keep taking both as normal"
    if not is_advice(fallback[1]):
        fallback = next((pair for pair in indexed if is_advice(pair[1])), fallback)
    at, chosen = next((pair for pair in own if is_advice(pair[1])), fallback)
    # the instruction's own targets, where it names some: "hold off on the antibiotic and treat the pain
    # first: paracetamol or ibuprofen…" holds off the antibiotic, not the painkillers
    named = _with_generics(frozenset(t for t in targets if t in targets_of(chosen) or t in chosen), targets)
    targets = named or targets
    instruction = _NAMES_WITH_FLIPS.sub(" ", chosen)
    # ruling out a change keeps the regimen as it is: "hold off on the increase" is "carry on"
    rules_out_change = bool(_RULED_OUT_CHANGE.search(instruction))
    condition = _condition(lowered, at)
    flips = _flip_count(instruction) - rules_out_change
    return Regimen(
        targets=targets,
        polarity=-1 if flips % 2 else 1,
        # the amount the instruction gives, not one its explanation restates ("take 1600 mg —
        # your usual 800 mg plus the 800 mg you missed"); none for a change ruled out
        amounts=frozenset() if rules_out_change else _given_amounts(lowered),
        per_day=_per_day(lowered),
        times=_times(_schedule_text(lowered)),
        food=_food(_schedule_text(lowered)),
        one_dose_of_several=bool(_ONE_DOSE_OF_SEVERAL.search(lowered)),
        stage=bool(_PLANNED_STAGE.search(lowered)),
        regardless=bool(_REGARDLESS.search(lowered)),
        conditional=condition is not None,
        # "if she's not sure whether she's had it": doubt is a case of its own, in words of no content
        conditions=content_words(condition or "") | ({"unsure"} if _UNSURE.search(condition or "") else set()),
        changing=bool(_CHANGING.search(lowered)) and not rules_out_change,
        days=_days(lowered),
        resumes=bool(_RESUME.search(instruction)),
        other_action=_other_action(instruction, head, lowered),
        person=_person(instruction, lowered),
        not_required=bool(_NOT_REQUIRED.search(instruction)),
        permission=bool(_PERMISSION.search(instruction)),
        limit=bool(_LIMIT.search(lowered)),
    )


def _flip_count(instruction: str) -> int:
    """How many times the instruction turns around; alternatives count once ("stop or pause")."""
    count, end = 0, None
    for match in _FLIPS.finditer(instruction):
        if end is None or not _ALTERNATIVE.fullmatch(instruction[end : match.start()]):
            count += 1
        end = match.end()
    return count


def _spread(times: frozenset[str]) -> frozenset[str]:
    """The parts of the day doses spread over, evening and night as one ("morning and
    evening" and "breakfast and bedtime" are one schedule)."""
    return frozenset("evening" if t == "night" else t for t in times)


def _other_action(instruction: str, head: str, lowered: str) -> str | None:
    """The other action a claim is about ("check", "book", "extra dose", "spacing"), or None
    when it is about doing the thing itself."""
    if _EXTRA_DOSE.search(lowered):
        return "extra dose"
    if _SPACING.search(instruction) or _SPACED_FROM.search(lowered):
        return "spacing"
    found = next((m for part in (instruction, head) if (m := _OTHER_ACTION.search(part))), None)
    return found.group(0).split()[-1] if found else None


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
    a_targets, b_targets = a.targets - _CIRCUMSTANCES, b.targets - _CIRCUMSTANCES
    specific_a, specific_b = _specific(a_targets), _specific(b_targets)
    if specific_a and specific_b:
        return not specific_a.isdisjoint(specific_b)
    return not a_targets.isdisjoint(b_targets)


def comparable(a: Regimen, b: Regimen) -> bool:
    """Whether the slots can decide: both name what they are about."""
    return bool(a.targets) and bool(b.targets)


def _amounts_in(regimen: Regimen, unit: str, daily: bool) -> set[float]:
    """The amounts a claim gives in `unit`; `daily`, also what they come to in a day where it
    says how often: "two 500 mg tablets four times a day" keeps to "no more than 4 g a day"."""
    given = {v for v, u in regimen.amounts if u == unit}
    often = regimen.per_day if daily and regimen.per_day and regimen.per_day > 0 else None
    return given | {v * often for v in given} if often else given


def _larger_amount(more: Regimen, less: Regimen) -> bool:
    """Whether `more` gives a larger amount than `less` in a unit both give."""
    units = {u for _, u in more.amounts} & {u for _, u in less.amounts}
    return any(
        max(v for v, u in more.amounts if u == unit) > max(v for v, u in less.amounts if u == unit) for unit in units
    )


def loosens(earlier: str, new: str, slot: str | None) -> bool:
    """Whether the new claim allows what the earlier one forbade (slot "polarity"), or more
    of it (slot "amount": a larger amount in a unit both give)."""
    a, b = regimen_of(earlier), regimen_of(new)
    if slot == "polarity":
        return b.polarity > a.polarity
    return slot == "amount" and _larger_amount(b, a)


def disagreement(a: Regimen, b: Regimen) -> str | None:
    """The slot on which two comparable claims disagree, or None when they agree (or are
    about different things, or one is conditional and the other is not)."""
    # an instruction about another action on the thing (checking, booking, calling) meets only another such
    # one: "check your blood pressure every morning" / "there's no need to check your blood pressure"
    if not same_target(a, b) or a.other_action != b.other_action or a.other_action == "extra dose":
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
        if conditional.polarity > 0 > plain.polarity and not plain.not_required:
            return "polarity"
        # "stop it while you're vomiting" / "keep taking it even while you've got this bug": the plain claim
        # says the condition changes nothing
        if plain.regardless and conditional.polarity != plain.polarity and not plain.not_required:
            return "polarity"
        # so does more than a flat limit allows ("two tablets, no more than 8 in 24 hours" / "if the pain's
        # bad, three at a time"); a larger dose for a worse case under no stated limit is an action plan
        exceeds = conditional.polarity > 0 and plain.polarity > 0 and plain.limit and _larger_amount(conditional, plain)
        return "amount" if exceeds else None
    if a.polarity != b.polarity:
        allowed, negative = (a, b) if a.polarity > 0 else (b, a)
        if negative.not_required and allowed.permission:  # "you don't need to give it" / "you can give it"
            return None
        return None if a.resumes or b.resumes or a.stage or b.stage else "polarity"
    if a.polarity < 0:  # two prohibitions do not disagree on how to take the thing
        return None
    if not (a.changing or b.changing):
        units = {unit for _, unit in a.amounts} & {unit for _, unit in b.amounts}
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


def plans_change(text: str) -> bool:
    """Whether a claim plans a change or a stage ("after two weeks the dose is usually
    increased to 20 mg"), in its instruction rather than in its reasons."""
    instruction = _without_explanation(_normalise(text))
    return bool(_CHANGING.search(instruction) or _PLANNED_STAGE.search(instruction))


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


def compare(a_text: str, a_targets: frozenset[str], b_text: str, b_targets: frozenset[str]) -> tuple[bool, str | None]:
    """(decided, slot): whether the slots of two claims decide between them, and the slot they
    disagree on (None: they agree, or are about different things). Where one names nothing
    the lexicon knows, the content words their main clauses share are what they are about
    ("keep wearing the brace" / "leave the knee brace off")."""
    a, b = regimen_of(a_text, a_targets), regimen_of(b_text, b_targets)
    if not comparable(a, b):
        shared = instruction_words(a_text) & instruction_words(b_text)
        if not shared:
            return False, None
        a, b = replace(a, targets=shared), replace(b, targets=shared)
    return True, disagreement(a, b)


def supports(statement: str, claim: str) -> bool:
    """Whether what a clinician said, as the user reports it ("The GP said go to 20 mg"),
    goes the way of `claim` rather than against it ("The GP prescribed senna" does not
    support "leave out the senna")."""
    targets = regimen_of(claim).targets
    return compare(statement.lower(), targets, claim, targets)[1] is None
