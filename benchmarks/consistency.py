"""Cross-query consistency: the engine's queries checked against one another on generated boards.

Run as ``python benchmarks/consistency.py [--boards N] [--seed S] [--seconds T] [--show] [--workers W]``
(``--cards A,B`` draws the cards beside the basics from those names only, without decklists).  Each
board is drawn from real cards: either cards of the bundled card data that have mana abilities
(weighted toward unusual text: abilities that cost mana, tap or sacrifice other permanents, pay
life, restrict their mana, depend on the board or on a condition) beside a few basics, or the
permanents of a real decklist of ``data/decks/``; every id is fresh (random), some permanents
tapped or summoning-sick, and a random cost is asked of it.  Counters of the kinds a card's
mana abilities remove (storage, charge, ki) are put on it, zero to three of each.  The properties
checked, each counted as a disagreement when it fails:

* ``options_payable``: every pool ``options`` lists (its unrestricted part) is payable as a cost;
* ``options_cover``: when ``options`` is complete, every payable cost of plain symbols is
  contained in one of its pools (unless mana is spent as though it were another type, CR 609.4b);
* ``payability``: ``can_pay`` = ``pay`` payable = ``payments`` non-empty (when complete) =
  ``plan [A]`` payable = ``max_x`` of ``{X}A`` at least 0; ``max_x`` = N means X = N payable and
  N + 1 not;
* ``monotone_x``: X payable ⇒ X − 1 payable;
* ``validate``: every ``pay`` and ``payments`` answer passes ``validate``;
* ``mutated``: the same payment with an activation dropped, or its total raised, fails it;
* ``could_produce``: every type an activation of a payment added is among the ``could_produce``
  types of its permanent;
* ``monotone_add``: an added untapped basic never makes a payable cost unpayable;
* ``monotone_remove``: a removed permanent of the player never makes an unpayable cost payable;
* ``renaming``: fresh ids change nothing in ``pay`` but the ids;
* ``order``: the battlefield reversed changes neither payability nor how good the best payment
  is (its policy score);
* ``session``: ``pay`` on a kept board (``open``) answers what it answers fresh;
* ``plan``: ``plan [A]`` answers ``pay A``'s payment;
* ``refusals``: ``pay``, ``can_pay``, ``plan`` and a complete ``payments`` all answer, or all refuse;
* ``schema``: every answer is valid against docs/schema.json.

Answers cut by the time bound (``time_bound``, ``bounded``) are not compared: they are counted
under ``time_bound`` and flagged, never called disagreements.  Each disagreement's first few
cases are kept (``--show`` prints them as JSON queries that reproduce them).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import string
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from typing import Any, TextIO

from manasolver.models.carddb import default_db
from manasolver.solver.service.protocol import answer
from manasolver.benchmarks.checkout import checkout_root

__all__ = ["PROPERTIES", "Report", "board_rng", "card_pools", "check_board", "deck_lists", "main", "random_board",
           "run", "run_parallel"]

PROPERTIES = ("options_payable", "options_cover", "payability", "monotone_x", "validate", "mutated",
              "could_produce", "monotone_add", "monotone_remove", "renaming", "order", "session", "plan",
              "refusals", "schema")

PERMANENT_TYPES = frozenset({"artifact", "creature", "enchantment", "land", "planeswalker"})
BASICS = ("Plains", "Island", "Swamp", "Mountain", "Forest", "Wastes", "Snow-Covered Forest",
          "Snow-Covered Island")
DECKS = checkout_root() / "data" / "decks"
SCHEMA = checkout_root() / "docs" / "schema.json"
_SYMBOL = re.compile(r"\{([^}]*)\}")


@dataclass
class Report:
    """Disagreements per property, how many boards each property was checked on, the cases kept."""

    boards: int = 0
    checked: Counter[str] = field(default_factory=Counter)
    failed: Counter[str] = field(default_factory=Counter)
    time_bound: int = 0
    refused: int = 0
    cases: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    keep: int = 3

    def check(self, prop: str, ok: bool, case: dict[str, Any]) -> None:
        self.checked[prop] += 1
        if not ok:
            self.failed[prop] += 1
            kept = self.cases.setdefault(prop, [])
            if len(kept) < self.keep:
                kept.append(case)

    def lines(self) -> list[str]:
        head = (f"boards: {self.boards}  (time-bounded, not compared: {self.time_bound}; "
                f"cost refused by every payment query: {self.refused})")
        out = [head]
        for prop in PROPERTIES:
            out.append(f"{prop:16s} {self.failed[prop]:6d} disagreements in {self.checked[prop]:7d} checks")
        out.append(f"total: {sum(self.failed.values())} disagreements")
        return out


# -- what boards are drawn from -----------------------------------------------------------------

def _unusual(card: Any) -> bool:
    """Text beyond "{T}: Add one mana": a cost other than {T}, a restriction, an amount, a
    reference, a condition, several mana, or anything the reader left unread."""
    if card.unsupported:
        return True
    for ab in card.mana_abilities:
        cost, prod = ab.cost, ab.production
        if (cost.mana or cost.life or cost.energy or cost.sacrifice_self or cost.sacrifice or cost.tap_creatures
                or cost.remove_counters or cost.untap or not cost.tap or ab.damage or ab.condition is not None
                or ab.per_turn or prod.restriction is not None or prod.amount is not None or prod.reference
                or prod.colors_among or prod.chosen or prod.commander or prod.doubles_pool
                or any(len(o) > 1 for o in prod.options)):
            return True
    return False


@cache
def card_pools(stride: int = 1) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(plain, unusual): the names of permanent cards with mana abilities, every ``stride``-th name
    of the card data (1: all of it, about 20 s to read)."""
    db = default_db()
    plain: list[str] = []
    unusual: list[str] = []
    for name in db.names()[::stride]:
        try:
            card = db.get(name)
        except ValueError:
            continue
        if not card.mana_abilities or not PERMANENT_TYPES & set(card.type_line.types):
            continue
        (unusual if _unusual(card) else plain).append(card.name)
    return tuple(plain), tuple(unusual)


