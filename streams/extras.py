"""The optional extras, and the one-line error when code needs one that is not installed.

The base install runs the worker, the demo, `replay`, `conflicts` and `nli eval` on ONNX
Runtime and numpy. torch and transformers are in the `[train]` extra (`contraflow nli
train / export`, the transformers NLI backend, tokenizers without tokenizer.json) and the
`[gpu]` extra (the transformers backend on CUDA); `[dev]` includes `[train]`.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence

from contraflow.streams.errors import UserError

TRAINING = ("torch", "transformers")


class MissingExtra(UserError, RuntimeError):
    """Code that needs an extra that is not installed; the message says which and how to add it."""


def require(modules: Sequence[str], what: str, extras: Sequence[str] = ("train",)) -> None:
    """Raise MissingExtra, saying that `what` needs the extra, when one of `modules` is not installed.

    Only looks the modules up (no import), so a caller can check before slow work starts.
    """
    missing = [name for name in modules if not _installed(name)]
    if not missing:
        return
    how = " or ".join(f"pip install 'contraflow[{extra}]'" for extra in extras)
    names = ", ".join(missing[:-1]) + " and " + missing[-1] if len(missing) > 1 else missing[0]
    raise MissingExtra(
        f"{what} needs {names}, which the base install leaves out: {how} (in a clone: pip install -e '.[{extras[0]}]')"
    )


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # a parent that fails to import, or a module without a spec
        return False
