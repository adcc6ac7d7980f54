"""Export a trained Hugging Face NLI model to ONNX, int8-quantised for the CPU, with its
tokenizer and config beside it: the layout `OnnxScorer` loads."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from streams.nli.scorer import ONNX_FILE


def export_onnx(model_dir: str | Path, out_dir: str | Path, quantize: bool = True, opset: int = 17) -> Path:
    """Write model.onnx (int8 dynamic quantisation unless `quantize` is False), config and tokenizer."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    model_dir, out_dir = Path(model_dir), Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    model = AutoModelForSequenceClassification.from_pretrained(str(model_dir), local_files_only=True).eval()
    tokenizer = AutoTokenizer.from_pretrained(str(model_dir), local_files_only=True)
    sample = tokenizer(["A premise."], ["A hypothesis."], return_tensors="pt")
    names = ["input_ids", "attention_mask", "token_type_ids"]
    axes = {name: {0: "batch", 1: "sequence"} for name in names}
    axes["logits"] = {0: "batch"}
    with tempfile.TemporaryDirectory() as tmp:
        fp32 = Path(tmp) / "model-fp32.onnx"
        torch.onnx.export(
            model,
            (sample["input_ids"], sample["attention_mask"], sample["token_type_ids"]),
            str(fp32),
            input_names=names,
            output_names=["logits"],
            dynamic_axes=axes,
            opset_version=opset,
            dynamo=False,
        )
        target = out_dir / ONNX_FILE
        if quantize:
            from onnxruntime.quantization import QuantType, quantize_dynamic

            quantize_dynamic(str(fp32), str(target), weight_type=QuantType.QInt8)
        else:
            shutil.copyfile(fp32, target)
    model.config.save_pretrained(str(out_dir))
    tokenizer.save_pretrained(str(out_dir))
    return out_dir / ONNX_FILE
