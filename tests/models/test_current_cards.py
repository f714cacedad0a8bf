"""Cards printed since 2022, read from the bundled card data with their current cost and text.

Each test looks a card up in the bundled database (no inline characteristics) and checks its mana
cost, mana value (CR 202.3), colors (CR 202.2, 702.114 devoid) and what the engine reads of its text.
"""

from __future__ import annotations

import pytest
from cards import json_board
from manasolver.models.carddb import CardDB
from manasolver.models.cost import ManaCost
from manasolver.models.symbols import C, G, U, W, parse_symbol
from manasolver.models.text.triggers import triggers_of
from manasolver.solver.service.protocol import answer


@pytest.fixture(scope="module")
def db() -> CardDB:
    return CardDB()


def test_overlord_of_the_hauntwoods_current_text_702_176(db: CardDB) -> None:
    """Overlord of the Hauntwoods: {3}{G}{G}, impending {1}{G}{G} (CR 702.176), and today's "Whenever
    this permanent enters or attacks" trigger read as its own enters-or-attacks trigger."""
    card = db.get("Overlord of the Hauntwoods")
    assert card.mana_cost is not None and card.mana_cost.format() == "{3}{G}{G}"
    assert card.mana_value == 5 and card.colors == G
    assert "Whenever this permanent enters or attacks" in card.oracle_text
    assert [(kind, cost.format()) for kind, cost in card.alternative_costs] == [("impending", "{1}{G}{G}")]
    (trigger,) = [t.to_json() for t in triggers_of(card)]
    assert trigger["event"] == "enters" and trigger["also_attacks"] is True
    assert trigger["effects"] == [{"kind": "token", "amount": 1, "token": "Everywhere", "tapped": True}]


def test_nissa_worldsoul_speaker_landfall_energy(db: CardDB) -> None:
    """Nissa, Worldsoul Speaker (2024): {3}{G}; "Landfall — Whenever a land you control enters, you get
    {E}{E}" is read as a landfall trigger giving two energy (CR 107.14)."""
    card = db.get("Nissa, Worldsoul Speaker")
    assert card.mana_cost is not None and card.mana_cost.format() == "{3}{G}"
    assert card.mana_value == 4 and card.colors == G
    (trigger,) = [t.to_json() for t in triggers_of(card)]
    assert trigger["event"] == "landfall"
    assert trigger["effects"] == [{"kind": "energy", "amount": 2}]


def test_roil_cartographer_landfall_energy(db: CardDB) -> None:
    """Roil Cartographer (2024): {1}{U}; its landfall trigger gives one energy."""
    card = db.get("Roil Cartographer")
    assert card.mana_cost is not None and card.mana_cost.format() == "{1}{U}"
    assert card.mana_value == 2 and card.colors == U
    (trigger,) = [t.to_json() for t in triggers_of(card)]
    assert trigger["event"] == "landfall"
    assert trigger["effects"] == [{"kind": "energy", "amount": 1}]


def test_ulalek_fused_atrocity_colorless_hybrid_107_4e(db: CardDB) -> None:
    """Ulalek, Fused Atrocity (2024): {C/W}{C/U}{C/B}{C/R}{C/G}.  Each symbol is paid with one
    colorless mana or one mana of its color (CR 107.4e) and adds 1 to the mana value (202.3f);
    devoid makes the card colorless (702.114a); the notation round-trips."""
    card = db.get("Ulalek, Fused Atrocity")
    assert card.mana_cost is not None
    assert card.mana_cost.format() == "{C/W}{C/U}{C/B}{C/R}{C/G}"
    assert ManaCost.parse(card.mana_cost.format()) == card.mana_cost
    assert card.mana_value == 5 and card.colors == 0
    sym = parse_symbol("{C/W}")
    assert sym.mana_value == 1 and [(w.kind, w.mask) for w in sym.ways_to_pay()] == [("mana", C), ("mana", W)]
    assert parse_symbol("{W/C}").text == "{C/W}"
    wastes = json_board(*["Wastes"] * 5)
    assert answer({"query": "can_pay", "state": wastes, "cost": "{C/W}{C/U}{C/B}{C/R}{C/G}"})["payable"] is True
    mixed = json_board("Plains", "Island", "Swamp", "Mountain", "Wastes")
    assert answer({"query": "can_pay", "state": mixed, "cost": "{C/W}{C/U}{C/B}{C/R}{C/G}"})["payable"] is True
    plains = json_board(*["Plains"] * 5)
    assert answer({"query": "can_pay", "state": plains, "cost": "{C/W}{C/U}{C/B}{C/R}{C/G}"})["payable"] is False


def test_kozilek_compleated_colorless_phyrexian_107_4f(db: CardDB) -> None:
    """Kozilek, Compleated: {8}{C/P}{C/P}.  A colorless Phyrexian symbol is paid with one colorless
    mana or 2 life (CR 107.4f) and adds 1 to the mana value."""
    card = db.get("Kozilek, Compleated")
    assert card.mana_cost is not None and card.mana_cost.format() == "{8}{C/P}{C/P}"
    assert card.mana_value == 10 and card.colors == 0
    sym = parse_symbol("{C/P}")
    assert [(w.kind, w.mask, w.amount) for w in sym.ways_to_pay()] == [("mana", C, 1), ("life", 0, 2)]
    board = json_board("Wastes")
    assert answer({"query": "can_pay", "state": board, "cost": "{C/P}{C/P}"})["payable"] is True
    assert answer({"query": "can_pay", "state": json_board("Plains"), "cost": "{C}"})["payable"] is False


def test_todays_wording_this_land_enters_tapped_614_1c(db: CardDB) -> None:
    """Today's "This land enters tapped." (CR 614.1c) is read as the old "~ enters the battlefield
    tapped." was (Temple of Malady)."""
    card = db.get("Temple of Malady")
    assert "This land enters tapped." in card.oracle_text
    assert card.text is not None and card.text.enters_tapped is True


def test_todays_wording_loyalty_costs_in_brackets_606(db: CardDB) -> None:
    """MTGJSON writes loyalty costs "[+1]:"; a loyalty ability is never a mana ability (CR 606, 605.1a)."""
    card = db.get("Chandra, Torch of Defiance")
    assert "[+1]: Add {R}{R}." in card.oracle_text
    assert card.mana_abilities == ()
    assert card.unsupported == ()


def test_sink_into_stupor_modal_dfc_land_back_face_712(db: CardDB) -> None:
    """Sink into Stupor // Soporific Springs (2024): the corpus gives the instant only; the land face
    comes from the supplement.  The back face is a land that taps for {U} (CR 712: a modal double-faced
    card is played as either face), looked up by its own name too."""
    card = db.get("Sink into Stupor // Soporific Springs")
    assert [f.name for f in card.faces] == ["Sink into Stupor", "Soporific Springs"]
    assert card.mana_cost is not None and card.mana_cost.format() == "{1}{U}{U}" and card.mana_value == 3
    land = db.get("Soporific Springs")
    assert "land" in land.type_line.types and land.colors == 0
    assert [a.text for a in land.mana_abilities] == ["{T}: Add {U}."]
    assert db.record("Sink into Stupor // Soporific Springs").get("missing_faces") is None  # type: ignore[union-attr]
