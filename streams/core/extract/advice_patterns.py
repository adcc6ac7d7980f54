"""The words and patterns `advice.py` recognises advice with: instruction verbs and
imperatives, directives addressed to the person, verdicts on a thing or on doing it, status
and history, dosing, leading and trailing conditions, where a sentence gives a second
directive, the people advice may be for, and the lines and list items of a response."""

from __future__ import annotations

import re

# an abbreviation's full stop ends no sentence ("antacids (e.g. Gaviscon)", "Dr. Patel"); after
# "a.m." / "p.m." a capital letter opens the next one ("at 8 a.m. Then wait")
_ABBREVIATION = "".join(
    rf"(?<!\b{word}\.)" for word in (r"e\.g", r"i\.e", "vs", "cf", "approx", "incl", "Dr", "Mr", "Mrs", "Ms")
)
SENTENCE_END = re.compile(
    rf"(?<=[.!?]){_ABBREVIATION}(?<!\b[ap]\.m\.)\s+|(?<=\b[ap]\.m\.)\s+(?=(?-i:[A-Z]))|\n+\s*(?:[-*\u2022]|\d+[.)])?\s*",
    re.IGNORECASE,
)
_LEAD = (
    r"(?:(?:yes|no|okay|ok|so|also|then|and|but|now|instead|first|next|finally|overall|for now|in that case|ideally)"
    r"[\s,]+)*"
)