@cache
def deck_lists() -> tuple[tuple[str, ...], ...]:
    """The permanents of every decklist of data/decks (names the card data knows)."""
    db = default_db()
    out = []
    for path in sorted(DECKS.glob("*/*.txt")):
        names = []
        for line in path.read_text(encoding="utf-8").splitlines():
            m = re.match(r"^(\d+)\s+(.+)$", line.strip())
            if not m:
                continue
            try:
                card = db.get(m.group(2))
            except ValueError:
                continue
            if PERMANENT_TYPES & set(card.type_line.types):
                names.extend([card.name] * min(int(m.group(1)), 4))
        if names:
            out.append(tuple(names))
    return tuple(out)


def _fresh(rng: random.Random, used: set[str]) -> str:
    while True:
        pid = "".join(rng.choice(string.ascii_lowercase + string.digits) for _ in range(6))
        if pid not in used and not pid.isdigit():
            used.add(pid)
            return pid


def random_board(rng: random.Random, pools: tuple[tuple[str, ...], tuple[str, ...]]) -> dict[str, Any]:
    """A board of the player (and an opponent) drawn as the module docstring says."""
    used: set[str] = set()
    plain, unusual = pools
    decks = deck_lists() if plain else ()  # cards given by name (``--cards``): no decklists
    if decks and rng.random() < 0.4:
        deck = rng.choice(decks)
        names = [rng.choice(deck) for _ in range(rng.randint(3, 8))]
    else:
        names = [rng.choice(BASICS) for _ in range(rng.randint(0, 3))]
        for _ in range(rng.randint(1, 5)):
            source = unusual if unusual and (not plain or rng.random() < 0.75) else plain
            names.append(rng.choice(source))
    perms: list[dict[str, Any]] = []
    for name in names:
        perm: dict[str, Any] = {"id": _fresh(rng, used), "card": name}
        if rng.random() < 0.12:
            perm["tapped"] = True
        if rng.random() < 0.2:
            perm["sick"] = True
        if rng.random() < 0.5:
            perm["imprinted"] = []
        counters = _counters(name, perm["id"])
        if counters:
            perm["counters"] = counters
        perms.append(perm)
    you: dict[str, Any] = {"name": "you", "life": rng.choice([20, 20, 20, 7, 3, 1])}
    if rng.random() < 0.6:
        you.update(lands_played_this_turn=rng.randint(0, 1), spells_cast_this_turn=rng.randint(0, 2),
                   life_gained_this_turn=0)
    if rng.random() < 0.15:
        you["pool"] = rng.choice(["{R}", "{G}", "{C}", "{W}{U}"])
    if rng.random() < 0.1:
        you["energy"] = rng.randint(0, 3)
    rng.shuffle(perms)
    return {"players": [you, {"name": "opp"}], "battlefield": perms}


