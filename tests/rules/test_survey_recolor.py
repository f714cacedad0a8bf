"""Foraging Wickermaw's "{1}: Add one mana of any color. This creature becomes that color until end
of turn. Activate only once each turn.": the color change (layer 5, CR 613.1d) reads nothing of
the payment, so the ability is applied; where something later in the payment could read the new
color (convoke tapping it, another permanent's text speaking of colors) the answer is refused
naming the clause.  Every payment is given back to ``validate``."""

from __future__ import annotations

from typing import Any

from cards import pay_validated as _pay
from manasolver.solver.service.protocol import answer

WICKERMAW = "Foraging Wickermaw"


def _board(*cards: str | dict[str, Any]) -> dict[str, Any]:
    field = [{"id": f"p{i}", **({"card": c} if isinstance(c, str) else c)} for i, c in enumerate(cards)]
    return {"players": [{"name": "you"}, {"name": "opp"}], "battlefield": field}


def test_foraging_wickermaw_filters_one_mana_into_any_color() -> None:
    """A Plains's {W} pays the Wickermaw's {1} for a {U}: {U}{G} payable beside a Forest, not without
    the Wickermaw; the survey's board is answered whole."""
    out = _pay(_board(WICKERMAW, "Plains", "Forest"), "{U}{G}")
    assert [a["mana"] for a in out["payment"]["activations"] if a["permanent"] == "p0"] == ["{U}"]
    assert _pay(_board("Plains", "Forest"), "{U}{G}")["payable"] is False
    survey = _pay(_board(WICKERMAW, "Plains", "Island", "Forest"), "{1}{G}")
    assert survey["payable"] is True and not survey.get("unsupported")


def test_foraging_wickermaw_activates_only_once_each_turn() -> None:
    """Once each turn (CR 602.5b): not two {U} from three lands; none once the board says it was
    activated this turn."""
    assert _pay(_board(WICKERMAW, "Plains", "Plains", "Forest"), "{U}{U}")["payable"] is False
    used = _board({"card": WICKERMAW, "activated_this_turn": {"0": 1}}, "Plains", "Forest")
    assert _pay(used, "{U}{G}")["payable"] is False


def test_foraging_wickermaw_with_convoke_is_refused() -> None:
    """Convoke could tap the Wickermaw for the color it became: refused naming the clause."""
    out = answer({"query": "pay", "state": _board(WICKERMAW, "Plains", "Forest"), "cost": "{U}{G}", "convoke": True})
    assert out["error"]["code"] == "unsupported" and "becomes that color" in out["error"]["message"]


def test_foraging_wickermaw_beside_a_color_reader_is_refused() -> None:
    """Grand Architect's "Tap an untapped blue creature you control: Add {C}{C}" could tap a
    Wickermaw that became blue: refused naming the clause; ``options`` too."""
    board = _board(WICKERMAW, "Grand Architect", "Plains", "Forest")
    out = answer({"query": "pay", "state": board, "cost": "{U}{G}"})
    assert out["error"]["code"] == "unsupported" and "Grand Architect" in out["error"]["message"]
    options = answer({"query": "options", "state": board})
    assert options["error"]["code"] == "unsupported" and "becomes that color" in options["error"]["message"]
