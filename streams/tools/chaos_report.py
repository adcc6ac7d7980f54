"""What a chaos run is judged by: the outputs one run read (`RunOutputs`), and the
comparison of the run with kills against the reference run without (`compare`, giving a
`ChaosReport`): lost assistant turns, duplicate ids and whether a copy differs, sessions
whose final state differs, missing, extra and differing outputs, rate windows."""

from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass, field

import orjson

from contraflow.topics.catalog import ALERTS, SCORES

ID_FIELDS = {
    "contraflow.scores": "score_id",
    "contraflow.conflicts": "conflict_id",
    "contraflow.alerts": "alert_id",
    "contraflow.deadletter": "deadletter_id",
    "contraflow.memory.updates": "update_id",
}
STATE_FIELDS = (
    "turn_index",
    "assistant_turn",
    "evaluated_pairs",
    "contradictions",
    "status",
    "global_evaluated_pairs",
    "global_contradictions",
)


@dataclass
class RunOutputs:
    """Every output record one run read, in arrival order."""

    records: list[tuple[float, str, dict]] = field(default_factory=list)  # (sent at, topic, event)
    rate_windows: dict[str, tuple[int, int]] = field(default_factory=dict)  # key: final (pairs, contradictions)

    def first_after(self, t: float) -> float | None:
        """When the first output sent after `t` (seconds since the epoch) was sent."""
        return min((sent for sent, _, _ in self.records if sent > t), default=None)

    def scored(self) -> set[str]:
        return {event["event_id"] for _, topic, event in self.records if topic == SCORES.name}

    def by_id(self, fleet_rate_alerts: bool = True) -> dict[tuple[str, str], list[dict]]:
        copies: dict[tuple[str, str], list[dict]] = defaultdict(list)
        for _, topic, event in self.records:
            if fleet_rate_alerts or not is_fleet_rate_alert(topic, event):
                copies[(topic, event[ID_FIELDS[topic]])].append(event)
        return copies

    def fleet_rate_alerts(self) -> int:
        """Distinct fleet rate alerts this run read."""
        return len({event["alert_id"] for _, topic, event in self.records if is_fleet_rate_alert(topic, event)})

    def evaluated_pairs(self) -> int:
        """Adjacent pairs the scores say were evaluated for a model (each score id once)."""
        return len(
            {
                event["score_id"]
                for _, topic, event in self.records
                if topic == SCORES.name and event.get("pair_evaluated") and event.get("model")
            }
        )

    def final_states(self) -> dict[str, tuple]:
        last: dict[str, dict] = {}
        for _, topic, event in self.records:
            if topic == SCORES.name and event["turn_index"] >= last.get(event["session_id"], {}).get("turn_index", -1):
                last[event["session_id"]] = event
        return {session: tuple(event[f] for f in STATE_FIELDS) for session, event in last.items()}


@dataclass
class ChaosReport:
    assistant_turns: int
    lost: list[str]
    duplicates: int
    differing_duplicates: int
    sessions: int
    differing_sessions: list[str]  # session: final state of the chaos run vs the reference's
    missing_ids: list[str]  # "topic id: what", in the reference only
    extra_ids: list[str]  # in the chaos run only
    differing_outputs: list[str]  # same id in both runs, other content: the first field that differs
    rate_windows: int  # rate windows (model or tenant, length) in either run
    differing_rate_windows: list[str]  # window key: final (pairs, contradictions) vs the reference's
    rate_alerts: tuple[int, int]  # fleet rate alerts published (distinct ids): chaos run, reference
    kill_to_output_s: list[float]
    readyz_during_outage: dict[int, int] = field(default_factory=dict)  # status -> samples

    @property
    def ok(self) -> bool:
        return not (
            self.lost
            or self.differing_duplicates
            or self.differing_sessions
            or self.missing_ids
            or self.differing_rate_windows
        )

    def lines(self) -> list[str]:
        kills = self.kill_to_output_s
        out = [
            f"assistant turns produced        : {self.assistant_turns}",
            f"lost assistant turns            : {len(self.lost)}{' ' + ', '.join(self.lost[:10]) if self.lost else ''}",
            f"duplicate records (same id)     : {self.duplicates}, of which differing from the first copy: "
            f"{self.differing_duplicates}",
            f"sessions differing from the ref : {len(self.differing_sessions)} of {self.sessions}",
            *(f"  {line}" for line in self.differing_sessions[:10]),
            f"output ids missing / extra      : {len(self.missing_ids)} / {len(self.extra_ids)}",
            *(f"  missing {line}" for line in self.missing_ids[:10]),
            *(f"  extra   {line}" for line in self.extra_ids[:10]),
            f"same id, other content than ref : {len(self.differing_outputs)}",
            *(f"  {line}" for line in self.differing_outputs[:10]),
            f"rate windows differing from ref : {len(self.differing_rate_windows)} of {self.rate_windows}",
            *(f"  {line}" for line in self.differing_rate_windows[:10]),
            f"fleet rate alerts (chaos / ref) : {self.rate_alerts[0]} / {self.rate_alerts[1]} "
            "(an open window's path to its level follows the samples' arrival order)",
        ]
        if kills:
            out.append(
                f"kill -> first output            : median {statistics.median(kills):.1f} s, "
                f"max {max(kills):.1f} s over {len(kills)} kills"
            )
        if self.readyz_during_outage:
            samples = ", ".join(f"{status}: {n}" for status, n in sorted(self.readyz_during_outage.items()))
            out.append(f"/readyz during the outage       : {samples}")
        return out


