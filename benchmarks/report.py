"""Summaries, the machine, the markdown table and the plots of ``manasolver bench``.

:func:`figures` turns measured cases into the performance figures (median, 99th
percentile, the target, and phase.rs's figure with the ratio of medians on the
same cases); :func:`write` saves ``results.json``, ``results.md`` and one PNG
per figure (matplotlib when installed, else a hand-written SVG bar chart).
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

from manasolver.benchmarks.cases import Case, ms, percentile
from manasolver.benchmarks.machine import machine

__all__ = ["TARGETS", "checks", "figures", "machine", "markdown", "quality", "write"]

#: The targets per figure: (median ms, p99 ms, minimum ratio phase.rs/manasolver).
TARGETS: dict[str, tuple[float | None, float | None, float | None]] = {
    "can_pay 40": (0.05, None, 20.0),
    "pay 40": (1.0, 10.0, 2.0),
    "pay 300": (2.0, 15.0, None),
    "pay 1000": (5.0, None, None),
}


def _summary(samples: list[float], cpu: list[float] | None = None) -> dict[str, Any]:
    if not samples:
        return {"n": 0}
    out = {"n": len(samples), "median_ms": ms(statistics.median(samples)),
           "p99_ms": ms(percentile(samples, 99)), "max_ms": ms(max(samples))}
    if cpu:
        out["cpu_median_ms"] = ms(statistics.median(cpu))
        out["cpu_p99_ms"] = ms(percentile(cpu, 99))
    return out


def figures(cases: list[Case], peer_cases: list[Case]) -> dict[str, dict[str, Any]]:
    """The latency figures per size, with phase.rs beside them.

    The ratio is phase.rs's median over manasolver's median *on the same
    cases* (the phase.rs subset), so a cheap cost mix on one side cannot flatter it.
    """
    out: dict[str, dict[str, Any]] = {}
    sizes = sorted({c.size for c in cases if c.kind != "refusal"})
    peer_ids = {id(c) for c in peer_cases}
    for op in ("can_pay", "pay"):
        for size in sizes:
            mine = [c for c in cases if c.size == size and c.kind != "refusal"]
            samples = [s for c in mine for s in (c.can_pay_s if op == "can_pay" else c.pay_s)]
            cpu = [s for c in mine for s in (c.can_pay_cpu if op == "can_pay" else c.pay_cpu)]
            fig: dict[str, Any] = _summary(samples, cpu)
            kinds = sorted({c.kind for c in mine})
            if len(kinds) > 1:
                fig["by_kind"] = {k: _summary([s for c in mine if c.kind == k
                                               for s in (c.can_pay_s if op == "can_pay" else c.pay_s)])
                                  for k in kinds}
            key = "check_ms" if op == "can_pay" else "cast_ms"
            pairs: list[tuple[float, float]] = []
            for c in mine:
                ph = c.phase
                ours = c.can_pay_s if op == "can_pay" else c.pay_s
                if id(c) not in peer_ids or not ph or "error" in ph or ph.get(key) is None or not ours:
                    continue
                if op == "pay" and not ph.get("cast_ok"):
                    continue
                pairs.append((float(ph[key]), statistics.median(ours)))
            stopped = [c for c in mine if id(c) in peer_ids and c.phase and c.phase.get("timeout")]
            if stopped:
                fig["phase_stopped"] = len(stopped)
            phase_ms = [p for p, _ in pairs]
            if pairs:
                fig["phase_n"] = len(pairs)
                fig["phase_median_ms"] = round(statistics.median(phase_ms), 4)
                fig["ours_on_phase_cases_median_ms"] = ms(statistics.median([o for _, o in pairs]))
                fig["ratio"] = round(fig["phase_median_ms"] / max(1e-6, fig["ours_on_phase_cases_median_ms"]), 3)
            name = f"{op} {size}"
            target = TARGETS.get(name)
            if target and samples:
                med, p99, ratio = target
                fig["target"] = {"median_ms": med, "p99_ms": p99, "ratio": ratio}
                met = fig["median_ms"] <= med if med is not None else True
                if p99 is not None:
                    met = met and fig["p99_ms"] <= p99
                if ratio is not None and "ratio" in fig:
                    met = met and fig["ratio"] >= ratio
                fig["met"] = met
            fig["_samples"] = samples
            fig["_cpu_samples"] = cpu
            fig["_phase_samples"] = [m / 1000.0 for m in phase_ms]
            out[name] = fig
    return out


def quality(cases: list[Case]) -> dict[str, Any]:
    """How the two engines' payments compare where both paid: permanents tapped and mana
    left floating (produced and not spent) — phase.rs's heuristic against our optimum."""
    both = [c for c in cases if c.payable and c.tapped is not None and c.phase and c.phase.get("cast_ok")]
    if not both:
        return {"cases": 0}
    phase_waste = [c for c in both if c.phase and c.phase["floating"] > (c.floating or 0)]
    return {
        "cases": len(both),
        "tapped_mean": {"manasolver": round(statistics.mean(c.tapped or 0 for c in both), 2),
                        "phase.rs": round(statistics.mean(c.phase["tapped"] for c in both if c.phase), 2)},
        "floating_mean": {"manasolver": round(statistics.mean(c.floating or 0 for c in both), 2),
                          "phase.rs": round(statistics.mean(c.phase["floating"] for c in both if c.phase), 2)},
        "phase_wastes_more": len(phase_waste),
        "examples": [{"board": c.label, "cost": c.cost, "manasolver_tapped": c.tapped,
                      "manasolver_floating": c.floating, "phase_tapped": c.phase["tapped"],
                      "phase_floating": c.phase["floating"]} for c in phase_waste[:5] if c.phase],
    }


