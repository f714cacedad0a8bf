"""The payment's order keeps snow mana for ``{S}`` (CR 107.4h, 601.2g): a Captivating Cave's {1}
("{1}, {T}: Add one mana of any color") is paid by the plain Forest, so its activation comes after
the Forest and the Snow-Covered Forest's {G} is left for ``{S}``; ``validate`` accepts the order."""

from __future__ import annotations

from manasolver.solver.service.protocol import answer

BOARD = {"players": [{"name": "you"}],
         "battlefield": [{"id": "snow", "card": "Snow-Covered Forest"}, {"id": "cave", "card": "Captivating Cave"},
                         {"id": "plain", "card": "Forest"}]}


def test_captivating_cave_paid_by_the_plain_forest_leaves_snow_for_s() -> None:
    for kind in ("pay", "payments"):
        out = answer({"query": kind, "state": BOARD, "cost": "{S}{B}"})
        listed = [out["payment"]] if kind == "pay" else out["payments"]
        assert listed
        for payment in listed:
            order = [a["permanent"] for a in payment["activations"]]
            assert order.index("plain") < order.index("cave")
            check = answer({"query": "validate", "state": BOARD, "cost": "{S}{B}", "payment": payment})
            assert check == {"legal": True, "problems": []}
