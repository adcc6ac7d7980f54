"""Fine-tuning a compact NLI cross-encoder on CPU (or GPU when there is one).

The head predicts (entailment, neutral, contradiction). Two-class pairs such as DECODE's
``non_contradiction`` are trained with the marginal likelihood of their label set, so they
teach "not a contradiction" without pretending to know which of the other two it is.
Pairs that carry a teacher's probabilities (`contraflow nli label`, streams/training/distil.py)
are also pulled toward them, by `distil_weight`.

Batches are bucketed by length (shuffle, sort within mega-batches, shuffle the batches),
which cuts padding several-fold on mixed-length data. Everything random derives from the
seed; a checkpoint holds model, optimiser, schedule and the position in the epoch, so a
resumed run continues the very same sequence of batches.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable
from pathlib import Path

import torch
from pydantic import BaseModel, Field
from tqdm import tqdm

from contraflow.streams.errors import BadInput
from contraflow.streams.training.clinical_pairs import clinical_pairs
from contraflow.streams.training.data import (
    LABEL_SETS,
    NLI_LABELS,
    NLIExample,
    load_examples,
    swapped,
    unrelated_negatives,
    without_unrelated_contradictions,
)

CHECKPOINT_NAME = "checkpoint.pt"


class TrainConfig(BaseModel):
    """Everything that decides the trained model; written next to it."""

    backbone: str = Field(description="local directory of a Hugging Face encoder")
    train_files: list[str]
    both_directions: list[str] = Field(
        default_factory=list,
        description="files whose symmetric pairs (contradiction / non_contradiction) are also trained swapped",
    )
    drop_unrelated_contradictions: list[str] = Field(
        default_factory=list,
        description="files whose contradiction pairs sharing no content word are left out (SNLI's caption convention)",
    )
    unrelated_negatives: int = Field(default=0, description="how many different-subject non_contradiction pairs to add")
    unrelated_negatives_from: list[str] = Field(
        default_factory=list, description="files whose contradiction pairs the unrelated negatives are drawn from"
    )
    clinical_pairs: int = Field(
        default=0,
        ge=0,
        description="how many generated clinical advice pairs to add (streams/training/clinical_pairs.py)",
    )
    output_dir: str
    epochs: float = 2.0
    batch_size: int = 32
    max_length: int = 128
    learning_rate: float = 5e-5
    weight_decay: float = 0.01
    warmup_ratio: float = 0.06
    seed: int = 13
    bf16: bool = False
    threads: int = 0
    checkpoint_every: int = 300
    freeze_word_embeddings: bool = True
    freeze_layers: int = Field(
        default=0,
        ge=0,
        description="the backbone's lowest transformer layers kept as they are (with all the embeddings), so "
        "the model shares them with its backbone",
    )
    drop_longer: bool = True
    mega_batch: int = 64
    distil_weight: float = Field(
        default=0.0, ge=0.0, le=1.0, description="weight of the teacher's probabilities where a pair has them"
    )


def freeze_lower_layers(model: torch.nn.Module, count: int) -> None:
    """Keep the embeddings and the `count` lowest transformer layers of `model` as the
    backbone has them: a model trained so computes the same hidden states there."""
    base = getattr(model, model.base_model_prefix)
    layers = base.encoder.layer
    if count > len(layers):
        raise BadInput(f"--freeze-layers {count}: the backbone has only {len(layers)} layers")
    base.embeddings.requires_grad_(False)
    for layer in layers[:count]:
        layer.requires_grad_(False)


def _label_masks(labels: list[str]) -> torch.Tensor:
    mask = torch.zeros(len(labels), len(NLI_LABELS), dtype=torch.bool)
    for row, label in enumerate(labels):
        for allowed in LABEL_SETS[label]:
            mask[row, NLI_LABELS.index(allowed)] = True
    return mask


def _label_set_losses(log_probs: torch.Tensor, allowed: torch.Tensor) -> torch.Tensor:
    """-log P(label in allowed set) per row; plain cross-entropy when the set has one label."""
    return -torch.logsumexp(log_probs.masked_fill(~allowed, float("-inf")), dim=-1)


def _teacher_targets(examples: list[NLIExample]) -> tuple[torch.Tensor, torch.Tensor]:
    """([n, 3] teacher probabilities, zeros where none; [n] whether the example has them)."""
    none = (0.0,) * len(NLI_LABELS)
    targets = torch.tensor([e.teacher or none for e in examples], dtype=torch.float32)
    return targets, torch.tensor([e.teacher is not None for e in examples])


def distillation_loss(
    logits: torch.Tensor, allowed: torch.Tensor, teacher: torch.Tensor, has_teacher: torch.Tensor, weight: float
) -> torch.Tensor:
    """The label-set loss, mixed for pairs with a teacher: (1 - weight) x label loss +
    weight x cross-entropy to the teacher's probabilities."""
    log_probs = torch.log_softmax(logits.float(), dim=-1)
    hard = _label_set_losses(log_probs, allowed)
    soft = -(teacher * log_probs).sum(dim=-1)
    return torch.where(has_teacher, (1 - weight) * hard + weight * soft, hard).mean()


