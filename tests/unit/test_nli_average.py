"""`contraflow nli average`: the weights of several fine-tuned models averaged into one model
that transformers loads and that judges as the mean of its parents' weights does."""

from pathlib import Path

import numpy as np
import pytest

from contraflow.streams.tools.cli import main


def _shifted_copy(model: Path, out: Path, shift: float) -> Path:
    """The model with `shift` added to every weight (a stand-in for a second fine-tuning run)."""
    import shutil

    from safetensors.numpy import load_file, save_file

    shutil.copytree(model, out)
    weights = load_file(str(model / "model.safetensors"))
    save_file(
        {name: value + np.asarray(shift, value.dtype) for name, value in weights.items()},
        str(out / "model.safetensors"),
    )
    return out


def test_the_average_is_each_weights_mean_and_loads(tiny_model: Path, tmp_path: Path) -> None:
    from safetensors.numpy import load_file
    from transformers import AutoModelForSequenceClassification

    other = _shifted_copy(tiny_model, tmp_path / "other", 0.25)
    assert main(["nli", "average", str(tiny_model), str(other), "--out", str(tmp_path / "soup")]) == 0
    original, soup = (
        load_file(str(tiny_model / "model.safetensors")),
        load_file(str(tmp_path / "soup" / "model.safetensors")),
    )
    assert set(soup) == set(original)
    for name, value in soup.items():
        if np.issubdtype(value.dtype, np.floating):
            np.testing.assert_allclose(value, original[name] + 0.125, atol=1e-6, err_msg=name)
    _, info = AutoModelForSequenceClassification.from_pretrained(str(tmp_path / "soup"), output_loading_info=True)
    assert not info["missing_keys"] and not info["unexpected_keys"]
    assert (tmp_path / "soup" / "tokenizer.json").is_file()


def test_a_model_of_another_shape_is_a_one_line_error(
    tiny_model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from safetensors.numpy import load_file, save_file

    other = _shifted_copy(tiny_model, tmp_path / "other", 0.0)
    weights = load_file(str(other / "model.safetensors"))
    save_file({name: value for name, value in list(weights.items())[1:]}, str(other / "model.safetensors"))
    assert main(["nli", "average", str(tiny_model), str(other), "--out", str(tmp_path / "soup")]) == 2
    assert "not shaped like" in capsys.readouterr().err
    assert main(["nli", "average", str(tiny_model), "--out", str(tmp_path / "soup")]) == 2
