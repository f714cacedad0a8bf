"""The client bench's results written out: ``client.md`` (one table row per figure, the machine
and its load), ``client.json`` and ``client.png`` (each figure beside the JSON loop, log scale)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["markdown", "plot", "write"]


def markdown(results: dict[str, Any]) -> str:
    """The section as markdown: one table row per figure."""
    lines = [f"## Client path ({results.get('plan')} run, {results.get('seconds')} s)", "",
             ("Each line's time through the real front end beside the plain JSON loop (read a line, `json.loads` "
             "it, write `{\"id\": …, \"payable\": true}` with `json.dumps`, the same pipes, no flush per line; "
             "for lines asked one at a time the same loop flushing each answer, which a line asked alone needs); "
             "phase.rs (request positioned) where it applies.  A streamed row's lines go to the batch process in "
             "consecutive parts, in their order, the loop timed on each part just before and just after it, so "
             "both are measured in the same minutes; its ratio is the sums', each part's ratio listed."), "",
             ("Board families: `commander` and `sixty` are boards sampled from games of the real decks of "
             "`data/decks/` (`benchmarks/deck_boards.py`: turns 4-10 and 2-8, an opponent's board beside, ids "
             "fresh on every line, `x` on a quarter of the lines, the cost a card of the hand with its `spell`; "
             "the cards of other games of the same decks read first); `generator` is "
             "`benchmarks/boards.py`'s 40-permanent Commander board."), "",
             _machine_line(results), "",
             ("| figure | n | per line / median | p99 | lines or requests per s | JSON loop | × JSON loop | "
             "phase.rs | target | met | checks |"), "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results.get("rows", []):
        if "status" in r:
            lines.append(f"| {r['figure']} | | | | | | | | | | {r['status']}: {r.get('message', '')} |")
            continue
        per = r.get("per_line_ms", r.get("median_ms", ""))
        if "seconds" in r:
            per = f"{r['seconds']} s"
        rate = r.get("lines_per_s", r.get("requests_per_s", ""))
        checks = ", ".join(f"{k} {r[k]}" for k in ("errors", "unsupported", "invalid", "payable", "mismatches",
                                                     "differ_from_in_process", "failed", "time_bound_hits",
                                                     "complete", "cpu_median_ms") if k in r)
        if r.get("part_ratios"):
            checks += f", part ratios {' / '.join(f'{x:g}' for x in r['part_ratios'])}"
        phase = f"{r['phase_ms']} ms ({r['phase_ratio']}×)" if "phase_ms" in r else ""
        lines.append(f"| {r['figure']} | {r.get('lines', r.get('requests', r.get('n', '')))} | {per} | "
                     f"{r.get('p99_ms', '')} | {rate} | {r.get('json_loop_ms', '')} | "
                     f"{r.get('ratio_to_json_loop', '')} | {phase} | {r.get('target', '')} | {r.get('met', '')} | "
                     f"{checks} |")
    c = results.get("cold_start") or {}
    if c:
        lines.append(f"| {c['figure']} | {c['runs']} | {c['median_s']} s (min {c['min_s']}) | | | "
                     f"{c['bare_python_json_s']} s (bare interpreter) | | | {c['target']} | {c['met']} | "
                     f"answer ok {c['answer_ok']} |")
    lines += ["", f"phase.rs on fresh boards: `{json.dumps(results.get('phase'))}`", ""]
    return "\n".join(lines) + "\n"


def _machine_line(results: dict[str, Any]) -> str:
    """The machine and its load during the run (a shared machine's figures move with its load)."""
    m = results.get("machine", {})
    return (f"Machine: {m.get('cpu')}, {m.get('cores')} cores, Python {m.get('python')}, {m.get('date')}; "
            f"load average {m.get('load_average')} at the start, {results.get('load_average_end')} at the end; "
            f"sections run: {', '.join(results.get('sections', []))}.")


def plot(results: dict[str, Any], out: Path) -> Path | None:
    """``client.png``: each figure's time a line beside the JSON loop's (log scale)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception:  # noqa: BLE001 - no plot without matplotlib
        return None
    rows = [r for r in results.get("rows", []) if r.get("per_line_ms") or r.get("median_ms")]
    if not rows:
        return None
    labels = [r["figure"] for r in rows]
    ours = [float(r.get("per_line_ms") or r.get("median_ms")) for r in rows]
    loop = [float(r.get("json_loop_ms") or 0) for r in rows]
    fig, ax = plt.subplots(figsize=(9, 0.42 * len(rows) + 1.2))
    y = list(range(len(rows)))
    ax.barh([i + 0.2 for i in y], ours, height=0.4, label="manasolver")
    ax.barh([i - 0.2 for i in y], loop, height=0.4, label="plain JSON loop")
    ax.set_yticks(y, labels, fontsize=7)
    ax.set_xscale("log")
    ax.set_xlabel("milliseconds a line (log)")
    ax.legend(fontsize=8)
    ax.set_title("client path", fontsize=10)
    fig.tight_layout()
    path = out / "client.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def write(results: dict[str, Any], out: Path, plots: bool = True) -> list[Path]:
    """``client.json``, ``client.md`` and (with ``plots``) ``client.png`` into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "client.json", out / "client.md"]
    paths[0].write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    paths[1].write_text(markdown(results), encoding="utf-8")
    png = plot(results, out) if plots else None
    return paths + ([png] if png else [])
