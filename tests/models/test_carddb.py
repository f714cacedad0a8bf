"""The card database: lookups, faces, suggestions, tokens, user card files, colors (CR 202, 204)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from manasolver.models.carddb import (
    CardDB,
    card_from_record,
    default_db,
    load_card_file,
    scryfall_to_record,
)
from manasolver.models.errors import BadCost, BadState, UnknownCard
from manasolver.models.symbols import ANY_COLOR, B, C, G, R, U, W


def test_exact_lookup_is_case_insensitive(db: CardDB) -> None:
    assert db.get("forest").name == "Forest"
    assert db.get("  LLANOWAR ELVES ").name == "Llanowar Elves"


def test_front_face_of_adventurer(db: CardDB) -> None:
    """CR 715.4: outside the stack an adventurer has only its creature characteristics."""
    card = db.get("Bonecrusher Giant")
    assert card.name == "Bonecrusher Giant"
    assert card.mana_value == 3 and card.is_type("creature") and not card.is_type("instant")
    assert [f.name for f in card.faces] == ["Bonecrusher Giant", "Stomp"]
    assert db.get("Bonecrusher Giant // Stomp").name == "Bonecrusher Giant"


def test_transform_front_face(db: CardDB) -> None:
    """CR 712.8a: a double-faced card has its front face's characteristics."""
    card = db.get("Delver of Secrets")
    assert card.name == "Delver of Secrets" and card.mana_value == 1
    assert "Insectile Aberration" in card.faces[1].name


def test_split_card_has_both_halves(db: CardDB) -> None:
    """CR 709.4, 202.3d: off the stack a split card has the combined mana value and colors."""
    card = db.get("Fire // Ice")
    assert card.mana_value == 4
    assert card.colors == U | R
    assert db.get("Fire").name == "Fire // Ice"


def test_exact_name_beats_front_face(db: CardDB) -> None:
    """"Bind" is a card of its own, and also the front half of "Bind // Liberate"."""
    assert db.get("Bind").name == "Bind"
    assert db.get("Bind // Liberate").name == "Bind // Liberate"


def test_unknown_card_suggests_close_names(db: CardDB) -> None:
    with pytest.raises(UnknownCard) as info:
        db.get("Llanowar Elfs", "battlefield[1].card")
    err = info.value
    assert "Llanowar Elves" in err.suggestions
    assert 0 < len(err.suggestions) <= 5
    assert "Llanowar Elves" in str(err) and err.where == "battlefield[1].card"


def test_suggestions_include_names_containing_the_query(db: CardDB) -> None:
    with pytest.raises(UnknownCard) as info:
        db.get("Nykthos")
    assert "Nykthos, Shrine to Nyx" in info.value.suggestions
    with pytest.raises(UnknownCard) as info2:
        db.get("xyzzy qwv")
    assert len(info2.value.suggestions) <= 5


def test_suggestion_is_fast(db: CardDB) -> None:
    start = time.perf_counter()
    with pytest.raises(UnknownCard) as info:
        db.get("Sol Rnig")
    assert "Sol Ring" in info.value.suggestions
    assert time.perf_counter() - start < 5.0  # generous: a sanity bound, not a benchmark


def test_record_and_names(db: CardDB) -> None:
    rec = db.record("Sol Ring")
    assert rec is not None and rec["mana_cost"] == "{1}"
    assert "sets" not in rec
    assert db.record("No Such Card Anywhere") is None
    names = db.names()
    assert len(names) > 23000 and "Sol Ring" in names and "Treasure" in names


def test_reaper_king_mana_value_and_colors(db: CardDB) -> None:
    """CR 202.3f and 202.2d: monocolored hybrid counts its largest half and gives its color."""
    card = db.get("Reaper King")
    assert card.mana_value == 10
    assert card.color_letters == ["W", "U", "B", "R", "G"]


def test_lands_are_colorless(db: CardDB) -> None:
    """CR 202.2b: a land has no mana cost, so it is colorless."""
    assert db.get("Forest").colors == 0
    assert db.get("Forest").mana_cost is None