# those who treat the person: "your GP may review the dose" tells what they will do, not the reader
CLINICIANS = (
    r"(?:gp|doctor|doctors|pharmacist|nurse|midwife|consultant|specialist|dentist|surgeon|team|care\s+team|"
    r"health\s+visitor|optician|physio|physiotherapist|prescriber|clinic|practice|hospital)"
)
_IMPERATIVE_VERBS = (
    "take|avoid|stop|start|continue|discontinue|increase|reduce|decrease|lower|raise|use|apply|"
    "drink|eat|rest|schedule|see|call|contact|seek|go|keep|monitor|check|limit|get|try|consider|"
    "switch|begin|resume|skip|wait|book|follow|practice|practise|exercise|walk|sleep|cut|add|"
    "replace|restart|hold|pause|taper|double|halve|inject|inhale|swallow|ice|elevate|measure|"
    "record|track|visit|talk|ask|remember|quit|maintain|wear|wash|stick|stay|give|put|leave|"
    "return|aim|allow|let|make|spread|space|split|store|finish|complete|change|reduce|drop|"
    "go ahead|hold off|steer clear|cut back|cut down|stay away|switch back|carry on|pop|prick|drain|cover|clean|"
    "soak|sit|lie|breathe|sip|chew|crush|dissolve|rinse|gargle|shower|bathe|moisturise|moisturize|massage|stretch|"
    "lift|bend|ring|phone|omit|delay|postpone|wrap|place|press|cool|dab|plan|pack|buy|choose|mix|shake|run|jog|swim|"
    "cycle"
)
# "Tell me more", "Let me know": addressed to the assistant, not a health action; "The surgeon can tell
# you when…": what the clinician will do
NOT_ADVICE_IMPERATIVE = re.compile(
    rf"^(?:your|the)\s+{CLINICIANS}\s+(?:can|could|will|may|might|should|would)\s+(?:\w+\s+)?"
    r"(?:tell|advise|let|check|decide|discuss|talk|review|explain|help|assess|arrange|refer|prescribe|see|go)\b|"
    r"^(?:tell|let|ask|give|show)\s+me\b|^feel\s+free\b|^(?:please\s+)?(?:don't|do\s+not|try\s+not\s+to)\s+"
    r"(?:worry|hesitate|panic|be\s+(?:afraid|alarmed|embarrassed|hard\s+on\s+yourself))\b|^rest\s+assured\b",
    re.IGNORECASE,
)
IMPERATIVE = re.compile(
    rf"^{_LEAD}(?:please[\s,]+)?(?:just\s+|simply\s+|gently\s+|only\s+|definitely\s+|always\s+)?"
    # "No smoking for at least 72 hours": a prohibition
    rf"(?:{_IMPERATIVE_VERBS}|don't|do\s+not|never|no\s+more|no\s+\w+ing)\b",
    re.IGNORECASE,
)
# a leading condition or time clause: "If the pain gets worse, see your GP."
# a purpose before an instruction, which it does not make conditional: "to look after your gut
# in the meantime, eat plenty of fibre"
PURPOSE = re.compile(
    r"^to\s+(?:look\s+after|help|protect|reduce|ease|keep|prevent|avoid|settle|soothe|manage)\b[^,]{0,160},\s*",
    re.IGNORECASE,
)
CONDITION = re.compile(
    r"^(?:(?:so|and|but|then|also|now|yes|no|okay|ok)[\s,]+)?"
    r"(?:(?:if|when|whenever|once|after|before|until|while|since|as\s+soon\s+as|because|given\s+that|"
    r"now\s+that|in\s+case|unless|for\s+(?:the\s+)?(?:next|first|rest)|during|on\s+days)\b[^,]{0,160}|"
    r"(?:for|on|at|by|from|over|tonight|today|tomorrow|this\s+\w+)\b[^,.;:]{0,30}),\s*",
    re.IGNORECASE,
)
DIRECTIVE = re.compile(
    rf"\b(?:you|your\s+(?!{CLINICIANS}\b)\w+|he|she|they|we)\s+(?:really\s+|definitely\s+|probably\s+|still\s+)?"
    r"(?:should|shouldn't|must|mustn't|need\s+to|needs\s+to|have\s+to|has\s+to|ought\s+to|"
    r"can|can't|cannot|could|may|might\s+want\s+to|will\s+need\s+to|'ll\s+need\s+to|'ll\s+want\s+to|"
    r"don't\s+need\s+to|do\s+not\s+need\s+to|no\s+longer\s+need\s+to)\b|"
    r"\b(?:you|your\s+(?:\w+\s+){0,3}?\w+)(?:'re|\s+are|'s|\s+is)\s+(?:fine|okay|ok|safe|free|good|clear|allowed)\s+to\b|"
    r"\b(?:i|we)(?:\s+|'d\s+)(?:would\s+|do\s+|strongly\s+|really\s+)?"
    r"(?:recommend|suggest|advise|prescribe|encourage|urge)\b|"
    r"\b(?:i|we)(?:'d|\s+would)\s+(?:like\s+you\s+to|rather\s+you)\b|"
    # "I'd give swimming a miss", "I'd take it with food": what the assistant would do is advice
    rf"\b(?:i|we)(?:'d|\s+would)\s+(?:just\s+|probably\s+|definitely\s+|still\s+|really\s+)?(?:{_IMPERATIVE_VERBS})\b|"
    # "you'll need to carry on for 7 days", "you'll want the 5 mg tablets"
    r"\b(?:you|he|she|they)(?:'ll|\s+will)\s+(?:need|want|have\s+to)\b|"
    r"\b(?:let's|let\s+us|we(?:'ll|\s+will|\s+can|\s+could|\s+should))\s+(?:\w+\s+)?(?:start|increase|reduce|stop|"
    r"switch|add|try|keep|continue|lower|raise|hold|change|move|go|stick|begin|taper|restart|put)\b|"
    r"\bit(?:'s|\s+is|\s+would\s+be)\s+(?:\w+\s+)?(?:important|best|better|advisable|recommended|safe|safer|fine|"
    r"okay|ok|alright|essential|necessary|crucial|wise|sensible|reasonable|a\s+good\s+idea|not\s+a\s+good\s+idea|"
    r"unsafe|dangerous|risky)\s+(?:not\s+)?(?:to|for\s+you\s+to)\b|"
    r"\b(?:is|are|isn't|aren't|is\s+not|are\s+not|remains?|stays?)\s+(?:\w+\s+)?(?:recommended|advised|"
    r"contraindicated|safe|unsafe|fine|okay|ok|a\s+good\s+(?:idea|option|choice)|the\s+(?:best|right)\s+"
    r"(?:option|choice|amount|dose)|best\s+avoided|off[-\s]limits|allowed|not\s+allowed|enough|plenty|sufficient|"
    r"necessary|needed|required)\s+(?:with|for|during|while|in|to|on|when|if|alongside|together|now|here)\b|"
    # "ibuprofen is best avoided"
    r"\b(?:is|are|'s|'re)\s+best\s+avoided\b|"
    r"\b(?:make\s+sure|be\s+sure\s+to|be\s+careful|try\s+to|try\s+not\s+to|there(?:'s|\s+is)\s+no\s+need\s+to|"
    r"no\s+need\s+to|the\s+(?:best|safest)\s+(?:thing|option|choice|approach)(?:\s+\w+){0,3}?\s+(?:is|would\s+be)|"
    # "the easiest is to take it in the morning", "the sensible thing is not to take him tomorrow"
    rf"the\s+(?:\w+\s+){{1,3}}?(?:is|would\s+be)\s+(?:not\s+|never\s+)?to\s+(?:{_IMPERATIVE_VERBS})|"
    r"(?:things?|foods?|ones?|drinks?|activities)\s+to\s+avoid\s+(?:are|is|include)|"
    r"the\s+(?:usual|standard|general|normal)\s+(?:recommendation|advice|approach|guidance)\s+is\s+(?:to|that)|"
    r"a\s+good\s+(?:habit|idea|plan|rule|routine)\s+is\s+to|works?\s+best\s+(?:when\s+|if\s+)?taken|"
    r"(?:now|this)\s+is\s+the\s+(?:time|moment)\s+to|"
    r"the\s+(?:best|right|usual|ideal)\s+(?:time|way)\s+(?:(?:to\s+take|for)\s+(?:\w+\s+){1,3}?)?is|"
    r"(?:is|are|'s)\s+best\s+taken|"
    r"you\s+(?:don't|do\s+not)\s+need\s+(?:any|a|the|to|your)?|"
    r"(?:should|must)\s+(?:not\s+)?(?:be\s+)?(?:take|taken|avoid|avoided|stop|stopped|start|started|continue|"
    r"continued|use|used)|recommended\s+dose|no\s+more\s+than|up\s+to\s+a\s+maximum|at\s+most|maximum\s+of)\b",
    re.IGNORECASE,
)
# a thing or a doing not worth it: "breathing exercises are useless", "using it daily is pointless"
_NOT_WORTH_IT = (
    r"(?:useless|pointless|ineffective|worthless|a\s+waste\s+of\s+(?:time|money)|not\s+worth\s+(?:it|doing|trying))"
)
# a verdict on a thing to do or have, closing the sentence: "A glass of wine is fine.", "Three days of
# nitrofurantoin is enough."; not on the person's own state ("Your blood pressure is fine.")
VERDICT_ON_THING = re.compile(
    r"^(?!(?:your|his|her|their|my|our|the|this|that|these|those|it|everything|all|which)\b)[^,;]{0,100}?\b"
    r"(?:is|are|isn't|aren't|is\s+not|are\s+not|should\s+be|would\s+be|will\s+be)\s+(?:\w+\s+)?(?:fine|okay|ok|"
    r"alright|safe|unsafe|enough|plenty|sufficient|necessary|needed|required|the\s+(?:right|correct)\s+(?:amount|dose))"
    # the verdict closes the sentence, or a clause: "One cigarette should be fine if you're careful, just…"
    r"(?:\s*[.!]?\s*$|\s*[,;:\u2014\u2013]|\s+-\s|\s+(?:if|as\s+long\s+as|provided|so\s+long\s+as)\b)|"
    # "a small glass of wine is a nice way to relax", "swimming is a good option"
    r"^(?!(?:your|his|her|their|my|our|the|this|that|these|those|it|everything|all|which)\b)[^,;]{0,100}?\b"
    r"(?:is|are)\s+(?:a|an|the)\s+(?:\w+\s+)?(?:good|nice|great|safe|sensible|reasonable|fine|helpful|useful|"
    r"healthy|best|better|ideal)\s+(?:way|option|choice|idea|thing)\b|"
    # a thing not worth doing: "breathing exercises are useless for anxiety"
    r"^(?!(?:your|his|her|their|my|our|the|this|that|these|those|it|everything|all|which)\b)[^,;]{0,100}?\b"
    rf"(?:is|are|would\s+be|will\s+be)\s+(?:\w+\s+)?{_NOT_WORTH_IT}",
    re.IGNORECASE,
)
# status or history of the person, not an instruction: "She takes…", "You mentioned you have been on…"
STATUS = re.compile(
    r"^(?:(?:so|and|but|also|currently|right\s+now|at\s+the\s+moment|i\s+see\s+that|i\s+understand\s+that|"
    r"i\s+note\s+that|it\s+sounds\s+like|(?:just\s+)?to\s+(?:check|confirm|recap|summari[sz]e)(?:\s+i've\s+got\s+it\s+right)?:?)"
    r"[\s,]+)*"
    r"(?:(?:he|she|they|the\s+patient|your\s+\w+|my\s+\w+|[A-Z][a-z]+)\s+(?:currently\s+|already\s+|still\s+|"
    r"also\s+|usually\s+|normally\s+)?(?:takes|is\s+taking|are\s+taking|has\s+been|have\s+been|had|was|were|"
    r"is\s+on|are\s+on|uses|used|started|stopped|tried|received|got|gets|needs(?!\s+to)|reports|reported|mentioned|"
    r"said|says|has|feels|felt|developed|noticed)|"
    r"you(?:'ve|\s+have)\s+(?:been|had|tried|taken|used|started|stopped|noticed|mentioned|said|told)|"
    r"you(?:'re|\s+are)\s+(?:currently\s+|already\s+|still\s+)?(?:taking|on|using|having|feeling|getting|\d+)|"
    r"you\s+(?:mentioned|said|told|noted|described|reported|explained|take|took|were|had|used|tried|started|"
    r"stopped|already\s+take|currently\s+take|usually\s+take|also\s+take))\b",
    re.IGNORECASE,
)
# a regimen told in the second person: "You take 40 mg once a day for five days" (with a dose;
# "you take it for your blood pressure" and "you take 50 mg but feel it isn't working" are status)
SECOND_PERSON_REGIMEN = re.compile(
    r"^you\s+(?:take|use|give|apply|put|inhale|insert|swallow|have)\b(?!.*\bbut\b)", re.IGNORECASE
)
# a verdict on doing something: "Taking it with your breakfast is fine, as long as…"
VERDICT_ON_DOING = re.compile(
    rf"^{_LEAD}(?!feel)\w+ing\b"
    r"[^.;]{0,120}?\b(?:is|are|isn't|aren't|is\s+not|are\s+not|should\s+be|would\s+be)\s+"
    r"(?:\w+\s+)?(?:fine|okay|ok|alright|safe|unsafe|recommended|reasonable|sensible|best\s+avoided|"
    rf"a\s+(?:bad|good)\s+idea|nothing\s+to\s+(?:worry\s+about|report)|{_NOT_WORTH_IT})\b|"
    # "using Avamys morning and night should help"
    rf"^{_LEAD}(?!feel)\w+ing\b[^.;]{{0,120}}?\b(?:should|will|can|may|would|could)\s+help\b",
    re.IGNORECASE,
)
DOSING = re.compile(
    r"\b\d+(?:\.\d+)?\s?(?:mg|mcg|µg|g|ml|mL|units?|iu|IU|tablets?|capsules?|puffs?|drops?|sachets?)\b|"
    r"\b(?:once|twice|three\s+times|four\s+times)\s+(?:a|per|each)\s+(?:day|week|night)\b|"
    r"\b(?:daily|every\s+\d+\s+(?:to\s+\d+\s+)?hours|as\s+needed|at\s+bedtime)\b",
    re.IGNORECASE,
)
DOSE_SUBJECT = re.compile(r"^(?:the|your)\s+(?:\w+\s+){0,3}?(?:dose|dosage|maximum|limit|plan)\b", re.IGNORECASE)
# how a medicine is taken, told of the medicine: "Latanoprost is used once a day", "Nitrofurantoin is
# usually one 100 mg capsule twice a day" (with a dose: "Sertraline is an SSRI" is no instruction)
REGIMEN_STATEMENT = re.compile(
    r"^(?!(?:he|she|they|it|this|that|which|there)\b)[\w-]+(?:\s+[\w-]+){0,2}\s+(?:is|are)\s+"
    r"(?:(?:usually|normally|typically|generally|commonly|always|best)\s+)?(?:used|taken|given|applied|inhaled|"
    r"prescribed|one|two|three|four|\d)\b",
    re.IGNORECASE,
)
# the length of a course: "The course is normally 3 days", "a typical course lasts five days"
COURSE = re.compile(
    r"\b(?:the|a|your)\s+(?:\w+\s+)?(?:course|treatment)\s+(?:is|lasts)\s+(?:\w+\s+)?"
    r"(?:\d+|one|two|three|four|five|six|seven|ten|fourteen|a)[\s-]+(?:days?|weeks?|months?)\b",
    re.IGNORECASE,
)
# "Sleep problems are common": a verb-like first word used as a noun subject
NOUN_SUBJECT = re.compile(r"^\w+\s+(?:\w+\s+)?(?:is|are|was|were|can|could|may|might|has|have|had)\b", re.IGNORECASE)