@cache
def _removed_kinds(name: str) -> tuple[str, ...]:
    """The kinds of counter the card's mana abilities remove as a cost (storage lands, Mana Cache)."""
    kinds: list[str] = []
    for ab in default_db().get(name).mana_abilities:
        kinds.extend(k for k, _ in ab.cost.remove_counters)
        if ab.cost.remove_any:
            kinds.append(ab.cost.remove_any)
    return tuple(dict.fromkeys(kinds))


def _counters(name: str, pid: str) -> dict[str, int]:
    """Counters of the kinds a permanent's mana abilities remove, zero to three of each, drawn
    from its id (so the board's other draws stay as they were)."""
    kinds = _removed_kinds(name)
    if not kinds:
        return {}
    own = random.Random(pid)
    return {k: n for k in kinds if (n := own.randint(0, 3))}


def random_cost(rng: random.Random) -> str:
    """A cost of one to five symbols: colored and colorless mana, generic, hybrid, {2/W} and Phyrexian."""
    pick = ["{W}", "{U}", "{B}", "{R}", "{G}", "{C}", "{1}", "{2}", "{1}", "{G/W}", "{U/B}", "{2/R}",
            "{G/P}", "{B/P}", "{S}"]
    symbols = [rng.choice(pick) for _ in range(rng.randint(1, 4))]
    generic = sum(int(s[1]) for s in symbols if s[1].isdigit() and "/" not in s)
    rest = "".join(s for s in symbols if not (s[1].isdigit() and "/" not in s))
    return (f"{{{generic}}}" if generic else "") + rest


def plain_cost(rng: random.Random) -> str:
    """A cost of plain symbols only (colors and {C}): what a pool of ``options`` contains or not."""
    letters = sorted((rng.choice("WUBRGC") for _ in range(rng.randint(1, 4))), key="WUBRGC".index)
    return "".join("{" + c + "}" for c in letters)


# -- checks ---------------------------------------------------------------------------------------

@cache
def _validators() -> dict[str, Any]:
    from jsonschema import Draft202012Validator
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    return {kind: Draft202012Validator({"$ref": "#/$defs/answer." + kind, "$defs": schema["$defs"]})
            for kind in ("pay", "can_pay", "payments", "max_x", "options", "could_produce", "validate",
                         "plan", "open")}


def _counts(text: str) -> Counter[str]:
    return Counter(m for m in _SYMBOL.findall(text or ""))


def _letters(text: str) -> set[str]:
    return {m for m in _SYMBOL.findall(text or "") if m in "WUBRGC" and len(m) == 1}


def _renamed(obj: Any, mapping: dict[str, str]) -> Any:
    """``obj`` with every id of ``mapping`` replaced, in messages too (ids are six random
    characters: no other text holds them)."""
    text = json.dumps(obj)
    for old, new in mapping.items():
        text = text.replace(old, new)
    return json.loads(text)


def _bounded(out: dict[str, Any]) -> bool:
    return bool(out.get("time_bound") or out.get("bounded"))


def _refused(out: dict[str, Any]) -> bool:
    return "error" in out


def _cost_of(payment: dict[str, Any]) -> tuple[Any, ...]:
    """How good a payment is: its policy ``score`` when the answer gives one (two payments equally
    good under the policy are ties, which the board's order may break), else what it costs beyond
    the cost: life and damage, mana left floating, permanents used."""
    if payment.get("score"):
        return tuple(tuple(row) for row in payment["score"])
    return (payment["life"] + payment["damage"], sum(_counts(payment["floating"]).values()),
            len({a["permanent"] for a in payment["activations"]}))


class _Asker:
    """Asks the protocol, checking every answer against the schema."""

    def __init__(self, report: Report) -> None:
        self.report = report
        self.bounded = False

    def __call__(self, kind: str, case: dict[str, Any], **query: Any) -> dict[str, Any]:
        q = {"query": kind, **query}
        out = answer(q)
        validator = _validators().get(kind)
        if validator is not None:
            errors = sorted(validator.iter_errors(out), key=str)
            self.report.check("schema", not errors,
                              {**case, "query": q, "schema_error": str(errors[0].message) if errors else ""})
        if _bounded(out):
            self.bounded = True
        return out


