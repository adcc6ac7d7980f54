"""Clinical entity extraction for entity recall (Study C): the conditions, symptoms, allergies,
medications and doses a text mentions, as lower-cased strings in order of first appearance.

Two modes, chosen once by `load_entity_extractor` (the app passes the CONTRAFLOW_NER_MODEL setting):

``scispacy:<name>`` — a spaCy model loaded by name or path with `spacy.load`, normally scispaCy's
``en_core_sci_sm`` (not on PyPI, so it must be installed separately), plus scispaCy's
AbbreviationDetector. Finds: every span the model tags, which for the sci models is one
``ENTITY`` label covering diseases, symptoms, drugs, anatomy, procedures and many other biomedical
nouns, so it is broad and includes generic spans ("patient", "history") that `filter_entities`
removes. Misses: what the model does not tag; doses and allergies come out only as the spans the
model tags, as written (no dose or allergy normalisation); negation is not handled.

``rules`` — the fallback when the model is not installed (or the name is ``"rules"``): a blank
English spaCy pipeline with an EntityRuler (phrases in `entity_phrases`, patterns in
`entity_rules`), the drug dictionary of the ``drug-named-entity-recognition`` package (about
107,000 generic and brand names and variants, shipped inside the package, no network) and
scispaCy's AbbreviationDetector. Finds:
- conditions and symptoms from curated phrase lists ("type 2 diabetes", "major depressive disorder",
  "shortness of breath", "suicidal ideation", ...), "<site> pain" ("chest pain"; "pain" alone is
  not an entity) and single words with a disease suffix ("arthritis", "neuropathy", "fibromyalgia");
- clinical abbreviations written in capitals ("PTSD", "COPD", "GAD"; "Ms" is not "MS");
- allergies: "allergic to penicillin", "allergy to penicillin" and "penicillin allergy" all give
  "penicillin allergy" (and not also "penicillin");
- medications as written: "sertraline", "Zoloft" -> "zoloft" (brand names are not mapped to
  generics); the dictionary also holds supplements such as "melatonin" and "vitamin d";
- doses: a number and a unit, its own entity after the drug, written with one space:
  "sertraline 50mg" gives "sertraline" then "50 mg". Frequencies ("twice daily") are not entities.
Misses: conditions and symptoms outside the lists and paraphrases ("my breathing is bad"),
multi-word allergens ("allergic to bee stings"), misspelt drug names, and negation ("denies chest
pain" still gives "chest pain").

Both modes: when the text defines an abbreviation, "generalized anxiety disorder (GAD)", and the long
form contains an entity, the whole long form becomes the entity (unless it is a list: "and", "or",
commas) and every mention of the short form gives the short form ("gad").

Build the extractor once and reuse it: loading takes a few seconds (the drug dictionary), `extract`
then takes milliseconds. An extractor is not thread-safe (the AbbreviationDetector keeps state
during a call)."""

from __future__ import annotations

import logging
import re
import warnings
from collections.abc import Callable
from functools import cache

from contraflow.streams.core.extract import spacy_import  # noqa: F401  (first: spaCy's import without torch and its CLI)

# isort: split
import scispacy.abbreviation  # noqa: F401  (registers the "abbreviation_detector" factory)
import spacy
from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.util import filter_spans

from contraflow.streams.core.extract import entity_phrases as phrases
from contraflow.streams.core.extract import entity_rules as rules
from contraflow.streams.core.extract.drug_dictionary import drug_spans, drug_variants
from contraflow.streams.core.extract.entity_filter import EDGE_CHARS

logger = logging.getLogger(__name__)

# The AbbreviationDetector runs an empty matcher on texts that define no abbreviation; spaCy warns of it.
warnings.filterwarnings("ignore", message=r"\[W036\] The component 'matcher'", category=UserWarning)

DEFAULT_MODEL = "en_core_sci_sm"
RULES_MODE = "rules"

_DOSE = re.compile(r"(\d)\s*([^\d\s.,/])")


@Language.factory("contraflow_drug_names")
def _make_drug_names(nlp: Language, name: str) -> Callable[[Doc], Doc]:
    """A pipeline component adding MEDICATION entities from the drug-named-entity-recognition dictionary."""
    drug_variants()  # loads the dictionary once (about a second)

    def add_drug_names(doc: Doc) -> Doc:
        found = [Span(doc, start, end, label="MEDICATION") for start, end in drug_spans([t.text for t in doc])]
        doc.ents = filter_spans([*doc.ents, *found])  # on overlap the longer span wins, then the ruler's
        return doc

    return add_drug_names


