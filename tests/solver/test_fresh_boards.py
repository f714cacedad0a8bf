"""A stream of fresh boards reuses what it built for equal permanents, and only where nothing
else on the board can change it (the board loader's permanents, the supply's rows).

Each test sends boards one after another in one process, as ``batch`` does, with the same
permanent JSON in a context that must change the answer.
"""

from __future__ import annotations

from typing import Any

from manasolver.solver.protocol import answer


def _board(perms: list[dict[str, Any]], commander: str | None = None, life: int = 20) -> dict[str, Any]:
    you: dict[str, Any] = {"name": "you", "life": life}
    if commander:
        you["commander"] = [commander]
    return {"players": [you, {"name": "opponent"}], "battlefield": perms}


def test_command_tower_follows_each_boards_commander_903_4() -> None:
    """CR 903.4: Command Tower adds a color of its controller's commander's identity.  The same
    Command Tower JSON under Kenrith (all five colors) pays {U}; under Ezuri, Renegade Leader
    (green) it does not; and then again under Kenrith it does."""
    tower = {"id": "t", "card": "Command Tower"}
    for commander, payable in (("Kenrith, the Returned King", True), ("Ezuri, Renegade Leader", False),
                               ("Kenrith, the Returned King", True)):
        got = answer({"query": "can_pay", "state": _board([dict(tower)], commander), "cost": "{U}"})
        assert got["payable"] is payable, (commander, got)


def test_arcane_signet_without_a_commander_adds_nothing_903_4f() -> None:
    """903.4f: with no commander, "your commander's color identity" is undefined and Arcane Signet
    adds no mana, even right after a board where it added white."""
    signet = {"id": "s", "card": "Arcane Signet"}
    assert answer({"query": "can_pay", "state": _board([dict(signet)], "Kenrith, the Returned King"),
                   "cost": "{W}"})["payable"] is True
    assert answer({"query": "can_pay", "state": _board([dict(signet)]), "cost": "{W}"})["payable"] is False


def test_priest_of_titania_counts_the_elves_of_each_board() -> None:
    """Priest of Titania: "{T}: Add {G} for each Elf on the battlefield."  The same Priest JSON
    pays {G}{G}{G} beside two Llanowar Elves (three Elves) and not beside one."""
    priest = {"id": "pr", "card": "Priest of Titania"}
    elves = [{"id": f"e{i}", "card": "Llanowar Elves", "tapped": True} for i in range(2)]
    assert answer({"query": "can_pay", "state": _board([dict(priest), *elves]), "cost": "{G}{G}{G}"})["payable"]
    assert not answer({"query": "can_pay", "state": _board([dict(priest), elves[0]]),
                       "cost": "{G}{G}{G}"})["payable"]


def test_a_sick_dork_is_sick_on_its_board_only_302_6() -> None:
    """CR 302.6: the same Llanowar Elves JSON marked sick can't tap for {G}; with haste given by
    Fervor ("Creatures you control have haste.") on the next board it can."""
    elf = {"id": "e", "card": "Llanowar Elves", "sick": True}
    assert not answer({"query": "can_pay", "state": _board([dict(elf)]), "cost": "{G}"})["payable"]
    fervor = {"id": "f", "card": "Fervor"}
    assert answer({"query": "can_pay", "state": _board([dict(elf), fervor]), "cost": "{G}"})["payable"]


def test_mana_confluence_life_payment_follows_each_boards_life_119_4() -> None:
    """CR 119.4: Mana Confluence ("{T}, Pay 1 life: Add one mana of any color.") pays {R} at 1 life
    and not at 0: the same permanent's row is keyed by its player's life."""
    confluence = {"id": "m", "card": "Mana Confluence"}
    assert answer({"query": "can_pay", "state": _board([dict(confluence)], life=1), "cost": "{R}"})["payable"]
    assert not answer({"query": "can_pay", "state": _board([dict(confluence)], life=0), "cost": "{R}"})["payable"]


def test_a_reused_permanent_keeps_field_types_apart() -> None:
    """``"tapped": true`` and ``"tapped": 1`` are equal in Python but not in JSON: after a board
    with the first, the second is still refused with its own message."""
    ok = answer({"query": "can_pay", "state": _board([{"id": "f", "card": "Forest", "tapped": True}]),
                 "cost": "{G}"})
    assert ok["payable"] is False
    bad = answer({"query": "can_pay", "state": _board([{"id": "f", "card": "Forest", "tapped": 1}]),
                  "cost": "{G}"})
    assert bad["error"]["code"] == "bad_state" and bad["error"]["where"] == "battlefield[0].tapped", bad
