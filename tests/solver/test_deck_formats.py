"""Decklist formats for castability: each read on a real list, Commander sections, sideboards left
out, the format told from the content, malformed files named by line or element, and every unknown
card of a deck named at once.

Fixtures (tests/data/decks/, card lists only; README.md there says where each comes from): Forge's
``Arcane Maelstrom [C20] [2020].dck``, XMage's ``[M11] Power of Prophecy.dck`` and ``Timeless
Wisdom.dck`` and two Cockatrice ``.cod`` files of a public deck repository, each as published; the
Arena, MTGJSON and MTGO ``.dek`` files are those same real lists written in the other formats.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from manasolver.models.carddb import CardDB, default_db
from manasolver.solver.castability.deck import Deck, DeckError, load_deck, parse_deck
from manasolver.solver.castability.decklists import read_entries

DECKS = Path(__file__).resolve().parents[1] / "data" / "decks"
CORPUS = Path(__file__).resolve().parents[2] / "data" / "decks"


@pytest.fixture(scope="module")
def db() -> CardDB:
    return default_db()


def _counts(deck: Deck) -> dict[str, int]:
    return {name: n for name, n, _ in deck.cards}


def _format(path: Path) -> str:
    return str(read_entries(path.read_text(encoding="utf-8"), path.name).format)


# -- each format on a real list ----------------------------------------------------------------------

def test_forge_dck_arcane_maelstrom_commander_section(db: CardDB) -> None:
    """Forge's precon file as published: [metadata] skipped, [commander] holds Kalamax (its foil
    mark '+' dropped), [main] the 99 with set codes after '|'."""
    path = DECKS / "forge-arcane-maelstrom-c20.dck"
    deck = load_deck(str(path), db)
    assert _format(path) == "forge-dck"
    assert [c.name for c in deck.commander] == ["Kalamax, the Stormsire"]
    assert deck.size == 99
    counts = _counts(deck)
    assert counts["Forest"] == 8 and counts["Island"] == 5 and counts["Mountain"] == 5
    assert counts["Etali, Primal Storm"] == 1


def test_xmage_dck_power_of_prophecy_merges_printings(db: CardDB) -> None:
    """XMage's starter deck file: NAME/AUTHOR lines and '# Creature' headings skipped, the four
    printings of Island (4 lines of 4) merged into one entry of 16."""
    path = DECKS / "xmage-power-of-prophecy-m11.dck"
    deck = load_deck(str(path), db)
    assert _format(path) == "xmage-dck"
    assert deck.size == 60 and not deck.is_commander
    counts = _counts(deck)
    assert counts["Island"] == 16 and counts["Plains"] == 9 and counts["Aether Adept"] == 2


def test_xmage_dck_timeless_wisdom_commander_in_sideboard(db: CardDB) -> None:
    """XMage keeps a Commander deck's commander as its one sideboard card ('SB:'): Gavi, Nest
    Warden is the command zone; the LAYOUT lines of XMage's editor are skipped."""
    deck = load_deck(str(DECKS / "xmage-timeless-wisdom-c20.dck"), db)
    assert [c.name for c in deck.commander] == ["Gavi, Nest Warden"]
    assert deck.size == 99
    counts = _counts(deck)
    assert counts["Island"] == 5 and counts["Mountain"] == 6 and counts["Plains"] == 4


def test_cockatrice_cod_goblins(db: CardDB) -> None:
    path = DECKS / "cockatrice-goblin-kill-r.cod"
    deck = load_deck(str(path), db)
    assert _format(path) == "cockatrice"
    assert deck.size == 60 and _counts(deck)["Mountain"] == 20 and not deck.is_commander


