"""The replay report: one self-contained HTML page with inline SVG charts (no network,
no plotting library): recall curves with the 0.70 gate at T10, K_Conflict per session
with the seed thresholds, and drift slopes."""

from __future__ import annotations

from html import escape

from models.results import SessionResult
from streams.turns import TurnSettings

WIDTH, HEIGHT, PAD = 640, 300, 48
COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"]


def _x(i: float, n: int) -> float:
    return PAD + (WIDTH - 2 * PAD) * (i / max(1, n - 1))


def _y(value: float, low: float, high: float) -> float:
    return HEIGHT - PAD - (HEIGHT - 2 * PAD) * ((value - low) / ((high - low) or 1.0))


def _axes(title: str, low: float, high: float, x_label: str) -> list[str]:
    parts = [
        f'<text x="{WIDTH / 2}" y="20" text-anchor="middle" font-weight="bold">{escape(title)}</text>',
        f'<line x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD}" y2="{HEIGHT - PAD}" stroke="#333"/>',
        f'<line x1="{PAD}" y1="{PAD}" x2="{PAD}" y2="{HEIGHT - PAD}" stroke="#333"/>',
        f'<text x="{WIDTH / 2}" y="{HEIGHT - 10}" text-anchor="middle">{escape(x_label)}</text>',
    ]
    for k in range(5):
        value = low + (high - low) * k / 4
        y = _y(value, low, high)
        parts.append(f'<text x="{PAD - 6}" y="{y + 4}" text-anchor="end" font-size="11">{value:.2f}</text>')
        parts.append(f'<line x1="{PAD}" y1="{y}" x2="{WIDTH - PAD}" y2="{y}" stroke="#eee"/>')
    return parts


def _hline(value: float, low: float, high: float, label: str, colour: str) -> str:
    y = _y(value, low, high)
    return (
        f'<line x1="{PAD}" y1="{y}" x2="{WIDTH - PAD}" y2="{y}" stroke="{colour}" stroke-dasharray="6 4"/>'
        f'<text x="{WIDTH - PAD}" y="{y - 4}" text-anchor="end" font-size="11" fill="{colour}">{escape(label)}</text>'
    )


def line_chart(title: str, series: dict[str, list[float]], gate: float, gate_turn: int) -> str:
    """Curves over turns 1..n on 0..1, with the safety gate line and a T10 marker."""
    n = max((len(v) for v in series.values()), default=1)
    parts = _axes(title, 0.0, 1.0, "assistant turn (T)")
    parts.append(_hline(gate, 0.0, 1.0, f"gate {gate:.2f}", "#d62728"))
    if n >= gate_turn:
        x = _x(gate_turn - 1, n)
        parts.append(f'<line x1="{x}" y1="{PAD}" x2="{x}" y2="{HEIGHT - PAD}" stroke="#999" stroke-dasharray="2 3"/>')
        parts.append(f'<text x="{x + 4}" y="{PAD + 12}" font-size="11">T{gate_turn}</text>')
    for i, (name, values) in enumerate(series.items()):
        colour = COLOURS[i % len(COLOURS)]
        points = " ".join(f"{_x(t, n):.1f},{_y(v, 0.0, 1.0):.1f}" for t, v in enumerate(values))
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}"/>')
        parts.append(
            f'<text x="{PAD + 8}" y="{PAD + 14 + 14 * i}" fill="{colour}" font-size="12">{escape(name)}</text>'
        )
    return f'<svg width="{WIDTH}" height="{HEIGHT}" xmlns="http://www.w3.org/2000/svg">{"".join(parts)}</svg>'


