"""NLI scorers: `score(pairs) -> probabilities[n, 3]` in the order (entailment, neutral,
contradiction), whatever order the model itself uses (read from its config).

Two backends share tokenisation, length sorting and label mapping: ONNX Runtime (the
shipped int8 model) and transformers/torch (any Hugging Face sequence-classification
NLI model; CUDA with half precision when present; the `[train]` or `[gpu]` extra).
Nothing is fetched from a network.
"""

from __future__ import annotations

import inspect
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from contraflow.streams.core.nli.heads import (
    DIALOGUE_FILE,
    FOLD_DEQUANTIZE,
    has_dialogue_head,
    stale_shared_weights,
    twin_file,
)
from contraflow.streams.core.nli.tokens import check_tokenizer_installed, load_pair_tokenizer
from contraflow.streams.errors import UserError
from contraflow.streams.extras import TRAINING, require
from contraflow.streams.settings import NLIBackend

CANONICAL_LABELS: tuple[str, str, str] = ("entailment", "neutral", "contradiction")
CONTRADICTION = CANONICAL_LABELS.index("contradiction")
ONNX_FILE = "model.onnx"

Pair = tuple[str, str]


class PairScorer(Protocol):
    """What scores pairs: a loaded `NLIScorer`, or a worker's model process."""

    def score(self, pairs: Sequence[Pair]) -> np.ndarray: ...


def pair_length(pair: Pair) -> int:
    """A cheap stand-in for a pair's token count, for sorting pairs into batches."""
    return len(pair[0]) + len(pair[1])


class NLIModelError(UserError, RuntimeError):
    """A model that cannot be loaded; the message says what to do."""


def _how_to_provide(location: str) -> str:
    return (
        f"Set CONTRAFLOW_NLI_MODEL to a local directory holding a Hugging Face sequence-classification "
        f"NLI model (config.json, tokenizer files and model.safetensors or {ONNX_FILE}), or to 'builtin' "
        f"for the model shipped with contraflow. Nothing is downloaded at run time; "
        f"'{location}' was looked up on this disk only."
    )


def label_order(config: dict, source: str) -> list[int]:
    """Column of each canonical label in the model's output, from config['id2label']."""
    id2label = config.get("id2label")
    if not id2label:
        raise NLIModelError(f"{source}: config.json has no id2label, so its label order is unknown")
    names = {int(index): str(name).lower() for index, name in id2label.items()}
    columns = []
    for label in CANONICAL_LABELS:
        found = [index for index, name in names.items() if name.startswith(label[:6])]
        if len(found) != 1:
            raise NLIModelError(f"{source}: cannot find the '{label}' label in id2label {names}")
        columns.append(found[0])
    return columns


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=-1, keepdims=True)
    exp = np.exp(shifted)
    return exp / exp.sum(axis=-1, keepdims=True)


class NLIScorer(ABC):
    """Scores premise/hypothesis pairs; subclasses run one batch of tokens."""

    def __init__(self, model_dir: Path, max_length: int, batch_size: int) -> None:
        self.model_dir = model_dir
        self.max_length = max_length
        self.batch_size = batch_size
        try:
            config = json.loads((model_dir / "config.json").read_text())
        except (OSError, ValueError) as exc:
            raise NLIModelError(
                f"{model_dir}: no readable config.json ({exc}). {_how_to_provide(str(model_dir))}"
            ) from exc
        self.columns = label_order(config, str(model_dir))
        try:
            self.tokenizer = load_pair_tokenizer(model_dir, max_length)
        except Exception as exc:  # tokenizers and transformers raise many kinds here
            raise NLIModelError(f"{model_dir}: the tokenizer does not load ({exc})") from exc

    @abstractmethod
    def _logits(self, encoded: dict[str, np.ndarray]) -> np.ndarray:
        """Raw logits of one padded batch, in the model's own label order."""

    def score(self, pairs: Sequence[Pair]) -> np.ndarray:
        """Probabilities [n, 3] (entailment, neutral, contradiction), in input order.

        Pairs are sorted by length and run in batches of `batch_size`, which keeps
        padding small; the result is put back in the order given.
        """
        return self._score(pairs, self._logits)

    def _score(self, pairs: Sequence[Pair], logits_of: Callable[[dict[str, np.ndarray]], np.ndarray]) -> np.ndarray:
        out = np.zeros((len(pairs), len(CANONICAL_LABELS)), dtype=np.float32)
        if not pairs:
            return out
        order = sorted(range(len(pairs)), key=lambda i: pair_length(pairs[i]))
        for start in range(0, len(order), self.batch_size):
            chunk = order[start : start + self.batch_size]
            encoded = self.tokenizer.encode([pairs[i] for i in chunk])
            logits = logits_of(encoded)
            out[chunk] = softmax(logits.astype(np.float32))[:, self.columns]
        return out


