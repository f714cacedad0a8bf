"""A snapshot of the engine's answers, to compare two versions of the code.

``python -m manasolver.benchmarks.answers --out FILE`` asks every query kind on the
bundled example boards, every ``pay``/``can_pay`` of the full benchmark plan's
cases and of boards sampled from games of the real decks
(:mod:`~manasolver.benchmarks.deck_boards`) through
:func:`manasolver.solver.service.protocol.answer`, and writes the answers as JSON lines; ``--compare
FILE`` asks again and prints each answer that differs. A change that should keep behaviour (a move,
a split, a faster path) must compare equal. Answers that a time bound cut short are machine-
dependent: an optimum is compared only on its payability (and one cut short now but not in the
snapshot is listed apart, as ``CUT SHORT``), a cut-short enumeration only on being incomplete.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import Any

__all__ = ["main", "queries", "snapshot"]

_COSTS = ("{2}{W/U}{B/P}", "{X}{G}{G}", "{1}{B/P}{B/P}", "{W}{W}{W}", "{2/W}{2/U}", "{C}", "{G}",
          "{5}{R}{R}", "{U}{U}{R}{R}", "{W}{U}{B}{R}{G}", "{X}{X}{R}")
_EXAMPLES = ("commander", "reaper", "pools", "phyrexian", "filters", "basics")


def queries() -> Iterator[tuple[str, dict[str, Any]]]:
    """Every (label, query) of the snapshot, in a fixed order."""
    from manasolver.solver.service.demo import QUESTIONS, example_state

    for i, (board, _title, query) in enumerate(QUESTIONS):
        yield f"demo-{i}", {**query, "state": example_state(board)}
    for name in _EXAMPLES:
        state = example_state(name)
        yield f"{name}-could_produce", {"query": "could_produce", "state": state}
        yield f"{name}-counts", {"query": "counts", "state": state}
        for cost in _COSTS:
            for kind in ("pay", "can_pay"):
                yield f"{name}-{kind}-{cost}", {"query": kind, "state": state, "cost": cost}
            if "X" in cost:
                yield f"{name}-max_x-{cost}", {"query": "max_x", "state": state, "cost": cost}
            else:
                yield f"{name}-payments-{cost}", {"query": "payments", "state": state, "cost": cost,
                                                  "limit": 25}
            for policy in (["min_life", "min_sources"], ["keep_colors"], ["min_waste", "use_pool"]):
                yield f"{name}-pay-{cost}-{policy}", {"query": "pay", "state": state, "cost": cost,
                                                      "policy": policy}
    for cost in ("{W}{U}", "{5}", "{G}{G}{G}"):
        yield f"commander-options-{cost}", {"query": "options", "state": example_state("commander"),
                                             "cost": cost}
    yield from _bench_cases()
    yield from _deck_cases()


def _bench_cases() -> Iterator[tuple[str, dict[str, Any]]]:
    from manasolver.benchmarks.cases import FULL, make_cases

    for i, case in enumerate(make_cases(FULL)):
        for kind in ("pay", "can_pay"):
            yield f"bench-{i}-{case.label}-{kind}-{case.cost}", {"query": kind, "state": case.board,
                                                                  "cost": case.cost}


#: Boards sampled from games of the real decks, per family, each asked ``pay`` and ``can_pay``: the
#: game model without the turn's history fields, as the snapshots compared against were taken.
DECK_LINES = 150


def _deck_cases() -> Iterator[tuple[str, dict[str, Any]]]:
    from manasolver.benchmarks.deck_boards import FAMILIES, query

    for family in FAMILIES:
        for i in range(DECK_LINES):
            line = query(family, "pay", 900_000 + i, history=False)
            for kind in ("pay", "can_pay"):
                yield f"deck-{family}-{i}-{kind}", {**line, "query": kind}


def _canonical(result: dict[str, Any]) -> dict[str, Any]:
    """What must stay equal: all of an answer, but for one a bound cut short (its payability)."""
    if result.get("time_bound"):
        return {"time_bound": True, "payable": result.get("payable")}
    if result.get("complete") is False:
        return {"complete": False}
    return result


def snapshot() -> Iterator[tuple[str, dict[str, Any]]]:
    """(label, answer) for every query of :func:`queries`."""
    from manasolver.solver.service.protocol import answer

    for label, query in queries():
        yield label, _canonical(answer(query))


def main(argv: list[str] | None = None) -> int:
    """Write (``--out``) or compare (``--compare``) the snapshot; exit 1 on a difference."""
    parser = argparse.ArgumentParser(prog="answers", description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--out", help="write the snapshot to this file")
    group.add_argument("--compare", help="compare with the snapshot in this file")
    args = parser.parse_args(argv)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            for n, (label, result) in enumerate(snapshot(), 1):
                fh.write(json.dumps({"label": label, "answer": result}, sort_keys=True) + "\n")
        print(f"{n} answers written to {args.out}")
        return 0
    with open(args.compare, encoding="utf-8") as fh:
        before = {row["label"]: row["answer"] for row in map(json.loads, fh)}
    kinds: dict[str, list[str]] = {kind: [] for kind in _KINDS}
    seen = 0
    cut_short: list[str] = []
    for label, result in snapshot():
        seen += 1
        old = before.get(label)
        old = _canonical(old) if isinstance(old, dict) else old
        new = json.loads(json.dumps(result, sort_keys=True))
        if new == old:
            continue
        if result.get("time_bound") and isinstance(old, dict) and old.get("payable") == result.get("payable"):
            cut_short.append(label)  # the bound cut it short here only: compared on payability
            continue
        kind = difference(old, new)
        kinds[kind].append(label)
        print(f"{kind.upper()} {label}\n  before: {json.dumps(old)[:600]}\n  after:  {json.dumps(result)[:600]}")
    for label in cut_short:
        print(f"CUT SHORT {label}: a time bound stopped it here, not in the snapshot (payability equal)")
    missing = len(set(before) - {label for label, _ in queries()})
    differ = sum(map(len, kinds.values()))
    print(f"{seen} answers compared: {differ} differ, {len(cut_short)} cut short by a time bound here only "
          f"(a loaded machine, or a slower path), {missing} of the snapshot not asked")
    for kind, labels in kinds.items():
        print(f"  {kind}: {len(labels)}" + (f" ({', '.join(labels)})" if labels and kind != "answered now" else ""))
    return 1 if kinds["changed"] or missing else 0


#: The kinds of a difference (:func:`difference`), in the order the summary lists them.
_KINDS = ("tie", "answered now", "refusal reworded", "format", "changed")


def _refused(answer: Any) -> bool:
    return isinstance(answer, dict) and ("unsupported" in answer or "error" in answer) and "payment" not in answer


def _same_spending(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Whether two payments spend the same, whichever symbol each mana paid: the same activations (as
    a multiset) and the same life, energy, damage, pool and cards convoked, delved or improvised, of
    the fields both write (an older snapshot writes fewer)."""
    def acts(pay: dict[str, Any]) -> list[str]:
        return sorted(json.dumps(a, sort_keys=True) for a in pay.get("activations", []))
    shared = ("total", "x", "pool_used", "life", "energy", "damage", "floating", "convoked", "delved", "improvised")
    return acts(old) == acts(new) and all(old[k] == new[k] for k in shared if k in old and k in new)


def difference(old: Any, new: dict[str, Any]) -> str:
    """The kind of a difference between a snapshot's answer ``old`` and the answer ``new``: ``tie`` (the
    same payability, and for a payment the same activations, life, energy and pool, the symbols each
    paid matched otherwise), ``answered now`` (a refusal before, an answer now), ``refusal reworded``,
    ``format`` (an enumeration cut short by its bound, written in an older form) or ``changed``."""
    if _refused(old):
        return "refusal reworded" if _refused(new) else "answered now"
    if isinstance(old, dict) and old.get("time_bound") and old.get("payable") is None and new.get("complete") is False:
        return "format"
    if not isinstance(old, dict) or _refused(new) or old.get("payable") != new.get("payable"):
        return "changed"
    if isinstance(old.get("payment"), dict) and isinstance(new.get("payment"), dict) \
            and _same_spending(old["payment"], new["payment"]):
        return "tie"
    return "changed"


if __name__ == "__main__":
    sys.exit(main())
