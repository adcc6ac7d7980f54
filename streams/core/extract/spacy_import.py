"""spaCy, imported for the entity extractor without two of its own imports.

Two imports that spaCy makes and nothing here uses are kept out of a process's first import
of spaCy, because importing spaCy is most of loading the models, and so of every worker's
start-up (after every crash), `replay` and benchmark:

- thinc, spaCy's numerical library, imports torch whenever torch is installed, only to offer
  torch-backed layers; the rules pipeline is a tokenizer with rule matchers and the sci
  models run on thinc's numpy ops. That import was 17 of 30 s of importing spaCy on the
  two-core machine (`python -X importtime`). thinc's first import sees torch as absent;
  torch itself stays importable (training, the torch NLI backend).
- spaCy's package imports its command line (`spacy.cli`: download, train, project…, which
  pull in weasel, httpx, typer) only to offer `spacy.info()`; a tenth of the import. The
  first import of spaCy sees a stand-in for `spacy.cli.info`; `import spacy.cli` afterwards
  loads the real one.

Import this module before spaCy (entities.py does); the turn pipeline's rules need no spaCy
(their stop words come from `stop_words.py`).
"""

import sys
import types

if "thinc" not in sys.modules and "torch" not in sys.modules:
    sys.modules["torch"] = None  # type: ignore[assignment]  # makes `import torch` raise ImportError
    try:
        import thinc.compat  # noqa: F401
    finally:
        del sys.modules["torch"]


def _import_spacy_without_its_cli() -> None:
    def info(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("spacy.info() is not available in contraflow; run `python -m spacy info`")

    cli, cli_info = types.ModuleType("spacy.cli"), types.ModuleType("spacy.cli.info")
    cli.__path__ = []  # a package, so that `spacy.cli.info` resolves to the stand-in below
    cli_info.info = info  # type: ignore[attr-defined]
    sys.modules.update({"spacy.cli": cli, "spacy.cli.info": cli_info})
    try:
        import spacy  # noqa: F401
    finally:
        del sys.modules["spacy.cli"], sys.modules["spacy.cli.info"]


if "spacy" not in sys.modules:
    _import_spacy_without_its_cli()
