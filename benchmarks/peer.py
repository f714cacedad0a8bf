"""Our cases through phase.rs, the peer engine: its castability check and autotapped cast.

:func:`peer_subset` picks the cases of a plan that phase.rs runs too (every refusal case of
phase.rs's autotapper and the first few of each size); :func:`measure_phase` positions each in phase.rs
(:mod:`manasolver.benchmarks.phase_driver`), boards over 300 permanents in a forked child stopped
after a time bound; :func:`disagreements` lists where the two engines differ on payability.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from manasolver.benchmarks import boards as bd
from manasolver.benchmarks.cases import Case, Plan, ms

__all__ = ["disagreements", "measure_phase", "peer_subset"]


def _peer_cards(cases: list[Case]) -> list[Any]:
    from manasolver.models.carddb import default_db
    from manasolver.benchmarks.phase_driver import PeerCard

    db = default_db()
    out = [PeerCard("Treasure", "", "Artifact — Treasure",
                    "{T}, Sacrifice this artifact: Add one mana of any color.")]
    seen = {"Treasure"}
    for case in cases:
        for name in bd.board_cards(case.board):
            if name in seen:
                continue
            seen.add(name)
            rec = db.record(name)  # the printed record, as phase.rs would read it from MTGJSON
            if rec is None:
                continue
            out.append(PeerCard(str(rec["name"]), str(rec.get("mana_cost") or ""), str(rec.get("type_line", "")),
                                str(rec.get("oracle_text", "")), tuple(rec.get("colors") or ()),
                                rec.get("power"), rec.get("toughness")))
    return out


def _phase_one(driver: Any, case: Case) -> dict[str, Any]:
    """Position one case in phase.rs, time its castability check and its autotapped cast."""
    from manasolver.benchmarks.phase_driver import PeerPermanent

    board = [PeerPermanent(p["card"], bool(p.get("tapped")), bool(p.get("sick")))
             for p in case.board["battlefield"]]
    you = case.board["players"][0]
    life = int(you.get("life", 20))
    try:
        pos = driver.position(board, case.cost, life=life, commander=tuple(you.get("commander", ())))
    except Exception as exc:  # noqa: BLE001 - a peer failure is recorded, never fatal
        return {"error": f"{type(exc).__name__}: {exc}"}
    repeats = 5 if case.size <= 40 else (2 if case.size <= 300 else 1)
    offered, raw, delta = driver.castable(pos, repeats=repeats)
    cast_ok, cast_s, tapped, floating = driver.cast(pos) if offered else (False, 0.0, [], 0)
    return {"castable": offered, "check_ms": ms(delta), "check_raw_ms": ms(raw),
            "cast_ok": cast_ok, "cast_ms": ms(cast_s) if offered else None,
            "tapped": len(tapped), "floating": floating}


def _phase_child(driver: Any, case: Case, queue: Any) -> None:
    queue.put(_phase_one(driver, case))


def _phase_bounded(driver: Any, case: Case, timeout: float) -> dict[str, Any]:
    """:func:`_phase_one` in a forked child process, stopped after ``timeout`` seconds:
    phase.rs's native calls cannot be interrupted otherwise."""
    import multiprocessing as mp

    ctx = mp.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_phase_child, args=(driver, case, queue), daemon=True)
    child.start()
    try:
        result: dict[str, Any] = queue.get(timeout=timeout)
    except Exception:  # noqa: BLE001 - queue.Empty: the peer ran past its bound
        result = {"error": f"phase.rs did not finish within {timeout:.0f} s (stopped)", "timeout": True}
    child.join(1.0)
    if child.is_alive():
        child.terminate()  # our own child, by its handle
        child.join(5.0)
    return result


def measure_phase(cases: list[Case], log: Callable[[str], None], timeout: float = 150.0) -> str | None:
    """Run the cases through phase.rs; returns why it was skipped, or ``None``.
    Boards of more than 300 permanents run in a child process stopped after ``timeout`` s."""
    from manasolver.benchmarks.phase_driver import PhaseDriver, phase_missing

    missing = phase_missing()
    if missing:
        return missing
    driver = PhaseDriver(_peer_cards(cases), [c.cost for c in cases])
    for case in cases:
        bounded = case.size > 300 and sys.platform != "win32"
        case.phase = _phase_bounded(driver, case, timeout) if bounded else _phase_one(driver, case)
        log(f"  phase.rs {case.label} {case.cost[:40]}: {case.phase}")
    if driver.skipped:
        log(f"  phase.rs could not build: {driver.skipped}")
    return None


def disagreements(cases: list[Case]) -> list[dict[str, Any]]:
    """Cases where phase.rs and manasolver differ on payability (or phase.rs offers a cast it
    then fails to pay)."""
    out = []
    for c in cases:
        if c.phase is None or "error" in c.phase or c.payable is None:
            continue
        if c.phase["castable"] != c.payable or (c.phase["castable"] and not c.phase["cast_ok"]):
            out.append({"board": c.label, "cards": bd.board_cards(c.board) if c.size <= 10 else
                        f"{c.size} permanents", "cost": c.cost, "manasolver": c.payable,
                        "phase_castable": c.phase["castable"], "phase_cast_ok": c.phase["cast_ok"]})
    return out


def peer_subset(cases: list[Case], plan: Plan) -> list[Case]:
    out: list[Case] = []
    taken: dict[int, int] = {}
    for case in cases:
        if case.kind == "refusal":
            out.append(case)
        elif taken.get(case.size, 0) < plan.phase_cases.get(case.size, 0):
            taken[case.size] = taken.get(case.size, 0) + 1
            out.append(case)
    return out