def check_board(rng: random.Random, state: dict[str, Any], report: Report) -> None:
    """Every property of the module docstring on one board and a random cost."""
    ask = _Asker(report)
    cost = random_cost(rng)
    case: dict[str, Any] = {"state": state, "cost": cost}
    report.boards += 1
    pay = ask("pay", case, state=state, cost=cost)
    can = ask("can_pay", case, state=state, cost=cost)
    listed = ask("payments", case, state=state, cost=cost, limit=20)
    plan = ask("plan", case, state=state, costs=[{"cost": cost}])
    if ask.bounded:
        report.time_bound += 1
        return
    # refusals: every payment query answers, or every one refuses
    answered = [not _refused(o) for o in (pay, can, plan)]
    if not _refused(listed) and (listed.get("complete") or listed.get("payments")):
        answered.append(True)
    elif _refused(listed):
        answered.append(False)
    report.check("refusals", all(answered) or not any(answered),
                 {**case, "answered": answered, "pay": pay, "payments": listed})
    if not all(answered):
        report.refused += not any(answered)
        return
    payable = bool(pay["payable"])
    verdicts = [payable, bool(can["payable"]), bool(plan["payable"])]
    if listed.get("complete"):
        verdicts.append(bool(listed["payments"]))
    report.check("payability", len(set(verdicts)) == 1, {**case, "verdicts": verdicts})
    if payable and plan["payable"]:
        report.check("plan", plan["payments"][0] == pay["payment"],
                     {**case, "pay": pay["payment"], "plan": plan["payments"][0]})
    payments = ([pay["payment"]] if payable else []) + list(listed.get("payments", []))[:5]
    cp = ask("could_produce", case, state=state)
    for p in payments:
        _check_payment(ask, report, case, state, cost, p, cp)
    _check_max_x(ask, report, case, state, cost, payable)
    _check_options(rng, ask, report, case, state)
    _check_monotone(rng, ask, report, case, state, cost, payable)
    _check_renaming(rng, ask, report, case, state, cost, pay)
    _check_order(ask, report, case, state, cost, pay)
    opened = ask("open", case, state=state)
    if "board" in opened:
        kept = ask("pay", case, board=opened["board"], cost=cost)
        answer({"query": "close", "board": opened["board"]})
        if not ask.bounded:
            report.check("session", kept == pay, {**case, "session": kept, "fresh": pay})
    if ask.bounded:  # some answer was cut by the time bound: the checks that read it were skipped
        report.time_bound += 1


def _check_payment(ask: _Asker, report: Report, case: dict[str, Any], state: dict[str, Any], cost: str,
                   p: dict[str, Any], cp: dict[str, Any]) -> None:
    check = ask("validate", case, state=state, cost=cost, payment=p)
    report.check("validate", check.get("legal") is True, {**case, "payment": p, "validate": check})
    produced = [i for i, a in enumerate(p["activations"]) if a.get("mana")]
    if produced:
        dropped = dict(p, activations=[a for i, a in enumerate(p["activations"]) if i != produced[0]])
        dropped.pop("allocation", None)
        bad = ask("validate", case, state=state, cost=cost, payment=dropped)
        report.check("mutated", bad.get("legal") is False, {**case, "mutated": dropped, "validate": bad})
    raised = dict(p, total=(p["total"] or "") + "{1}")
    bad = ask("validate", case, state=state, cost=cost, payment=raised)
    report.check("mutated", bad.get("legal") is False, {**case, "mutated": raised, "validate": bad})
    if "could_produce" not in cp:
        return
    types = cp["could_produce"]
    ids = {perm["id"] for perm in state["battlefield"]}
    for a in p["activations"]:
        if a["permanent"] not in ids:
            continue  # a card of the hand (Spirit Guides)
        made = _letters(a.get("mana", ""))
        report.check("could_produce", made <= set(types.get(a["permanent"], ())),
                     {**case, "activation": a, "could_produce": types.get(a["permanent"])})