def build_rules_pipeline() -> Language:
    """The rules-mode spaCy pipeline: EntityRuler, drug dictionary, AbbreviationDetector."""
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("entity_ruler", config={"phrase_matcher_attr": "LOWER"})
    patterns: list[dict[str, object]] = [
        *({"label": "CONDITION", "pattern": phrase} for phrase in phrases.CONDITIONS),
        *({"label": "SYMPTOM", "pattern": phrase} for phrase in phrases.SYMPTOMS),
        *({"label": "SYMPTOM", "pattern": f"{site} pain"} for site in phrases.PAIN_SITES),
        *({"label": "CONDITION", "pattern": pattern} for pattern in rules.CONDITION_SUFFIX_PATTERNS),
        *({"label": "ALLERGY", "pattern": pattern} for pattern in rules.ALLERGY_PATTERNS),
        *({"label": "DOSAGE", "pattern": pattern} for pattern in rules.DOSAGE_PATTERNS),
        *(
            {"label": "ABBREVIATION", "pattern": [{"ORTH": token.text} for token in nlp.make_doc(abbreviation)]}
            for abbreviation in rules.ABBREVIATIONS
        ),
    ]
    ruler.add_patterns(patterns)  # type: ignore[attr-defined]
    nlp.add_pipe("contraflow_drug_names")
    nlp.add_pipe("abbreviation_detector")
    return nlp


def _normalise(span: Span) -> str:
    text = " ".join(span.text.lower().split()).strip(EDGE_CHARS)
    if span.label_ == "DOSAGE":
        return _DOSE.sub(r"\1 \2", text)
    if span.label_ == "ALLERGY":
        allergen = span[0] if span[-1].lower_ in ("allergy", "allergies") else span[-1]
        return f"{allergen.lower_} allergy"
    return text


def _is_list(span: Span) -> bool:
    return any(token.lower_ in ("and", "or") or token.text in (",", ";") for token in span)


def _abbreviation_spans(doc: Doc, entities: list[Span]) -> list[Span]:
    """Long forms that contain an entity, and every mention of their short form, with its label."""
    if not Doc.has_extension("abbreviations"):
        return []
    found: list[Span] = []
    for short in doc._.abbreviations:
        long = short._.long_form
        inner = [ent for ent in entities if long.start <= ent.start and ent.end <= long.end]
        if inner and not _is_list(long):
            found += [
                Span(doc, long.start, long.end, label=inner[0].label_),
                Span(doc, short.start, short.end, label=inner[0].label_),
            ]
    return found


class EntityExtractor:
    """Clinical entities of a text with one loaded spaCy pipeline; see the module doc for the modes."""

    def __init__(self, nlp: Language, mode: str) -> None:
        self.nlp = nlp
        self.mode = mode

    def extract(self, text: str) -> list[str]:
        """Lower-cased entity strings in order of first appearance, without duplicates."""
        doc = self.nlp(text)
        entities = list(doc.ents)
        spans = sorted(filter_spans([*entities, *_abbreviation_spans(doc, entities)]), key=lambda span: span.start)
        return list(dict.fromkeys(text for text in map(_normalise, spans) if text))


@cache
def load_entity_extractor(model_name: str | None = None) -> EntityExtractor:
    """The extractor for `model_name` (default en_core_sci_sm), or the rules one when that model is
    not installed or the name is "rules". Cached: one extractor per name per process."""
    name = model_name or DEFAULT_MODEL
    if name == RULES_MODE:
        return EntityExtractor(build_rules_pipeline(), mode=RULES_MODE)
    try:
        nlp = spacy.load(name)
    except OSError:  # spaCy's E050: no installed package, link or path has that name
        # the default model is optional (not on PyPI): its absence is the normal case, not a warning
        log = logger.warning if model_name else logger.info
        log("NER model %r is not installed: using the rules entity extractor instead", name)
        return EntityExtractor(build_rules_pipeline(), mode=RULES_MODE)
    if "abbreviation_detector" not in nlp.pipe_names:
        nlp.add_pipe("abbreviation_detector")
    return EntityExtractor(nlp, mode=f"scispacy:{name}")
