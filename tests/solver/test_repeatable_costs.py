"""Repeatable mana abilities that cost mana, life or a number of counters (CR 605, 602.5b, 106.4,
107.3, 118.3): CP-SAT counts their activations per permanent; the answers are worked from the
rules here, checked by ``validate``, and compared with a brute force of activation sequences
(tests/support/brute_repeats.py) on small boards of real cards."""

from __future__ import annotations

from typing import Any

from brute_repeats import TooBig, search
from cards import json_board
from hypothesis import example, given, reject, settings
from hypothesis import strategies as st
from manasolver.models.board.load import load_state
from manasolver.models.cost import ManaCost
from manasolver.solver.service.protocol import answer

#: Not in the bundled card data: its text as printed, given inline.
SHIRE_SCARECROW = {"name": "Shire Scarecrow", "type_line": "Artifact Creature — Scarecrow", "mana_cost": "{2}",
                   "oracle_text": "Defender\n{1}: Add one mana of any color. Activate only once each turn."}


def ask(query: str, *cards: str | dict[str, Any], life: int | None = None, **kw: Any) -> dict[str, Any]:
    state = json_board(*cards)
    if life is not None:
        state["players"][0]["life"] = life
    out = answer({"query": query, "state": state, **kw})
    assert isinstance(out, dict)
    return out


def legal(payment: dict[str, Any], *cards: str | dict[str, Any], cost: str, life: int | None = None) -> dict[str, Any]:
    return ask("validate", *cards, life=life, cost=cost, payment=payment)


def paid(cost: str, *cards: str | dict[str, Any], life: int | None = None, **kw: Any) -> dict[str, Any] | None:
    """The payment of ``pay`` (checked by validate), or None when unpayable."""
    out = ask("pay", *cards, life=life, cost=cost, **kw)
    assert "error" not in out, out
    if not out["payable"]:
        return None
    checked = legal(out["payment"], *cards, cost=cost, life=life)
    assert checked["legal"], checked
    payment: dict[str, Any] = out["payment"]
    return payment


def times(payment: dict[str, Any], pid: str) -> int:
    return sum(a.get("times", 1) for a in payment["activations"] if a["permanent"] == pid)


def storage(name: str, n: int, kind: str = "storage") -> dict[str, Any]:
    return {"card": name, "counters": {kind: n}}


# -- worked from the rules --------------------------------------------------------------------


def test_wall_of_roots_once_each_turn() -> None:
    """Wall of Roots: "Put a -0/-1 counter on Wall of Roots: Add {G}. Activate only once each turn."
    The counter is a cost always payable (118.3); the limit allows one {G} (602.5b)."""
    got = paid("{G}", "Wall of Roots")
    assert got is not None and times(got, "p0") == 1 and got["activations"][0]["costs"] == ["put 1 -0/-1 counter"]
    assert paid("{G}{G}", "Wall of Roots") is None
    assert paid("{G}{G}", "Wall of Roots", "Forest") is not None
    twice = {"total": "{G}{G}", "choices": [], "x": 0, "pool_used": "", "life": 0, "energy": 0, "damage": 0,
             "floating": "", "activations": [
                 {"permanent": "p0", "ability": 0, "costs": ["put 1 -0/-1 counter"], "mana": "{G}"},
                 {"permanent": "p0", "ability": 0, "costs": ["put 1 -0/-1 counter"], "mana": "{G}"}]}
    out = legal(twice, "Wall of Roots", cost="{G}{G}")
    assert not out["legal"] and any("602.5b" in p for p in out["problems"])


def test_calciform_pools_taps_for_its_own_storage_cost() -> None:
    """Calciform Pools with two storage counters: its "{T}: Add {C}." pays the {1} of "{1}, Remove
    X storage counters: Add X mana in any combination of {W} and/or {U}." with X = 2 (107.3):
    {W}{U} from the land alone; {W}{U}{U} needs a third counter."""
    got = paid("{W}{U}", storage("Calciform Pools", 2))
    assert got is not None and times(got, "p0") == 2
    assert paid("{W}{U}{U}", storage("Calciform Pools", 2)) is None
    assert paid("{W}{U}{U}", storage("Calciform Pools", 3)) is not None
    assert paid("{W}", storage("Calciform Pools", 0)) is None


def test_calciform_pools_counters_removed_must_be_there() -> None:
    """118.3: two activations removing two storage counters each need four; with three the
    payment is illegal, though each activation alone could be made."""
    claim = {"total": "{W}{U}{U}", "choices": [], "x": 0, "pool_used": "", "life": 0, "energy": 0, "damage": 0,
             "floating": "", "activations": [
                 {"permanent": "p0", "ability": 0, "costs": ["{T}"], "mana": "{C}"},
                 {"permanent": "p0", "ability": 1, "costs": ["{1}", "remove any number of storage counters"],
                  "mana": "{W}{U}"},
                 {"permanent": "p0", "ability": 1, "costs": ["{1}", "remove any number of storage counters"],
                  "mana": "{U}{U}"}]}
    out = legal(claim, storage("Calciform Pools", 3), cost="{W}{U}{U}")
    assert not out["legal"] and any("118.3" in p for p in out["problems"]), out
    assert legal(claim, storage("Calciform Pools", 4), cost="{W}{U}{U}")["legal"]