# where one sentence gives a second directive: "…with food and avoid alcohol", "…; don't…"
_DIRECTIVE_START = (
    rf"(?:{_IMPERATIVE_VERBS}|don't|do\s+not|never|no\s+\w+ing|please|you\s+(?:should|must|can|may|could|need|will)|"
    r"make\s+sure|try\s+to|it(?:'s|\s+is)\s+\w+\s+to)"
)
CLAUSE_SPLIT = re.compile(
    rf"\s*;\s*|\s*,?\s+(?:and|but|so|then|and\s+then|plus)\s+(?=(?:also\s+|then\s+)?{_DIRECTIVE_START}\b)|"
    rf",\s+(?=(?:but\s+)?(?:don't|do\s+not|never|avoid|stop|keep|continue|take)\b)",
    re.IGNORECASE,
)


# the people advice may be for, other than the reader: "your son", "your dad"
RELATIVES = (
    r"son|daughter|child|children|kid|kids|baby|toddler|husband|wife|partner|dad|father|mum|mom|mother|"
    r"brother|sister|grandmother|grandfather|gran|grandad|friend|parent|parents|\d+[- ](?:year|month|week)[- ]old"
)
# someone other than the reader, and how the directive binds them: "Your father should ", "He must not "
SUBJECT = re.compile(
    rf"^((?:he|she|they|your\s+(?:{RELATIVES}))\s+(?:should|must|can|could|may|needs\s+to|has\s+to|ought\s+to))"
    r"(?:\s+not|n't)?\s+(?!be\b)",
    re.IGNORECASE,
)
NAMES_SUBJECT = re.compile(r"^(?:i|you|he|she|they|we|it|your\s+\w+)\b", re.IGNORECASE)
# a condition after a directive: "contact your midwife if you have bleeding"
TRAILING_CONDITION = re.compile(r"(?<=\w)\s+(?:if|unless|in\s+case|whenever)\b.*$", re.IGNORECASE)
# a standing routine, which a condition after the next directive does not govern: "weigh yourself every
# morning and call us if you gain two kilograms"
ROUTINE = re.compile(
    r"\b(?:every\s+(?:day|morning|evening|night|week|\d+\s+hours)|daily|(?:once|twice|three\s+times)\s+a\s+(?:day|week))\b",
    re.IGNORECASE,
)
# a condition that opens a new clause at the end of a part, so it governs the directives
# after it: "Most are harmless, but if you get flashing lights, stop taking the pill"
OPENING_CONDITION = re.compile(
    r"(?:,|\b(?:and|but|so|or))\s+((?:if|when|whenever|unless|in\s+case|as\s+soon\s+as)\b(?:(?!\b(?:if|when|whenever|unless)\b).)*)$",
    re.IGNORECASE,
)


