"""Decks players have today read with no unknown card: a 2025 Standard list and a 2024 Commander
precon (Bloomburrow Commander's Animated Army), both in Arena's export layout (``Deck``,
``Commander`` and ``Sideboard`` sections, ``N Name (SET)``; the collector numbers Arena also writes
are left out), through ``manasolver castability`` in a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys

from paths import REPO

DECKS = REPO / "tests" / "data" / "decks"


def _castability(name: str, samples: int) -> dict[str, object]:
    proc = subprocess.run([sys.executable, "-m", "manasolver", "castability", str(DECKS / name), "--samples",
                           str(samples), "--seed", "1", "--json"], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "unknown card" not in proc.stderr
    result: dict[str, object] = json.loads(proc.stdout)
    return result


def test_standard_2025_mono_red_in_arena_format_reads_every_card() -> None:
    got = _castability("arena-mono-red-standard-2025.txt", 500)
    cards = {s["card"] for s in got["spells"]}  # type: ignore[attr-defined]
    assert {"Heartfire Hero", "Screaming Nemesis", "Slickshot Show-Off", "Burst Lightning"} <= cards
    assert "Shock" not in cards  # the sideboard is not played


def test_commander_2024_precon_in_arena_format_reads_every_card() -> None:
    got = _castability("arena-animated-army-blc-2024.txt", 20)
    cards = {s["card"] for s in got["spells"]}  # type: ignore[attr-defined]
    assert len(cards) >= 50
    assert got["samples"] == 20
