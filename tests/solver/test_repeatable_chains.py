"""A repeatable mana ability activated before and after another mana ability that it pays and
that pays it (CR 605.3a, 601.2g): Skyshroud Elf's "{1}: Add {R} or {W}." beside Mystic Gate,
Manaforge Cinder beside Mana Cache and Sunken Ruins, Stonework Packbeast beside Verdant Eidolon.
``pay`` and ``can_pay`` find these chains (CP-SAT orders a repeatable ability's activations in
batches), each payment is executable and ``validate`` accepts it; ``options`` lists the same
pools; a cycle no order allows stays unpayable, as the brute force of activation sequences
(tests/support/brute_repeats.py) says."""

from __future__ import annotations

from typing import Any

from brute_repeats import TooBig, search
from cards import json_board, pay_validated
from hypothesis import given, reject, settings
from hypothesis import strategies as st
from manasolver.models.board.load import load_state
from manasolver.models.cost import ManaCost
from manasolver.solver.service.protocol import answer

MANA_CACHE = {"card": "Mana Cache", "counters": {"charge": 2}}


def runs(payment: dict[str, Any], pid: str) -> list[int]:
    """The positions, in the payment's order, of the activations of permanent ``pid``."""
    return [i for i, a in enumerate(payment["activations"]) for _ in range(a.get("times", 1))
            if a["permanent"] == pid]


def chain(state: dict[str, Any], cost: str, repeatable: str, between: str) -> dict[str, Any]:
    """``pay`` for ``cost`` (validated), ``can_pay`` agreeing, and the payment activating
    ``repeatable`` both before and after ``between``, as no other order pays it."""
    assert answer({"query": "can_pay", "state": state, "cost": cost})["payable"] is True
    out = pay_validated(state, cost)
    assert out["payable"] is True, out
    payment: dict[str, Any] = out["payment"]
    at = runs(payment, repeatable)
    middle = runs(payment, between)
    assert middle and min(at) < min(middle) and max(at) > max(middle), payment
    return payment


def test_skyshroud_elf_before_and_after_mystic_gate_pays_u_r() -> None:
    """Skyshroud Elf's {T} makes {G}; {G} pays its "{1}" for {W}; {W} pays Mystic Gate's {W/U}
    for {U}{U}; one {U} pays the Elf's "{1}" again for {R}: {U}{R} (605.3a)."""
    state = json_board("Skyshroud Elf", "Mystic Gate")
    payment = chain(state, "{U}{R}", "p0", "p1")
    assert [a["ability"] for a in payment["activations"] if a["permanent"] == "p0"] == [0, 1, 1]
    assert "{U}{R}" in answer({"query": "options", "state": state})["options"]


def test_skyshroud_elf_and_mystic_gate_cannot_make_three() -> None:
    """The chain nets two mana from the Elf's {G} and the Gate's one more: {U}{R}{W} is not
    payable, in CP-SAT and in the brute force alike."""
    state = json_board("Skyshroud Elf", "Mystic Gate")
    assert search(load_state(state), ManaCost.parse("{U}{R}{W}")).payable is False
    for backend in ("cpsat", None):
        extra = {"backend": backend} if backend else {}
        assert answer({"query": "can_pay", "state": state, "cost": "{U}{R}{W}", **extra})["payable"] is False


def test_manaforge_cinder_before_and_after_sunken_ruins_pays_u_r_r() -> None:
    """Manaforge Cinder ("{1}: Add {B} or {R}", three times a turn) with Mana Cache's two {C}
    and Sunken Ruins ("{U/B}, {T}: Add {U}{U}, {U}{B} or {B}{B}"): {C} pays the Cinder for {B},
    {B} pays the Ruins for {U}{U}, one {U} and the other {C} pay the Cinder twice more for
    {R}{R}: {U}{R}{R}."""
    state = json_board("Manaforge Cinder", MANA_CACHE, "Sunken Ruins")
    chain(state, "{U}{R}{R}", "p0", "p2")
    assert search(load_state(state), ManaCost.parse("{U}{R}{R}")).payable is True
    assert "{U}{R}{R}" in answer({"query": "options", "state": state})["options"]


def test_stonework_packbeast_before_and_after_verdant_eidolon_pays_w_u() -> None:
    """Floating {R}, Conversion Apparatus, Stonework Packbeast ("{2}: Add one mana of any
    color") and Verdant Eidolon ("{G}, Sacrifice this creature: Add three mana of any one
    color"): {R} and the Apparatus's {C} pay the Packbeast for {G}, the {G} pays the Eidolon
    for {W}{W}{W}, two {W} pay the Packbeast again for {U}: {W}{U}."""
    state = json_board("Conversion Apparatus", "Stonework Packbeast", "Verdant Eidolon")
    state["players"][0]["pool"] = "{R}"
    chain(state, "{W}{U}", "p1", "p2")
    assert "{W}{U}" in answer({"query": "options", "state": state})["options"]


