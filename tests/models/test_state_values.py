"""The loader's players, turn and libraries are the values their constructors make: named tuples
of their own types, changed with ``_replace``, pickled (the Dask and castability workers) as
what they are."""

from __future__ import annotations

import pickle

from manasolver.models.board.load import load_state
from manasolver.models.carddb import default_db
from manasolver.models.cost import ManaCost
from manasolver.models.state import GameState, Library, Player, Turn

_BOARD = {
    "players": [
        {"name": "you", "life": 23, "hand": ["Forest", "Counterspell"], "commander": ["Kenrith, the Returned King"],
         "lands_played_this_turn": 1, "spells_cast_this_turn": 0, "life_gained_this_turn": 2,
         "cards_drawn_this_turn": 1, "library": {"size": 85}},
        {"name": "opp", "life": 7, "pool": "{G}", "designations": ["monarch"],
         "library": {"size": 3, "top": ["Opt"]}},
    ],
    "battlefield": [{"id": "1", "card": "Forest", "controller": "opp", "tapped": True}],
}


def test_loaded_players_turn_and_libraries_are_what_their_constructors_make() -> None:
    """Each value the loader makes directly is of its own type and equal, field by field, to the
    one its constructor makes from the board's values by keyword."""
    db = default_db()
    state = load_state(_BOARD, db)
    you, opp = state.players
    card = db.get
    assert type(you) is Player and type(opp) is Player and type(state.turn) is Turn
    assert type(you.library) is Library and type(opp.library) is Library
    assert you == Player(name="you", life=23, hand=(card("Forest"), card("Counterspell")),
                         commander=(card("Kenrith, the Returned King"),), lands_played_this_turn=1,
                         life_gained_this_turn=2, cards_drawn_this_turn=1, library=Library(size=85))
    assert opp == Player(name="opp", life=7, pool=ManaCost.parse("{G}"), designations=frozenset({"monarch"}),
                         library=Library(size=3, top=(card("Opt"),)))
    assert state.turn == Turn(active="you", step="main1", stack_empty=True)
    assert you._asdict()["starting_life"] == 20 and opp.library is not None and opp.library.known(1)


def test_a_changed_player_is_a_new_value_and_a_state_pickles_as_itself() -> None:
    """``_replace`` makes a new player and leaves the loaded one as it was; a loaded state pickled
    and read back is equal, its players, turn and libraries of their own types, with its own view."""
    state = load_state(_BOARD, default_db())
    you = state.players[0]
    poorer = you._replace(life=you.life - 3)
    assert (poorer.life, you.life) == (20, 23) and poorer._replace(life=23) == you
    copy = pickle.loads(pickle.dumps(state))
    assert copy == state and type(copy) is GameState and copy.view is not state.view
    assert [type(p) for p in copy.players] == [Player, Player] and type(copy.turn) is Turn
    assert type(copy.players[0].library) is Library
