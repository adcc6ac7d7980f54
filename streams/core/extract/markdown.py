"""Markdown formatting in chat text (**bold**, __bold__, *italic*, `code`, # headings):
formatting, not words. Removed before advice extraction and fact reading, like reasoning
blocks; events keep the raw text."""

from __future__ import annotations

import re

_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1", re.DOTALL)
# a single-asterisk emphasis inside a line; a list item's "* " (asterisk, space) is no emphasis
_ITALIC = re.compile(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])")
_CODE = re.compile(r"`([^`\n]*)`")
_HEADING = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+", re.MULTILINE)


def strip_markdown(text: str) -> str:
    """`text` with its emphasis markers, inline-code ticks and heading hashes removed."""
    plain = _STRONG.sub(r"\2", text)
    plain = _ITALIC.sub(r"\1", plain)
    plain = _CODE.sub(r"\1", plain)
    return _HEADING.sub("", plain)
