"""Markdown formatting is not words (streams/core/extract/markdown.py)."""

from contraflow.streams.core.extract.markdown import strip_markdown


def test_emphasis_code_and_headings_are_removed_and_list_items_kept() -> None:
    text = "## Plan\n**Keep taking it every day.** Take *one* pill.\n* item one\n- **With breakfast:** 1 g\nUse `this`."
    assert strip_markdown(text) == (
        "Plan\nKeep taking it every day. Take one pill.\n* item one\n- With breakfast: 1 g\nUse this."
    )
