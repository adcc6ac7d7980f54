"""The phrasings the clinical advice pairs are made of (`clinical_pairs.py`): the templates
for permitting, prohibiting, stopping, continuing, limiting and scheduling, titration
steps, conditions, other people, and the values of a regimen's slots (dose, frequency,
time, food, days). The activities and substances they are about, with their words, are
in `clinical_targets.py`."""

from __future__ import annotations

# -- how each kind of advice is said --------------------------------------------------

DISCOURSE = ("Yes, ", "Actually, ", "Okay, ", "So, ", "Right, ", "Well, ", "Alright, ", "And ")
PERMIT = (
    "You can {base}.",
    "It's fine to {base}.",
    "It's okay to {base}.",
    "{gerund} is fine.",
    "{gerund} is safe for you.",
    "There's no problem with {gerund}.",
    "Feel free to {base}.",
    "You're allowed to {base}.",
    "Go ahead and {base}.",
    "You don't need to avoid {noun}.",
    "It's safe for you to {base}.",
    "{gerund} won't do you any harm.",
    "Nothing wrong with {gerund}.",
    "I'm happy for you to {base}.",
)
PROHIBIT = (
    "Don't {base}.",
    "Do not {base}.",
    "You must not {base}.",
    "You shouldn't {base}.",
    "Please avoid {gerund}.",
    "Avoid {gerund}.",
    "Stay away from {noun}.",
    "Steer clear of {noun}.",
    "No {noun} for now.",
    "It's not safe for you to {base}.",
    "{gerund} is not safe for you.",
    "I don't want you {gerund}.",
    "Cut out {noun} completely.",
    "Please stop {gerund}.",
    "It's best not to {base}.",
    "I'd recommend that you don't {base}.",
)
PROHIBIT_CONSUMABLE = ("Don't have any {noun}.", "No {noun} at all, please.", "You can't have any {noun}.")
STOP_DRUG = (
    "Stop {noun}.",
    "Stop taking {noun}.",
    "Come off {noun}.",
    "Don't take any more {noun}.",
    "Stop the {noun} now.",
    "I'd stop the {noun}.",
    "You should stop taking {noun}.",
    "It's best to come off {noun}.",
    "No more {noun}.",
)
ENCOURAGE = (
    "You should {base}.",
    "Make sure you {base}.",
    "Try to {base}.",
    "I'd recommend {gerund}.",
    "It would help to {base}.",
    "{gerund} will do you good.",
    "Keep {gerund}.",
    "It's a good idea to {base}.",
    "I want you to {base}.",
    "Please {base}.",
    "It's best to {base}.",
    "Do try to {base}.",
)
SMALL = (
    "{small} is fine.",
    "You can have {small}.",
    "{small} won't hurt.",
    "It's okay to have {small}.",
    "{small} is allowed.",
    "I'm fine with {small}.",
)
CONTINUE = (
    "Don't stop {drug}.",
    "Do not stop taking {drug}.",
    "Keep taking {drug}.",
    "Keep taking your {drug}.",
    "Continue {drug}.",
    "Continue with the {drug}.",
    "Carry on with {drug}.",
    "Carry on taking your {drug}.",
    "Stay on {drug}.",
    "Keep going with the {drug}.",
    "Don't come off {drug}.",
    "Stick with {drug}.",
    "Please don't stop the {drug}.",
    "{drug} should be continued.",
    "You should keep taking {drug}.",
    "I'd recommend you continue {drug}.",
)
LIMIT = (
    "Don't take more than {dose} of {drug} a day.",
    "No more than {dose} of {drug} in 24 hours.",
    "The most {drug} you can take is {dose} a day.",
    "Never go over {dose} of {drug} in a day.",
    "Your maximum of {drug} is {dose} per day.",
    "Keep {drug} to {dose} a day at most.",
    "You can take up to {dose} of {drug} a day.",
    "Don't exceed {dose} of {drug} in a day.",
    "Stick to a maximum of {dose} of {drug} a day.",
    "{drug} is capped at {dose} a day.",
    "Up to {dose} of {drug} a day is the limit.",
    "Take no more than {dose} of {drug} in a day.",
)
REGIMEN_OPENERS = (
    "{vp}.",
    "Please {vp}.",
    "You should {vp}.",
    "I'd recommend that you {vp}.",
    "It's best to {vp}.",
    "I'd like you to {vp}.",
    "You need to {vp}.",
    "Make sure you {vp}.",
    "The plan is to {vp}.",
    "From now on, {vp}.",
    "Going forward, {vp}.",
    "What I'd suggest is to {vp}.",
)
# {slots}: every slot of the regimen; {dose} and {rest}: its dose and the other slots.
REGIMEN_VPS = (
    "take {drug} {slots}",
    "take your {drug} {slots}",
    "keep taking your {drug}, {slots}",
    "have the {drug} {slots}",
    "stick to {drug} {slots}",
    "go on taking {drug} {slots}",
    "take {dose} of {drug} {rest}",
    "have {dose} of {drug} {rest}",
)
REGIMEN_SENTENCES = (
    "Your {drug} dose is {dose} {rest}.",
    "The {drug} is {slots}.",
    "{drug}, {slots}.",
    "{drug} {slots}, please.",
)
TITRATION_START = (
    "Start {drug} at {dose} for {days}.",
    "Begin with {dose} of {drug} for {days}.",
    "To begin with, take {dose} of {drug} for {days}.",
    "Take {drug} {dose} for {days} to start with.",
    "Start on {dose} of {drug}, just for {days}.",
    "We'll start you on {drug} {dose} for {days}.",
)
TITRATION_NEXT = (
    "After {days}, {move} {drug} to {dose}.",
    "After that, {move} the {drug} to {dose}.",
    "Once that's done, {move} your {drug} to {dose}.",
    "Then {move} the {drug} to {dose}.",
    "After {days} we'll {move} your {drug} to {dose}.",
    "The next step is to {move} {drug} to {dose}.",
)
MOVE = {True: ("increase", "raise", "step up", "bump up"), False: ("reduce", "lower", "cut", "bring down")}
CONDITIONS = (
    "the pain is severe",
    "the pain gets bad",
    "you feel dizzy",
    "you get a rash",
    "your temperature goes above 38",
    "you can't sleep",
    "the swelling gets worse",
    "you feel sick",
    "your chest feels tight",
    "you get a headache",
    "the cough keeps you up",
    "you start wheezing",
)
CONDITIONAL = (
    "If {cond}, take {drug}.",
    "Take {drug} if {cond}.",
    "If {cond}, you can take {dose} of {drug}.",
    "If {cond}, stop {drug} and call us.",
    "If {cond}, skip the next dose of {drug}.",
    "If {cond}, halve your {drug} dose.",
    "Use {drug} if {cond}.",
    "Have {dose} of {drug} if {cond}.",
    "If {cond}, take an extra {dose} of {drug}.",
    "Stop the {drug} for a day if {cond}.",
    "If {cond}, hold off on {drug} until you've seen us.",
)
PERSONS = ("your son", "your daughter", "your husband", "your wife", "your mum", "your dad", "your partner", "the baby")
OTHER_PERSON = (
    "Give {person} {drug} {slots}.",
    "{person} should take {drug} {slots}.",
    "{person} can have {drug} {slots}.",
    "{person} needs {dose} of {drug} {rest}.",
    "{person} must not take {drug}.",
    "{person} should stop {drug}.",
    "Don't give {person} any {drug}.",
    "{person} can't have {drug}.",
    "{person} should keep taking {drug}.",
    "For {person}, {drug} {slots}.",
)

