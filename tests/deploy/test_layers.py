"""The layers of the tree, checked on the code's own imports (inside functions too): the
core knows nothing of faust, Kafka, the tools or training; faust is imported only by agents/
and streams/runtime/; no import runs from a lower layer to a higher one."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# what each layer may import (besides itself); foundation = settings, errors and extras
MAY_IMPORT = {
    "models": set(),
    "topics": {"models"},
    "foundation": {"models"},
    "core": {"models", "topics", "foundation"},
    "training": {"models", "foundation", "core"},
    "runtime": {"models", "topics", "foundation", "core"},
    "agents": {"models", "topics", "foundation", "core", "runtime"},
    "tools": {"models", "topics", "foundation", "core", "runtime", "training", "agents"},
}
FAUST_LAYERS = {"agents", "runtime"}


def layer_of(module: str) -> str | None:
    """The layer of a module of contraflow (None for any other module)."""
    parts = module.split(".")
    if parts[0] != "contraflow" or len(parts) < 2:
        return None
    if parts[1] != "streams":
        return parts[1]
    if len(parts) < 3 or parts[2] in {"settings", "errors", "extras", "samples"}:
        return "foundation"
    return parts[2]


def module_of(path: Path) -> str:
    dotted = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    return "contraflow." + dotted.removesuffix(".__init__")


def imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


SOURCES = sorted(p for folder in ("streams", "agents", "models", "topics") for p in (ROOT / folder).rglob("*.py"))


def test_every_source_file_has_a_layer() -> None:
    assert SOURCES
    assert all(layer_of(module_of(path)) in MAY_IMPORT for path in SOURCES)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_run_down_the_layers(path: Path) -> None:
    layer = layer_of(module_of(path))
    assert layer is not None
    wrong = sorted(name for name in imports(path) if layer_of(name) not in {None, layer, *MAY_IMPORT[layer]})
    assert not wrong, f"{layer} must not import {wrong}"
    if layer not in FAUST_LAYERS:
        assert not {name for name in imports(path) if name.split(".")[0] == "faust"}, "faust outside agents/runtime"


def top_level_imports(path: Path) -> set[str]:
    """The contraflow modules a file imports when it is imported (not inside a function)."""
    names = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
    return {name for name in names if name.startswith("contraflow.")}


def test_no_module_imports_itself_through_others() -> None:
    graph = {module_of(path): top_level_imports(path) for path in SOURCES}
    graph = {module: {name for name in names if name in graph and name != module} for module, names in graph.items()}
    done: set[str] = set()

    def cycle_from(module: str, trail: list[str]) -> list[str] | None:
        if module in trail:
            return [*trail[trail.index(module) :], module]
        if module in done:
            return None
        for name in sorted(graph[module]):
            if found := cycle_from(name, [*trail, module]):
                return found
        done.add(module)
        return None

    for module in sorted(graph):
        assert (cycle := cycle_from(module, [])) is None, " -> ".join(cycle)
