"""Timing, the legality half of casting (CR 117, 307.1, 502.4, 514.3, 601.3, 702.8a, 702.176a)."""

from __future__ import annotations

import pytest
from manasolver.models.card import Card, TypeLine
from manasolver.models.state import Turn
from manasolver.solver.casting.timing import check_timing


def card(name: str, type_line: str, *keywords: str) -> Card:
    return Card(name=name, type_line=TypeLine.parse(type_line), keywords=frozenset(keywords))


BOLT = card("Lightning Bolt", "Instant")
ELVES = card("Llanowar Elves", "Creature — Elf Druid")
VIPER = card("Ambush Viper", "Creature — Snake", "flash")
RITUAL = card("Rite of Replication", "Sorcery")
OVERLORD = card("Overlord of the Hauntwoods", "Enchantment Creature — Avatar Horror", "impending")
KINDRED_INSTANT = card("Crib Swap", "Kindred Instant — Shapeshifter", "changeling")
KINDRED_SORCERY = card("Nameless Inversion", "Kindred Sorcery — Shapeshifter")
FOREST = card("Forest", "Basic Land — Forest")

MAIN = Turn("you", "main1", True)


@pytest.mark.parametrize("spell", [ELVES, RITUAL, OVERLORD, KINDRED_SORCERY])
def test_cr_307_1_sorcery_speed_in_own_main_phase_with_empty_stack(spell: Card) -> None:
    """CR 307.1: sorcery timing is the active player's main phase with an empty stack."""
    assert check_timing(spell, MAIN, "you").allowed
    assert check_timing(spell, Turn("you", "main2", True), "you").allowed
    assert not check_timing(spell, Turn("you", "main1", False), "you").allowed
    assert not check_timing(spell, Turn("you", "declare_attackers", True), "you").allowed
    assert not check_timing(spell, Turn("opponent", "main1", True), "you").allowed


@pytest.mark.parametrize("spell", [BOLT, VIPER, KINDRED_INSTANT])
def test_cr_117_1a_instants_and_flash_whenever_the_player_has_priority(spell: Card) -> None:
    """CR 117.1a, 702.8a: instants and flash spells whenever the caster has priority."""
    for turn in (MAIN, Turn("you", "main1", False), Turn("opponent", "end", False),
                 Turn("opponent", "upkeep", True), Turn("you", "declare_blockers", True)):
        assert check_timing(spell, turn, "you").allowed, turn


@pytest.mark.parametrize("spell", [BOLT, VIPER, ELVES])
def test_cr_502_4_nothing_is_cast_during_the_untap_step(spell: Card) -> None:
    """CR 502.4: no player receives priority during the untap step; 514.3: nor normally in cleanup."""
    verdict = check_timing(spell, Turn("you", "untap", True), "you")
    assert not verdict.allowed and "untap" in verdict.message
    assert not check_timing(spell, Turn("opponent", "cleanup", True), "you").allowed


def test_cr_702_176a_impending_is_cast_at_sorcery_speed() -> None:
    """Overlord of the Hauntwoods cast for impending is still a creature spell with sorcery timing."""
    verdict = check_timing(OVERLORD, Turn("opponent", "end", True), "you", alternative="impending")
    assert not verdict.allowed and "impending" in verdict.message


def test_cr_305_1_lands_are_not_cast() -> None:
    assert not check_timing(FOREST, MAIN, "you").allowed
