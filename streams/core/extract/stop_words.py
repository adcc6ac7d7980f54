"""spaCy's English stop words, read from spaCy's own list without importing spaCy.

The turn pipeline needs the list in every worker, and importing spaCy (seconds on a
two-core machine) belongs to the entity extractor alone, which a worker runs in its model
process (streams/runtime/model_host.py). spaCy's `lang/en/stop_words.py` is a plain module with no
imports of its own, so it is run from its file, outside spaCy's package."""

from __future__ import annotations

import importlib.util
from pathlib import Path


def _spacy_stop_words() -> frozenset[str]:
    spec = importlib.util.find_spec("spacy")  # finds the package without running its import
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("the spacy package is not installed", name="spacy")
    path = Path(next(iter(spec.submodule_search_locations))) / "lang" / "en" / "stop_words.py"
    module_spec = importlib.util.spec_from_file_location("contraflow_spacy_en_stop_words", path)
    assert module_spec is not None and module_spec.loader is not None
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return frozenset(module.STOP_WORDS)


STOP_WORDS = _spacy_stop_words()
