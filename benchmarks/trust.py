"""Can a contraflow verdict be trusted? Session- and pair-level quality of the turn
pipeline on hand-written clinical conversations, DECODE dialogue pairs, and the
different-topic / reversal probe of `advice_verdicts.py`.

    python benchmarks/trust.py                 # dev sessions and pairs (tune on these)
    python benchmarks/trust.py --holdout       # the held-aside third (spent: looked at in session 11)
    python benchmarks/trust.py --set holdout2  # held aside after session 11, first run in session 12
    python benchmarks/trust.py --set holdout3  # held aside in session 12 (30 sessions), first run in session 12
    python benchmarks/trust.py --set holdout4  # held aside in session 13 (40 sessions), first run in session 14
    python benchmarks/trust.py --set holdout5  # held aside in session 14 (40 sessions, blind), first run in session 14
    python benchmarks/trust.py --set holdout6  # held aside in session 14 (40 sessions, blind), first run in session 15
    python benchmarks/trust.py --set holdout7  # held aside in session 15 (40 sessions, blind), first run in session 16
    python benchmarks/trust.py --set holdout8  # held aside in session 16 (40 sessions, blind), first run in session 16
    python benchmarks/trust.py --set holdout9  # held aside in session 16 (40 sessions, blind), first run in session 17
    python benchmarks/trust.py --set holdout10 # held aside in session 17 (40 sessions, blind), first run in session 18
    python benchmarks/trust.py --set holdout11 # held aside in session 19 (40 sessions, blind), first run in session 19
    python benchmarks/trust.py --set holdout12 # held aside in session 19 (40 sessions, blind), first run in session 23
    python benchmarks/trust.py --set holdout13 # held aside in session 20 (40 sessions, blind), first run in session 23
    python benchmarks/trust.py --set holdout14 # held aside in session 24 (40 sessions, blind), first run in session 25
    python benchmarks/trust.py --set holdout15 # held aside in session 24 (40 sessions, blind), first run in session 25
    python benchmarks/trust.py --set holdout16 # held aside in session 25 (40 sessions, blind), first run in session 26
    python benchmarks/trust.py --set holdout17 # held aside in session 26 (40 sessions, blind), first run in session 26
    python benchmarks/trust.py --set holdout18 # held aside in session 26 (40 sessions, blind), first run in session 26
    python benchmarks/trust.py --set holdout19 # held aside in session 26 (40 sessions, blind), first run in session 26
    python benchmarks/trust.py --set holdout20 # held aside in session 26 (40 sessions, blind), first run in session 27
    python benchmarks/trust.py --set holdout21 # held aside in session 27 (40 sessions, blind), first run in session 27
    python benchmarks/trust.py --set holdout22 # held aside in session 27 (40 sessions, blind), first run in session 27
    python benchmarks/trust.py --set holdout23 # held aside in session 27 (40 sessions, blind), first run in session 28
    python benchmarks/trust.py --set holdout24 # held aside in session 28 (40 sessions, blind), first run in session 28
    python benchmarks/trust.py --set holdout25 # held aside in session 28 (40 sessions, blind), first run in session 29
    python benchmarks/trust.py --set holdout26 # held aside in session 29 (40 sessions, blind), first run in session 29
    python benchmarks/trust.py --set holdout27 # held aside in session 29 (40 sessions, blind), first run in session 30
    python benchmarks/trust.py --set holdout28 # held aside in session 30 (40 sessions, blind), first run in session 30
    python benchmarks/trust.py --set holdout29 # held aside in session 30 (40 sessions, blind), first run in session 31
    python benchmarks/trust.py --set holdout30 # held aside in session 30 (40 sessions, blind), first run in session 32
    python benchmarks/trust.py --set holdout31 # held aside in session 31 (40 sessions, blind), first run in session 33
    python benchmarks/trust.py --set holdout32 # held aside in session 31 (40 sessions, blind), first run in session 34
    python benchmarks/trust.py --set holdout33 # held aside in session 32 (40 sessions, blind), first run in session 35
    python benchmarks/trust.py --set holdout34 # held aside in session 34 (40 sessions, blind), first run in session 36
    python benchmarks/trust.py --set holdout35 # held aside in session 36 (40 sessions, blind), first run in session 37
    python benchmarks/trust.py --set holdout36 # held aside in session 38 (40 sessions, blind), first run in session 38
    python benchmarks/trust.py --set holdout37 # held aside in session 38 (40 sessions, blind), first run in session 39
    python benchmarks/trust.py --set holdout38 # held aside in session 39 (40 sessions, blind), first run in session 40
    python benchmarks/trust.py --set holdout39 # held aside in session 40 (40 sessions, blind), first run in session 41
    python benchmarks/trust.py --set holdout40 # held aside in session 41 (40 sessions, blind), first run in session 42
    python benchmarks/trust.py --set holdout41 # held aside in session 42 (40 sessions, blind), first run in session 43
    python benchmarks/trust.py --set holdout42 # held aside in session 43 (40 sessions, blind), first run in session 44
    python benchmarks/trust.py --set holdout43 # held aside in session 44 (40 sessions, blind), first run in session 45
    python benchmarks/trust.py --set holdout44 # held aside in session 45 (40 sessions, blind), first run in session 46
    python benchmarks/trust.py --set holdout45 # held aside in session 46 (40 sessions, blind), first run in session 46
    python benchmarks/trust.py --set holdout46 # held aside in session 46 (40 sessions, blind), first run in session 47
    python benchmarks/trust.py --set holdout47 # held aside in session 47 (40 sessions, blind), first run in session 48
    python benchmarks/trust.py --set holdout48 # held aside in session 47 (40 sessions, blind), first run in session 48
    python benchmarks/trust.py --set holdout49 # held aside in session 48 (40 sessions, blind), first run in session 48
    python benchmarks/trust.py --set holdout50 # held aside in session 48 (40 sessions, blind), not run yet
    python benchmarks/trust.py --set train     # 1,200 sessions to train the sentence judge (sessions 19, 30-34, 42-43)
    python benchmarks/trust.py --set train22   # one file of them (any trainN or holdoutN in sessions/ is a set)
    python benchmarks/trust.py --verdict seed  # seed 000's whole-advice argmax, for comparison
    python benchmarks/trust.py --sweep         # contradiction threshold sweep on the chosen set
    python benchmarks/trust.py --errors        # also print the wrong sessions, what was published and wrong probe pairs
    python benchmarks/trust.py --sessions-json OUT.json  # each session's verdict and conflicts, to compare two runs

Sessions (benchmarks/data/sessions/*.jsonl, labels beside them) are half steady, half
with exactly one reversal. A session is flagged when the pipeline publishes at least one
`turn_self_contradiction`; a revision is detected when it publishes a `turn_revision`
naming the labelled later turn. The model is the shipped one unless --model says another.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import re
import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
from advice_verdicts import advice_sets
from sklearn.metrics import precision_recall_fscore_support

from contraflow.models.events import TurnEvent
from contraflow.models.state import AdviceItem
from contraflow.streams.core.turns import TurnPipeline
from contraflow.streams.runtime.services import load_components, turn_services, turn_settings
from contraflow.streams.settings import Settings

DATA = Path(__file__).resolve().parent / "data"
DECODE_DEV = Path(__file__).resolve().parents[2] / "shared" / "data" / "nli" / "dev" / "decode_pairs_dev.jsonl.gz"


class CachedScorer:
    """The scorer behind a cache of (premise, hypothesis) -> row, so sweeps rescore nothing."""

    def __init__(self, score) -> None:
        self._score = score
        self.rows: dict[tuple[str, str], np.ndarray] = {}

    def sync(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        missing = list(dict.fromkeys(p for p in pairs if p not in self.rows))
        if missing:
            for pair, row in zip(missing, self._score(missing), strict=True):
                self.rows[pair] = row
        return np.array([self.rows[p] for p in pairs], dtype=np.float32).reshape(len(pairs), 3)

    async def __call__(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        return await asyncio.to_thread(self.sync, list(pairs))


@dataclass
class SessionResult:
    label: str
    flagged: bool
    located: bool  # flagged at the labelled pair (reversals)
    revision_expected: bool
    revision_found: bool
    nli_pairs: list[int]
    session_id: str = ""
    conflicts: list[str] = field(default_factory=list)  # "kind tA->tB slot: earlier || later", for --errors

    @property
    def wrong(self) -> bool:
        return self.flagged != (self.label == "reversal")


def read_jsonl(path: Path) -> list[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _sets() -> dict[str, str]:
    """The dev sessions, every holdoutN and trainN file of sessions/ as a set of its own, and all
    of train together: a set written into sessions/ is a choice without an edit here."""
    stems = sorted(p.stem for p in (DATA / "sessions").glob("*.jsonl") if re.fullmatch(r"(holdout|train)\d*", p.stem))
    return {"dev": "dev_*.jsonl", **{stem: f"{stem}.jsonl" for stem in stems}, "train": "train[0-9]*.jsonl"}


SETS = _sets()


def session_files(which: str) -> list[Path]:
    return sorted(p for p in (DATA / "sessions").glob(SETS[which]) if not p.name.endswith(".labels.jsonl"))


def pair_files(which: str) -> list[Path]:
    return sorted((DATA / "advice_pairs").glob(SETS[which]))


async def run_session(pipeline: TurnPipeline, turns: list[TurnEvent], label: dict) -> SessionResult:
    state, conflicts, nli_pairs = None, [], []
    for turn in turns:
        outcome = await pipeline.process(state, turn)
        state = outcome.state
        conflicts += outcome.conflicts
        nli_pairs += [score.nli_pairs for score in outcome.scores]
    contradictions = [c for c in conflicts if c.kind == "turn_self_contradiction"]
    revisions = [c for c in conflicts if c.kind == "turn_revision"]
    reversal, revision = label.get("reversal"), label.get("revision")
    located = bool(reversal) and any(
        c.claim_b.turn_index == reversal["later_turn"] and c.claim_a.turn_index == reversal["earlier_turn"]
        for c in contradictions
    )
    return SessionResult(
        label=label["label"],
        flagged=bool(contradictions),
        located=located,
        revision_expected=bool(revision),
        revision_found=bool(revision) and any(c.claim_b.turn_index == revision["later_turn"] for c in revisions),
        nli_pairs=nli_pairs,
        session_id=label["session_id"],
        conflicts=[
            f"{c.kind} t{c.claim_a.turn_index}->t{c.claim_b.turn_index} {c.disagrees_on or 'model'} "
            f"p={c.p_contradiction:.2f}: {c.claim_a.text} || {c.claim_b.text}"
            for c in conflicts
        ],
    )


async def run_sessions(pipeline: TurnPipeline, files: list[Path]) -> list[SessionResult]:
    results = []
    for path in files:
        labels = {row["session_id"]: row for row in read_jsonl(path.with_suffix(".labels.jsonl"))}
        sessions: dict[str, list[TurnEvent]] = defaultdict(list)
        for row in read_jsonl(path):
            sessions[row["session_id"]].append(TurnEvent.model_validate(row))
        for session_id, turns in sessions.items():
            if session_id in labels:  # a session still being written has no label yet
                results.append(await run_session(pipeline, turns, labels[session_id]))
    return results


def session_report(results: list[SessionResult]) -> dict[str, float]:
    steady = [r for r in results if r.label == "steady"]
    reversals = [r for r in results if r.label == "reversal"]
    revisions = [r for r in steady if r.revision_expected]
    correct = sum(not r.flagged for r in steady) + sum(r.flagged for r in reversals)
    return {
        "sessions": len(results),
        "session_accuracy": correct / len(results),
        "steady_false_alarm": sum(r.flagged for r in steady) / max(len(steady), 1),
        "reversal_recall": sum(r.flagged for r in reversals) / max(len(reversals), 1),
        "reversal_located": sum(r.located for r in reversals) / max(len(reversals), 1),
        "revision_detection": sum(r.revision_found for r in revisions) / max(len(revisions), 1),
        "revision_sessions": len(revisions),
        "nli_pairs_per_assistant_turn": statistics.fmean(n for r in results for n in r.nli_pairs),
    }


async def pair_verdicts(pipeline: TurnPipeline, pairs: list[tuple[str, str]]) -> list[bool]:
    """The pipeline's verdict on lone (earlier advice, later advice) pairs: claims, gate, rule."""
    verdicts = []
    for a, b in pairs:
        earlier = await item(pipeline, a, "a")
        later = await item(pipeline, b, "b")
        verdict = (await pipeline.judge_turn([earlier], later)).verdicts.get("a")
        verdicts.append(bool(verdict and verdict.contradicts))
    return verdicts