def test_overlord_impending(db: CardDB) -> None:
    """CR 702.176: Overlord of the Hauntwoods, impending 4—{1}{G}{G}; MV 5, green."""
    card = db.get("Overlord of the Hauntwoods")
    assert card.mana_value == 5 and card.colors == G
    assert "impending" in card.keywords
    cost = card.alternative_cost("impending")
    assert cost is not None and cost.format() == "{1}{G}{G}"


def test_keywords(db: CardDB) -> None:
    assert "haste" in db.get("Goblin Guide").keywords
    assert "flash" in db.get("Brazen Borrower").keywords
    assert "convoke" in db.get("Chord of Calling").keywords
    assert "delve" in db.get("Treasure Cruise").keywords
    assert "improvise" in db.get("Whir of Invention").keywords
    assert "devoid" in db.get("Ruination Guide").keywords and db.get("Ruination Guide").colors == 0
    assert "affinity for artifacts" in db.get("Myr Enforcer").keywords


def test_devoid_inline_card_is_colorless() -> None:
    """CR 702.114a: devoid makes a card colorless although its cost has colors
    (Ulalek, Fused Atrocity is not in the bundled data; given inline)."""
    card = card_from_record({"name": "Ulalek, Fused Atrocity", "type_line": "Legendary Creature — Eldrazi",
                             "mana_cost": "{C/W}{C/U}{C/B}{C/R}{C/G}",
                             "oracle_text": "Devoid (This card has no color.)\nWhenever you cast an Eldrazi spell, "
                                            "you may pay {C}{C}. If you do, copy all spells you control."})
    assert card.colors == 0
    assert card.mana_value == 5
    assert "devoid" in card.keywords


def test_all_colors_and_color_indicator() -> None:
    """CR 202.2, 204: "is all colors" text and a color indicator."""
    courier = card_from_record({"name": "Transguild Courier", "type_line": "Artifact Creature — Golem",
                                "mana_cost": "{4}", "oracle_text": "Transguild Courier is all colors."})
    assert courier.colors == ANY_COLOR
    back = card_from_record({"name": "Perfected Form", "type_line": "Creature — Insect Horror",
                             "mana_cost": "", "oracle_text": "Flying", "color_indicator": ["U"]})
    assert back.colors == U


def test_given_colors_override() -> None:
    card = card_from_record({"name": "Test Dork", "type_line": "Creature — Elf", "mana_cost": "{G}",
                             "oracle_text": "{T}: Add {G}.", "colors": ["W", "B"]})
    assert card.colors == W | B


def test_inline_card_errors_name_the_field() -> None:
    with pytest.raises(BadState) as info:
        card_from_record({"name": 3}, "battlefield[2]")
    assert info.value.where == "battlefield[2].name"
    with pytest.raises(BadCost) as cost_info:
        card_from_record({"name": "X", "mana_cost": "{Q/Z}"}, "battlefield[0]")
    assert cost_info.value.where.startswith("battlefield[0].mana_cost")
    with pytest.raises(BadState):
        card_from_record({"name": "X", "colors": ["purple"]}, "b")


# -- tokens ---------------------------------------------------------------------------------------


def test_treasure_token(db: CardDB) -> None:
    """On the board: "Treasure" names the predefined token; it sacrifices itself for any color."""
    card = db.get("Treasure")
    assert card.type_line.types == ("artifact",)
    (ability,) = card.mana_abilities
    assert ability.cost.tap and ability.cost.sacrifice_self
    assert ability.production.options == ((ANY_COLOR,),)


def test_gold_powerstone_spawn_scion(db: CardDB) -> None:
    gold = db.get("gold").mana_abilities[0]
    assert gold.cost.sacrifice_self and not gold.cost.tap
    power = db.get("Powerstone").mana_abilities[0]
    assert power.production.options == ((C,),)
    restriction = power.production.restriction
    assert restriction is not None and restriction.spell_types == frozenset({"artifact"}) and restriction.any_ability
    spawn, scion = db.get("Eldrazi Spawn"), db.get("Eldrazi Scion")
    assert (spawn.power, spawn.toughness, scion.power) == ("0", "1", "1")
    assert spawn.colors == 0 and spawn.mana_abilities[0].cost.sacrifice_self


