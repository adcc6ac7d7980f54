"""Reasoning blocks of reasoning models (`<think>…</think>` and the like): the model's
private deliberation, which may weigh options it then rejects. They are removed before
advice extraction and entity matching; events keep the raw text."""

from __future__ import annotations

import re

_TAGS = "think|thinking|thought|reasoning|reflection|scratchpad|analysis"
# a closed block, or an opened one that never closes (cut off: everything after it is reasoning)
_BLOCK = re.compile(rf"<\s*({_TAGS})\s*>.*?(?:<\s*/\s*\1\s*>|\Z)", re.IGNORECASE | re.DOTALL)
# a closing tag without its opening one: some chat templates put "<think>" in the prompt
_ORPHAN_CLOSE = re.compile(rf"\A.*?<\s*/\s*(?:{_TAGS})\s*>", re.IGNORECASE | re.DOTALL)


def strip_reasoning(text: str) -> str:
    """`text` without its reasoning blocks, stripped."""
    visible = _BLOCK.sub(" ", text)
    visible = _ORPHAN_CLOSE.sub(" ", visible)
    return visible.strip()