def test_cockatrice_cod_commander_kept_in_side_zone(db: CardDB) -> None:
    """A player's EDH list: Doran, the Siege Tower alone in the 'side' zone (Cockatrice has no
    command zone) is read as the commander; the main zone is the library as the player wrote it."""
    deck = load_deck(str(DECKS / "cockatrice-edh-doran-wbg.cod"), db)
    assert [c.name for c in deck.commander] == ["Doran, the Siege Tower"]
    assert _counts(deck)["Swamp"] == 8 and "Doran, the Siege Tower" not in _counts(deck)


def test_arena_timeless_wisdom_same_deck_as_xmage(db: CardDB) -> None:
    """The XMage list of Timeless Wisdom written as Arena exports (Commander and Deck sections,
    '(C20) 145' set codes and collector numbers from XMage's file): the same deck."""
    arena = load_deck(str(DECKS / "arena-timeless-wisdom-c20.txt"), db)
    xmage = load_deck(str(DECKS / "xmage-timeless-wisdom-c20.dck"), db)
    assert _counts(arena) == _counts(xmage) and arena.commander == xmage.commander


def test_mtgjson_timeless_wisdom_same_deck_as_xmage(db: CardDB) -> None:
    """The XMage list of Timeless Wisdom written in MTGJSON's deck-file shape ("data" with
    "commander", "mainBoard", "sideBoard" of cards with "name" and "count"): the same deck."""
    path = DECKS / "mtgjson-timeless-wisdom-c20.json"
    deck = load_deck(str(path), db)
    assert _format(path) == "mtgjson"
    xmage = load_deck(str(DECKS / "xmage-timeless-wisdom-c20.dck"), db)
    assert _counts(deck) == _counts(xmage) and [c.name for c in deck.commander] == ["Gavi, Nest Warden"]


def test_mtgo_dek_power_of_prophecy_same_deck_as_xmage(db: CardDB) -> None:
    """The XMage list of Power of Prophecy written as MTGO exports a .dek (the CatID attribute,
    MTGO's own card id, left out: no reader needs it)."""
    path = DECKS / "mtgo-power-of-prophecy-m11.dek"
    deck = load_deck(str(path), db)
    assert _format(path) == "mtgo-dek"
    assert _counts(deck) == _counts(load_deck(str(DECKS / "xmage-power-of-prophecy-m11.dck"), db))


def test_plain_text_corpus_every_precon_reads(db: CardDB) -> None:
    """The real precon lists of data/decks (plain text with '#' comments and Commander/Deck
    sections; at least the 125 of 1997-2022): each reads with the card count and commander its index records."""
    index = json.loads((CORPUS / "index.json").read_text(encoding="utf-8"))
    assert len(index) >= 125
    for item in index:
        deck = load_deck(str(CORPUS / item["file"]), db)
        assert deck.size + len(deck.commander) == item["card_count"], item["file"]
        # a modal double-faced commander is the card of its front face
        assert [c.name for c in deck.commander] == [n.split(" // ")[0] for n in item.get("commander", [])], item["file"]


# -- comments, sections, sideboards ------------------------------------------------------------------

def test_plain_text_hash_and_slash_comments(db: CardDB) -> None:
    text = ("# Name: burn\n// a comment line\n20 Mountain # the lands\n20 Lightning Bolt // the spells\n"
            "4 Fire // Ice\n16 Shock\n")
    deck = parse_deck(text, db)
    assert _counts(deck) == {"Mountain": 20, "Lightning Bolt": 20, "Fire // Ice": 4, "Shock": 16}


@pytest.mark.parametrize("text", [
    "COMMANDER: 1 Niv-Mizzet, Parun\n40 Island\n59 Opt\n",
    "Commander: Niv-Mizzet, Parun\n40 Island\n59 Opt\n",
    "1 Niv-Mizzet, Parun *CMDR*\n40 Island\n59 Opt\n",
    "Commander\n1 Niv-Mizzet, Parun\n\nDeck\n40 Island\n59 Opt\n",
])
def test_commander_lines_and_headings(db: CardDB, text: str) -> None:
    deck = parse_deck(text, db)
    assert [c.name for c in deck.commander] == ["Niv-Mizzet, Parun"] and deck.size == 99


