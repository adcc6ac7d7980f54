"""Advice, targets, facts and entities out of turn text.

spaCy's numerical library, thinc, imports torch whenever torch is installed, only to offer
torch-backed layers; nothing here uses them (the rules pipeline is a tokenizer with rule
matchers, the sci models run on thinc's numpy ops). Yet that import was more than half of
loading the models: 17 of 30 s of importing spaCy on the two-core machine (`python -X
importtime`), start-up time of every worker (after every crash), `replay` and benchmark.
So the first import of thinc in a process, made here, sees torch as absent; torch itself
stays importable for the code that needs it (training, the torch NLI backend).
"""

import sys

if "thinc" not in sys.modules and "torch" not in sys.modules:
    sys.modules["torch"] = None  # type: ignore[assignment]  # makes `import torch` raise ImportError
    try:
        import thinc.compat  # noqa: F401
    finally:
        del sys.modules["torch"]
