"""Thornvault Forager's "{T}, Forage: Add two mana in any combination of colors." (CR 701.61a: to
forage, exile three cards from your graveyard or sacrifice a Food): one ability read once for each
way to pay its cost, each with the resources the payment queries already spend (graveyard cards
shared with every other graveyard cost, Foods the player controls).  Every payment is given back to
``validate``."""

from __future__ import annotations

from typing import Any

from cards import pay_validated as _pay
from manasolver.solver.service.protocol import answer

FORAGER = "Thornvault Forager"
FOOD = {"id": "food", "name": "Food", "type_line": "Token Artifact — Food",
        "oracle_text": "{2}, {T}, Sacrifice this token: You gain 3 life.", "token": True}


def _board(graveyard: list[str], *cards: str | dict[str, Any]) -> dict[str, Any]:
    field = [{"id": f"p{i}", **({"card": c} if isinstance(c, str) else c)} for i, c in enumerate(cards)]
    return {"players": [{"name": "you", "graveyard": graveyard}, {"name": "opp"}], "battlefield": field}


def _forage(out: dict[str, Any]) -> dict[str, Any]:
    assert out.get("payable"), out
    return next(a for a in out["payment"]["activations"] if a["permanent"] == "p0")


def test_thornvault_forager_forages_three_graveyard_cards() -> None:
    """Three cards in the graveyard: {U}{B} from the forage ability, exiling all three."""
    act = _forage(_pay(_board(["Opt", "Opt", "Forest"], FORAGER), "{U}{B}"))
    assert act["ability"] == 1 and act["mana"] == "{U}{B}"
    assert act["costs"] == ["{T}", "exile three cards from your graveyard"] and len(act["sacrificed"]) == 3


def test_thornvault_forager_forages_a_food() -> None:
    """One graveyard card and a Food: the forage sacrifices the Food; ``validate`` reads that way."""
    act = _forage(_pay(_board(["Opt"], FORAGER, FOOD), "{U}{B}"))
    assert act["costs"] == ["{T}", "sacrifice a food"] and act["sacrificed"] == ["food"]


def test_thornvault_forager_cannot_forage_without_either() -> None:
    """Two graveyard cards and no Food: no forage, only {T}: Add {G}; survey board answered whole."""
    assert _pay(_board(["Opt", "Opt"], FORAGER), "{U}{B}")["payable"] is False
    assert _forage(_pay(_board(["Opt", "Opt"], FORAGER), "{G}"))["ability"] == 0
    out = _pay(_board([], FORAGER, "Plains", "Island", "Forest"), "{1}{G}")
    assert out["payable"] is True and not out.get("unsupported")


def test_thornvault_forager_shares_the_graveyard_with_rubble_rouser() -> None:
    """Rubble Rouser's "Exile a card from your graveyard: Add {R}" and the forage draw on the same
    cards: three are not enough for {U}{B}{R}, four are."""
    assert _pay(_board(["Opt"] * 3, FORAGER, "Rubble Rouser"), "{U}{B}{R}")["payable"] is False
    out = _pay(_board(["Opt"] * 4, FORAGER, "Rubble Rouser"), "{U}{B}{R}")
    used = [g for a in out["payment"]["activations"] for g in a.get("sacrificed", [])]
    assert sorted(used) == ["graveyard:0", "graveyard:1", "graveyard:2", "graveyard:3"]


def test_thornvault_forager_validate_refuses_a_short_forage() -> None:
    """A forage claiming to exile two graveyard cards pays neither way: illegal."""
    board = _board(["Opt", "Opt", "Opt"], FORAGER)
    out = _pay(board, "{U}{B}")
    out["payment"]["activations"][0]["sacrificed"] = ["graveyard:0", "graveyard:1"]
    check = answer({"query": "validate", "state": board, "cost": "{U}{B}", "payment": out["payment"]})
    assert check["legal"] is False


def test_thornvault_forager_shares_the_graveyard_with_delve() -> None:
    """Gurmag Angler ({6}{B}, delve) with three graveyard cards: delving them and tapping the Forager
    for {G} beside three Swamps pays it; with two Swamps neither the delve nor the forage is enough,
    and the two can't both use the three cards."""
    board = _board(["Opt"] * 3, FORAGER, "Swamp", "Swamp", "Swamp")
    spell = {"card": "Gurmag Angler"}
    out = answer({"query": "pay", "state": board, "cost": "{6}{B}", "spell": spell})
    assert out["payable"] is True and len(out["payment"]["delved"]) == 3
    check = answer({"query": "validate", "state": board, "cost": "{6}{B}", "spell": spell, "payment": out["payment"]})
    assert check["legal"] is True, check
    board["battlefield"].pop()
    assert answer({"query": "pay", "state": board, "cost": "{6}{B}", "spell": spell})["payable"] is False


def test_thornvault_forager_sacrifices_a_food_the_cabbage_merchant_tapped() -> None:
    """The Cabbage Merchant taps two Foods for {U}; a tapped Food can still be sacrificed to forage
    (a sacrifice needs no untapped permanent, CR 701.21a): {U}{B}{R} from two Foods."""
    food = {"name": "Food", "type_line": "Token Artifact — Food",
            "oracle_text": "{2}, {T}, Sacrifice this token: You gain 3 life.", "token": True}
    board = _board([], FORAGER, "The Cabbage Merchant", {**food, "id": "f1"}, {**food, "id": "f2"})
    out = _pay(board, "{U}{B}{R}")
    assert _forage(out)["costs"] == ["{T}", "sacrifice a food"]
