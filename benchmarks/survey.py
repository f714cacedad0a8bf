"""The survey of the whole card pool: every permanent card beside three basics, ``pay {1}{G}``.

Run as ``python benchmarks/survey.py [--limit N] [--list] [--history]``.  For every card of the bundled card
data whose front face is a permanent (artifact, battle, creature, enchantment, land,
planeswalker; silver-bordered cards the database can't build are skipped and counted), it asks
the JSON protocol ``pay`` for ``{1}{G}`` on a board of that card beside an untapped Plains,
Island and Forest, and counts the answers:

* **refused**: an ``error`` answer (``unsupported``, or any other code), by code;
* **left out**: a payable answer that lists sources under ``unsupported`` (left out of the
  supply: the payment is legal but may not be the best);
* **answered**: the rest; of them, **named uncertain**: answers that name a source whose mana
  depends on chance, another player's choice (Rhystic Cave) or a hidden card (Mul Daya Channelers
  beside a library given without its top card), counted as the least it gives.

Every payable answer is given back to ``validate``, which must call it legal (a count of the
ones it doesn't is printed: it must be 0).  With ``--list`` the refused and left-out cards are
printed with the message, grouped by message with the card's name as ``~``.  The issue's goal:
at most 10 refused or left out in all.

With ``--history`` the board also gives the history fields a game client's board would: the
player's ``lands_played_this_turn``, ``spells_cast_this_turn``, ``life_gained_this_turn`` and
``cards_drawn_this_turn`` (0 each), ``designations`` (none) and ``library`` (40 cards, none of them
known; the opponent's too), and the card's ``imprinted`` (nothing exiled with it), ``entered_this_turn`` and
``renowned`` (false).  The plain board leaves them out, so a card whose mana reads a missing field
is refused naming it.  Silver-bordered cards (``funny`` in the card data) are left aside and counted.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from typing import Any

from manasolver.models.carddb import default_db
from manasolver.solver.service.protocol import answer

PERMANENT_TYPES = frozenset({"artifact", "battle", "creature", "enchantment", "land", "planeswalker"})
COST = "{1}{G}"


def board(name: str, history: bool = False) -> dict[str, Any]:
    """The survey's board of card ``name``: the card and three basics, all untapped; with
    ``history``, the board's history fields given (see the module docstring)."""
    cards = [name, "Plains", "Island", "Forest"]
    you: dict[str, Any] = {"name": "you"}
    perms: list[dict[str, Any]] = [{"id": f"p{i}", "card": c} for i, c in enumerate(cards)]
    if history:
        you.update(lands_played_this_turn=0, spells_cast_this_turn=0, life_gained_this_turn=0,
                   cards_drawn_this_turn=0, designations=[], library={"size": 40})
        perms[0].update(imprinted=[], entered_this_turn=False, renowned=False)
        return {"players": [you, {"name": "opponent", "library": {"size": 40}}], "battlefield": perms}
    return {"players": [you, {"name": "opponent"}], "battlefield": perms}


def survey(limit: int | None = None, history: bool = False) -> dict[str, Any]:
    """Counts of the survey (see the module docstring), with the refused and left-out cards."""
    db = default_db()
    counts: Counter[str] = Counter()
    refused: dict[str, list[str]] = defaultdict(list)
    left_out: dict[str, list[str]] = defaultdict(list)
    uncertain: dict[str, str] = {}
    illegal: list[str] = []
    for name in db.names():
        try:
            card = db.get(name)
        except ValueError:
            counts["not built"] += 1
            continue
        if not PERMANENT_TYPES & set(card.type_line.types):
            continue
        record = db.record(name)
        if record is not None and record.get("funny"):
            counts["funny"] += 1  # silver-bordered: may be refused whole
            continue
        if limit is not None and counts["permanents"] >= limit:
            break
        counts["permanents"] += 1
        state = board(card.name, history)
        out = answer({"query": "pay", "state": state, "cost": COST})
        if "error" in out:
            counts["refused"] += 1
            counts["refused: " + out["error"]["code"]] += 1
            refused[out["error"]["message"].replace(card.name, "~")].append(card.name)
            continue
        if out.get("unsupported"):
            counts["left out"] += 1
            why = "; ".join(u["reason"] for u in out["unsupported"])
            left_out[why.replace(card.name, "~")].append(card.name)
        else:
            counts["answered"] += 1
        if out.get("uncertain"):
            counts["named uncertain"] += 1
            uncertain[card.name] = "; ".join(u["reason"] for u in out["uncertain"])
        if out.get("payable"):
            check = answer({"query": "validate", "state": state, "cost": COST, "payment": out["payment"]})
            if not check.get("legal"):
                illegal.append(card.name)
    counts["validate says illegal"] = len(illegal)
    return {"counts": counts, "refused": refused, "left_out": left_out, "uncertain": uncertain, "illegal": illegal}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--limit", type=int, default=None, help="stop after this many permanents")
    parser.add_argument("--list", action="store_true", help="print the refused and left-out cards")
    parser.add_argument("--history", action="store_true",
                        help="give the board's history fields (0, none, a library of 40 unknown cards)")
    args = parser.parse_args(argv)
    result = survey(args.limit, args.history)
    counts = result["counts"]
    for key in ("permanents", "answered", "named uncertain", "refused", "left out", "validate says illegal",
                "not built", "funny"):
        print(f"{key}: {counts[key]}")
    for key in sorted(k for k in counts if k.startswith("refused: ")):
        print(f"  {key}: {counts[key]}")
    print(f"refused or left out: {counts['refused'] + counts['left out']}")
    if args.list:
        for title, groups in (("refused", result["refused"]), ("left out", result["left_out"])):
            print(f"\n## {title}")
            for why, names in sorted(groups.items(), key=lambda kv: -len(kv[1])):
                print(f"- {len(names)}: {why[:200]}\n    {', '.join(sorted(names)[:12])}"
                      + (" …" if len(names) > 12 else ""))
        if result["uncertain"]:
            print("\n## answered, named uncertain")
            for name, why in sorted(result["uncertain"].items()):
                print(f"- {name}: {why[:200]}")
        if result["illegal"]:
            print("\n## validate says illegal\n" + ", ".join(result["illegal"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
