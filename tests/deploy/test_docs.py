"""The README stays true: every setting is in its table, and CI runs its test command."""

from pathlib import Path

from contraflow.streams.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def test_every_setting_is_in_the_configuration_table() -> None:
    missing = [name for name in Settings.model_fields if f"`CONTRAFLOW_{name.upper()}`" not in README]
    assert missing == []


def test_ci_runs_the_readme_test_command() -> None:
    command = "python3 -m venv .venv && .venv/bin/pip install -e '.[dev]' && .venv/bin/pytest"
    assert command in README
    assert command in (ROOT / ".ci" / "run").read_text()