def checks(cases: list[Case], slow_ms: float) -> dict[str, Any]:
    """Answer checks: errors, validation, agreement, time bounds, silent slow queries."""
    measured = [c for c in cases if c.payable is not None]
    skipped = [c for c in cases if c.skipped]
    errors = [c for c in cases if c.error]
    invalid = [c for c in measured if c.valid is False]
    problems = [c for c in measured if c.problems]
    slow = [c for c in measured if not c.time_bound and max(c.can_pay_s + c.pay_s, default=0) * 1000 > slow_ms]
    slow_cpu = [c for c in measured if not c.time_bound
                and max(c.can_pay_cpu + c.pay_cpu, default=0) * 1000 > slow_ms]
    return {
        "cases": len(cases), "answered": len(measured),
        "skipped_for_time_budget": len(skipped),
        "payable": sum(1 for c in measured if c.payable), "unpayable": sum(1 for c in measured if not c.payable),
        "validated": sum(1 for c in measured if c.valid), "validate_unavailable":
            sum(1 for c in measured if c.payable and c.valid is None),
        "invalid": len(invalid), "with_problems": len(problems),
        "problems": [{"board": c.label, "cost": c.cost, "problems": c.problems[:3]} for c in problems[:10]],
        "errors": len(errors),
        "error_samples": sorted({c.error or "" for c in errors})[:10],
        "time_bound_hits": sum(1 for c in measured if c.time_bound),
        "over_50ms_without_time_bound": len(slow),
        "over_50ms_cpu_without_time_bound": len(slow_cpu),
        "slow_samples": [{"board": c.label, "cost": c.cost, "max_ms": ms(max(c.can_pay_s + c.pay_s)),
                          "max_cpu_ms": ms(max(c.can_pay_cpu + c.pay_cpu))}
                         for c in sorted(slow, key=lambda c: -max(c.can_pay_cpu + c.pay_cpu))[:10]],
        "failed_checks": len(invalid) + len(problems),
    }


