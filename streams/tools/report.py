"""The replay report: one HTML file that works offline (Plotly's JavaScript embedded once).

It leads with what an operator or a clinician reviewing a model needs: the sessions ranked
by K_Conflict with their status, every conflict with both texts, the turns, the score and
the severity, and a timeline per session of its advice turns and conflicts. Entity-recall
charts come only when the input carries case data (Study C cases); turn JSONL has none.
"""

from __future__ import annotations

from html import escape

import plotly.graph_objects as go

from contraflow.models.events import ConflictEvent
from contraflow.models.results import SessionResult
from contraflow.streams.core.turns import TurnSettings

STATUS_COLOURS = {"pass": "#2ca02c", "caution": "#ff7f0e", "failure": "#d62728"}
KIND_COLOURS = {"turn_self_contradiction": "#d62728", "turn_revision": "#1f77b4"}
KIND_NAMES = {"turn_self_contradiction": "contradiction", "turn_revision": "revision (justified)"}
TIMELINE_SESSIONS = 40  # the timeline shows the most contradictory sessions
CSS = """body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:4px 8px;vertical-align:top}
th{background:#f4f4f4;text-align:left}td.n{text-align:right;white-space:nowrap}
.badge{color:#fff;border-radius:3px;padding:1px 6px;font-size:.9em}.quote{max-width:380px}
.note{color:#555}"""


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def _badge(status: str) -> str:
    return f'<span class="badge" style="background:{STATUS_COLOURS.get(status, "#777")}">{escape(status)}</span>'


def _score(conflict: ConflictEvent) -> float:
    if conflict.p_contradiction is not None:
        return conflict.p_contradiction
    return conflict.nli_ab.contradiction if conflict.nli_ab else 1.0  # a memory conflict is decided, not scored


def ranked(sessions: list[SessionResult]) -> list[SessionResult]:
    """Most contradictory first: K_Conflict, then conflicts published, then name."""
    return sorted(sessions, key=lambda s: (-(s.knowledge_conflict_rate or 0.0), -len(s.conflicts), s.session_id))


def _figure_html(figure: go.Figure, first: bool) -> str:
    figure.update_layout(template="plotly_white", margin={"l": 60, "r": 30, "t": 50, "b": 50})
    return figure.to_html(full_html=False, include_plotlyjs=first, config={"displaylogo": False})


def k_conflict_chart(sessions: list[SessionResult], settings: TurnSettings) -> go.Figure:
    shown = [s for s in sessions if s.evaluated_pairs]
    figure = go.Figure(
        go.Bar(
            x=[s.session_id for s in shown],
            y=[s.knowledge_conflict_rate or 0.0 for s in shown],
            marker_color=[STATUS_COLOURS.get(s.status, "#777") for s in shown],
            customdata=[[s.contradictions, s.evaluated_pairs] for s in shown],
            hovertemplate="%{x}<br>K_Conflict %{y:.3f} (%{customdata[0]} of %{customdata[1]} pairs)<extra></extra>",
        )
    )
    lines = ((settings.caution, "caution", "bottom right"), (settings.failure, "failure", "top right"))
    for value, name, place in lines:
        figure.add_hline(
            y=value,
            line_dash="dot",
            line_color=STATUS_COLOURS[name],
            annotation_text=f"{name} {value:g}",
            annotation_position=place,  # the two lines are close: one label under its line, one over
        )
    figure.update_layout(
        title="K_Conflict per session (most contradictory first)",
        xaxis_title="session",
        yaxis_title="contradicting / evaluated adjacent pairs",
        yaxis_range=[0, 1.05],
        yaxis_tickformat=".1f",
        height=380,
    )
    return figure


