"""Cards whose mana reads the board's history fields: ``cards_drawn_this_turn``, ``entered_this_turn``,
``renowned``, ``designations`` and ``library``.  Each answers exactly from the field, and is
``unsupported`` naming the field where the board leaves it out.  Every payment is checked by
``validate``."""

from __future__ import annotations

from typing import Any

from cards import pay_validated as _pay


def _board(card: str, perm: dict[str, Any] | None = None, *others: dict[str, Any] | str,
           **player: Any) -> dict[str, Any]:
    field: list[dict[str, Any]] = [{"id": "k", "card": card, **(perm or {})}]
    for i, other in enumerate(others):
        field.append({"id": f"o{i}", **({"card": other} if isinstance(other, str) else other)})
    return {"players": [{"name": "you", **player}, {"name": "opp"}], "battlefield": field}


def _unsupported(out: dict[str, Any], where: str) -> None:
    assert out["error"]["code"] == "unsupported", out
    assert out["error"]["where"] == where, out


def _mana(out: dict[str, Any], pid: str = "k") -> str:
    return "".join(a["mana"] for a in out["payment"]["activations"] if a["permanent"] == pid)


def test_kydele_chosen_of_kruphix_adds_c_per_card_drawn() -> None:
    """Kydele: "{T}: Add {C} for each card you've drawn this turn" reads cards_drawn_this_turn
    (default 0)."""
    assert _mana(_pay(_board("Kydele, Chosen of Kruphix", None, cards_drawn_this_turn=3), "{3}")) == "{C}{C}{C}"
    assert _pay(_board("Kydele, Chosen of Kruphix", None, cards_drawn_this_turn=2), "{3}")["payable"] is False
    assert _pay(_board("Kydele, Chosen of Kruphix"), "{1}")["payable"] is False


def test_alena_kessig_trapper_reads_creatures_that_entered_this_turn() -> None:
    """Alena: {R} equal to the greatest power among creatures you control that entered this turn
    (her own 4, a Grizzly Bears' 2 when she did not)."""
    alena = "Alena, Kessig Trapper"
    assert _mana(_pay(_board(alena, {"entered_this_turn": True}), "{4}")) == "{R}{R}{R}{R}"
    out = _pay(_board(alena, {"entered_this_turn": False},
                      {"card": "Grizzly Bears", "entered_this_turn": True}), "{2}")
    assert _mana(out) == "{R}{R}"
    out = _pay(_board(alena, {"entered_this_turn": False},
                      {"card": "Grizzly Bears", "entered_this_turn": False}), "{1}")
    assert out["payable"] is False
    _unsupported(_pay(_board(alena, {"entered_this_turn": False}, "Grizzly Bears"), "{1}"),
                 "battlefield[1].entered_this_turn")
    _unsupported(_pay(_board(alena), "{1}"), "battlefield[0].entered_this_turn")
