"""The ``card`` query (one of the protocol's further queries): a card as the engine reads it, over the protocol.

The answer is ``{"card": CARD}``, CARD the same object that ``manasolver card NAME --json`` prints
(the command line asks this query), so a client can map an ``ability`` index to its text.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from manasolver.solver.service.protocol import answer, answer_line

CLI = [sys.executable, "-m", "manasolver.solver.service.cli"]


def cli_card_json(name: str) -> tuple[int, Any]:
    proc = subprocess.run([*CLI, "card", name, "--json"], capture_output=True, text=True, timeout=120)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, json.loads(proc.stdout)


@pytest.mark.parametrize("name", ["Reaper King", "Cascade Bluffs", "Bonecrusher Giant", "Ancient Ziggurat",
                                  "Llanowar Elves"])
def test_card_query_is_what_the_cli_prints(name: str) -> None:
    """The protocol's card object and ``manasolver card NAME --json`` are the same object."""
    out = answer({"query": "card", "card": name})
    assert set(out) == {"card"}, out
    code, printed = cli_card_json(name)
    assert code == 0
    assert printed == out["card"]
    assert out["card"]["name"] == name


def test_reaper_king_mana_value_10_five_colors() -> None:
    """CR 202.3f: each {2/W}-style symbol counts 2; CR 202.2d: its colors are all five."""
    card = answer({"query": "card", "card": "Reaper King"})["card"]
    assert card["mana_value"] == 10
    assert card["colors"] == ["W", "U", "B", "R", "G"]
    assert card["mana_cost"] == "{2/W}{2/U}{2/B}{2/R}{2/G}"


def test_cascade_bluffs_abilities_carry_their_index() -> None:
    """A client maps an ability index to its cost and production: Cascade Bluffs' filter is [1]."""
    abilities = answer({"query": "card", "card": "cascade bluffs"})["card"]["mana_abilities"]
    assert [a["index"] for a in abilities] == [0, 1]
    assert abilities[0]["cost"] == ["{T}"] and abilities[0]["produces"] == ["{C}"]
    assert abilities[1]["cost"] == ["{U/R}", "{T}"]
    assert abilities[1]["produces"] == ["{U}{U}", "{U}{R}", "{R}{R}"]


def test_activated_ability_text_by_index() -> None:
    """CR 602: the non-mana activated abilities are listed with index, text and costs (equip)."""
    card = answer({"query": "card", "card": "Bonesplitter"})["card"]
    equip = [a for a in card["activated_abilities"] if a.get("keyword") == "equip"]
    assert len(equip) == 1
    assert equip[0]["index"] == 0 and equip[0]["costs"] == ["{1}"]
    assert "Equip" in equip[0]["text"]


def test_unknown_card_is_unknown_card_with_suggestions() -> None:
    out = answer({"query": "card", "card": "Reaper Kign", "id": 7})
    assert out["id"] == 7
    assert out["error"]["code"] == "unknown_card"
    assert out["error"]["where"] == "card"
    assert "Reaper King" in out["error"]["message"]


@pytest.mark.parametrize("query, code, where", [
    ({"query": "card"}, "bad_query", "card"),
    ({"query": "card", "card": 3}, "bad_query", "card"),
    ({"query": "card", "card": ["Forest"]}, "bad_query", "card"),
    ({"query": "card", "card": "Forest", "state": {}}, "unknown_field", "state"),
])
def test_bad_card_queries_name_the_field(query: dict[str, Any], code: str, where: str) -> None:
    out = answer(query)
    assert out["error"]["code"] == code and out["error"]["where"] == where, out


def test_card_query_in_batch_lines() -> None:
    """Through ``answer_line`` (what ``batch`` calls): a line per card, ids kept."""
    out = answer_line(json.dumps({"query": "card", "card": "Forest", "id": "f"}), 1)
    assert out["id"] == "f"
    assert out["card"]["mana_abilities"][0]["intrinsic"] is True
    assert out["card"]["mana_abilities"][0]["produces"] == ["{G}"]