async def item(pipeline: TurnPipeline, text: str, event_id: str) -> AdviceItem:
    from contraflow.models.state import SessionState

    state = SessionState(session_id="pairs")
    claims = await pipeline.reader.claims(state, text)
    return AdviceItem(turn_index=0, event_id=event_id, text=pipeline.reader.unit_text(text) or text, claims=claims)


def prf(gold: list[bool], predicted: list[bool]) -> dict[str, float]:
    precision, recall, f1, _ = precision_recall_fscore_support(gold, predicted, average="binary", zero_division=0)
    return {"precision": float(precision), "recall": float(recall), "f1": float(f1)}


def decode_accuracy(scorer: CachedScorer, threshold: float, rule: str) -> float:
    rows = read_jsonl(DECODE_DEV)
    pairs = [(r["premise"], r["hypothesis"]) for r in rows]
    gold = np.array([r["label"] == "contradiction" for r in rows])
    ab = scorer.sync(pairs)
    if rule == "seed":
        predicted = ab.argmax(axis=1) == 2
    else:
        ba = scorer.sync([(h, p) for p, h in pairs])
        predicted = (ab[:, 2] + ba[:, 2]) / 2 >= threshold
    return float((predicted == gold).mean())


def build(settings: Settings, scorer: CachedScorer, components) -> TurnPipeline:
    services = turn_services(components, score=scorer)
    return TurnPipeline(services, turn_settings(settings))