def timeline_chart(sessions: list[SessionResult]) -> go.Figure:
    """Each session a row, each assistant turn a dot (filled when it gave advice), each
    conflict a line from the earlier turn to the later one."""
    rows = list(reversed(sessions[:TIMELINE_SESSIONS]))  # the worst at the top
    figure = go.Figure()
    for advised, name, symbol in ((True, "turn with advice", "circle"), (False, "turn without advice", "circle-open")):
        xs, ys = [], []
        for s in rows:
            for turn in s.turns:
                if (turn in s.advice_turns) == advised:
                    xs.append(turn)
                    ys.append(s.session_id)
        figure.add_trace(go.Scatter(x=xs, y=ys, mode="markers", name=name, marker={"color": "#888", "symbol": symbol}))
    for kind, colour in KIND_COLOURS.items():
        xs, ys, text = [], [], []
        for s in rows:
            for c in s.conflicts:
                if c.kind != kind:
                    continue
                hover = (
                    f"turn {c.claim_a.turn_index} → {c.claim_b.turn_index}, p {_score(c):.2f}, {c.severity}"
                    f"<br>A: {escape(c.claim_a.text[:120])}<br>B: {escape(c.claim_b.text[:120])}"
                )
                xs += [c.claim_a.turn_index, c.claim_b.turn_index, None]
                ys += [s.session_id, s.session_id, None]
                text += [hover, hover, None]
        figure.add_trace(
            go.Scatter(
                x=xs,
                y=ys,
                mode="lines+markers",
                name=KIND_NAMES[kind],
                line={"color": colour, "width": 3},
                marker={"color": colour, "size": 9},
                text=text,
                hovertemplate="%{text}<extra></extra>",
            )
        )
    figure.update_layout(
        title=f"Timeline: advice turns and conflicts ({len(rows)} most contradictory sessions)",
        xaxis_title="turn index",
        yaxis_title="session",
        height=max(300, 60 + 26 * len(rows)),
        legend={"orientation": "h", "y": -0.2},
    )
    return figure


def recall_chart(results: dict, settings: TurnSettings) -> go.Figure:
    figure = go.Figure()
    for gold in ("critical", "extended"):
        curve = results[f"average_recall_curve_{gold}"]
        figure.add_trace(go.Scatter(x=list(range(1, len(curve) + 1)), y=curve, mode="lines+markers", name=gold))
    figure.add_hline(
        y=settings.recall_gate, line_dash="dot", line_color="#d62728", annotation_text=f"gate {settings.recall_gate:g}"
    )
    figure.add_vline(
        x=settings.recall_turn, line_dash="dot", line_color="#888", annotation_text=f"T{settings.recall_turn}"
    )
    figure.update_layout(
        title="Average entity recall per turn",
        xaxis_title="assistant turn",
        yaxis_title="entity recall",
        yaxis_range=[0, 1.05],
        height=360,
    )
    return figure


def _session_rows(sessions: list[SessionResult], case_data: bool, t: int) -> str:
    header = "<tr><th>session</th><th>model</th><th>status</th><th>K_Conflict</th><th>conflicts</th><th>revisions</th>"
    header += "<th>assistant turns</th>"
    if case_data:
        header += f"<th>Recall@T{t}</th><th>extended</th><th>drift slope β</th>"
    rows = []
    for s in sessions:
        revisions = sum(c.kind == "turn_revision" for c in s.conflicts)
        cells = (
            f"<td>{escape(s.session_id)}</td><td>{escape(s.model or '—')}</td><td>{_badge(s.status)}</td>"
            f'<td class="n">{_fmt(s.knowledge_conflict_rate)} ({s.contradictions}/{s.evaluated_pairs})</td>'
            f'<td class="n">{len(s.conflicts) - revisions}</td><td class="n">{revisions}</td>'
            f'<td class="n">{s.assistant_turns}</td>'
        )
        if case_data:
            cells += (
                f'<td class="n">{_fmt(s.entity_recall_at_t10)}</td>'
                f'<td class="n">{_fmt(s.entity_recall_at_t10_extended)}</td><td class="n">{_fmt(s.drift_slope)}</td>'
            )
        rows.append(f"<tr>{cells}</tr>")
    return f"<table>{header}</tr>{''.join(rows)}</table>"


