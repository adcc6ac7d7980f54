"""Advice, targets, facts and entities out of turn text. Only the entity extractor
(`entities.py`) imports spaCy, through `spacy_import.py`."""
