"""The words and patterns the regimen reader (`regimen.py` and its `regimen_*` parts) reads
an instruction's slots with: negations and their flips, permissions and limits, conditions
and concessions, clauses and context, planned stages, other actions, the person a dose is
for, and the names of drug classes. The values of the slots (amounts and units,
frequencies, times of day, food, counts and durations) are read with `regimen_values.py`."""

from __future__ import annotations

import re

from contraflow.streams.core.extract.advice_patterns import CLINICIANS, RELATIVES
from contraflow.streams.core.extract.target_lexicon import CONCEPTS

LIST_MARKER = re.compile(r"^\s*(?:[-*\u2022>]+|\d+[.)])\s*")
CONTRACTIONS = (
    (re.compile(r"\bwon't\b"), "will not"),
    (re.compile(r"\bcan't\b|\bcannot\b"), "can not"),
    (re.compile(r"\bshan't\b"), "shall not"),
    (re.compile(r"n't\b"), " not"),
)
# words and phrases that turn an instruction around; each one flips the polarity
FLIPS = re.compile(
    r"\b(?:not|never|no|none|nothing|neither|nor|avoid\w*|stop\w*|skip\w*|quit\w*|discontinu\w*|"
    r"cut out|cut it out|hold off|stay off|keep off|lay off|stay away|keep away|holding off|refrain\w*|"
    r"steer(?:s|ing)? clear|come off|coming off|give up(?!\s+to\b)|"
    r"pause\w*|withh[oe]ld\w*|unsafe|dangerous|harmful|risky|inadvisable|off-limits|abstain\w*|"
    r"useless|pointless|no use|a waste of time|skimp\w*|"
    r"cease\w*|halt\w*|give (?:\w+ ){1,2}a miss|leave (?:\w+ ){1,3}(?:out|off|intact|alone)|leave out|leave off|"
    r"(?:advise|advised|advises|recommend|recommends|recommended|warn|warns|caution|argue) against)\b"
)
# avoiding something else as the other way: "use condoms or avoid sex" still says use condoms
AVOIDING_INSTEAD = re.compile(r"\s*,?\s*\bor (?:else )?(?:avoid|abstain from|stay off|skip)\b.*$")
# flips joined as alternatives say one thing: "no need to stop or pause breastfeeding"
ALTERNATIVE = re.compile(r"\s*,?\s*(?:or|and|/)\s*")
# words with a flip that do not turn the instruction around: a service's name ("the stop smoking
# service"), a limit ("no more than four doses" still says take them)
NAMES_WITH_FLIPS = re.compile(
    r"\bstop[- ]smoking (?:service|clinic|team|support|adviser|advisor|programme|program|nurse|group)s?\b|"
    r"\b(?:no|not|never) (?:more|longer|later|sooner|earlier) than\b|\b(?:do )?not (?:to )?exceed\b|"
    # "don't give more than 3 doses", "try not to take painkillers on more than 10 days a month": a limit
    r"\b(?:not|never) (?:to )?(?:take|give|use|have|drink)(?: [\w-]+){0,5}? (?:on |for )?more than\b|"
    r"\b(?:do not|never) (?:go|get) (?:over|above|beyond)\b|"  # "don't go over 1,200 mg in 24 hours"
    # the end of a course: "you simply stop after the fifth dose", "stop at the end of the course"
    r"\bstop (?:\w+ )?(?:after|at) the (?:last|final|end|fifth|seventh|tenth|\w+th) "
    r"(?:dose|day|tablet|of the course)\b|"
    r"\bstop (?:\w+ ){0,3}(?:at|after|on) day \d+\b"  # "stop the drops at day 5": the course's end
)
# stopping what one is doing before the instruction: "if you get an attack: stop, take 1 puff…"
STOPPING_WHAT_ONE_DOES = re.compile(
    r"\bstop(?: what you are doing)?\s*[,;:\u2014\u2013]\s*(?=(?:and\s+)?(?:take|sit|rest|use|breathe|call)\b)"
)
# "you don't need to", "there's no need": the thing is not required, which is not a prohibition
NOT_REQUIRED = re.compile(
    r"\b(?:no need|not need|need not|needn't|not necessary|not needed|not required|unnecessary|not essential)\b"
)
# the thing itself is not needed, no action named: "you do not need any more kidney blood tests", "no need for a scan"
THING_NOT_NEEDED = re.compile(r"\b(?:no need for|(?:do|does|will) not need(?! to\b)|(?:is|are) not needed)\b")
# no most at all: "as much salt as you like", "there's no limit on fruit" ("as often as you need" is as needed)
UNLIMITED = re.compile(
    r"\bas (?:much|many|often)(?: [\w-]+){0,3}? as you (?:like|want|wish|fancy)\b|"
    r"\bno (?:limit|restriction)s? (?:on|to)\b|\bunlimited\b"
)
# a restriction to one case: "only use it on days when you feel unwell", "only take it if the pain is bad"
ONLY_WHEN = re.compile(
    r"\bonly\b(?: [\w'-]+){0,8}? (?:if|when|whenever|on days when|as needed|when needed|if needed|as required)\b"
)
# an instruction that allows rather than asks: "you can give it", "it's fine to swim"
PERMISSION = re.compile(
    r"\b(?:can|could|may|(?:is|are|'s|'re|be) (?:\w+ )?(?:fine|okay|ok|alright|safe|allowed|free) to|"
    r"(?:is|are|'s|'re) (?:\w+ )?(?:fine|okay|ok|alright|safe)\b|no problem)"
)
# a most: "no more than", "up to", "a maximum of", "don't exceed"
# a most: "no more than 8 tablets", "don't take more than 300 mg", "try not to take painkillers on more than 10 days"
LIMIT = re.compile(
    r"\b(?:(?:no|not|never) (?:[\w-]+ ){0,6}?more than|up to|maximum|max|at most|(?:do not|never|not to) exceed|"
    r"(?:do not|never|not to) (?:go|get) (?:over|above|beyond)|"
    # a most not put in numbers: "limit your salt intake", "cut down on caffeine", "use it sparingly"
    r"limit|cut (?:down|back) on|sparingly|in moderation|keep (?:[\w-]+ ){1,3}to a minimum)\b"
)
# a change of the regimen that the instruction rules out: "don't increase it", "hold off on the increase"
RULED_OUT_CHANGE = re.compile(
    r"\b(?:not|never|hold off|holding off|no need to|avoid)\s+"
    r"(?:(?:on|with|the|your|any|a|planned|to|be|try|need)\s+){0,3}"
    r"(?:increas|decreas|reduc|rais|lower|switch|chang|taper|wean|go up|go down|step up|step down|"
    r"add(?:ing)? (?:in )?(?:a|an|another|any|extra) (?:\w+ )?doses?)\w*"
)
CONDITIONAL = re.compile(
    r"\b(?:if|unless|in case|as needed|when needed|if needed|as required|whenever|should you|in the event|"
    r"on (?:the )?days (?:when|that) |"
    r"once (?:you|your|it|the|they|he|she|that|this)|"
    # "without asking anyone" asks no one: no condition, the instruction holds regardless
    r"without (?:first )?(?:checking|asking|talking|speaking|consulting|getting advice|advice)"
    r"(?! (?:with |to )?(?:anyone|anybody)\b)|"
    # a passing state: "while you can't keep fluids down", "while you're being sick"
    r"while (?:you|he|she|they)(?: are|'re| is|'s)? (?:can not|are not able|not able|unable|being sick|vomiting|"
    r"unwell|ill|poorly|dehydrated)|"
    r"while (?:you|he|she|they)(?:'ve| have|'s| has)?(?: got)? (?:a |an )?(?:high )?(?:fever|temperature|cold|"
    r"cough|rash|infection|diarrhoea|diarrhea|symptoms|sore throat|flare|flare-up)\b|"
    # a course of something else: "stop the simvastatin for the 7 days of the clarithromycin course"
    r"for the \w+ days? of (?:the |your )?\w+)\b"
)
# "even once it has settled", "even if you feel fine": the instruction holds regardless, no condition;
# nor is the person's wish a condition: "if it's bothering you, it's reasonable to stop" gives in to it
EVEN = r"\beven (?:if|when|while|once|though|on days when)\b"
CONCESSIVE = re.compile(
    rf"{EVEN}|"
    r"\b(?:if|since) (?:you(?:'d| would) (?:rather|prefer|like)|you (?:really )?(?:want|prefer|wish)|"
    r"it(?:'s| is) (?:bothering|worrying|troubling) you|it (?:bothers|worries|troubles) you|"
    r"you(?:'re| are) (?:keen|set on|uncomfortable)|you feel ready)\b[^,;:]*|"
    # the usual deferral to a clinician: "don't go over 1,200 mg unless a doctor tells you to"
    rf"\bunless (?:(?:a|your|the) )?{CLINICIANS}(?: or (?:(?:a|your|the) )?\w+)? (?:tells|advises|says|recommends|"
    r"suggests|has (?:told|advised|said))\b[^,;:]*|\bunless (?:you(?:'re| are|'ve been| have been) )?(?:advised|told|"
    r"directed|instructed) (?:to )?otherwise\b"
)
UNSURE = re.compile(r"\b(?:not sure|unsure|in doubt|can not remember|do not remember|do not know whether)\b")
# the instruction holds whatever happens: "keep taking it even while you've got this bug"
REGARDLESS = re.compile(
    rf"{EVEN}|\bregardless\b|\bwhatever happens\b|"
    r"\bwithout (?:checking|asking|talking|speaking)(?: with| to)? (?:anyone|anybody)\b"
)
CHANGING = re.compile(
    r"\b(?:increas\w*|decreas\w*|reduc\w*|lower\w*|rais\w*|build(?:ing)? up|step(?:ping)? (?:up|down)|"
    r"(?<!can )go(?:ing)? up|go(?:ing)? down|taper\w*|titrat\w*|gradually|for the first|from next|"
    r"after (?:a|one|two|three|four|\d+) (?:days?|weeks?|months?)|next step|"
    # "start at 25 mg", not the moment a dose comes before: "an hour before you start"
    r"(?<!before you )(?<!before they )(?<!when you )(?<!until you )start\w*|"
    r"from (?:day|week) \d+|(?:for|on) (?:days|weeks) \d+ to \d+|(?:day|week) \d+ onwards?)\b"
)
# a ceiling, not a step: "it's fine to go up to 12 capsules in 24 hours" raises a daily limit
CEILING = re.compile(r"\bgo(?:ing)? up to\b[^.;]*?\b(?:in|per|a|each|every) (?:24 ?hours|day|24h)\b")
# subordinate clauses: context, not the instruction
SUBORDINATE = re.compile(
    r"\b(?:if|unless|while|whilst|when|whenever|because|since|as long as|until|in case|so that|"
    r"though|although|however|except|but|as you|as soon as|now that|given that|rather than|instead of|"
    r"once (?:you|your|it|the|they|he|she|that|this))\b"
)
# the reasons given after an instruction: "avoid alcohol, because it can cause flushing, vomiting…"
EXPLANATION = re.compile(
    r"\b(?:because|since|as (?:this|it|that|they)|so that|which|otherwise|that way|"
    r"(?:and )?then you (?:do not|will not) (?:have|need) to)\b|"
    # a purpose: "take it with food to protect your stomach", "use it to help you quit"
    r"(?<!try )(?<!need )(?<!want )(?<!you )(?<!sure )(?<!best )(?<!important )(?<!idea )"
    r"\b(?:in order )?to (?:protect|help|prevent|reduce|ease|lower|settle|boost|minimi[sz]e)\b|"
    # a purpose said as what will not happen: "so you don't pass it on"
    r"\bso (?:that )?(?:you|he|she|they|it) (?:do not|does not|will not|can not|would not)\b(?! need\b| have to\b)"
)
PUNCTUATION = re.compile(r"[;:()—]|(?<!\d)–|–(?!\d)|,(?!\d{3}\b)")  # not "1,200 mg", nor "2–3 hours"
# where a main clause starts after a subordinate one that no comma closes
SUBJECT_MODAL = re.compile(r"\b(?:you|he|she|they|we)\s+(?:should|must|can|need|have to|will|may)\b")
# a contrast that opens a segment leads to its main point rather than to context
CONTRAST = re.compile(r"^(?:but|however|yet)\s+(?=\S)")
CONTEXT_PHRASE = re.compile(
    # "carry on with the ibuprofen": the object, not the context
    r"(?<!carry on )(?<!go ahead )(?<!get on )(?<!keep going )(?<!stick )(?<!continue )(?<!persevere )"
    r"\b(?:with|alongside|together with|on top of|as well as|along with|apart from|away from|separately from|unlike)\s+"
    r"(?:(?:your|the|a|an|any|some|other|my|his|her|their)\s+)?[\w-]+|"
    r"\b(?:in|during|through|throughout|all through|for the rest of)\s+(?:your\s+|her\s+|the\s+)?"
    r"(?:pregnancy|breastfeeding)\b|"  # the circumstances, not the object of the instruction
    # when, by another activity: "reapply straight after swimming", "avoid swimming after drinking"
    r"\b(?:after|before)\s+(?:\w+\s+)?\w+ing\b"
)

