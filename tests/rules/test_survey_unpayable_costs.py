"""Costs the supply does not spend, answered where the board can't pay them (CR 118.3): Benthic
Explorers' "Untap a tapped land an opponent controls" with no such land, Cryptex's "Collect
evidence 3" (CR 701.59a: exile graveyard cards with total mana value 3 or more) with less in the
graveyard.  Where the board could pay them the source is still left out (or the answer refused)
naming the clause.  Every payment is given back to ``validate``."""

from __future__ import annotations

from typing import Any

from cards import pay_validated as _pay


def _board(*cards: str | dict[str, Any], graveyard: list[str] | None = None) -> dict[str, Any]:
    field = [{"id": f"p{i}", **({"card": c} if isinstance(c, str) else c)} for i, c in enumerate(cards)]
    return {"players": [{"name": "you", "graveyard": graveyard or []}, {"name": "opp"}], "battlefield": field}


def _named(out: dict[str, Any], words: str) -> bool:
    """Is the clause refused or left out, naming ``words``?"""
    if "error" in out:
        return out["error"]["code"] == "unsupported" and words in out["error"]["message"]
    return any(words in u["reason"] for u in out.get("unsupported", []))


def test_benthic_explorers_without_a_tapped_opponent_land_adds_nothing() -> None:
    """No land of the opponent's is tapped (or there is none): the Explorers can't pay their cost,
    so {U} is unpayable and nothing is left out; the survey board is answered whole."""
    alone = _pay(_board("Benthic Explorers"), "{U}")
    assert alone["payable"] is False and not alone.get("unsupported")
    out = _pay(_board("Benthic Explorers", {"card": "Island", "controller": "opp"}), "{U}")
    assert out["payable"] is False and not out.get("unsupported")
    survey = _pay(_board("Benthic Explorers", "Plains", "Island", "Forest"), "{1}{G}")
    assert survey["payable"] is True and not survey.get("unsupported")


def test_benthic_explorers_with_a_tapped_opponent_land_is_named() -> None:
    """A tapped Island of the opponent's could be untapped for {U}: the Explorers are named."""
    out = _pay(_board("Benthic Explorers", {"card": "Island", "controller": "opp", "tapped": True}), "{U}")
    assert _named(out, "untapping a tapped land an opponent controls")


def test_cryptex_without_enough_evidence_adds_nothing() -> None:
    """An empty graveyard, or one Opt (mana value 1): no evidence of 3, {U} unpayable and nothing
    left out; the survey board is answered whole."""
    for graveyard in ([], ["Opt"], ["Opt", "Opt"]):
        out = _pay(_board("Cryptex", graveyard=graveyard), "{U}")
        assert out["payable"] is False and not out.get("unsupported"), graveyard
    survey = _pay(_board("Cryptex", "Plains", "Island", "Forest"), "{1}{G}")
    assert survey["payable"] is True and not survey.get("unsupported")


def test_cryptex_with_enough_evidence_is_named() -> None:
    """Opt and Counterspell (1 + 2): evidence 3 can be collected, and the Cryptex is named."""
    out = _pay(_board("Cryptex", graveyard=["Opt", "Counterspell"]), "{U}")
    assert _named(out, "collecting evidence")