# -- regimens: dose, frequency, time of day, food, duration ---------------------------

DOSES = {
    "mg": (2.5, 5, 10, 20, 25, 40, 50, 75, 100, 150, 200, 250, 300, 400, 500, 600, 800, 1000),
    "micrograms": (25, 50, 75, 100, 125, 150, 200),
    "ml": (2.5, 5, 7.5, 10, 15, 20),
    "tablet": (1, 2, 3, 4),
}
UNIT_FORMS = {
    "mg": ("{n} mg", "{n}mg", "{n} milligrams"),
    "micrograms": ("{n} micrograms", "{n} mcg"),
    "ml": ("{n} ml", "{n} mL", "{n} millilitres"),
    "tablet": ("{n} tablet", "{w} tablet"),
}
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
FREQUENCY = {
    1: ("once a day", "once daily", "one time a day"),
    2: ("twice a day", "twice daily", "two times a day", "every twelve hours"),
    3: ("three times a day", "three times daily", "every eight hours"),
    4: ("four times a day", "four times daily", "every six hours"),
    7: ("once a week", "once weekly", "one day a week"),
    0: ("only when you need it", "only as needed", "only if you need it"),
}
TIME = {
    "morning": ("in the morning", "every morning", "each morning", "first thing in the morning", "when you get up"),
    "night": ("at night", "at bedtime", "before bed", "last thing at night", "every night"),
}
FOOD = {
    "with": ("with food", "with a meal", "after eating", "with something to eat"),
    "without": ("on an empty stomach", "before eating", "without food", "an hour before food"),
}
DAYS = {
    3: ("3 days", "three days"),
    5: ("5 days", "five days"),
    7: ("7 days", "a week", "seven days", "one week"),
    10: ("10 days", "ten days"),
    14: ("14 days", "two weeks", "a fortnight"),
    21: ("21 days", "three weeks"),
    28: ("28 days", "four weeks"),
}
SLOT_VALUES = {"freq": tuple(FREQUENCY), "time": tuple(TIME), "food": tuple(FOOD), "days": tuple(DAYS)}
SLOTS = ("dose", *SLOT_VALUES)