def test_calciform_pools_max_x() -> None:
    """{X}{W} with Calciform Pools (3 storage counters) and a Plains: {C} pays the {1}, three
    counters add three mana, the Plains one more: X = 3."""
    out = ask("max_x", storage("Calciform Pools", 3), "Plains", cost="{X}{W}")
    assert out["max_x"] == 3, out
    assert legal(out["payment"], storage("Calciform Pools", 3), "Plains", cost="{X}{W}")["legal"]


def test_signpost_scarecrow_two_mana_for_one() -> None:
    """Signpost Scarecrow: "{2}: Add one mana of any color." Each {B} costs two Forests."""
    got = paid("{B}", "Signpost Scarecrow", "Forest", "Forest")
    assert got is not None and times(got, "p0") == 1
    assert paid("{B}", "Signpost Scarecrow", "Forest") is None
    assert paid("{B}{B}", "Signpost Scarecrow", "Forest", "Forest", "Forest") is None
    got = paid("{B}{B}", "Signpost Scarecrow", "Forest", "Forest", "Forest", "Forest")
    assert got is not None and times(got, "p0") == 2


def test_blood_celebrant_pays_life_each_time() -> None:
    """Blood Celebrant: "{B}, Pay 1 life: Add one mana of any color." Two activations cost two
    life; with one life only one (119.4); with none, none."""
    got = paid("{W}{U}", "Blood Celebrant", "Swamp", "Swamp")
    assert got is not None and got["life"] == 2 and times(got, "p0") == 2
    assert paid("{W}", "Blood Celebrant", "Swamp", life=1) is not None
    assert paid("{W}{U}", "Blood Celebrant", "Swamp", "Swamp", life=1) is None
    assert paid("{W}", "Blood Celebrant", "Swamp", life=0) is None


def test_shire_scarecrow_once_each_turn() -> None:
    """"{1}: Add one mana of any color. Activate only once each turn." (602.5b): one {U} from two
    Forests, never two."""
    assert paid("{U}{G}", SHIRE_SCARECROW, "Forest", "Forest") is not None
    assert paid("{U}{U}", SHIRE_SCARECROW, "Forest", "Forest", "Forest") is None


def test_manaforge_cinder_three_times_over_both_colors() -> None:
    """Manaforge Cinder: "{1}: Add {B} or {R}. Activate no more than three times each turn." The
    limit counts activations of the ability, whichever color each chose."""
    got = paid("{B}{R}{B}", "Manaforge Cinder", "Forest", "Forest", "Forest")
    assert got is not None and times(got, "p0") == 3
    assert paid("{B}{R}{B}{R}", "Manaforge Cinder", "Forest", "Forest", "Forest", "Forest") is None


def test_skyshroud_elf_pays_its_own_ability() -> None:
    """Skyshroud Elf: its "{T}: Add {G}." pays its "{1}: Add {R} or {W}." (605.3a): {R} alone."""
    got = paid("{R}", "Skyshroud Elf")
    assert got is not None and times(got, "p0") == 2
    assert paid("{R}{W}", "Skyshroud Elf") is None


def test_petalmane_baku_pays_a_later_activation_with_an_earlier_ones_mana() -> None:
    """Petalmane Baku (3 ki counters), "{1}, Remove X ki counters: Add X mana of any one color.",
    and a Forest: the Forest pays the first {1} (X = 2, {W}{W}), one {W} the second (X = 1, {U}):
    {W}{U} is payable, {W}{U}{G} is not (the Forest's {G} was spent).  For {X}{W} one activation
    removing all three makes {W}{W}{W}: X = 2."""
    baku = storage("Petalmane Baku", 3, "ki")
    assert paid("{W}{U}", baku, "Forest") is not None
    assert paid("{W}{U}{G}", baku, "Forest") is None
    assert ask("max_x", baku, "Forest", cost="{X}{W}")["max_x"] == 2


def test_farrelite_priest_sacrifice_is_no_limit() -> None:
    """Farrelite Priest: "If this ability has been activated four or more times this turn, sacrifice
    Farrelite Priest at the beginning of the next end step" is a delayed trigger, not a limit on
    activating it: five Forests make five {W}."""
    forests = ["Forest"] * 5
    got = paid("{W}{W}{W}{W}{W}", "Farrelite Priest", *forests)
    assert got is not None and times(got, "p0") == 5


