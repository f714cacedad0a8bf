"""Card files read as a stream and imported once into a card database: the same cards as read
whole, the bundled format, the user's cards over the bundled ones, files that are not card files."""

from __future__ import annotations

import gzip
import json
import os
import sqlite3
from pathlib import Path

import pytest
from manasolver.models import card_import
from manasolver.models.card_import import import_card_file, imported_db_for, read_card_file
from manasolver.models.carddb import DB_PATH, CardDB, default_db, load_card_file
from manasolver.models.errors import BadCost, BadState
from manasolver.models.symbols import U

SCRYFALL = Path(__file__).resolve().parents[1] / "data" / "scryfall"
BULK = SCRYFALL / "oracle-cards.json"
CARD_DATA = Path(__file__).resolve().parents[2] / "data" / "cards.jsonl.gz"


@pytest.fixture()
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's data folder, kept inside the test's folder."""
    home = tmp_path / "xdg"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home


def test_stream_in_tiny_chunks_reads_the_same_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks of 7 characters cut every card object at some point: the stream reads the same
    records as with 1 MB chunks, and as json.loads of the whole file."""
    whole = list(read_card_file(BULK))
    monkeypatch.setattr(card_import, "_CHUNK", 7)
    tiny = list(read_card_file(BULK))
    assert tiny == whole
    names = [obj["name"] for obj in json.loads(BULK.read_text(encoding="utf-8")) if obj["layout"] != "token"]
    assert [rec["name"] for _, rec in whole] == names
    assert [where for where, _ in whole][:2] == [f"{BULK}[0]", f"{BULK}[1]"]


def test_jsonl_positions_are_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "cards.jsonl"
    path.write_text('\n{"name": "A", "mana_cost": "{1}", "type_line": "Artifact"}\n\n'
                    '{"name": "B", "mana_cost": "{2}", "type_line": "Artifact"}\n', encoding="utf-8")
    monkeypatch.setattr(card_import, "_CHUNK", 5)
    assert [where for where, _ in read_card_file(path)] == [f"{path}:2", f"{path}:4"]


def test_import_writes_the_bundled_format(tmp_path: Path) -> None:
    """The repository's card data imported (gzip-compressed JSONL) gives the bundled database's
    tables: every record, every lookup key, the same records."""
    out = tmp_path / "cards.sqlite"
    done = import_card_file(CARD_DATA, out)
    assert done.out == out and done.cards == 34620 and done.skipped == 0
    mine, bundled = sqlite3.connect(out), sqlite3.connect(DB_PATH)
    try:
        assert mine.execute("SELECT key, face, rank, name FROM lookup ORDER BY key").fetchall() == \
            bundled.execute("SELECT key, face, rank, name FROM lookup ORDER BY key").fetchall()
        assert done.keys == bundled.execute("SELECT count(*) FROM lookup").fetchone()[0]
    finally:
        mine.close()
        bundled.close()
    db = CardDB(user=out)
    for name in ("Reaper King", "Insectile Aberration", "Fire // Ice", "Stomp", "Cascade Bluffs"):
        assert db.record(name) == CardDB().record(name), name


def test_imported_cards_win_and_bundled_ones_remain(tmp_path: Path) -> None:
    """An imported card replaces the bundled one of its name; names it lacks come from the
    bundled data; back faces of imported cards resolve."""
    src = tmp_path / "new.jsonl"
    src.write_text("\n".join(json.dumps(r) for r in [
        {"name": "Forest", "mana_cost": "", "type_line": "Basic Land — Forest",
         "oracle_text": "({T}: Add {G}.)\nImported forest.", "layout": "normal"},
        {"name": "Roil Cartographer", "mana_cost": "{2}{U}", "type_line": "Creature — Merfolk Scout",
         "oracle_text": "", "layout": "normal"},
    ]) + "\n", encoding="utf-8")
    out = tmp_path / "db.sqlite"
    import_card_file(src, out)
    scry = tmp_path / "scry.sqlite"
    import_card_file(BULK, scry)
    db = CardDB(user=out)
    assert "Imported forest." in db.get("Forest").oracle_text
    assert db.get("Roil Cartographer").mana_value == 3
    assert db.get("Sol Ring").mana_value == 1
    assert "Roil Cartographer" in db.names() and "Sol Ring" in db.names()
    sdb = CardDB(user=scry)
    assert sdb.get("Insectile Aberration").mana_value == 1 and sdb.get("Insectile Aberration").colors == U
    assert sdb.user_path == scry


def test_printings_of_one_name_keep_the_english_black_bordered_one(tmp_path: Path) -> None:
    """Scryfall's "default cards" lists every printing: a name is stored once, an English,
    black-bordered printing over a silver-bordered or other-language one."""
    base = {"object": "card", "name": "Test Golem", "layout": "normal", "mana_cost": "{3}", "cmc": 3.0,
            "type_line": "Artifact Creature — Golem", "oracle_text": ""}
    printings = [{**base, "lang": "de", "oracle_text": "German printing"},
                 {**base, "border_color": "silver", "oracle_text": "Silver printing"},
                 {**base, "oracle_text": "English printing"},
                 {**base, "oracle_text": "A later English printing"}]
    src = tmp_path / "default-cards.json"
    src.write_text(json.dumps(printings), encoding="utf-8")
    done = import_card_file(src, tmp_path / "db.sqlite")
    assert (done.cards, done.skipped) == (1, 3)
    assert CardDB(user=done.out).get("Test Golem").oracle_text == "English printing"
    assert CardDB(overlay=load_card_file(src)).get("Test Golem").oracle_text == "English printing"