def is_fleet_rate_alert(topic: str, event: dict) -> bool:
    return topic == ALERTS.name and str(event.get("kind", "")).startswith("contradiction_rate")


def canonical(event: dict) -> bytes:
    """An event with floats rounded, to compare copies of one id."""

    def rounded(value: object) -> object:
        if isinstance(value, float):
            return round(value, 4)
        if isinstance(value, dict):
            return {k: rounded(v) for k, v in value.items() if k != "failed_at"}
        if isinstance(value, list):
            return [rounded(v) for v in value]
        return value

    return orjson.dumps(rounded(event), option=orjson.OPT_SORT_KEYS)


def described(key: tuple[str, str], event: dict) -> str:
    """One output for the report: its topic, id and what it says."""
    topic, event_id = key
    what = event.get("message") or event.get("error") or event.get("session_id") or ""
    return f"{topic} {event_id}: {what}"


def content_differences(copies: dict[tuple[str, str], list[dict]], ref: dict[tuple[str, str], list[dict]]) -> list[str]:
    """Outputs both runs published under one id but with other content, in turn order:
    topic, id, and the first field that differs with both values."""
    found = []
    for key in copies.keys() & ref.keys():
        ours, theirs = copies[key][0], ref[key][0]
        if canonical(ours) == canonical(theirs):
            continue
        field_name = next(
            f
            for f in sorted(ours.keys() | theirs.keys())
            if canonical({f: ours.get(f)}) != canonical({f: theirs.get(f)})
        )
        order = (str(ours.get("session_id")), ours.get("turn_index") or 0)
        values = f"{ours.get(field_name)!r} vs ref {theirs.get(field_name)!r}"
        found.append((order, f"{key[0]} {key[1]} ({order[0]} turn {order[1]}): {field_name} {values}"))
    return [line for _, line in sorted(found)]


def compare(
    lines: list[bytes], chaos: RunOutputs, reference: RunOutputs, kills: list[float], readyz: dict
) -> ChaosReport:
    assistant = [e["event_id"] for e in map(orjson.loads, lines) if e["role"] == "assistant"]
    scored = chaos.scored()
    copies = chaos.by_id()
    compared, ref_compared = chaos.by_id(fleet_rate_alerts=False), reference.by_id(fleet_rate_alerts=False)
    windows, ref_windows = chaos.rate_windows, reference.rate_windows
    finals, ref_finals = chaos.final_states(), reference.final_states()
    sessions = {e["session_id"] for e in map(orjson.loads, lines)}
    return ChaosReport(
        assistant_turns=len(assistant),
        lost=[event_id for event_id in assistant if event_id not in scored],
        duplicates=sum(len(v) - 1 for v in copies.values()),
        differing_duplicates=sum(len({canonical(e) for e in v}) > 1 for v in copies.values()),
        sessions=len(sessions),
        differing_sessions=[
            f"{s}: {dict(zip(STATE_FIELDS, finals.get(s, ()), strict=False))} vs ref {ref_finals.get(s)}"
            for s in sorted(sessions)
            if finals.get(s) != ref_finals.get(s)
        ],
        missing_ids=[described(key, ref_compared[key][0]) for key in ref_compared.keys() - compared.keys()],
        extra_ids=[described(key, compared[key][0]) for key in compared.keys() - ref_compared.keys()],
        differing_outputs=content_differences(compared, ref_compared),
        rate_windows=len(windows.keys() | ref_windows.keys()),
        differing_rate_windows=[
            f"{key}: {windows.get(key)} vs ref {ref_windows.get(key)}"
            for key in sorted(windows.keys() | ref_windows.keys())
            if windows.get(key) != ref_windows.get(key)
        ],
        rate_alerts=(chaos.fleet_rate_alerts(), reference.fleet_rate_alerts()),
        kill_to_output_s=kills,
        readyz_during_outage=readyz,
    )