def _fmt(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def _stopped(fig: dict[str, Any]) -> str:
    n = fig.get("phase_stopped")
    return f" ({n} case{'s' if n > 1 else ''} stopped at the time bound)" if n else ""


def markdown(results: dict[str, Any]) -> str:
    """The results as a markdown report."""
    m = results["machine"]
    lines = [f"# manasolver benchmarks ({results.get('plan', '')} run)", "",
             (f"Machine: {m['cpu']}, {m['cores']} cores, load average {m['load_average']}; "
             f"Python {m['python']}; {m['date']}."),
             "Versions: " + ", ".join(f"{k} {v}" for k, v in m["versions"].items()) + ".", "",
             f"Engine: {results.get('engine')}. phase.rs: {results.get('phase')}.", "",
             "## Latency (in process, request prepared; ms)", "",
             ("| figure | n | median | p99 | max | CPU median / p99 | target | met | phase.rs median |"
              " ours on same cases | ratio |"), "|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, f in results.get("figures", {}).items():
        t = f.get("target")
        target = "" if not t else " ".join(x for x in (
            f"med ≤ {t['median_ms']}" if t["median_ms"] is not None else "",
            f"p99 ≤ {t['p99_ms']}" if t["p99_ms"] is not None else "",
            f"≥ {t['ratio']:g}× phase.rs" if t["ratio"] is not None else "") if x)
        lines.append(f"| {name} | {f.get('n', 0)} | {_fmt(f.get('median_ms'))} | {_fmt(f.get('p99_ms'))} | "
                     f"{_fmt(f.get('max_ms'))} | {_fmt(f.get('cpu_median_ms'))} / {_fmt(f.get('cpu_p99_ms'))} | "
                     f"{target} | {_fmt(f.get('met'))} | "
                     f"{_fmt(f.get('phase_median_ms'))}{_stopped(f)} | "
                     f"{_fmt(f.get('ours_on_phase_cases_median_ms'))} | "
                     f"{_fmt(f.get('ratio'))} |")
        for kind, k in f.get("by_kind", {}).items():
            lines.append(f"| … {kind} costs | {k.get('n', 0)} | {_fmt(k.get('median_ms'))} | "
                         f"{_fmt(k.get('p99_ms'))} | {_fmt(k.get('max_ms'))} | | | | | | |")
    lines += ["", ("Wall-clock medians and p99 (`perf_counter`) and the CPU time of the same calls "
              "(`process_time`): on a shared machine the wall-clock tail is mostly waiting for a core. "
              "phase.rs castability is `actions()` with the spell in hand minus without it; its pay "
              "is the `CastSpell` apply with `payment_mode: Auto` and its prompts. The ratio is "
              "phase.rs's median over ours on the same cases."), ""]
    c = results.get("checks", {})
    lines += ["## Checks", "", "```", json.dumps(c, indent=1), "```", ""]
    dis = results.get("disagreements", [])
    lines += [f"## Payability disagreements with phase.rs ({len(dis)})", ""]
    lines += ["| board | cards | cost | manasolver payable | phase.rs offers cast | phase.rs cast ok |",
              "|---|---|---|---|---|---|"]
    for d in dis:
        cards = ", ".join(d["cards"]) if isinstance(d["cards"], list) else d["cards"]
        lines.append(f"| {d['board']} | {cards} | `{d['cost']}` | {d['manasolver']} | "
                     f"{d['phase_castable']} | {d['phase_cast_ok']} |")
    for key, title in (("quality", "Payments compared where both engines paid"),
                       ("batch", "Batch throughput (can_pay, each line its own 40-permanent board)"),
                       ("startup", "Command-line start-up (cold process, to answer)"),
                       ("options", "options: three Cascading Cataracts and thirty lands")):
        if key in results:
            lines += ["", f"## {title}", "", "```", json.dumps(results[key], indent=1), "```"]
    if "client" in results:
        from manasolver.benchmarks.client import markdown as client_markdown
        lines += ["", client_markdown(results["client"]).rstrip("\n")]
    return "\n".join(lines) + "\n"


def _public(results: dict[str, Any]) -> dict[str, Any]:
    out = dict(results)
    out["figures"] = {k: {kk: vv for kk, vv in v.items() if not kk.startswith("_")}
                      for k, v in results.get("figures", {}).items()}
    return out


def write(results: dict[str, Any], out: Path, plots: bool = True) -> list[Path]:
    """Write ``results.json``, ``results.md`` and the plots into ``out``; returns the paths."""
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "results.json", out / "results.md"]
    paths[0].write_text(json.dumps(_public(results), indent=1) + "\n", encoding="utf-8")
    paths[1].write_text(markdown(results), encoding="utf-8")
    if plots:
        paths += _plots(results, out)
    if "client" in results:
        from manasolver.benchmarks import client
        paths += client.write(results["client"], out, plots=plots)
    return paths


def _bars(results: dict[str, Any]) -> dict[str, tuple[str, dict[str, float], float | None]]:
    """Scalar figures as bar charts: name -> (unit, {label: value}, target)."""
    out: dict[str, tuple[str, dict[str, float], float | None]] = {}
    b = results.get("batch")
    if b:
        out["batch"] = ("answers per second", {"in process": b["in_process_per_s"],
                        "batch process": b["process_per_s"],
                        "batch process, start-up excluded": b["process_per_s_after_startup"]}, 2000.0)
    s = results.get("startup")
    if s:
        bars: dict[str, float] = {}
        for k, v in s.items():
            if isinstance(v, dict) and "median_s" in v:
                bars[f"{k} (wall)"] = v["median_s"]
                if "cpu_median_s" in v:
                    bars[f"{k} (CPU)"] = v["cpu_median_s"]
        out["startup"] = ("seconds (median, cold process)", bars, 0.2)
    o = results.get("options")
    if o and o.get("status") == "ok":
        out["options"] = ("seconds", {"options, 3 Cataracts + 30 lands": o["seconds"]}, 1.0)
    return out


def _plots(results: dict[str, Any], out: Path) -> list[Path]:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception:  # noqa: BLE001
        return _svg_plots(results, out)
    paths = []
    for name, f in results.get("figures", {}).items():
        data = {"manasolver": [s * 1000 for s in f.get("_samples", [])]}
        if not data["manasolver"]:
            continue
        if f.get("_cpu_samples"):
            data["manasolver (CPU)"] = [s * 1000 for s in f["_cpu_samples"]]
        if f.get("_phase_samples"):
            data["phase.rs"] = [s * 1000 for s in f["_phase_samples"]]
        fig, ax = plt.subplots(figsize=(6.4, 3.4))
        ax.boxplot(list(data.values()), orientation="horizontal", whis=(1, 99), showfliers=True)
        ax.set_yticks(range(1, len(data) + 1), list(data))
        ax.set_xscale("log")
        ax.set_xlabel("milliseconds (log); whiskers 1st–99th percentile")
        t = f.get("target")
        if t and t.get("median_ms"):
            ax.axvline(t["median_ms"], color="green", linestyle="--", label="median target")
            ax.legend(loc="lower right", fontsize=8)
        ax.set_title(f"{name} permanents: median {f['median_ms']:.3g} ms (CPU {f.get('cpu_median_ms', 0):.3g}),"
                     f" p99 {f['p99_ms']:.3g} ms", fontsize=10)
        fig.tight_layout()
        path = out / f"{name.replace(' ', '_')}.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        paths.append(path)
    for name, (unit, values, target) in _bars(results).items():
        fig, ax = plt.subplots(figsize=(6, 3))
        ax.barh(list(values), list(values.values()))
        if target is not None:
            ax.axvline(target, color="green", linestyle="--", label="target")
            ax.legend(loc="lower right", fontsize=8)
        ax.set_xlabel(unit)
        ax.set_title(name)
        fig.tight_layout()
        path = out / f"{name}.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        paths.append(path)
    return paths


def _svg_plots(results: dict[str, Any], out: Path) -> list[Path]:
    """Without matplotlib: one SVG bar chart per figure (median and p99, or the scalar values)."""
    charts: dict[str, tuple[str, dict[str, float], float | None]] = {}
    for name, f in results.get("figures", {}).items():
        if f.get("n"):
            vals = {"median": f["median_ms"], "p99": f["p99_ms"]}
            if "phase_median_ms" in f:
                vals["phase.rs median"] = f["phase_median_ms"]
            t = f.get("target") or {}
            charts[name.replace(" ", "_")] = ("ms", vals, t.get("median_ms"))
    charts.update(_bars(results))
    paths = []
    for name, (unit, values, target) in charts.items():
        top = max(list(values.values()) + [target or 0]) or 1.0
        rows = []
        for i, (label, v) in enumerate(values.items()):
            w = 300 * v / top
            y = 30 + 28 * i
            rows.append(f'<text x="5" y="{y + 14}" font-size="11">{label}</text>'
                        f'<rect x="190" y="{y}" width="{w:.1f}" height="18" fill="#4a7ab5"/>'
                        f'<text x="{195 + w:.1f}" y="{y + 14}" font-size="11">{v:g}</text>')
        if target:
            x = 190 + 300 * target / top
            rows.append(f'<line x1="{x:.1f}" y1="25" x2="{x:.1f}" y2="{35 + 28 * len(values)}" '
                        f'stroke="green" stroke-dasharray="4"/>')
        h = 50 + 28 * len(values)
        svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="580" height="{h}">'
               f'<text x="5" y="16" font-size="13">{name} ({unit})</text>{"".join(rows)}</svg>\n')
        path = out / f"{name}.svg"
        path.write_text(svg, encoding="utf-8")
        paths.append(path)
    return paths