def test_options_and_payments_say_what_they_leave_out() -> None:
    """``options`` counts repeatable activations that cost mana (Orochi Leafcaller's {G} becomes any
    color) but not Petalmane Baku's "X mana of any one color": it names the card and the clause;
    ``payments`` lists what it can and says it is incomplete."""
    out = ask("options", "Orochi Leafcaller", "Forest")
    assert out == {"options": ["{W}", "{U}", "{B}", "{R}", "{G}"], "complete": True}
    out = ask("options", storage("Petalmane Baku", 2, "ki"), "Forest")
    assert out["complete"] is False
    assert [u["permanent"] for u in out["unsupported"]] == ["p0"]
    assert "Petalmane Baku" in out["unsupported"][0]["reason"] and "Remove X ki" in out["unsupported"][0]["reason"]
    assert ask("options", "Wall of Roots")["options"] == ["{G}"]
    listed = ask("payments", "Orochi Leafcaller", "Forest", cost="{U}")
    assert listed["complete"] is False
    for p in listed["payments"]:
        assert legal(p, "Orochi Leafcaller", "Forest", cost="{U}")["legal"]


def test_a_chain_this_model_does_not_order_is_refused_naming_card_and_clause() -> None:
    """"{2}: Add {R}{G}." repeated: one activation's two mana could pay the next one's {2}, in orders
    the model does not follow (605.3a): refused, naming the permanent, its position and the clause."""
    twin = {"name": "Twin Converter", "type_line": "Artifact Creature — Golem", "mana_cost": "{3}",
            "oracle_text": "{2}: Add {R}{G}."}
    for query in ("pay", "can_pay"):
        out = ask(query, "Island", twin, "Island", cost="{R}{R}{G}")
        assert out["error"]["code"] == "unsupported" and out["error"]["where"] == "battlefield[1]"
        assert "Twin Converter" in out["error"]["message"] and "{2}: Add {R}{G}." in out["error"]["message"]


# -- against the brute force --------------------------------------------------------------------

CARDS: tuple[str | dict[str, Any], ...] = (
    "Forest", "Island", "Swamp", "Mountain", "Plains", "Wall of Roots", "Signpost Scarecrow",
    "Orochi Leafcaller", "Agent of Stromgald", "Bog Initiate", "Skyshroud Elf", "Blood Celebrant",
    "Manaforge Cinder", "Llanowar Envoy", storage("Calciform Pools", 1), storage("Calciform Pools", 2),
    storage("Fungal Reaches", 2), storage("Petalmane Baku", 2, "ki"), SHIRE_SCARECROW,
)
SYMBOLS = ("{W}", "{U}", "{B}", "{R}", "{G}", "{1}", "{C}")


@settings(max_examples=60, deadline=None)
@given(board=st.lists(st.sampled_from(CARDS), min_size=1, max_size=4),
       symbols=st.lists(st.sampled_from(SYMBOLS), min_size=1, max_size=3),
       life=st.integers(0, 3))
# a storage land's one counter makes one mana however many times its ability is paid (CR 107.3):
# the flow's converter search once counted it as a converter repeatable without limit
@example(board=["Forest", storage("Calciform Pools", 1)], symbols=["{W}", "{W}"], life=0)
def test_cpsat_matches_the_brute_force(board: list[str | dict[str, Any]], symbols: list[str], life: int) -> None:
    """can_pay, pay (least life, fewest activations), max_x of CP-SAT and the default chains against every sequence of
    activations (CR 601.2g, 605.3a); every payment validates."""
    cost = "".join(sorted(symbols))
    state = json_board(*board)
    state["players"][0]["life"] = life
    try:
        truth = search(load_state(state), ManaCost.parse(cost))
        best = search(load_state(state), ManaCost.parse("{X}" + cost))
    except TooBig:
        reject()  # too many sequences to try here: another board
    for backend in (None, "cpsat"):
        extra = {"backend": backend} if backend else {}
        can = answer({"query": "can_pay", "state": state, "cost": cost, **extra})
        assert can["payable"] is truth.payable, (board, cost, backend, can)
        out = answer({"query": "pay", "state": state, "cost": cost, "policy": {"criteria": ["min_life"]}, **extra})
        assert out["payable"] is truth.payable, (board, cost, backend, out)
        if truth.payable:
            assert out["payment"]["life"] == truth.least_life, (board, cost, out)
            checked = answer({"query": "validate", "state": state, "cost": cost, "payment": out["payment"]})
            assert checked["legal"], (board, cost, out, checked)
            few = answer({"query": "pay", "state": state, "cost": cost, "policy": {"criteria": ["min_sources"]},
                          **extra})
            used = sum(a.get("times", 1) for a in few["payment"]["activations"])
            assert used == truth.least_activations, (board, cost, few, truth)
    x_cost = "{X}" + cost
    out = answer({"query": "max_x", "state": state, "cost": x_cost})
    if best.max_x < 0:
        assert "max_x" not in out or out.get("max_x") is None, (board, x_cost, out)
    else:
        assert out["max_x"] == best.max_x, (board, x_cost, out, best)
        checked = answer({"query": "validate", "state": state, "cost": x_cost, "payment": out["payment"]})
        assert checked["legal"], (board, x_cost, out, checked)
