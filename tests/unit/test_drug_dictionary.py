"""The drug-name dictionary read from the drug-named-entity-recognition package's data file:
exact one- and two-token matching, and the cached name list a restarted worker reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from contraflow.streams.core.extract import drug_dictionary
from contraflow.streams.core.extract.drug_dictionary import drug_spans, drug_variants, generic_names


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    drug_variants.cache_clear()
    generic_names.cache_clear()
    yield tmp_path / "contraflow"
    drug_variants.cache_clear()
    generic_names.cache_clear()


def test_names_are_matched_as_written_one_and_two_tokens() -> None:
    tokens = ["Take", "Sertraline", "with", "vitamin", "D", ",", "not", "with", "the", "table"]
    assert drug_spans(tokens) == [(3, 5), (1, 2)]  # "vitamin d" as one name, then "sertraline"
    assert drug_spans(["Zoloft"]) == [(0, 1)]  # brand names too
    assert drug_spans(["rest", "and", "drink", "water"]) == []


def test_the_second_start_reads_the_cached_list_and_gets_the_same_names(fresh_cache: Path) -> None:
    first = drug_variants()
    written = list(fresh_cache.glob("drug-variants-*.txt"))
    assert len(written) == 1 and "ibuprofen" in first and len(first) > 100_000
    drug_variants.cache_clear()
    drug_dictionary.load_drug_dictionary.cache_clear()
    assert drug_variants() == first
    assert drug_dictionary.load_drug_dictionary.cache_info().currsize == 0  # the package's file was not unpacked


def test_a_cache_folder_that_cannot_be_made_still_gives_the_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))  # even root cannot make a folder inside a file
    drug_variants.cache_clear()
    try:
        assert "ibuprofen" in drug_variants()
    finally:
        drug_variants.cache_clear()


def test_brands_name_their_generics_from_the_cached_list_too(fresh_cache: Path) -> None:
    first = generic_names()
    assert first["nurofen"] == ("ibuprofen",) and first["lustral"] == ("sertraline",)
    assert "ibuprofen" not in first  # a generic is not its own brand
    assert all(" " not in name for names in first.values() for name in names)  # no classes or receptors
    assert len(list(fresh_cache.glob("drug-generics-*.txt"))) == 1
    generic_names.cache_clear()
    drug_dictionary.load_drug_dictionary.cache_clear()
    assert generic_names() == first
    assert drug_dictionary.load_drug_dictionary.cache_info().currsize == 0