# a short lead-in before a dash that the instruction follows: "Yes, that's fine — take it for 7 days"
LEAD_IN = re.compile(
    rf"^[^\u2014\u2013]{{0,60}}?\s[\u2014\u2013-]\s+(?=(?:please\s+)?(?:{_IMPERATIVE_VERBS}|don't|do\s+not|never)\b)|"
    # a short remark before a dash: "That's true — one glass of champagne is fine"
    r"^(?:\S+\s+){0,5}\S+\s[\u2014\u2013]\s+",
    re.IGNORECASE,
)


# a line that introduces a list of things to keep away from: "Avoid:", "The main ones to avoid are:"
AVOID_HEADING = re.compile(
    # "don't have to give up completely, but it helps to:" is no list of things to avoid
    r"\b(?:avoid|steer\s+clear\s+of|cut\s+out|(?:don't|do\s+not)\s+(?:eat|have|take|use|do)\b(?!\s+to\b))"
    r"[^:.!?]{0,60}:\s*$",
    re.IGNORECASE,
)
# "See a GP or go to ED if he:" opens a list of conditions, each item the rest of the sentence
CONDITION_HEADING = re.compile(r"\b(?:if|when|whenever|unless)\b[^:.!?]{0,60}:\s*$", re.IGNORECASE)
LIST_ITEM = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])\s+")