def test_bad_cost_in_imported_file_fails_that_lookup_naming_the_position(tmp_path: Path) -> None:
    src = tmp_path / "bad.jsonl"
    src.write_text('{"name": "Fine", "mana_cost": "{1}", "type_line": "Artifact"}\n'
                   '{"name": "Broken", "mana_cost": "{1}{Q/Z}"}\n', encoding="utf-8")
    db = CardDB(user=import_card_file(src, tmp_path / "db.sqlite").out)
    assert db.get("Fine").mana_value == 1
    with pytest.raises(BadCost) as info:
        db.get("Broken", "battlefield[0].card")
    assert f"{src}:2" in str(info.value) and info.value.where == "battlefield[0].card"


def test_default_place_and_found_again_while_unchanged(tmp_path: Path, data_home: Path) -> None:
    """Without --out the database goes to $XDG_DATA_HOME/manasolver/cards.sqlite; a later card
    file argument naming the same, unchanged file opens it instead of reading the file; a
    changed file is read again."""
    src = tmp_path / "cards.jsonl"
    src.write_text(json.dumps({"name": "Pickup Golem", "mana_cost": "{4}", "type_line": "Artifact Creature — Golem"})
                   + "\n", encoding="utf-8")
    done = import_card_file(src)
    assert done.out == data_home / "manasolver" / "cards.sqlite"
    assert imported_db_for(src) == done.out
    assert default_db(str(src)).user_path == done.out
    assert default_db(str(src)).get("Pickup Golem").mana_value == 4
    src.write_text(json.dumps({"name": "Pickup Golem", "mana_cost": "{5}", "type_line": "Artifact Creature — Golem"})
                   + "\n", encoding="utf-8")
    os.utime(src, ns=(1, 1))
    assert imported_db_for(src) is None
    assert CardDB(overlay=load_card_file(src)).get("Pickup Golem").mana_value == 5


def test_sqlite_given_as_cards_file(tmp_path: Path) -> None:
    out = import_card_file(BULK, tmp_path / "db.sqlite").out
    db = default_db(str(out))
    assert db.get("Bala Ged Sanctuary").mana_value == 0
    assert db.get("Delver of Secrets").mana_value == 1


def test_sqlite_that_is_not_a_card_database(tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    with pytest.raises(BadState) as info:
        default_db(str(other))
    assert "not a card database" in str(info.value) and str(other) in str(info.value)


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("name, data, says, at", [
    ("card.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "it is an image", ":1"),
    ("empty.json", b"", "is empty", ""),
    ("blank.json", b"  \n\n ", "nothing but white space", ""),
    ("object.json", b'{"cards": [{"name": "A"}]}', "not a card: a card has a 'name'", ":1.name"),
    ("cut.json", b'[{"name": "A", "type_line": "Artifact"},\n{"name": "B", "ty', "ends inside card [1]", ":2"),
    ("unclosed.json", b'[{"name": "A", "type_line": "Artifact"}\n', "the array is not closed", ":2"),
    ("numbers.json", b"[1, 2]", "a card must be a JSON object, not a number", "[0]"),
    ("comma.json", b'[{"name": "A"} {"name": "B"}]', "expected ',' or ']' after card [0]", ":1"),
    ("latin1.jsonl", b'{"name": "Caf\xe9"}\n', "not UTF-8", ":1"),
    ("cut.json.gz", gzip.compress(b'[{"name": "A"}]')[:-6], "can't read card file", ":1"),
    ("rulings.json", b'[{"object": "ruling", "comment": "x"}]', "a Scryfall 'ruling' object, not a card", "[0]"),
    ("nested.json", b"[" * 100_000, "nested too deeply", ":1"),
])
def test_files_that_are_not_card_files(tmp_path: Path, name: str, data: bytes, says: str, at: str) -> None:
    """Each gives a BadState naming the file and where reading stopped, and imports nothing."""
    path = _write(tmp_path / name, data)
    with pytest.raises(BadState) as info:
        import_card_file(path, tmp_path / "out.sqlite")
    assert says in str(info.value)
    assert str(path) in str(info.value) and info.value.where == f"{path}{at}"
    assert not (tmp_path / "out.sqlite").exists()
    with pytest.raises(BadState):
        load_card_file(path)


def test_gzip_scryfall_file(tmp_path: Path) -> None:
    path = _write(tmp_path / "oracle-cards.json.gz", gzip.compress(BULK.read_bytes()))
    db = CardDB(user=import_card_file(path, tmp_path / "db.sqlite").out)
    assert db.get("Fire // Ice").mana_value == 4


def test_out_may_not_be_the_source(tmp_path: Path) -> None:
    src = _write(tmp_path / "cards.json", BULK.read_bytes())
    with pytest.raises(BadState) as info:
        import_card_file(src, src)
    assert info.value.where == "out"
    assert src.read_bytes() == BULK.read_bytes()