def bucketed_batches(lengths: list[int], batch_size: int, mega: int, seed: int) -> list[list[int]]:
    """Index batches of similar length, in a seeded order."""
    rng = random.Random(seed)
    order = list(range(len(lengths)))
    rng.shuffle(order)
    batches: list[list[int]] = []
    span = batch_size * mega
    for start in range(0, len(order), span):
        chunk = sorted(order[start : start + span], key=lambda i: lengths[i])
        batches.extend(chunk[i : i + batch_size] for i in range(0, len(chunk), batch_size))
    rng.shuffle(batches)
    return batches


def training_examples(config: TrainConfig) -> list[NLIExample]:
    """The training pairs in their fixed order: each file (filtered where asked), the swapped
    pairs, the drawn unrelated negatives, then the generated clinical advice pairs."""
    stray = sorted(set(config.drop_unrelated_contradictions) - set(config.train_files))
    if stray:
        raise BadInput(f"--drop-unrelated-contradictions names files that are not training files: {stray}")
    # Each file is read once, though it may serve as training file, swap source and draw source.
    files = dict.fromkeys([*config.train_files, *config.both_directions, *config.unrelated_negatives_from])
    loaded = {path: load_examples([path]) for path in files}
    examples: list[NLIExample] = []
    for path in config.train_files:
        if path in config.drop_unrelated_contradictions:
            examples += without_unrelated_contradictions(loaded[path])
        else:
            examples += loaded[path]
    for path in config.both_directions:
        examples += swapped(loaded[path])
    draw_from = [example for path in config.unrelated_negatives_from for example in loaded[path]]
    examples += unrelated_negatives(draw_from, config.unrelated_negatives, config.seed)
    examples += clinical_pairs(config.clinical_pairs, config.seed)
    return examples


def _seed_everything(seed: int) -> None:
    random.seed(seed)
    torch.manual_seed(seed)


