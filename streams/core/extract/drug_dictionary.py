"""The drug-name dictionary of the `drug-named-entity-recognition` package (about 107,000
generic and brand names and variants, shipped inside the package), and exact matching of
one- and two-token names in a token list, as that package's `find_drugs` matches them.

The package builds a character n-gram index for fuzzy matching when it is imported (20 s
on a slow machine, most of a worker's start-up); contraflow matches exactly, so it reads
the package's data file directly and never imports the package. Unpacking that file still
takes seconds, so the name list is kept in a plain text file under the user's cache folder
(`$XDG_CACHE_HOME/contraflow`, default `~/.cache/contraflow`), named after the data file's
size and time, which a restarted worker reads in a fraction of that."""

from __future__ import annotations

import bz2
import functools
import importlib.util
import logging
import os
import pickle
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

PACKAGE = "drug_named_entity_recognition"
DATA_FILE = "drug_ner_dictionary.pkl.bz2"
CACHE_VERSION = 2  # raise when what a cached list holds changes

logger = logging.getLogger(__name__)
_SINGLE_NAME = re.compile(r"[a-z][a-z-]+")


def data_file() -> Path:
    spec = importlib.util.find_spec(PACKAGE)  # finds the package without running its import
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"the {PACKAGE} package is not installed", name=PACKAGE)
    return Path(next(iter(spec.submodule_search_locations))) / DATA_FILE


@functools.cache
def load_drug_dictionary() -> dict[str, Any]:
    """The package's dictionary: drug_variant_to_canonical, drug_canonical_to_data,
    drug_variant_to_variant_data (keys lower-case)."""
    with bz2.open(data_file(), "rb") as handle:
        return pickle.load(handle)  # the package's own data file, read as the package reads it


def cache_dir() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "contraflow"


def _cached_lines(kind: str, build: Callable[[], list[str]]) -> list[str]:
    """Lines derived from the package's data file, kept in a text file under the cache folder
    named after the data file's size and time, so that a restarted worker reads them in a
    fraction of the time unpacking takes."""
    stat = data_file().stat()
    cached = cache_dir() / f"{kind}-{stat.st_size}-{stat.st_mtime_ns}-v{CACHE_VERSION}.txt"
    if cached.is_file():
        return cached.read_text(encoding="utf-8").split("\n")
    lines = build()
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=cached.parent, delete=False) as out:
            out.write("\n".join(lines))
        Path(out.name).replace(cached)  # atomic: a reader never sees half a list
    except OSError as exc:  # a read-only home: every start unpacks the package's file
        logger.info("%s not cached (%s)", kind, exc)
    return lines


@functools.cache
def drug_variants() -> frozenset[str]:
    """Every name variant of the dictionary, lower-case (from the cached list when there is one)."""
    return frozenset(
        _cached_lines("drug-variants", lambda: sorted(load_drug_dictionary()["drug_variant_to_canonical"]))
    )


def _generic_lines() -> list[str]:
    lines = []
    for variant, canonicals in sorted(load_drug_dictionary()["drug_variant_to_canonical"].items()):
        # single-word generics: the dictionary's longer canonical names are classes and receptors
        others = [name for name in canonicals if name != variant and _SINGLE_NAME.fullmatch(name)]
        if others and variant.isprintable() and "\t" not in variant:
            lines.append("\t".join([variant, *others]))
    return lines


@functools.cache
def generic_names() -> dict[str, tuple[str, ...]]:
    """The dictionary's canonical names of each variant that has other ones: brands and
    spellings to their generic names ("nurofen": ibuprofen, "paracetamol": acetaminophen)."""
    pairs = (line.split("\t") for line in _cached_lines("drug-generics", _generic_lines) if line)
    return {fields[0]: tuple(fields[1:]) for fields in pairs}


def drug_spans(tokens: list[str]) -> list[tuple[int, int]]:
    """(start, end) token spans of drug names: first every two adjacent tokens that form a
    name (overlapping pairs included), then every single token outside those pairs."""
    variants = drug_variants()
    spans: list[tuple[int, int]] = []
    in_pair: set[int] = set()
    for index in range(len(tokens) - 1):
        if f"{tokens[index]} {tokens[index + 1]}".lower() in variants:
            spans.append((index, index + 2))
            in_pair.update((index, index + 1))
    singles = (index for index, token in enumerate(tokens) if token.lower() in variants)
    return spans + [(index, index + 1) for index in singles if index not in in_pair]
