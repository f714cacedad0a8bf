"""``options`` with Spirit Guides in the hand: "Exile this card from your hand: Add {R}" is free and
fixed (CR 605.1a: a mana ability of a card in the hand), so every maximal pool of the board holds its
mana besides, and the list stays complete; a hand card whose ability is not free is named as left
out.  Each pool listed is payable as a cost, as the payment queries spend the same cards."""

from __future__ import annotations

from manasolver.solver import answer


def _board(hand: list[str]) -> dict[str, object]:
    return {"players": [{"name": "you", "hand": hand}],
            "battlefield": [{"id": "i", "card": "Island"}, {"id": "s", "card": "Sol Ring"}]}


def test_options_simian_and_elvish_spirit_guide_beside_every_pool() -> None:
    state = _board(["Simian Spirit Guide", "Elvish Spirit Guide", "Simian Spirit Guide"])
    out = answer({"query": "options", "state": state})
    assert out == {"options": ["{U}{R}{R}{G}{C}{C}"], "complete": True}
    assert answer({"query": "can_pay", "state": state, "cost": out["options"][0]})["payable"] is True
    assert answer({"query": "can_pay", "state": state, "cost": "{U}{R}{R}{R}{G}{C}{C}"})["payable"] is False


def test_options_spirit_guide_with_converters_keeps_every_pool() -> None:
    """A filter land's pools each gain the Guide's {R}."""
    state = {"players": [{"name": "you", "hand": ["Simian Spirit Guide"]}],
             "battlefield": [{"id": "i", "card": "Island"}, {"id": "m", "card": "Mystic Gate"}]}
    bare = answer({"query": "options", "state": {**state, "players": [{"name": "you"}]}})
    out = answer({"query": "options", "state": state})
    assert out["complete"] is True and len(out["options"]) == len(bare["options"])
    for pool in out["options"]:
        assert "{R}" in pool and answer({"query": "can_pay", "state": state, "cost": pool})["payable"] is True