def print_errors(results: list[SessionResult], which: str) -> None:
    """The sessions the verdict gets wrong, with what was published for them (to read only
    sets already spent: reading a held-aside set's errors spends it)."""
    labels = {
        row["session_id"]: row for path in session_files(which) for row in read_jsonl(path.with_suffix(".labels.jsonl"))
    }
    for result in results:
        if result.wrong:
            print(f"WRONG {result.session_id} {result.label} {labels[result.session_id].get('reversal') or ''}")
            for line in result.conflicts:
                print(f"    {line}")


def print_probe_errors(
    reversals: list[tuple[str, str]], called: list[bool], other_topics: list[tuple[str, str]], different: list[bool]
) -> None:
    """The probe pairs of `advice_verdicts.py` judged wrong: reversals not called
    contradictions, different-topic advice called one (a fixed set: printing spends nothing)."""
    for what, pairs, verdicts, wrong in (
        ("REVERSAL MISSED", reversals, called, False),
        ("DIFFERENT TOPIC CALLED A CONTRADICTION", other_topics, different, True),
    ):
        for (a, b), verdict in zip(pairs, verdicts, strict=True):
            if verdict == wrong:
                print(f"PROBE {what}: {a} || {b}")


async def evaluate(
    settings: Settings,
    scorer: CachedScorer,
    components,
    which: str,
    errors: bool = False,
    sessions_json: Path | None = None,
) -> dict[str, object]:
    pipeline = build(settings, scorer, components)
    results = await run_sessions(pipeline, session_files(which))
    if errors:
        print_errors(results, which)
    if sessions_json:
        sessions_json.write_text(json.dumps([asdict(r) for r in results], indent=1))
    report: dict[str, object] = dict(session_report(results))
    pair_rows = [row for path in pair_files(which) for row in read_jsonl(path)]
    report["pairs"] = len(pair_rows)
    if pair_rows:
        predicted = await pair_verdicts(pipeline, [(r["a"], r["b"]) for r in pair_rows])
        gold = [r["label"] == "contradiction" for r in pair_rows]
        report.update({f"pair_{k}": v for k, v in prf(gold, predicted).items()})
    reversals, other_topics = advice_sets()
    called = await pair_verdicts(pipeline, reversals)
    different = await pair_verdicts(pipeline, other_topics)
    if errors:
        print_probe_errors(reversals, called, other_topics, different)
    report["probe_reversals_called_contradiction"] = statistics.fmean(called)
    report["probe_different_topic_called_contradiction"] = statistics.fmean(different)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--set", choices=sorted(SETS), default="dev", metavar="SET", help="dev, holdout, holdoutN, train or trainN"
    )
    parser.add_argument("--holdout", action="store_true", help="the same as --set holdout")
    parser.add_argument("--verdict", choices=["regimen", "claims", "sentences", "seed"], default=Settings().verdict)
    parser.add_argument("--model", default="builtin")
    parser.add_argument("--stride", type=int, default=None, help="default: the settings' stride")
    parser.add_argument("--sweep", action="store_true", help="session and pair numbers over thresholds")
    parser.add_argument("--no-decode", action="store_true", help="skip DECODE pairs dev")
    parser.add_argument("--json", type=Path, help="also write the numbers here")
    parser.add_argument(
        "--errors", action="store_true", help="print the sessions judged wrong (spends a held-aside set)"
    )
    parser.add_argument(
        "--sessions-json", type=Path, help="write each session's label, verdict and conflicts here (last threshold)"
    )
    args = parser.parse_args()

    overrides: dict[str, object] = {"nli_model": args.model, "verdict": args.verdict}
    if args.stride is not None:
        overrides["stride"] = args.stride
    settings = Settings(**overrides)
    components = load_components(settings)
    scorer = CachedScorer(components.turn_scorer.score)  # the dialogue head, when the verdict judges with it
    which = "holdout" if args.holdout else args.set
    sentences = args.verdict == "sentences"
    sweep = [0.7, 0.8, 0.9, 0.95] if sentences else [0.5, 0.7, 0.9, 1.0]
    threshold_setting = "sentence_threshold" if sentences else "contradiction_threshold"
    thresholds = sweep if args.sweep else [getattr(settings, threshold_setting)]
    reports = {}
    for threshold in thresholds:
        tuned = settings.model_copy(update={threshold_setting: threshold})
        report = asyncio.run(evaluate(tuned, scorer, components, which, args.errors, args.sessions_json))
        if not args.no_decode and DECODE_DEV.exists():
            report["decode_dev_accuracy"] = decode_accuracy(scorer, threshold, args.verdict)
        reports[threshold] = report
        print(f"\nverdict={args.verdict} threshold={threshold} set={which}")
        for key, value in report.items():
            print(f"  {key:45s} {value:.3f}" if isinstance(value, float) else f"  {key:45s} {value}")
    if args.json:
        args.json.write_text(json.dumps(reports, indent=2))


if __name__ == "__main__":
    main()
