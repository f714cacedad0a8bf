"""``validate``'s check of the stated order gives each activation back the mana it made, restricted
or not (CR 106.6, 601.2g): Omen Hawker's "{T}: Add {C}{U}. Spend this mana only to activate
abilities." pays Capital City's {1} while a Nimbus Maze's {C} pays the spell."""

from __future__ import annotations

from manasolver.solver.service.protocol import answer

BOARD = {"players": [{"name": "you", "life": 3, "pool": "{G}"}],
         "battlefield": [{"id": "hawk", "card": "Omen Hawker"}, {"id": "forest", "card": "Forest"},
                         {"id": "city", "card": "Capital City"}, {"id": "maze", "card": "Nimbus Maze"}]}


def _payment(first: str, last: str) -> dict[str, object]:
    acts = {"hawk": {"permanent": "hawk", "ability": 0, "costs": ["{T}"], "mana": "{U}{C}"},
            "maze": {"permanent": "maze", "ability": 0, "costs": ["{T}"], "mana": "{C}"}}
    return {"total": "{2}{R}", "choices": [{"symbol": "{2/R}", "paid_as": "{2}"}], "x": 0,
            "activations": [acts[first], {"permanent": "city", "ability": 1, "costs": ["{1}", "{T}"], "mana": "{R}"},
                            acts[last]],
            "pool_used": "{G}", "convoked": [], "delved": [], "improvised": [], "life": 0, "energy": 0,
            "damage": 0, "floating": "{U}"}


def test_omen_hawker_mana_pays_capital_citys_cost_in_the_stated_order() -> None:
    """Hawker first, Capital City paid from its {C}, the Maze's {C} and the pool's {G} pay {2}: legal."""
    out = answer({"query": "validate", "state": BOARD, "cost": "{2/R}{R}", "payment": _payment("hawk", "maze")})
    assert out == {"legal": True, "problems": []}


def test_omen_hawker_after_capital_city_is_out_of_order() -> None:
    """The Maze first and the Hawker last: nothing before Capital City may pay its {1} but the Maze's
    {C}, which the spell then lacks (the Hawker's mana can't pay a spell): the order is refused."""
    out = answer({"query": "validate", "state": BOARD, "cost": "{2/R}{R}", "payment": _payment("maze", "hawk")})
    assert out["legal"] is False