def test_sideboards_left_out_in_every_format(db: CardDB) -> None:
    """A sideboard of three cards beside 60 is never drawn (and not a commander: too many cards
    and too small a deck)."""
    texts = {
        "forge.dck": "[metadata]\nName=x\n[Main]\n40 Island\n20 Opt\n[Sideboard]\n3 Negate|M11\n",
        "xmage.dck": "40 [M11:234] Island\n20 [XLN:65] Opt\nSB: 3 [M11:68] Negate\n",
        "x.cod": ('<cockatrice_deck version="1"><zone name="main"><card number="40" name="Island"/>'
                  '<card number="20" name="Opt"/></zone><zone name="side"><card number="3" name="Negate"/>'
                  "</zone></cockatrice_deck>"),
        "x.dek": ('<Deck><Cards Quantity="40" Sideboard="false" Name="Island"/><Cards Quantity="20" '
                  'Sideboard="false" Name="Opt"/><Cards Quantity="3" Sideboard="true" Name="Negate"/></Deck>'),
        "x.json": json.dumps({"data": {"mainBoard": [{"name": "Island", "count": 40}, {"name": "Opt", "count": 20}],
                                       "sideBoard": [{"name": "Negate", "count": 3}], "commander": []}}),
        "arena.txt": "Deck\n40 Island (M21) 264\n20 Opt (XLN) 65\n\nSideboard\n3 Negate (M11) 68\n",
    }
    for name, text in texts.items():
        deck = parse_deck(text, db, name)
        assert _counts(deck) == {"Island": 40, "Opt": 20}, name
        assert not deck.is_commander, name


def test_text_split_card_with_one_slash(db: CardDB) -> None:
    assert _counts(parse_deck("56 Island\n4 Fire/Ice\n", db))["Fire // Ice"] == 4


def test_mtgo_dek_split_card_with_one_slash(db: CardDB) -> None:
    text = '<Deck><Cards Quantity="56" Sideboard="false" Name="Island"/><Cards Quantity="4" ' \
           'Sideboard="false" Name="Fire/Ice"/></Deck>'
    assert _counts(parse_deck(text, db, "x.dek"))["Fire // Ice"] == 4


# -- malformed files ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name, text, where, words", [
    ("x.cod", '<cockatrice_deck>\n<zone name="main">\n<card number="4" name="Opt">\n</zone>', "line 4",
     "not well-formed XML"),
    ("x.cod", '<cockatrice_deck>\n<zone name="main">\n<card number="four" name="Opt"/>\n</zone>\n'
     "</cockatrice_deck>", "line 3 <card> number", "not a count"),
    ("x.cod", '<cockatrice_deck>\n<zone name="main">\n<card number="4"/>\n</zone>\n</cockatrice_deck>',
     "line 3 <card>", "needs a name"),
    ("x.dek", '<Deck>\n<Cards Sideboard="false" Name="Opt"/>\n</Deck>', "line 2 <Cards>", "Quantity"),
    ("x.dek", '<Deck>\n<Cards Quantity="4" Sideboard="maybe" Name="Opt"/>\n</Deck>', "line 2 <Cards>",
     "true or false"),
    ("x.cod", "4 Opt\n56 Island\n", "line 1", "not XML"),
    ("x.dek", '<!DOCTYPE d [<!ENTITY a "aaaa">]>\n<Deck/>', "line 1", "DTD or entity"),
    ("x.xml", "<html><body/></html>", "line 1", "<html>"),
    ("x.dck", "4 Opt|XLN\n[Main]\n56 Island\n", "line 1", "before any section"),
    ("x.dck", "4 [XLN:65] Opt\n56 Island\n", "line 2", "not a card line"),
    ("x.json", '{"data": {"mainBoard": {"Opt": 4}}}', "data.mainBoard", "a list of cards"),
    ("x.json", '{"data": {"mainBoard": [{"name": "Opt", "count": "4"}]}}', "data.mainBoard[0].count",
     "whole number"),
])
def test_malformed_files_name_the_line_or_element(db: CardDB, name: str, text: str, where: str,
                                                   words: str) -> None:
    with pytest.raises(DeckError) as err:
        parse_deck(text, db, name)
    assert err.value.where == where, err.value.message
    assert words in err.value.message