def test_skyshroud_elf_around_two_mystic_gates_pays_r_r_u() -> None:
    """Skyshroud Elf beside two Mystic Gates: the Elf's "{1}" between and around the Gates, each
    Gate adding one mana more than it takes: {R}{R}{U} payable, {R}{U}{U}{W} not, as the brute
    force says."""
    state = json_board("Skyshroud Elf", "Mystic Gate", "Mystic Gate")
    for cost, payable in (("{R}{R}{U}", True), ("{U}{R}{U}", True), ("{R}{U}{U}{W}", False)):
        assert search(load_state(state), ManaCost.parse(cost)).payable is payable
        out = pay_validated(state, cost)
        assert out["payable"] is payable, (cost, out)


def test_two_petalmane_baku_cannot_pay_each_others_cost() -> None:
    """Two Petalmane Baku and no other mana: each one's "{1}" could be paid only by the other's
    mana, a cycle no order allows (601.2g): {W} is unpayable.  With a Forest to start the chain
    (its {G} pays one Baku's "{1}", that Baku's mana the other's): {W}{W}{U} payable,
    {W}{W}{U}{U} not, as the brute force says."""
    baku = {"card": "Petalmane Baku", "counters": {"ki": 2}}
    for backend in ("cpsat", None):
        extra = {"backend": backend} if backend else {}
        out = answer({"query": "can_pay", "state": json_board(baku, baku), "cost": "{W}", **extra})
        assert out["payable"] is False, out
        for cost, payable in (("{W}{W}{U}", True), ("{W}{W}{U}{U}", False)):
            out = answer({"query": "can_pay", "state": json_board(baku, baku, "Forest"), "cost": cost, **extra})
            assert out["payable"] is payable, (cost, out)
    assert search(load_state(json_board(baku, baku)), ManaCost.parse("{W}")).payable is False
    assert search(load_state(json_board(baku, baku, "Forest")), ManaCost.parse("{W}{W}{U}{U}")).payable is False


def test_orochi_leafcaller_beside_fungal_reaches_matches_the_brute_force() -> None:
    """Orochi Leafcaller ("{G}: Add one mana of any color") beside Fungal Reaches with two storage
    counters: the Reaches' {T} pays its own "{1}, Remove X storage counters" for {G}{G}, the
    Leafcaller turns them into {W}{U}; {W}{U}{B} needs a third mana no order makes."""
    state = json_board("Orochi Leafcaller", {"card": "Fungal Reaches", "counters": {"storage": 2}})
    for cost in ("{W}", "{W}{U}", "{W}{U}{B}"):
        truth = search(load_state(state), ManaCost.parse(cost)).payable
        assert truth is (cost != "{W}{U}{B}")
        assert pay_validated(state, cost)["payable"] is truth, cost


# -- against the brute force --------------------------------------------------------------------

CARDS: tuple[str | dict[str, Any], ...] = (
    "Forest", "Island", "Wastes", "Skyshroud Elf", "Mystic Gate", "Sunken Ruins", "Manaforge Cinder",
    MANA_CACHE, "Signpost Scarecrow", "Orochi Leafcaller", {"card": "Petalmane Baku", "counters": {"ki": 2}},
)
SYMBOLS = ("{W}", "{U}", "{B}", "{R}", "{G}", "{1}")


@settings(max_examples=40, deadline=None)
@given(board=st.lists(st.sampled_from(CARDS), min_size=2, max_size=4),
       symbols=st.lists(st.sampled_from(SYMBOLS), min_size=1, max_size=3))
def test_repeatable_chains_through_filter_lands_match_the_brute_force(
        board: list[str | dict[str, Any]], symbols: list[str]) -> None:
    """can_pay and pay (default chains and CP-SAT) against every sequence of activations (CR
    601.2g, 605.3a) on boards of repeatable abilities beside filter lands; every payment
    validates."""
    cost = "".join(sorted(symbols))
    state = json_board(*board)
    try:
        truth = search(load_state(state), ManaCost.parse(cost))
    except TooBig:
        reject()  # too many sequences to try here: another board
    for backend in (None, "cpsat"):
        extra = {"backend": backend} if backend else {}
        can = answer({"query": "can_pay", "state": state, "cost": cost, **extra})
        assert can.get("payable") is truth.payable, (board, cost, backend, can)
        out = answer({"query": "pay", "state": state, "cost": cost, **extra})
        assert out.get("payable") is truth.payable, (board, cost, backend, out)
        if truth.payable:
            checked = answer({"query": "validate", "state": state, "cost": cost, "payment": out["payment"]})
            assert checked["legal"], (board, cost, out, checked)


def test_a_chain_longer_than_the_models_batches_is_flagged_not_silently_cut_601_2g() -> None:
    """Skyshroud Elf beside four Mystic Gates: its "{1}" may need a run between each Gate's
    activation, five runs in all, more than the model orders (``MAX_BATCHES``): the model says it
    was capped, so that an answer of it is not given as proven (an unpayable one is refused)."""
    from manasolver.solver.backends.cpsat.model import build_model
    from manasolver.solver.backends.cpsat.repeats import MAX_BATCHES
    from manasolver.solver.request import PaymentRequest
    from manasolver.solver.queries import prepare

    def capped(gates: int) -> bool:
        board = json_board("Skyshroud Elf", *["Mystic Gate"] * gates)
        req = PaymentRequest(load_state(board), ManaCost.parse("{U}{R}"), player="you")
        return build_model(prepare(req, "feasible", 0)).capped

    assert MAX_BATCHES == 4
    assert capped(4) is True
    assert capped(1) is False