# "as for alcohol, it's best to avoid it": the first part names the topic, the second instructs
TOPIC_INTRODUCER = re.compile(r"^(?:as for|as to|regarding|about|when it comes to|on the subject of)\b")
RESUME = re.compile(
    r"\b(?:restart\w*|resum\w*|start \w+ again|start again|go back on|back on|back to \d|go(?:es)? back in\b|"
    # "go back to simvastatin 40 mg at night", "go back to taking it"; not to nursery or to the GP
    r"go(?:ing)? back to (?:taking |using |(?:your |the )?\w+ \d))"
)
# a stage of a plan: "for the first two weeks, don't lift…" / "from two weeks he can begin to…"
PLANNED_STAGE = re.compile(
    # a step of a schedule by day or week: "Day 2: 300 mg twice a day", "on days 3 to 5", "in week 2"
    r"^(?:as for )?(?:days?|weeks?) \d+\b|\b(?:on|in) (?:days?|weeks?) \d+\b|"
    # the end of a course: "then stop the hydrocortisone"
    r"^(?:and )?then (?:just )?(?:stop|come off|finish|switch)\b|"
    # "from tomorrow, you can start rinses" / "hold off on rinses until tomorrow"
    r"\b(?:from|until|till) tomorrow\b|"
    r"\bfrom the \d+(?:st|nd|rd|th)\b|"  # a date: "none from the 7th until after the colonoscopy"
    r"\b(?:for the first|from (?:day|week) \d+|from (?:\w+ )?(?:days?|weeks?|months?)\b|after that|after this|"
    r"after (?:a|one|two|three|four|five|six|\d+) (?:days?|weeks?|months?)|gradually|step by step)"
)
# instructions about another action on the thing: sharing, storing, asking about it
OTHER_ACTION = re.compile(
    r"^(?:(?:you|he|she|they|we|i) (?:could|can|should|may|might|must|will|need to|would|'d) |it(?:'s| is) worth )?"
    r"(?:(?:please|just|also|and|so|do not|never|always|remember to|make sure you|try to|keep|carry on|"
    r"(?:there is |there's )?no need to|(?:you )?do not need to)\s+)*"
    r"(?:share|lend|store|carry(?! on)|tell|let|ask|check|contact|call|ring|phone|email|book|mention|discuss|read|see|"
    r"talk|speak|bring|show|throw|dispose|pass|write|note|record|report|keep (?:\w+ )?out of|"
    r"judge|expect|notice|worry|wonder|think|know|understand|rinse|gargle|wean|make up|checking|writing|noting|"
    r"hold on to|hang on to|keep hold of|"
    rf"get (?:(?:your|the|a) )?(?:\w+ )?{CLINICIANS}\b|"  # "get the renal team to give you a target"
    r"(?:get|seek) (?:\w+ )?(?:help|advice|attention|care)|get (?:it|them|\w+ \w+) (?:x-rayed|checked|looked at|seen)|"
    r"take (?:\w+ ){1,2}with you|take (?:\w+ ){0,2}(?:readings?|measurements?)|"
    r"take (?:him|her|them|the \w+|your \w+) (?:to|in to|into)\b|give (?:\w+ )?away|"
    r"give\b(?=.*\bto (?:anyone|anybody|someone|somebody|others|other people|friends|family|\w+ else)\b))\b"
)
# the gap between two things, not whether to do them: "leave 30 minutes between the emollient and the
# steroid", "try not to leave more than 12 hours between doses" ("take the doses 12 hours apart" is a
# schedule, read as a frequency)
SPACING = re.compile(
    r"\b(?:minutes?|hours?|days?)\s+between\b(?! the two (?:daily )?doses)|"  # the two doses: twice a day
    r"\bbetween\s+(?:any\s+)?(?:two\s+|the\s+|your\s+)?doses\b|"
    r"\bkeep (?:it|them|this|that|the \w+) (?:separate|apart) from\b|"  # "keep it separate from your long run"
    # a least gap: "never give doses less than 4 hours apart"
    r"\b(?:less|closer|sooner) than (?:\w+ )?\d+ hours? apart\b|\bat least (?:\w+ )?\d+ hours? apart\b"
)
# other things kept away from a dose: "don't take indigestion remedies, iron or calcium within 2–3 hours of a dose"
SPACED_FROM = re.compile(
    r"\bwithin\s+(?:\w+\s+)?[\d\u2013-]+\s*(?:to\s+\d+\s+)?(?:minutes?|hours?)\s+of\s+(?:a|each|your|the)\s+dose\b"
)
# the other members of a class than the one in hand: "don't take any other anti-inflammatories";
# after "and" or "or", one member and the others are the whole class: "avoid ibuprofen and other NSAIDs"
OTHERS_OF_A_KIND = re.compile(
    r"\b(and |or )?other (?:\w+ )?(?:anti-?inflammator\w+|nsaids?|painkillers?|pain ?killers|medicines?|medications?|"
    r"antibiotics?|antihistamines?|statins?|steroids?|supplements?|vitamins?|inhalers?|creams?|products?)\b"
)
# whom an instruction is for; not whose thing it names ("at your sister's wedding")
PERSON = re.compile(rf"\b(?:your (?:{RELATIVES})|you|he|him|she|her|they|them)\b(?!'s)")
# a line labelled with whom it is for: "You: prednisolone 40 mg each morning", "For your son: 5 ml"
# (normalised: "as for you, prednisolone 40 mg…")
_LABELLED = rf"((?:your )?(?:{RELATIVES})|you|him|her|them)"
PERSON_LABEL = re.compile(rf"^\W*(?:as for\s+(?:for\s+)?{_LABELLED}\s*,|(?:for\s+)?{_LABELLED}\s*:)")
PERSON_OF = {"him": "he", "her": "she", "them": "they"}
GIVING_VERBS = "give|let|allow|help"  # verbs whose object is the one who takes the medicine
GIVING = re.compile(rf"^(?:(?:please|just|then|and|do not|never)\s+)*(?:{GIVING_VERBS})\b")
ONE_DOSE_OF_SEVERAL = re.compile(
    r"\b(?:first|second|third|last|morning|evening|lunchtime|night-?time|bedtime|afternoon) (?:dose|tablet)s?\b|"
    r"\bthe other (?:dose|tablet)\b"  # "with your other tablets" are other medicines
)
MEDICINE_WORDS = re.compile(
    r"\b(?:(?:take|taking)(?! (?:off|care|a break|time|a rest|it easy|part|a seat|a look|a walk|a breath))|"
    r"swallow|doses?|tablets?|capsules?|pills?|medicines?|medications?|prescription|"
    r"(?:best|right|ideal|usual) time(?! (?:to|for) (?!take\b))(?: to take)?)\b"
)
# the one a medicine is given to: "you can give him ibuprofen" is about him
RECIPIENT = re.compile(rf"\b(?:{GIVING_VERBS})\s+(your (?:{RELATIVES})|him|her|them)\b")
# a missed or extra dose: "never take a double dose to catch up" is about that dose, not the drug
EXTRA_DOSE = re.compile(
    r"\b(?:double (?:dose|up)|doubling up|to make up for|to catch up|missed (?:dose|tablet|pill)s?|extra doses?|"
    r"two (?:doses|tablets|pills) (?:of \w+ )?(?:together|at once|at the same time))\b"
)
# names of a class, not of one drug: the concepts, their plurals, and lay names for them
CLASS_NAMES = frozenset(CONCEPTS)
CIRCUMSTANCES = frozenset(("pregnancy", *CONCEPTS["pregnancy"]))
CLASS_ALIASES = frozenset(
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
        "the pill",  # any pill against the combined or the progestogen-only one
        # any vitamin, against a lettered one: "avoid vitamin supplements" / "take vitamin D"
        "vitamin",
        "vitamins",
    }
)