def _conflict_rows(sessions: list[SessionResult]) -> str:
    conflicts = [(s.session_id, c) for s in sessions for c in s.conflicts]
    if not conflicts:
        return "<p>No conflict was published.</p>"
    header = (
        "<tr><th>session</th><th>turns</th><th>what</th><th>NLI p(contradiction)</th><th>severity</th>"
        "<th>earlier advice (A)</th><th>later advice (B)</th></tr>"
    )
    rows = []
    for session_id, c in conflicts:
        what = KIND_NAMES.get(c.kind, c.kind) + (" (K_Conflict pair)" if c.scope == "adjacent" else "")
        if c.disagrees_on:
            what += f"; differs on {c.disagrees_on}"
        if c.justified_by is not None:
            what += f"; justified by user turn {c.justified_by.turn_index}: “{escape(c.justified_by.text[:160])}”"
        rows.append(
            f"<tr><td>{escape(session_id)}</td><td class='n'>{c.claim_a.turn_index} → {c.claim_b.turn_index}</td>"
            f"<td>{what}</td><td class='n'>{_score(c):.2f}</td><td>{escape(c.severity)}</td>"
            f"<td class='quote'>{escape(c.claim_a.text)}</td><td class='quote'>{escape(c.claim_b.text)}</td></tr>"
        )
    return f"<table>{header}{''.join(rows)}</table>"


def render_report(results: dict, sessions: list[SessionResult], settings: TurnSettings, source: str) -> str:
    """The whole HTML page."""
    order = ranked(sessions)
    t = settings.recall_turn
    case_data = results.get("entity_recall_at_t10") is not None
    statuses = {name: sum(s.status == name for s in sessions) for name in STATUS_COLOURS}
    evaluated = sum(s.evaluated_pairs for s in sessions)
    contradictions = sum(s.contradictions for s in sessions)
    revisions = sum(c.kind == "turn_revision" for s in sessions for c in s.conflicts)
    charts = [_figure_html(timeline_chart(order), first=True), _figure_html(k_conflict_chart(order, settings), False)]
    if case_data:
        charts.append(_figure_html(recall_chart(results, settings), False))
        ci = results.get("entity_recall_at_t10_ci95")
        recall_line = (
            f"<p>Entity Recall@T{t} (critical): <b>{_fmt(results['entity_recall_at_t10'])}</b>"
            + (f" (95 % CI {ci[0]:.3f}–{ci[1]:.3f})" if ci else "")
            + f", gate {settings.recall_gate:g}; drift slope β {_fmt(results.get('drift_slope'))}. Low recall with "
            "high K_Conflict is active contradiction; with low K_Conflict, passive forgetting.</p>"
        )
    else:
        recall_line = '<p class="note">No case data in this input, so no entity recall (it needs Study C cases).</p>'
    skipped = results.get("skipped") or []
    skipped_html = (
        f"<h2>Skipped ({len(skipped)})</h2><ul>" + "".join(f"<li>{escape(s)}</li>" for s in skipped) + "</ul>"
        if skipped
        else ""
    )
    k_overall = f"{contradictions / evaluated:.3f} ({contradictions} of {evaluated} pairs)" if evaluated else "—"
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>contraflow replay: {escape(source)}</title>
<style>{CSS}</style></head>
<body>
<h1>contraflow replay: {escape(source)}</h1>
<p>{len(sessions)} sessions, {sum(s.assistant_turns for s in sessions)} assistant turns.
K_Conflict over all evaluated adjacent pairs: <b>{k_overall}</b>; sessions {_badge("pass")} {statuses["pass"]}
 {_badge("caution")} {statuses["caution"]} {_badge("failure")} {statuses["failure"]}
 (pass below {settings.caution:g}, failure above {settings.failure:g}); {revisions} justified revisions.</p>
{recall_line}
<h2>Sessions, most contradictory first</h2>
{_session_rows(order, case_data, t)}
{charts[0]}
<h2>Conflicts</h2>
<p class="note">A contradiction between adjacent assistant turns counts in K_Conflict; one against an earlier
turn is a global conflict; a revision follows a new fact from the user and is not counted.</p>
{_conflict_rows(order)}
{"".join(charts[1:])}
{skipped_html}
</body></html>
"""