# -- unknown cards -----------------------------------------------------------------------------------

def test_every_unknown_card_named_at_once_with_its_line(db: CardDB) -> None:
    """Three misspelt names in a Forge file: one error naming the three, each with its line and the
    card data's suggestions, not only the first."""
    text = ("[metadata]\nName=typos\n[Main]\n4 Lightnin Bolt|M10\n20 Mountain|M10\n4 Counterspel|MH2\n"
            "16 Island|M10\n[Sideboard]\n3 Negatee|M11\n[Commander]\n1 Niv-Mizzet, Parnu|GRN\n")
    with pytest.raises(DeckError) as err:
        parse_deck(text, db, "typos.dck")
    message = err.value.message
    assert message.startswith("3 unknown cards: ")
    for line, name in (("line 4", "Lightnin Bolt"), ("line 6", "Counterspel"), ("line 11", "Niv-Mizzet, Parnu")):
        assert f"{name!r} ({line}; did you mean" in message
    assert "cards update" in message  # how to bring newer cards
    assert "Lightning Bolt" in message and "Counterspell" in message  # the suggestions
    assert "Negatee" not in message  # the sideboard is not read
    assert err.value.where == "line 4"
    assert err.value.unknown == (("line 4", "Lightnin Bolt"), ("line 6", "Counterspel"),
                                 ("line 11", "Niv-Mizzet, Parnu"))


def test_unknown_cards_in_json_name_their_paths(db: CardDB) -> None:
    text = json.dumps({"data": {"commander": [{"name": "Gavi, Nest Wardn", "count": 1}],
                                "mainBoard": [{"name": "Island", "count": 97}, {"name": "Sol Rnig", "count": 1}]}})
    with pytest.raises(DeckError) as err:
        parse_deck(text, db)
    assert [w for w, _ in err.value.unknown] == ["data.commander[0].name", "data.mainBoard[1].name"]


def test_castability_cli_lists_every_unknown_card(tmp_path: Path) -> None:
    """Through the command line: exit status 1 and every unknown card on standard error."""
    deck = tmp_path / "typos.cod"
    deck.write_text('<?xml version="1.0"?>\n<cockatrice_deck version="1">\n<zone name="main">\n'
                    '<card number="30" name="Mountian"/>\n<card number="30" name="Lightning Blot"/>\n'
                    "</zone>\n</cockatrice_deck>\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "manasolver.solver.service.cli", "castability", str(deck),
                           "--samples", "100"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "'Mountian' (line 4 <card>; did you mean Mountain" in proc.stderr
    assert "'Lightning Blot' (line 5 <card>; did you mean Lightning Bolt" in proc.stderr


def test_castability_cli_runs_an_mtgo_dek_file() -> None:
    """The MTGO .dek of Power of Prophecy through ``castability --json``: every spell of the deck
    gets its rows (Sleep at {2}{U}{U})."""
    proc = subprocess.run([sys.executable, "-m", "manasolver.solver.service.cli", "castability",
                           str(DECKS / "mtgo-power-of-prophecy-m11.dek"), "--samples", "200", "--turns", "1-4",
                           "--json"], capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    sleep = next(s for s in out["spells"] if s["card"] == "Sleep")
    assert sleep["cost"] == "{2}{U}{U}" and [r["turn"] for r in sleep["turns"]] == [1, 2, 3, 4]
    assert sleep["turns"][0]["p"] == 0.0  # four mana on turn 1 never