def bar_chart(
    title: str, values: dict[str, float], lines: list[tuple[float, str, str]], symmetric: bool = False
) -> str:
    """One bar per session, with threshold lines."""
    top = max([abs(v) for v in values.values()] + [abs(v) for v, _, _ in lines] + [0.01]) * 1.1
    low, high = (-top, top) if symmetric else (0.0, top)
    parts = _axes(title, low, high, "session")
    width = (WIDTH - 2 * PAD) / max(1, len(values))
    zero = _y(0.0, low, high)
    for i, (name, value) in enumerate(values.items()):
        y = _y(value, low, high)
        x = PAD + i * width + width * 0.15
        parts.append(
            f'<rect x="{x:.1f}" y="{min(y, zero):.1f}" width="{width * 0.7:.1f}" height="{abs(zero - y):.1f}" '
            f'fill="#1f77b4"><title>{escape(name)}: {value:.3f}</title></rect>'
        )
    for value, label, colour in lines:
        parts.append(_hline(value, low, high, label, colour))
    return f'<svg width="{WIDTH}" height="{HEIGHT}" xmlns="http://www.w3.org/2000/svg">{"".join(parts)}</svg>'


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def render_report(results: dict, sessions: list[SessionResult], settings: TurnSettings, source: str) -> str:
    """The whole HTML page."""
    gate, t = settings.recall_gate, settings.recall_turn
    headline = results.get("entity_recall_at_t10")
    verdict = "no case data" if headline is None else ("PASS" if headline >= gate else "BELOW THE SAFETY GATE")
    recall = line_chart(
        "Average entity recall per turn",
        {
            "critical": results["average_recall_curve_critical"],
            "extended": results["average_recall_curve_extended"],
        },
        gate,
        t,
    )
    k_values = {s.session_id: s.knowledge_conflict_rate or 0.0 for s in sessions}
    k_chart = bar_chart(
        "K_Conflict per session",
        k_values,
        [(settings.caution, "caution 0.05", "#ff7f0e"), (settings.failure, "failure 0.10", "#d62728")],
    )
    slopes = {s.session_id: s.drift_slope for s in sessions if s.drift_slope is not None}
    slope_chart = bar_chart(
        "Drift slope β per session", slopes, [(settings.slope_threshold, "alert", "#d62728")], symmetric=True
    )
    rows = "".join(
        f"<tr><td>{escape(s.session_id)}</td><td>{s.assistant_turns}</td><td>{_fmt(s.entity_recall_at_t10)}</td>"
        f"<td>{_fmt(s.entity_recall_at_t10_extended)}</td><td>{_fmt(s.drift_slope)}</td>"
        f"<td>{_fmt(s.knowledge_conflict_rate)} ({s.contradictions}/{s.evaluated_pairs})</td>"
        f"<td>{_fmt(s.global_contradiction_rate)}</td><td>{_fmt(s.continuity_score)}</td></tr>"
        for s in sessions
    )
    skipped = results.get("skipped") or []
    skipped_html = (
        f"<h2>Skipped ({len(skipped)})</h2><ul>" + "".join(f"<li>{escape(s)}</li>" for s in skipped) + "</ul>"
        if skipped
        else ""
    )
    ci = results.get("entity_recall_at_t10_ci95")
    ci_text = f" (95 % CI {ci[0]:.3f}–{ci[1]:.3f})" if ci else ""
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>contraflow replay: {escape(source)}</title>
<style>body{{font-family:system-ui,sans-serif;max-width:980px;margin:2em auto;color:#222}}
table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:4px 8px;text-align:right}}
td:first-child,th:first-child{{text-align:left}}.verdict{{font-size:1.3em;font-weight:bold}}</style></head>
<body>
<h1>Longitudinal drift report</h1>
<p>Source: <code>{escape(source)}</code> — {results["sessions_scored"]} sessions.</p>
<p class="verdict">Entity Recall@T{t} (critical): {_fmt(headline)}{ci_text} — {verdict}</p>
<ul>
<li>Recall@T{t} (extended gold set): {_fmt(results.get("entity_recall_at_t10_extended"))}</li>
<li>K_Conflict (all sampled adjacent pairs): {_fmt(results.get("knowledge_conflict_rate"))}
 — pass &lt; {settings.caution}, caution up to {settings.failure}, failure above</li>
<li>Drift slope β of the average critical recall curve: {_fmt(results.get("drift_slope"))}</li>
<li>Session goal alignment (mean, sessions with a plan): {_fmt(results.get("continuity_score"))}</li>
</ul>
<p>Recall below {gate} at T{t} means the model lost critical facts of the case (seed 003's safety gate).
Low recall with high K_Conflict is active contradiction; with low K_Conflict it is passive forgetting.</p>
{recall}
{k_chart}
{slope_chart}
<h2>Sessions</h2>
<table><tr><th>session</th><th>turns</th><th>Recall@T{t}</th><th>extended</th><th>β</th>
<th>K_Conflict</th><th>global rate</th><th>alignment</th></tr>{rows}</table>
{skipped_html}
</body></html>
"""
