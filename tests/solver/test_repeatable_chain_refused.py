"""A cost payable only by activating a repeatable mana ability before and after another mana
ability that it pays and is paid by is refused, naming the card, never answered unpayable: the
CP-SAT model orders each repeatable ability as one step of the payments (CR 605.3b: a mana
ability's cost is paid with mana made before it)."""

from __future__ import annotations

from manasolver.solver.service.protocol import answer

ELF_AND_GATE = {"players": [{"name": "you"}], "battlefield": [{"id": "e", "card": "Skyshroud Elf"},
                                                            {"id": "g", "card": "Mystic Gate"}]}


def test_skyshroud_elf_and_mystic_gate_u_r_is_refused_naming_the_elf_not_answered_unpayable() -> None:
    """{U}{R}: Elf {T} -> {G}; {G} pays the Elf's {1} -> {W}; {W} pays Mystic Gate's {W/U} ->
    {U}{U}; one {U} pays the Elf's {1} again -> {R}: {U}{R} left.  ``options`` lists it."""
    pools = answer({"query": "options", "state": ELF_AND_GATE})["options"]
    assert any(p in ("{U}{R}", "{U}{U}{R}") or ("{U}" in p and "{R}" in p) for p in pools)
    for query in ("pay", "can_pay"):
        got = answer({"query": query, "state": ELF_AND_GATE, "cost": "{U}{R}"})
        assert got["error"]["code"] == "unsupported", got
        assert "Skyshroud Elf (e)" in got["error"]["message"] and got["error"]["where"] == "battlefield[0]"


def test_costs_paid_without_such_a_chain_are_answered_beside_them() -> None:
    assert answer({"query": "can_pay", "state": ELF_AND_GATE, "cost": "{G}"}) == {"payable": True}
    paid = answer({"query": "pay", "state": ELF_AND_GATE, "cost": "{R}"})
    assert paid["payable"] is True and [a["permanent"] for a in paid["payment"]["activations"]] == ["g", "e"]


def test_manaforge_cinder_beside_mana_cache_and_sunken_ruins_is_refused_naming_the_cinder() -> None:
    board = {"players": [{"name": "you"}], "battlefield": [
        {"id": "c", "card": "Mana Cache", "counters": {"charge": 2}}, {"id": "s", "card": "Sunken Ruins"},
        {"id": "m", "card": "Manaforge Cinder"}]}
    assert "{U}{R}{R}" in answer({"query": "options", "state": board})["options"]
    got = answer({"query": "pay", "state": board, "cost": "{U}{R}{R}"})
    assert got["error"]["code"] == "unsupported" and "Manaforge Cinder (m)" in got["error"]["message"]
