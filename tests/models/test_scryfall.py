"""Scryfall's shapes read as cards: a single card object, a list, a bulk array; faces, mana value
(CR 202.3, 712.8), back-face names, tokens skipped (fixtures in tests/data/scryfall/)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from manasolver.models.carddb import CardDB, load_card_file, scryfall_to_record
from manasolver.models.errors import BadState
from manasolver.models.symbols import ANY_COLOR, G, R, U, W

SCRYFALL = Path(__file__).resolve().parents[1] / "data" / "scryfall"
EMERIA = SCRYFALL / "emerias-call.json"
BULK = SCRYFALL / "oracle-cards.json"
LIST = SCRYFALL / "list.json"


@pytest.fixture(scope="module")
def bulk() -> CardDB:
    return CardDB(overlay=load_card_file(BULK))


def test_single_card_object_mdfc_mana_value_7() -> None:
    """What /cards/named answers, pretty-printed: a modal double-faced card has its front face's
    mana value (CR 712.8a: 7, Scryfall's cmc), not 0 from the missing top-level mana cost."""
    db = CardDB(overlay=load_card_file(EMERIA))
    call = db.get("Emeria's Call // Emeria, Shattered Skyclave")
    assert call.mana_value == 7 == json.loads(EMERIA.read_text(encoding="utf-8"))["cmc"]
    assert call.colors == W and call.layout == "modal_dfc"
    assert [f.name for f in call.faces] == ["Emeria's Call", "Emeria, Shattered Skyclave"]
    assert db.get("Emeria's Call").mana_value == 7


def test_mdfc_back_face_land_by_name() -> None:
    """The back face is a land of its own: its own characteristics (CR 712.8d), mana value 0, {T}: Add {W}, the current
    "enters tapped" wording kept."""
    land = CardDB(overlay=load_card_file(EMERIA)).get("Emeria, Shattered Skyclave")
    assert land.mana_value == 0 and land.colors == 0
    assert land.type_line.types == ("land",)
    assert [a.production.options for a in land.mana_abilities] == [((W,),)]
    assert "it enters tapped" in land.oracle_text


def test_one_line_card_object_is_converted(tmp_path: Path) -> None:
    """A compact single object on one line is a Scryfall card, not one of our records: its
    card_faces become faces (the old reading gave it mana value 0)."""
    path = tmp_path / "emeria.json"
    path.write_text(json.dumps(json.loads(EMERIA.read_text(encoding="utf-8"))), encoding="utf-8")
    assert CardDB(overlay=load_card_file(path)).get("Emeria's Call").mana_value == 7


def test_transform_back_face_resolves_with_front_mana_value(bulk: CardDB) -> None:
    """Delver of Secrets // Insectile Aberration: both names resolve; the back face has the front
    face's mana value (CR 712.8e) and its color indicator's blue; only the back face flies
    (Scryfall's keywords list the whole card's)."""
    delver = bulk.get("Delver of Secrets")
    aberration = bulk.get("Insectile Aberration")
    assert delver.mana_value == 1 and aberration.mana_value == 1
    assert delver.colors == U and aberration.colors == U
    assert "flying" in aberration.keywords and "flying" not in delver.keywords
    assert aberration.power == "3" and aberration.toughness == "2"


def test_split_card_both_halves_and_each_half(bulk: CardDB) -> None:
    """Fire // Ice: the whole card has both halves' costs (CR 709.4: mana value 4, red and blue);
    each half by its name is that half."""
    whole = bulk.get("Fire // Ice")
    assert whole.mana_value == 4 and whole.colors == R | U
    assert bulk.get("Ice").mana_value == 2 and bulk.get("Ice").colors == U


def test_adventurer_front_and_adventure(bulk: CardDB) -> None:
    giant = bulk.get("Bonecrusher Giant")
    assert giant.mana_value == 3 and giant.power == "4"
    assert bulk.get("Stomp").mana_value == 2


def test_bulk_mana_values_match_cmc() -> None:
    """Every card of the bulk fixture gets the mana value Scryfall gives it (cmc)."""
    db = CardDB(overlay=load_card_file(BULK))
    objects = json.loads(BULK.read_text(encoding="utf-8"))
    checked = 0
    for obj in objects:
        if obj["layout"] == "token":
            continue
        assert db.get(obj["name"]).mana_value == obj["cmc"], obj["name"]
        checked += 1
    assert checked == 7


def test_bulk_token_object_skipped_for_predefined_treasure(bulk: CardDB) -> None:
    """Scryfall's Treasure token object is not a card: "Treasure" stays the predefined token
    of the board, whose mana is any color."""
    treasure = bulk.get("Treasure")
    assert treasure.mana_abilities[0].production.options == ((ANY_COLOR,),)


def test_list_object(tmp_path: Path) -> None:
    """A Scryfall list ({"object": "list", "data": [...]}) gives its cards."""
    records = load_card_file(LIST)
    db = CardDB(overlay=records)
    assert db.get("Insectile Aberration").mana_value == 1
    assert db.get("Fire // Ice").mana_value == 4
    assert "llanowar elves" not in records


def test_mdfc_with_green_back_face_mana(bulk: CardDB) -> None:
    sanctuary = bulk.get("Bala Ged Sanctuary")
    assert sanctuary.mana_abilities[0].production.options == ((G,),)
    assert bulk.get("Bala Ged Recovery").mana_value == 3


def test_reversible_card_reads_its_first_side() -> None:
    """A reversible card (the same card on both sides) is read as that card."""
    rec = scryfall_to_record({
        "object": "card", "name": "Llanowar Elves // Llanowar Elves", "layout": "reversible_card",
        "card_faces": [{"object": "card_face", "name": "Llanowar Elves", "mana_cost": "{G}", "cmc": 1.0,
                        "type_line": "Creature — Elf Druid", "oracle_text": "{T}: Add {G}.", "colors": ["G"],
                        "layout": "normal"}] * 2})
    assert rec is not None and rec["name"] == "Llanowar Elves" and rec["mana_value"] == 1.0
    assert "faces" not in rec


@pytest.mark.parametrize("text, says", [
    ('{"object": "list"}', "without a 'data' array"),
    ('{"object": "ruling", "comment": "x"}', "a Scryfall 'ruling' object, not a card"),
    ('{"object": "error", "details": "No cards found"}', "No cards found"),
    ('{"object": "list", "data": [{"object": "card", "layout": "normal"}]}', "data[0].name"),
])
def test_scryfall_objects_that_are_not_cards(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "x.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BadState) as info:
        load_card_file(path)
    assert says in str(info.value) + str(info.value.where) and str(path) in str(info.value) + info.value.where