def _check_max_x(ask: _Asker, report: Report, case: dict[str, Any], state: dict[str, Any], cost: str,
                 payable: bool) -> None:
    xcost = "{X}" + cost
    mx = ask("max_x", case, state=state, cost=xcost)
    if _refused(mx) or ask.bounded:
        return
    n = mx.get("max_x")
    report.check("payability", (n is not None) == payable, {**case, "max_x": mx, "payable": payable})
    if n is None or n > 60:
        return
    at = ask("can_pay", case, state=state, cost=xcost, x=n)
    above = ask("can_pay", case, state=state, cost=xcost, x=n + 1)
    if _refused(at) or _refused(above) or ask.bounded:
        return
    report.check("payability", at["payable"] is True and above["payable"] is False,
                 {**case, "max_x": n, "at": at, "above": above})
    if n >= 1:
        below = ask("can_pay", case, state=state, cost=xcost, x=n - 1)
        if not _refused(below):
            report.check("monotone_x", below["payable"] is True, {**case, "x": n - 1, "answer": below})


def _check_options(rng: random.Random, ask: _Asker, report: Report, case: dict[str, Any],
                   state: dict[str, Any]) -> None:
    opts = ask("options", case, state=state, limit=200, detail=True)
    if _refused(opts) or _bounded(opts):
        return
    pools = []
    for o in opts["options"]:
        mana, restricted = _counts(o["mana"]), _counts(o["restricted"])
        pools.append(mana)
        free = mana - restricted
        if not free or len(pools) > 12:
            continue
        text = "".join("{" + t + "}" for t in "WUBRGC" for _ in range(free[t]))
        got = ask("can_pay", case, state=state, cost=text)
        if not _refused(got) and not _bounded(got):
            report.check("options_payable", got["payable"] is True, {**case, "pool": text, "answer": got})
    if not opts["complete"] or _spends_as_other_types(state):
        return
    for _ in range(3):
        text = plain_cost(rng)
        got = ask("can_pay", case, state=state, cost=text)
        if _refused(got) or _bounded(got) or not got["payable"]:
            continue
        want = _counts(text)
        covered = any(all(pool[t] >= n for t, n in want.items()) for pool in pools)
        report.check("options_cover", covered, {**case, "cost": text, "options": opts["options"][:20]})


def _spends_as_other_types(state: dict[str, Any]) -> bool:
    """Does the player spend mana as though it were mana of another type (CR 609.4b: Chromatic
    Orrery, Celestial Dawn)?  Then a payable cost need not be contained in a pool."""
    from manasolver.models.board.load import load_state
    from manasolver.models.rules.counts import payment_spend_table
    return not payment_spend_table(load_state(state), "you", None).identity


def _check_monotone(rng: random.Random, ask: _Asker, report: Report, case: dict[str, Any],
                    state: dict[str, Any], cost: str, payable: bool) -> None:
    used = {p["id"] for p in state["battlefield"]}
    if payable:
        grown = dict(state, battlefield=[*state["battlefield"],
                                         {"id": _fresh(rng, used), "card": rng.choice(BASICS[:5])}])
        got = ask("can_pay", case, state=grown, cost=cost)
        if not _refused(got) and not ask.bounded:
            report.check("monotone_add", got["payable"] is True, {**case, "grown": grown, "answer": got})
    else:
        mine = [i for i, p in enumerate(state["battlefield"]) if p.get("controller", "you") == "you"]
        if not mine:
            return
        drop = rng.choice(mine)
        shrunk = dict(state, battlefield=[p for i, p in enumerate(state["battlefield"]) if i != drop])
        got = ask("can_pay", case, state=shrunk, cost=cost)
        if not _refused(got) and not ask.bounded:
            report.check("monotone_remove", got["payable"] is False,
                         {**case, "removed": state["battlefield"][drop], "answer": got})


def _check_renaming(rng: random.Random, ask: _Asker, report: Report, case: dict[str, Any],
                    state: dict[str, Any], cost: str, pay: dict[str, Any]) -> None:
    used = {p["id"] for p in state["battlefield"]}
    fresh = {p["id"]: _fresh(rng, used) for p in state["battlefield"]}
    renamed = dict(state, battlefield=[dict(p, id=fresh[p["id"]]) for p in state["battlefield"]])
    got = ask("pay", case, state=renamed, cost=cost)
    if ask.bounded:
        return
    back = _renamed(got, {v: k for k, v in fresh.items()})
    report.check("renaming", back == pay, {**case, "renamed": got, "fresh": pay})