def train(config: TrainConfig, log: Callable[[str], None] = print, stop_after: int | None = None) -> Path | None:
    """Train (or resume) and save a Hugging Face model directory; returns its path.

    `stop_after` ends this run after that many steps with a checkpoint written (None
    returned); running again resumes where it stopped."""
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    if config.threads:
        torch.set_num_threads(config.threads)
    out = Path(config.output_dir)
    out.mkdir(parents=True, exist_ok=True)
    _seed_everything(config.seed)

    tokenizer = AutoTokenizer.from_pretrained(config.backbone)
    model = AutoModelForSequenceClassification.from_pretrained(
        config.backbone,
        num_labels=len(NLI_LABELS),
        id2label=dict(enumerate(NLI_LABELS)),
        label2id={label: i for i, label in enumerate(NLI_LABELS)},
    )

    if config.freeze_word_embeddings:
        model.get_input_embeddings().weight.requires_grad_(False)
    if config.freeze_layers:
        freeze_lower_layers(model, config.freeze_layers)

    examples = training_examples(config)
    if config.drop_longer:
        # A premise cut at max_length often loses the evidence its label rests on.
        full = tokenizer([e.premise for e in examples], [e.hypothesis for e in examples])["input_ids"]
        examples = [e for e, ids in zip(examples, full, strict=True) if len(ids) <= config.max_length]
    log(f"{len(examples)} training pairs")
    tokens = tokenizer(
        [e.premise for e in examples],
        [e.hypothesis for e in examples],
        truncation=True,
        max_length=config.max_length,
    )
    encoded = tokens["input_ids"]
    segments = tokens.get("token_type_ids")  # None: the backbone has no token types (MPNet)
    lengths = [len(ids) for ids in encoded]
    masks = _label_masks([e.label for e in examples])
    teacher, has_teacher = _teacher_targets(examples)

    steps_per_epoch = math.ceil(len(examples) / config.batch_size)
    total_steps = int(steps_per_epoch * config.epochs)
    warmup = int(total_steps * config.warmup_ratio)
    no_decay = ("bias", "LayerNorm.weight")
    trainable = [(n, p) for n, p in model.named_parameters() if p.requires_grad]
    groups = [
        {"params": [p for n, p in trainable if not n.endswith(no_decay)], "weight_decay": config.weight_decay},
        {"params": [p for n, p in trainable if n.endswith(no_decay)], "weight_decay": 0.0},
    ]
    optimizer = torch.optim.AdamW(groups, lr=config.learning_rate)

    def schedule(step: int) -> float:
        if step < warmup:
            return (step + 1) / max(1, warmup)
        return max(0.0, (total_steps - step) / max(1, total_steps - warmup))

    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, schedule)

    step = 0
    checkpoint = out / CHECKPOINT_NAME
    if checkpoint.exists():
        state = torch.load(checkpoint, map_location="cpu", weights_only=False)
        if state["config"] != config.model_dump(exclude={"threads"}):
            raise BadInput(f"{checkpoint} was written with another configuration; remove it to start anew")
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        scheduler.load_state_dict(state["scheduler"])
        torch.set_rng_state(state["torch_rng"])
        step = state["step"]
        log(f"resuming at step {step} of {total_steps}")

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model.to(device)
    model.train()
    autocast_dtype = torch.bfloat16 if config.bf16 else None
    pad_id = tokenizer.pad_token_id or 0

    def save_checkpoint() -> None:
        state = {
            "config": config.model_dump(exclude={"threads"}),
            "model": model.state_dict(),
            "optimizer": optimizer.state_dict(),
            "scheduler": scheduler.state_dict(),
            "torch_rng": torch.get_rng_state(),
            "step": step,
        }
        torch.save(state, checkpoint.with_suffix(".tmp"))
        checkpoint.with_suffix(".tmp").replace(checkpoint)

    progress = tqdm(total=total_steps, initial=step, desc="nli train", unit="batch")
    started = time.monotonic()
    running: float | None = None  # this run's smoothed loss: a resumed run starts from its own first batch
    last_step = total_steps if stop_after is None else min(total_steps, step + stop_after)
    while step < last_step:
        epoch, offset = divmod(step, steps_per_epoch)
        batches = bucketed_batches(lengths, config.batch_size, config.mega_batch, config.seed + epoch)
        for batch in batches[offset:]:
            if step >= last_step:
                break
            width = max(lengths[i] for i in batch)
            ids = torch.full((len(batch), width), pad_id, dtype=torch.long)
            attention = torch.zeros((len(batch), width), dtype=torch.long)
            types = torch.zeros((len(batch), width), dtype=torch.long)
            for row, i in enumerate(batch):
                seq = encoded[i]
                ids[row, : len(seq)] = torch.tensor(seq)
                attention[row, : len(seq)] = 1
                if segments is not None:
                    types[row, : len(seq)] = torch.tensor(segments[i])
            inputs = {"input_ids": ids, "attention_mask": attention}
            if segments is not None:
                inputs["token_type_ids"] = types
            inputs = {k: v.to(device) for k, v in inputs.items()}
            with torch.autocast(device.type, dtype=autocast_dtype, enabled=autocast_dtype is not None):
                logits = model(**inputs).logits
            loss = distillation_loss(
                logits,
                masks[batch].to(device),
                teacher[batch].to(device),
                has_teacher[batch].to(device),
                config.distil_weight,
            )
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad(set_to_none=True)
            step += 1
            running = loss.item() if running is None else 0.98 * running + 0.02 * loss.item()
            progress.update(1)
            progress.set_postfix(loss=f"{running:.3f}", epoch=epoch)
            if step % config.checkpoint_every == 0 or step == last_step:
                save_checkpoint()
    progress.close()
    if step < total_steps:
        log(f"stopped at step {step} of {total_steps}; run again to resume from {checkpoint}")
        return None

    model.eval()
    model.save_pretrained(out / "hf")
    tokenizer.save_pretrained(out / "hf")
    (out / "train_config.json").write_text(json.dumps(config.model_dump(), indent=2))
    log(f"trained {total_steps} steps in {time.monotonic() - started:.0f}s -> {out / 'hf'}")
    return out / "hf"