class OnnxScorer(NLIScorer):
    """ONNX Runtime on the CPU (the shipped model is int8-quantised). `graph` is the file of the
    model directory that is run: model.onnx, or the dialogue head (streams/core/nli/heads.py).

    Each pair runs in a forward pass of its own. An int8 graph quantises its activations with
    one scale per forward pass, taken over every row and the padding, so in a batch a pair's
    probabilities moved with the pairs beside it (by up to 0.53; 3 % of advice pairs crossed the
    0.9 threshold): the same turn could be judged differently live, in a replay and after a
    crash, as other sessions' pairs shared its pass. Alone, a pair carries no padding either:
    this costs 15-19 % of the scorer's pairs/s and nothing measurable end to end
    (benchmarks/nli_batching.py, benchmarks/e2e_throughput.py)."""

    def __init__(
        self,
        model_dir: Path,
        max_length: int = 256,
        threads: int = 0,
        graph: str = ONNX_FILE,
        float_recheck: float = 1.0,
        float_recheck_ceiling: float = 1.0,
    ) -> None:
        super().__init__(model_dir, max_length, batch_size=1)
        self.threads = threads
        self.session = self._session(model_dir / graph, "contraflow nli dialogue-head")
        self.input_names = {i.name for i in self.session.get_inputs()}
        self.float_recheck = float_recheck
        self.float_recheck_ceiling = float_recheck_ceiling
        self.float_session = self._float_twin(model_dir, graph) if float_recheck < 1.0 else None

    def _session(self, path: Path, rewrite: str, *entries: tuple[str, str]):
        """An ONNX Runtime session of `path`; NLIModelError when it does not load, or when the
        weights it borrows (streams/core/nli/heads.py) changed since `rewrite` wrote it."""
        import onnxruntime as ort

        try:
            session = ort.InferenceSession(str(path), self._options(*entries), providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own exception types
            raise NLIModelError(f"{path}: not a loadable ONNX model ({exc})") from exc
        stale = stale_shared_weights(path.parent, session.get_modelmeta().custom_metadata_map)
        if stale:
            raise NLIModelError(
                f"{path} was written against other weights than those now in {path.parent}: "
                f"{', '.join(stale)}. Write it again with `{rewrite}`."
            )
        return session

    def _options(self, *entries: tuple[str, str]):
        import onnxruntime as ort

        options = ort.SessionOptions()
        # Idle threads sleep instead of spin-waiting for the next run: spinning costs the
        # batch throughput nothing measurable here, but it starves whatever runs next on
        # these cores (a sentence embedding after an NLI pass took 1.5-2x as long).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        for key, value in entries:
            options.add_session_config_entry(key, value)
        if self.threads:
            options.intra_op_num_threads = self.threads
        return options

    def _float_twin(self, model_dir: Path, graph: str):
        """A session of the graph's float32-compute twin (streams/core/nli/heads.py)."""
        path = model_dir / twin_file(graph)
        write = f"contraflow nli float-twin {model_dir}" + ("" if graph == DIALOGUE_FILE else f" --graph {graph}")
        if not path.is_file():
            raise NLIModelError(
                f"{model_dir} has no float twin of {graph} ({path.name}) for the float recheck: write it with "
                f"`{write}` (the [train] extra), or set "
                "CONTRAFLOW_SENTENCE_FLOAT_RECHECK=1 to score with the graph alone"
            )
        return self._session(path, write, FOLD_DEQUANTIZE)

    def score(self, pairs: Sequence[Pair]) -> np.ndarray:
        """As `NLIScorer.score`; with a float twin, the pairs whose int8 p(contradiction)
        reaches `float_recheck` and stays under `float_recheck_ceiling` are scored again by it,
        and its rows are the ones returned. Above the ceiling the int8 graph is sure enough: on
        DECODE train rows at 0.97 or more it differs from the twin by at most 0.02."""
        if self.float_session is None:
            return self._score(pairs, self._logits)
        if self.float_recheck <= 0.0 and self.float_recheck_ceiling >= 1.0:  # every pair: int8 decides nothing
            return self._score(pairs, self._float_logits)
        out = self._score(pairs, self._logits)
        again = [
            index
            for index in range(len(pairs))
            if self.float_recheck <= out[index, CONTRADICTION] < self.float_recheck_ceiling
        ]
        if again:
            out[again] = self._score([pairs[index] for index in again], self._float_logits)
        return out

    def _logits(self, encoded: dict[str, np.ndarray]) -> np.ndarray:
        return self.session.run(None, self._feed(encoded))[0]

    def _float_logits(self, encoded: dict[str, np.ndarray]) -> np.ndarray:
        return self.float_session.run(None, self._feed(encoded))[0]

    def _feed(self, encoded: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        return {name: value.astype(np.int64) for name, value in encoded.items() if name in self.input_names}


class TransformersScorer(NLIScorer):
    """transformers/torch: CUDA in half precision when present, CPU otherwise; `bf16` runs
    the CPU forward under bf16 autocast (for labelling with a large teacher: 1.4-1.6x the
    pairs/s of float32 on an AVX512-BF16 CPU, the same class for every pair measured)."""

    def __init__(
        self, model_dir: Path, max_length: int = 256, batch_size: int = 32, threads: int = 0, bf16: bool = False
    ) -> None:
        import torch
        from transformers import AutoModelForSequenceClassification

        super().__init__(model_dir, max_length, batch_size)
        self.bf16 = bf16
        if threads:
            torch.set_num_threads(threads)
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        dtype = torch.float16 if self.device.type == "cuda" else torch.float32
        try:
            model = AutoModelForSequenceClassification.from_pretrained(
                str(model_dir), local_files_only=True, dtype=dtype
            )
        except Exception as exc:  # transformers raises many kinds here
            raise NLIModelError(f"{model_dir}: the model weights do not load ({exc})") from exc
        self.model = model.to(self.device).eval()
        self.input_names = set(inspect.signature(self.model.forward).parameters)  # MPNet takes no token types

    def _logits(self, encoded: dict[str, np.ndarray]) -> np.ndarray:
        import torch

        with torch.inference_mode(), torch.autocast(self.device.type, dtype=torch.bfloat16, enabled=self.bf16):
            inputs = {k: torch.from_numpy(v).to(self.device) for k, v in encoded.items() if k in self.input_names}
            return self.model(**inputs).logits.float().cpu().numpy()


def resolve_model_dir(location: str) -> Path:
    """A local model directory, from a path or a Hugging Face id already in the local cache."""
    path = Path(location).expanduser()
    if path.is_dir():
        return path
    if path.exists():
        raise NLIModelError(f"NLI model '{location}' is a file, not a model directory. {_how_to_provide(location)}")
    if "/" in location and not location.startswith((".", "/", "~")):
        try:
            from huggingface_hub import snapshot_download

            return Path(snapshot_download(location, local_files_only=True))
        except Exception as exc:  # not in the local cache
            raise NLIModelError(
                f"NLI model '{location}' is not in the local Hugging Face cache. {_how_to_provide(location)}"
            ) from exc
    raise NLIModelError(f"NLI model not found: '{location}'. {_how_to_provide(location)}")


def backend_for(model_dir: Path, backend: NLIBackend) -> NLIBackend:
    """The backend that loads `model_dir`: `auto` is ONNX when it has model.onnx, else transformers."""
    if backend == NLIBackend.auto:
        return NLIBackend.onnx if (model_dir / ONNX_FILE).is_file() else NLIBackend.transformers
    return backend


def check_installed(model_dir: Path, backend: NLIBackend = NLIBackend.auto) -> None:
    """MissingExtra at once, before anything slow, when loading this model needs an extra
    that is not installed (torch and transformers for the transformers backend or for a
    tokenizer without tokenizer.json)."""
    if backend_for(model_dir, backend) == NLIBackend.transformers:
        why = (
            "CONTRAFLOW_NLI_BACKEND=transformers"
            if backend == NLIBackend.transformers
            else f"{model_dir} has no {ONNX_FILE}"
        )
        require(TRAINING, f"the transformers NLI backend ({why})", extras=("train", "gpu"))
    check_tokenizer_installed(model_dir)


def check_dialogue_head(model_dir: Path) -> None:
    """NLIModelError unless `model_dir` holds a dialogue head (streams/core/nli/heads.py)."""
    if not has_dialogue_head(model_dir):
        raise NLIModelError(
            f"{model_dir} has no dialogue head ({DIALOGUE_FILE}); write one with `contraflow nli dialogue-head`, "
            "or set CONTRAFLOW_SENTENCE_HEAD=general"
        )


def load_scorer(
    location: str,
    backend: NLIBackend = NLIBackend.auto,
    max_length: int = 256,
    batch_size: int = 32,
    threads: int = 0,
    bf16: bool = False,
    dialogue: bool = False,
    float_recheck: float = 1.0,
    float_recheck_ceiling: float = 1.0,
) -> NLIScorer:
    """Load a scorer; any failure is one NLIModelError naming the model and the fix (or a
    MissingExtra naming the extra to install). `bf16` is for the transformers backend only;
    `dialogue` loads the model's dialogue head (ONNX only) instead of its general graph, whose
    pairs from `float_recheck` (below 1) up to `float_recheck_ceiling` its float32-compute twin
    scores again."""
    model_dir = resolve_model_dir(location)
    if dialogue:
        check_dialogue_head(model_dir)
        check_tokenizer_installed(model_dir)
        return OnnxScorer(
            model_dir,
            max_length=max_length,
            threads=threads,
            graph=DIALOGUE_FILE,
            float_recheck=float_recheck,
            float_recheck_ceiling=float_recheck_ceiling,
        )
    check_installed(model_dir, backend)
    if backend_for(model_dir, backend) == NLIBackend.onnx:
        if bf16:
            raise NLIModelError(f"{model_dir} runs on ONNX Runtime; bf16 is for a Hugging Face model folder")
        return OnnxScorer(model_dir, max_length=max_length, threads=threads)
    return TransformersScorer(model_dir, max_length=max_length, batch_size=batch_size, threads=threads, bf16=bf16)
