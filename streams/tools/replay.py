"""`contraflow replay FILE`: the turn pipeline over recorded conversations, offline.

Reads Study C's format (a JSON list of cases: id, patient_summary, critical_entities,
optional target_plan, turns [{turn, message}], each message a model output to score) or
contraflow's own turn JSONL, runs the very pipeline the agents run, and writes a results
JSON with seed 003's fields and an HTML report.
"""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
from pydantic import BaseModel, Field, ValidationError
from tqdm import tqdm

from contraflow.models.events import Case, ConflictEvent, Role, ScoreEvent, TurnEvent
from contraflow.models.results import SessionResult
from contraflow.models.state import SessionState
from contraflow.streams.core.metrics.bootstrap import ci_if_enough
from contraflow.streams.core.metrics.drift import drift_slope, recall_at
from contraflow.streams.core.turn_metrics import CURVE_NAMES
from contraflow.streams.core.turns import TurnPipeline
from contraflow.streams.tools.report import render_report

EPOCH = datetime(2026, 1, 1, tzinfo=UTC)


class StudyCTurn(BaseModel):
    turn: int
    message: str


class StudyCCase(BaseModel):
    id: str
    patient_summary: str = ""
    critical_entities: list[str] = Field(default_factory=list)
    target_plan: str | None = None
    turns: list[StudyCTurn]


def study_c_turns(case: StudyCCase) -> list[TurnEvent]:
    """A Study C case as assistant turns; the case rides on the first one."""
    ordered = sorted(case.turns, key=lambda t: t.turn)
    return [
        TurnEvent(
            event_id=f"{case.id}-{t.turn}",
            session_id=case.id,
            turn_index=t.turn,
            role=Role.assistant,
            text=t.message,
            ts=EPOCH + timedelta(minutes=t.turn),
            case=Case(
                critical_entities=case.critical_entities,
                patient_summary=case.patient_summary,
                target_plan=case.target_plan,
            )
            if i == 0
            else None,
        )
        for i, t in enumerate(ordered)
    ]


class ReadResult(BaseModel):
    """The turns of a file, and what was skipped (malformed cases or lines) and why."""

    turns: list[TurnEvent]
    skipped: list[str] = Field(default_factory=list)


def _case_label(item: object, index: int) -> str:
    case_id = item.get("id") if isinstance(item, dict) else None
    return f"case {case_id!r}" if isinstance(case_id, str) and case_id else f"case #{index + 1} (no id)"


def _first_error(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(part) for part in error["loc"]) or "case"
    more = f" (+{exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return f"{where}: {error['msg']}{more}"


def read_turns(path: Path) -> ReadResult:
    """Turns of a Study C JSON file or a contraflow turn JSONL file, in file order.

    A malformed case (or line) is skipped and reported with its id (or line number);
    a file that is neither format raises ValueError."""
    text = read_utf8(path)
    result = ReadResult(turns=[])
    if text.lstrip().startswith("["):
        try:
            items = json.loads(text)
        except ValueError as exc:
            raise ValueError(f"{path}: not valid JSON ({exc})") from exc
        for index, item in enumerate(items):
            try:
                result.turns += study_c_turns(StudyCCase.model_validate(item))
            except ValidationError as exc:
                result.skipped.append(f"{_case_label(item, index)}: {_first_error(exc)}")
    else:
        for line_no, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                try:
                    result.turns.append(TurnEvent.model_validate_json(line))
                except ValidationError as exc:
                    result.skipped.append(f"line {line_no}: {_first_error(exc)}")
    if result.skipped and not result.turns:
        raise ValueError(
            f"{path}: nothing to replay: neither Study C JSON nor turn JSONL "
            f"({len(result.skipped)} skipped; the first: {result.skipped[0]})"
        )
    return result


