"""Fetch lands searched unresolved: a fetch land played stays on the battlefield, its target chosen
when a board is asked.  On every game where the search allows it, its answers per turn are those of the
search that chooses each target as the fetch land is played; each case where it would be wrong (a check
land reading the land found, a library running out, a mana source cast on the board) is a game the
search keeps to targets chosen as played, and forcing the unresolved search there changes answers."""

from __future__ import annotations

import random
from pathlib import Path

from manasolver.models.carddb import CardDB
from manasolver.solver.castability.board import BoardOracle
from manasolver.solver.castability.deck import parse_deck
from manasolver.solver.castability.deckmodel import DeckModel
from manasolver.solver.castability.games import _Game

JUND = Path(__file__).resolve().parents[2] / "data" / "decks" / "jund.txt"

_Turn = tuple[int, int, int, int, int]


def _answers(game: _Game, out: tuple[_Turn, ...]) -> tuple[_Turn, ...]:
    """The per-turn answers as the counts read them: the spells castable, and of the failing spells
    the reasons asked (other bits of the masks are whatever the boards happened to know)."""
    full = (1 << len(game.m.spells)) - 1
    rows = []
    for t, mask, untapped, lands, cut in out:
        failing = full & ~mask
        rows.append((t, mask & full, untapped & game._why_bits(failing) if failing else 0, lands, cut))
    return tuple(rows)


def _compare(db: CardDB, text: str, games: int, turns: int = 5) -> tuple[int, int, int]:
    """Over ``games`` games of the deck: how many the unresolved search is chosen for, how many it
    answers otherwise than the search with targets chosen as played when forced on every game, and how
    many of the games it is chosen for it answers otherwise (must be none)."""
    deck = parse_deck(text, db)
    model = DeckModel.build(deck.cards, deck.commander)
    game = _Game(model, BoardOracle(model.cards, model.costs(), db, [], model.chosen))
    rng = random.Random(7)
    chosen = forced_differs = chosen_differs = 0
    for _ in range(games):
        hand, drawn, _ = game.opening(rng, turns - 1)
        seen = hand + drawn
        cap = sum(1 for c in seen if c in game.finds)
        left = {c: game.land_counts[c] for c in game.findable}
        for c in seen:
            if c in left:
                left[c] -= 1
        remaining = tuple(sorted((c, min(k, cap)) for c, k in left.items() if k > 0)) if cap else ()
        played = _answers(game, game._search(hand, drawn, remaining, cap, 0, turns, False))
        unresolved = _answers(game, game._search(hand, drawn, remaining, cap, 0, turns, True))
        ok = game._open(seen, remaining, cap)
        chosen += ok
        forced_differs += unresolved != played
        chosen_differs += ok and unresolved != played
    return chosen, forced_differs, chosen_differs


def test_jund_fetch_shock_fast_lands_unresolved_same_answers(db: CardDB) -> None:
    """Bloodstained Mire, Wooded Foothills and Verdant Catacombs with shock, fast and basic targets:
    the unresolved search is chosen for most games and answers each exactly as the other."""
    chosen, _, differs = _compare(db, JUND.read_text(), 300, turns=6)
    assert chosen > 200
    assert differs == 0


def test_evolving_wilds_target_enters_tapped_unresolved_same_answers(db: CardDB) -> None:
    """Evolving Wilds' land enters tapped on the turn it is played, whichever is chosen."""
    chosen, _, differs = _compare(db, "6 Evolving Wilds\n2 Plains\n2 Island\n10 Mountain\n40 Azorius Charm\n", 300)
    assert chosen == 300
    assert differs == 0


def test_drowned_catacomb_reads_the_island_polluted_delta_found(db: CardDB) -> None:
    """A check land's entry reads the lands already there, a fetched Island among them: with a check
    land in the game the targets are chosen as played (forced unresolved, the check land would not see
    the Island and answers change)."""
    chosen, forced, differs = _compare(db, "12 Polluted Delta\n8 Drowned Catacomb\n4 Island\n36 Dimir Charm\n", 300)
    assert forced > 0
    assert chosen < 300
    assert differs == 0


def test_polluted_delta_with_one_island_left_finds_nothing_the_second_time(db: CardDB) -> None:
    """Two Polluted Deltas and one Island in the library: the second Delta can't be played, so the game
    keeps its targets chosen as played (forced unresolved, both Deltas would stay on the battlefield with
    no choice of targets for them and answers change)."""
    chosen, forced, differs = _compare(db, "8 Polluted Delta\n1 Island\n8 Mountain\n43 Opt\n", 300)
    assert forced > 0
    assert differs == 0


def test_llanowar_elves_cast_on_the_board_the_fetch_made(db: CardDB) -> None:
    """A mana source is cast on the board of the lands found: a game with Llanowar Elves keeps its
    targets chosen as played (forced unresolved, no source would be cast and answers change)."""
    text = "8 Windswept Heath\n4 Forest\n4 Plains\n4 Temple Garden\n12 Llanowar Elves\n28 Knight of Autumn\n"
    chosen, forced, differs = _compare(db, text, 300)
    assert forced > 0
    assert chosen < 300
    assert differs == 0


def test_wooded_foothills_finds_the_untapped_mountain_over_ketria_triome(db: CardDB) -> None:
    """Ketria Triome adds every color a Mountain adds but enters tapped: on the turn the fetch land is
    played the Mountain is still a choice of its own (Lightning Bolt on turn one), so the unresolved
    search answers as the other."""
    text = "6 Wooded Foothills\n6 Ketria Triome\n4 Mountain\n4 Forest\n20 Lightning Bolt\n20 Kolaghan's Command\n"
    chosen, _, differs = _compare(db, text, 300)
    assert chosen > 200
    assert differs == 0
