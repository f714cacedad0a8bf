"""The survey's spending rules scoped to abilities (CR 609.4b) and the cards that give abilities to
creatures with counters (CR 613.1f).

Agatha's Soul Cauldron's "You may spend mana as though it were mana of any color to activate
abilities of creatures you control" reaches the cost of a creature's mana ability and a named
ability of a creature on the battlefield; Nathan Drake, Treasure Hunter's rule for what its
controller doesn't own is refused or left out naming the clause wherever it could change a
payment (the board has no owners).  Every payment is given back to ``validate``."""

from __future__ import annotations

from typing import Any

from cards import pay_validated as _pay
from manasolver.solver.service.protocol import answer

AGATHA = "Agatha's Soul Cauldron"
NATHAN = "Nathan Drake, Treasure Hunter"


def _board(*cards: str | dict[str, Any]) -> dict[str, Any]:
    field = [{"id": f"p{i}", **({"card": c} if isinstance(c, str) else c)} for i, c in enumerate(cards)]
    return {"players": [{"name": "you"}, {"name": "opp"}], "battlefield": field}


def _ask(board: dict[str, Any], cost: str, spell: dict[str, Any]) -> dict[str, Any]:
    out = answer({"query": "pay", "state": board, "cost": cost, "spell": spell})
    if out.get("payable"):
        check = answer({"query": "validate", "state": board, "cost": cost, "spell": spell,
                        "payment": out["payment"]})
        assert check.get("legal") is True, check
    return out


def test_agathas_soul_cauldron_survey_board_is_answered() -> None:
    """Beside three basics, `pay {1}{G}`: the rule changes nothing, nothing is left out."""
    out = _pay(_board(AGATHA, "Plains", "Island", "Forest"), "{1}{G}")
    assert out["payable"] is True and not out.get("unsupported")


def test_agathas_soul_cauldron_pays_a_creatures_mana_ability_cost_with_any_color() -> None:
    """Agent of Stromgald ("{R}: Add {B}") is a creature: under the Cauldron an Island's blue pays
    its {R}, so {B} is payable; without the Cauldron it is not."""
    out = _pay(_board(AGATHA, "Agent of Stromgald", "Island"), "{B}")
    assert out["payable"] is True and not out.get("unsupported")
    assert [a["mana"] for a in out["payment"]["activations"] if a["permanent"] == "p1"] == ["{B}"]
    assert _pay(_board("Agent of Stromgald", "Island"), "{B}")["payable"] is False


def test_agathas_soul_cauldron_validate_reads_the_widened_cost() -> None:
    """``validate`` takes the Island's blue for the Agent's {R} under the Cauldron (the pay answer,
    checked by ``_pay``), and calls the same payment illegal with a Plains in the Cauldron's place."""
    out = _pay(_board(AGATHA, "Agent of Stromgald", "Island"), "{B}")
    without = answer({"query": "validate", "state": _board("Plains", "Agent of Stromgald", "Island"), "cost": "{B}",
                      "payment": out["payment"]})
    assert without["legal"] is False


def test_agathas_soul_cauldron_named_ability_of_a_creature_on_the_battlefield() -> None:
    """Cudgel Troll's "{G}: Regenerate": with a Troll on the battlefield its {G} is paid by an
    Island; with none there the named ability is no creature's you control and {G} stays green."""
    spell = {"card": "Cudgel Troll", "ability": True}
    assert _ask(_board(AGATHA, "Cudgel Troll", "Island"), "{G}", spell)["payable"] is True
    assert _ask(_board(AGATHA, "Island"), "{G}", spell)["payable"] is False
    assert _ask(_board(AGATHA, "Island"), "{G}", {"card": "Cudgel Troll"})["payable"] is False


def test_agathas_soul_cauldron_ability_from_another_zone_is_refused() -> None:
    """Krosan Tusker has cycling, an ability of the card in hand: whether the named ability is a
    permanent's is not given, so the answer is refused naming the Cauldron's clause."""
    out = _ask(_board(AGATHA, "Krosan Tusker", "Island"), "{2}{G}", {"card": "Krosan Tusker", "ability": True})
    assert out["error"]["code"] == "unsupported" and "activate abilities of creatures" in out["error"]["message"]


def test_agathas_soul_cauldron_gives_exiled_abilities_to_countered_creatures() -> None:
    """"Creatures you control with +1/+1 counters on them have all activated abilities of all creature
    cards exiled with ~": with Llanowar Elves exiled, a Grizzly Bears with a +1/+1 counter taps for
    {G}; one without a counter does not."""
    cauldron = {"card": AGATHA, "imprinted": ["Llanowar Elves"]}
    countered = _pay(_board(cauldron, {"card": "Grizzly Bears", "counters": {"+1/+1": 1}}), "{G}")
    assert countered["payable"] is True
    assert [a["permanent"] for a in countered["payment"]["activations"]] == ["p1"]
    assert _pay(_board(cauldron, "Grizzly Bears"), "{G}")["payable"] is False


def test_nathan_drake_survey_board_is_answered() -> None:
    """Beside three basics, `pay {1}{G}` for no named spell: no spell the player doesn't own and no
    colored activation cost, so the rule changes nothing."""
    out = _pay(_board(NATHAN, "Plains", "Island", "Forest"), "{1}{G}")
    assert out["payable"] is True and not out.get("unsupported")


def test_nathan_drake_named_spell_with_a_colored_symbol_is_refused() -> None:
    """A named spell may be one the player doesn't own (the board has no owners): refused naming the
    clause when the cost has a colored symbol; a generic cost is answered."""
    out = _ask(_board(NATHAN, "Island"), "{G}", {"card": "Grizzly Bears"})
    assert out["error"]["code"] == "unsupported" and "don't own" in out["error"]["message"]
    assert _ask(_board(NATHAN, "Island"), "{1}", {"card": "Grizzly Bears"})["payable"] is True


def test_nathan_drake_colored_activation_cost_is_left_out() -> None:
    """Agent of Stromgald's {R} could be paid by any mana if the player doesn't own it: where the
    Agent might help it is refused naming Nathan's clause, where it can't help ({G} from a Forest)
    it is left out naming it, and ``validate`` refuses its activation naming the same clause."""
    board = _board(NATHAN, "Agent of Stromgald", "Island")
    out = _pay(board, "{B}")
    assert out["error"]["code"] == "unsupported" and "don't own" in out["error"]["message"]
    green = _pay(_board(NATHAN, "Agent of Stromgald", "Forest"), "{G}")
    assert green["payable"] is True
    assert [u["permanent"] for u in green["unsupported"]] == ["p1"] and "don't own" in green["unsupported"][0]["reason"]
    agatha = _pay(_board(AGATHA, "Agent of Stromgald", "Island"), "{B}")
    check = answer({"query": "validate", "state": board, "cost": "{B}", "payment": agatha["payment"]})
    assert check["legal"] is False and "don't own" in check["problems"][0]