def read_utf8(path: Path) -> str:
    """A file's text; one that is not UTF-8 is a ValueError naming the file and line."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ValueError(f"{path}:{line}: not UTF-8 text ({exc.reason}, byte {data[exc.start]:#04x})") from None


async def replay_turns(
    pipeline: TurnPipeline, turns: list[TurnEvent], progress: bool = True
) -> tuple[list[SessionResult], list[ScoreEvent]]:
    """Run every turn through the pipeline in order; per-session results and every score."""
    states: dict[str, SessionState | None] = defaultdict(lambda: None)
    scores: dict[str, list[ScoreEvent]] = defaultdict(list)
    conflicts: dict[str, list[ConflictEvent]] = defaultdict(list)
    for turn in tqdm(turns, desc="replay", unit="turn", disable=not progress):
        outcome = await pipeline.process(states[turn.session_id], turn)
        states[turn.session_id] = outcome.state
        scores[turn.session_id].extend(outcome.scores)
        conflicts[turn.session_id].extend(outcome.conflicts)
    recall_turn = pipeline.settings.recall_turn
    results = [
        session_result(state, scores[sid], conflicts[sid], recall_turn) for sid, state in states.items() if state
    ]
    return results, [score for session in scores.values() for score in session]


def session_result(
    state: SessionState, scores: list[ScoreEvent], conflicts: list[ConflictEvent], recall_turn: int
) -> SessionResult:
    curves = state.curves
    alignment = [s.alignment for s in scores if s.alignment is not None]
    ncps = [s.ncp for s in scores if s.ncp is not None]
    critical, extended = curves.get("recall_critical"), curves.get("recall_extended")
    return SessionResult(
        session_id=state.session_id,
        model=state.model,
        tenant=state.tenant,
        status=str(state.status.value),
        assistant_turns=state.assistant_turns,
        entity_recall_at_t10=recall_at(critical, recall_turn) if critical else None,
        entity_recall_at_t10_extended=recall_at(extended, recall_turn) if extended else None,
        drift_slope=drift_slope(critical) if critical else None,
        knowledge_conflict_rate=state.k_conflict,
        evaluated_pairs=state.evaluated_pairs,
        contradictions=state.contradictions,
        global_contradiction_rate=state.global_rate,
        continuity_score=alignment[-1] if alignment else None,
        mean_ncp=float(np.mean(ncps)) if ncps else None,
        curves=curves,
        turns=[s.turn_index for s in scores],
        advice_turns=[s.turn_index for s in scores if s.advice],
        conflicts=conflicts,
    )


def _average_curve(sessions: list[SessionResult], name: str) -> list[float]:
    """Mean per turn position over the sessions that reached it."""
    curves = [s.curves[name] for s in sessions if s.curves.get(name)]
    length = max((len(c) for c in curves), default=0)
    return [float(np.mean([c[t] for c in curves if len(c) > t])) for t in range(length)]


def aggregate(sessions: list[SessionResult]) -> dict:
    """Seed 003's results fields (plus per-session detail)."""
    results: dict = {"sessions_scored": len(sessions)}
    for key in ("entity_recall_at_t10", "entity_recall_at_t10_extended"):
        values = [getattr(s, key) for s in sessions if getattr(s, key) is not None]
        results[key] = float(np.mean(values)) if values else None
        if (ci := ci_if_enough(values)) is not None:
            results[f"{key}_ci95"] = list(ci)
    for gold in ("critical", "extended"):
        for metric in CURVE_NAMES:
            results[f"average_{metric}_curve_{gold}"] = _average_curve(sessions, f"{metric}_{gold}")
    pairs = sum(s.evaluated_pairs for s in sessions)
    results["knowledge_conflict_rate"] = sum(s.contradictions for s in sessions) / pairs if pairs else None
    rates = [s.knowledge_conflict_rate for s in sessions if s.knowledge_conflict_rate is not None]
    if (ci := ci_if_enough(rates)) is not None:
        results["knowledge_conflict_rate_ci95"] = list(ci)
    average = results["average_recall_curve_critical"]
    results["drift_slope"] = drift_slope(average) if len(average) >= 2 else None
    alignment = [s.continuity_score for s in sessions if s.continuity_score is not None]
    if alignment:
        results["continuity_score"] = float(np.mean(alignment))
    results["sessions"] = [
        s.model_dump(mode="json", exclude={"curves", "turns", "advice_turns"}, exclude_none=True) for s in sessions
    ]
    return results


def run_replay(
    pipeline: TurnPipeline, path: Path, out_dir: Path, progress: bool = True
) -> tuple[Path, Path, list[str]]:
    """Replay a file; write results.json and report.html into `out_dir`; also what was skipped."""
    read = read_turns(path)
    sessions, _ = asyncio.run(replay_turns(pipeline, read.turns, progress))
    results = aggregate(sessions)
    results["skipped"] = read.skipped
    out_dir.mkdir(parents=True, exist_ok=True)
    json_path, html_path = out_dir / "results.json", out_dir / "report.html"
    json_path.write_text(json.dumps(results, indent=2))
    html_path.write_text(render_report(results, sessions, pipeline.settings, source=path.name))
    return json_path, html_path, read.skipped