def test_everywhere_token_has_five_intrinsic_abilities(db: CardDB) -> None:
    """CR 305.6; Overlord ruling: Everywhere is every basic land type, colorless and nonbasic."""
    card = db.get("Everywhere")
    assert card.colors == 0 and "basic" not in card.type_line.supertypes
    assert [a.production.options for a in card.mana_abilities] == [((W,),), ((U,),), ((B,),), ((R,),), ((G,),)]
    assert all(a.intrinsic for a in card.mana_abilities)
    assert [a.index for a in card.mana_abilities] == [0, 1, 2, 3, 4]


# -- user card files -------------------------------------------------------------------------------


def test_overlay_jsonl(tmp_path: Path) -> None:
    path = tmp_path / "new.jsonl"
    records = [
        {"name": "Roil Cartographer", "mana_cost": "{2}{U}", "type_line": "Creature — Merfolk Scout",
         "colors": ["U"], "oracle_text": "Landfall — Whenever a land you control enters, you get {E}.",
         "layout": "normal", "power": "2", "toughness": "3"},
        {"name": "Forest", "mana_cost": "", "type_line": "Basic Land — Forest", "colors": [],
         "oracle_text": "({T}: Add {G}.)\nTest overlay forest.", "layout": "normal"},
    ]
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    db = CardDB(overlay=load_card_file(path))
    assert db.get("roil cartographer").mana_value == 3
    assert "Test overlay forest." in db.get("Forest").oracle_text  # overlay wins
    assert db.get("Sol Ring").mana_value == 1  # bundled still there


def test_overlay_scryfall_bulk(tmp_path: Path) -> None:
    path = tmp_path / "oracle-cards.json"
    cards = [
        {"object": "card", "name": "Nissa, Worldsoul Speaker", "mana_cost": "{3}{G}",
         "type_line": "Legendary Creature — Elf Druid", "cmc": 4.0, "colors": ["G"], "layout": "normal",
         "oracle_text": "Landfall — Whenever a land you control enters, you get {E}{E}.\nYou may pay eight {E} "
                        "rather than pay the mana cost for permanent spells you cast.",
         "power": "3", "toughness": "3", "keywords": ["Landfall"]},
        {"object": "card", "name": "Treasure", "layout": "token", "type_line": "Token Artifact — Treasure",
         "oracle_text": "{T}, Sacrifice this token: Draw a card."},
        {"object": "card", "name": "Bala Ged Recovery // Bala Ged Sanctuary", "layout": "modal_dfc",
         "mana_cost": "", "type_line": "Sorcery // Land", "card_faces": [
             {"name": "Bala Ged Recovery", "mana_cost": "{2}{G}", "type_line": "Sorcery", "colors": ["G"],
              "oracle_text": "Return target card from your graveyard to your hand."},
             {"name": "Bala Ged Sanctuary", "mana_cost": "", "type_line": "Land", "colors": [],
              "oracle_text": "As Bala Ged Sanctuary enters the battlefield, you may pay 3 life. If you don't, "
                             "it enters the battlefield tapped.\n{T}: Add {G}."}]},
    ]
    path.write_text(json.dumps(cards), encoding="utf-8")
    db = CardDB(overlay=load_card_file(path))
    nissa = db.get("Nissa, Worldsoul Speaker")
    assert nissa.mana_value == 4 and nissa.colors == G
    assert db.get("Bala Ged Recovery").mana_value == 3
    assert db.get("Bala Ged Recovery").faces[1].mana_abilities[0].production.options == ((G,),)
    treasure = db.get("Treasure")  # the predefined token, not Scryfall's token object
    assert treasure.mana_abilities[0].production.options == ((ANY_COLOR,),)


