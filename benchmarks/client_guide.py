"""The client benchmark's ``guide`` section: a click of a manual payment, as a client asks it.

``python -m manasolver.benchmarks.client --only guide`` runs it (:func:`guide_rows`): ``guide`` in
process on the bundled Commander board kept in a session (``benchmarks/guide_speed.py``'s clicks)
and on boards sampled from games of the real decks (:mod:`~manasolver.benchmarks.deck_boards`),
each paid by hand along ``pay``'s own payment, every answer checked (each prefix completable, the
next activation among those lit).  Wall and CPU medians are reported beside each other: on a shared
machine the wall time measures the load as much as the answer.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from manasolver.benchmarks import deck_boards as db
from manasolver.benchmarks.cases import ms, percentile

__all__ = ["TARGET_GUIDE_MS", "guide_rows"]


def _stats(samples: list[float]) -> dict[str, Any]:
    if not samples:
        return {"n": 0}
    return {"n": len(samples), "median_ms": ms(statistics.median(samples)), "p99_ms": ms(percentile(samples, 99)),
            "max_ms": ms(max(samples))}


#: The target of a ``guide`` answer (one click of a manual payment).
TARGET_GUIDE_MS = 5.0
#: Deck boards of each family the ``guide`` rows pay by hand (quick run: a few).
_GUIDE_BOARDS = {"quick": 8, "full": 60}


def guide_rows(plan: str, log: Callable[[str], None]) -> list[dict[str, Any]]:
    """``guide`` in process, as a client asks it at each click of a manual payment: on the
    bundled Commander board kept in a session (``benchmarks/guide_speed.py``'s clicks), and on
    deck boards (:mod:`~manasolver.benchmarks.deck_boards`), each paid by hand along ``pay``'s
    own payment: before each of its activations (and after the last) ``guide`` with the ones
    made so far.  Checked: every prefix of ``pay``'s payment is completable, and each
    activation made next was among those ``guide`` lit."""
    from manasolver.benchmarks.guide_speed import measure
    from manasolver.solver.service.protocol import answer
    clicks = measure(10 if plan == "quick" else 50)
    times = [w for row in clicks for w in row["wall"]]
    cpu = [c for row in clicks for c in row["cpu"]]
    row: dict[str, Any] = {"figure": "guide, bundled Commander board in a session", "query": "guide",
                           "board": "example:commander", **_stats(times), "cpu_median_ms": ms(statistics.median(cpu)),
                           "target": f"median ≤ {TARGET_GUIDE_MS:g} ms"}
    row["met"] = row["median_ms"] <= TARGET_GUIDE_MS
    rows = [row]
    log(f"client: {row['figure']}: median {row['median_ms']} ms (CPU {row['cpu_median_ms']} ms), "
        f"p99 {row['p99_ms']} ms")
    for kind in ("commander", "sixty"):
        times, cpu, bad, unsupported, paid = [], [], 0, 0, 0
        for line in db.lines(kind, "pay", _GUIDE_BOARDS.get(plan, 8), 53):
            q = json.loads(line)
            q.pop("id", None)
            got = answer(q)
            if not got.get("payable"):
                continue
            paid += 1
            acts = [{"permanent": a["permanent"], "ability": a["ability"], "mana": a["mana"]}
                    for a in got["payment"]["activations"] if "permanent" in a and int(a.get("times", 1)) == 1]
            for n in range(len(acts) + 1):
                ask = {**q, "query": "guide", "partial": acts[:n]}
                t0, c0 = time.perf_counter(), time.process_time()
                out = answer(ask)
                times.append(time.perf_counter() - t0)
                cpu.append(time.process_time() - c0)
                if "error" in out:
                    unsupported += out["error"]["code"] == "unsupported"
                    bad += out["error"]["code"] != "unsupported"
                    break
                lit = {(e["permanent"], e["ability"], e["mana"]) for e in out["next"]}
                if not out["completable"] or (n < len(acts) and (acts[n]["permanent"], acts[n]["ability"],
                                                                   acts[n]["mana"]) not in lit):
                    bad += 1
        drow: dict[str, Any] = {"figure": f"guide, {kind} deck boards paid by hand along pay's payment",
                                "query": "guide", "board": kind, **_stats(times), "payable": paid,
                                "cpu_median_ms": ms(statistics.median(cpu)) if cpu else None,
                                "errors": bad, "unsupported": unsupported,
                                "target": f"median ≤ {TARGET_GUIDE_MS:g} ms, every prefix completable and lit"}
        drow["met"] = bool(times) and drow["median_ms"] <= TARGET_GUIDE_MS and bad == 0
        rows.append(drow)
        log(f"client: {drow['figure']}: median {drow.get('median_ms')} ms over {len(times)} clicks, "
            f"{bad} wrong, {unsupported} refused")
    return rows
