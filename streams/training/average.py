"""Several fine-tuned models of one lineage averaged into one (a "model soup", Wortsman et
al. 2022): each weight the mean of that weight in every model. Models fine-tuned from the
same starting point tend to lie in one basin of the loss, and their mean often judges better
than any one of them; session 23's best student was such a mean (docs/verdicts.md §6).

    contraflow nli average runs/student-a/hf runs/student-b/hf --out runs/soup
    contraflow nli export runs/soup runs/soup-onnx

The models are Hugging Face folders of the same architecture (as `contraflow nli train`
writes them to OUT/hf); the config and tokenizer are the first model's."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np

from contraflow.streams.errors import BadInput

WEIGHTS = "model.safetensors"


def average_models(models: list[Path], out: Path) -> Path:
    """Write the mean of `models`' weights (float64 arithmetic, stored in the first model's
    dtype) with the first model's other files to `out`; the path of the weights written."""
    from safetensors.numpy import load_file, save_file

    if len(models) < 2:
        raise BadInput("nli average needs at least two models")
    for model in models:
        if not (model / WEIGHTS).is_file():
            raise BadInput(f"{model} has no {WEIGHTS}: give the Hugging Face folder (OUT/hf of nli train)")
    first = load_file(str(models[0] / WEIGHTS))
    sums = {name: value.astype(np.float64) for name, value in first.items()}
    for model in models[1:]:
        weights = load_file(str(model / WEIGHTS))
        if set(weights) != set(first) or any(weights[name].shape != first[name].shape for name in first):
            raise BadInput(f"{model} is not shaped like {models[0]}: only models of one architecture average")
        for name, value in weights.items():
            sums[name] += value
    out.mkdir(parents=True, exist_ok=True)
    for source in models[0].iterdir():
        if source.is_file() and source.name != WEIGHTS:
            shutil.copy2(source, out / source.name)
    mean = {name: (total / len(models)).astype(first[name].dtype) for name, total in sums.items()}
    save_file(mean, str(out / WEIGHTS), metadata={"format": "pt"})
    return out / WEIGHTS