def test_scryfall_split_keeps_both_costs() -> None:
    rec = scryfall_to_record({"name": "Fire // Ice", "layout": "split", "mana_cost": "{1}{R} // {1}{U}",
                              "type_line": "Instant // Instant", "colors": ["U", "R"], "card_faces": [
                                  {"name": "Fire", "mana_cost": "{1}{R}", "type_line": "Instant",
                                   "oracle_text": "Fire deals 2 damage divided as you choose."},
                                  {"name": "Ice", "mana_cost": "{1}{U}", "type_line": "Instant",
                                   "oracle_text": "Tap target permanent.\nDraw a card."}]})
    assert rec is not None
    assert card_from_record(rec).mana_value == 4


def test_bad_card_files_name_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"name": "Fine", "mana_cost": "{1}", "type_line": "Artifact", "oracle_text": ""}\n'
                   '{"name": "Broken", "mana_cost": "{1}{Q/Z}"}\n', encoding="utf-8")
    db = CardDB(overlay=load_card_file(bad))  # a bad cost fails only that card's lookup
    assert db.get("Fine").mana_value == 1
    with pytest.raises(BadCost) as info:
        db.get("Broken", "battlefield[0].card")
    assert "bad.jsonl:2" in str(info.value) and info.value.where == "battlefield[0].card"
    wrong_type = tmp_path / "wrong.jsonl"
    wrong_type.write_text('{"name": "Odd", "mana_cost": 5}\n', encoding="utf-8")
    with pytest.raises(BadState) as info1:
        load_card_file(wrong_type)
    assert "wrong.jsonl:1" in str(info1.value)
    notjson = tmp_path / "notjson.jsonl"
    notjson.write_text("{oops\n", encoding="utf-8")
    with pytest.raises(BadState) as info2:
        load_card_file(notjson)
    assert "line 1" in str(info2.value)
    array = tmp_path / "bad.json"
    array.write_text('[{"name": "A", "mana_cost": "{2}", "type_line": "Artifact"}, {"nom": "x"}]', encoding="utf-8")
    with pytest.raises(BadState) as info3:
        load_card_file(array)
    assert "[1]" in str(info3.value)
    with pytest.raises(BadState):
        load_card_file(tmp_path / "missing.json")


def test_default_db_reads_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "env.jsonl"
    path.write_text(json.dumps({"name": "Envtest Golem", "mana_cost": "{7}", "type_line": "Artifact Creature — Golem",
                                "oracle_text": ""}) + "\n", encoding="utf-8")
    monkeypatch.setenv("MANASOLVER_CARDS", str(path))
    assert default_db().get("Envtest Golem").mana_value == 7
    assert default_db(str(path)) is default_db()


def test_cold_start_time_is_measured() -> None:
    """A cold process doing ``default_db().get("Forest")``: measured and printed, not asserted."""
    code = ("import time; t = time.perf_counter(); from manasolver.models.carddb import default_db; "
            "default_db().get('Forest'); print(time.perf_counter() - t)")
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    whole = time.perf_counter() - start
    inside = float(out.stdout.strip())
    print(f"cold lookup: {inside * 1000:.0f} ms inside the process, {whole * 1000:.0f} ms for the whole process")
    assert inside > 0


def test_records_inflate_as_zlib_does_and_a_damaged_one_is_refused() -> None:
    """A stored record read raw (its header, dictionary id and adler32 checked once here) gives
    the bytes zlib gives; a record with a changed byte, or compressed without the database's
    dictionary, raises zlib.error as zlib would."""
    import zlib

    store = CardDB()._bundled_store
    con = store.con()
    blobs = [bytes(row[0]) for row in con.execute("SELECT data FROM card ORDER BY id LIMIT 200")]
    for blob in blobs:
        unpacker = zlib.decompressobj(zdict=store._zdict)
        assert store._inflate(blob) == unpacker.decompress(blob) + unpacker.flush()
    damaged = bytearray(blobs[0])
    damaged[-1] ^= 0xFF  # the adler32 of the data
    with pytest.raises(zlib.error):
        store._inflate(bytes(damaged))
    with pytest.raises(zlib.error):
        store._inflate(zlib.compress(b'{"name": "Forest"}'))