def _check_order(ask: _Asker, report: Report, case: dict[str, Any], state: dict[str, Any], cost: str,
                 pay: dict[str, Any]) -> None:
    flipped = dict(state, battlefield=list(reversed(state["battlefield"])))
    got = ask("pay", case, state=flipped, cost=cost)
    if ask.bounded or _refused(got):
        report.check("order", _refused(got) == _refused(pay) or ask.bounded, {**case, "reversed": got})
        return
    same = got["payable"] == pay["payable"] and (
        not pay["payable"] or _cost_of(got["payment"]) == _cost_of(pay["payment"]))
    report.check("order", same, {**case, "reversed": got, "fresh": pay})


# -- the run ----------------------------------------------------------------------------------------

def run(boards: int, seed: int = 0, stride: int = 1, seconds: float | None = None,
        keep: int = 3, progress: int = 0, cards: tuple[str, ...] = (), part: int = 0, parts: int = 1) -> Report:
    """Check ``boards`` boards (or as many as ``seconds`` allow); every ``progress`` boards the
    counts so far and the cases kept are printed to standard error.  Board ``n`` is drawn from its
    own generator (:func:`board_rng`), so ``part`` of ``parts`` (the boards ``n`` with ``n % parts ==
    part``) checks exactly those boards of the whole run."""
    pools = card_pools(stride) if not cards else ((), cards)
    report = Report(keep=keep)
    start = time.monotonic()
    for n in range(1 + part, boards + 1, parts):
        if seconds is not None and time.monotonic() - start > seconds:
            break
        rng = board_rng(seed, n)
        check_board(rng, random_board(rng, pools), report)
        if progress and report.boards % progress == 0:
            print("\n".join(report.lines()), f"seconds: {time.monotonic() - start:.0f}", file=sys.stderr, flush=True)
            _show(report, sys.stderr)
    return report


def board_rng(seed: int, n: int) -> random.Random:
    """The generator of board ``n`` (from 1) of a run with ``seed``."""
    return random.Random(f"{seed}:{n}")


def run_parallel(boards: int, seed: int, workers: int, **options: Any) -> Report:
    """:func:`run` split over ``workers`` processes, their reports added: the same boards, the same
    counts (the cases kept are each part's first)."""
    if workers <= 1:
        return run(boards, seed, **options)
    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(workers) as pool:
        futures = [pool.submit(run, boards, seed, part=k, parts=workers, **options) for k in range(workers)]
        reports = [f.result() for f in futures]
    total = Report(keep=reports[0].keep)
    for r in reports:
        total.boards += r.boards
        total.checked.update(r.checked)
        total.failed.update(r.failed)
        total.time_bound += r.time_bound
        total.refused += r.refused
        for prop, cases in r.cases.items():
            total.cases.setdefault(prop, []).extend(cases[:max(0, total.keep - len(total.cases.get(prop, [])))])
    return total


def _show(report: Report, out: TextIO = sys.stdout) -> None:
    for prop, cases in report.cases.items():
        print(f"\n## {prop}", file=out)
        for c in cases:
            print(json.dumps(c), file=out)
    out.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--boards", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--stride", type=int, default=1, help="read every N-th card of the card data")
    parser.add_argument("--seconds", type=float, default=None, help="stop after this long")
    parser.add_argument("--show", action="store_true", help="print the cases kept")
    parser.add_argument("--progress", type=int, default=0, help="print the counts every N boards")
    parser.add_argument("--workers", type=int, default=1, help="split the boards over this many processes")
    parser.add_argument("--cards", default="",
                        help="draw the cards beside the basics from these names only (comma-separated)")
    args = parser.parse_args(argv)
    start = time.monotonic()
    cards = tuple(name.strip() for name in args.cards.split(",") if name.strip())
    report = run_parallel(args.boards, args.seed, args.workers, stride=args.stride, seconds=args.seconds,
                          progress=args.progress, cards=cards)
    for line in report.lines():
        print(line)
    print(f"seconds: {time.monotonic() - start:.0f}")
    if args.show:
        _show(report)
    return 1 if sum(report.failed.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
