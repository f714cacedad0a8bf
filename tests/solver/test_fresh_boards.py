"""A stream of fresh boards reuses what it built for equal permanents, and only where nothing
else on the board can change it (the supply's rows); the loader reads each board's own values.

Each test sends boards one after another in one process, as ``batch`` does, with the same
permanent JSON in a context that must change the answer.
"""

from __future__ import annotations

from typing import Any

from manasolver.solver.service.protocol import answer


def _board(perms: list[dict[str, Any]], commander: str | None = None, life: int = 20) -> dict[str, Any]:
    you: dict[str, Any] = {"name": "you", "life": life}
    if commander:
        you["commander"] = [commander]
    return {"players": [you, {"name": "opponent"}], "battlefield": perms}


def test_command_tower_follows_each_boards_commander_903_4() -> None:
    """CR 903.4: Command Tower adds a color of its controller's commander's identity.  The same
    Command Tower JSON under Kenrith (all five colors) pays {U}; under Ezuri, Renegade Leader
    (green) it does not; and then again under Kenrith it does."""
    tower = {"id": "t", "card": "Command Tower"}
    for commander, payable in (("Kenrith, the Returned King", True), ("Ezuri, Renegade Leader", False),
                               ("Kenrith, the Returned King", True)):
        got = answer({"query": "can_pay", "state": _board([dict(tower)], commander), "cost": "{U}"})
        assert got["payable"] is payable, (commander, got)


def test_arcane_signet_without_a_commander_adds_nothing_903_4f() -> None:
    """903.4f: with no commander, "your commander's color identity" is undefined and Arcane Signet
    adds no mana, even right after a board where it added white."""
    signet = {"id": "s", "card": "Arcane Signet"}
    assert answer({"query": "can_pay", "state": _board([dict(signet)], "Kenrith, the Returned King"),
                   "cost": "{W}"})["payable"] is True
    assert answer({"query": "can_pay", "state": _board([dict(signet)]), "cost": "{W}"})["payable"] is False


def test_priest_of_titania_counts_the_elves_of_each_board() -> None:
    """Priest of Titania: "{T}: Add {G} for each Elf on the battlefield."  The same Priest JSON
    pays {G}{G}{G} beside two Llanowar Elves (three Elves) and not beside one."""
    priest = {"id": "pr", "card": "Priest of Titania"}
    elves = [{"id": f"e{i}", "card": "Llanowar Elves", "tapped": True} for i in range(2)]
    assert answer({"query": "can_pay", "state": _board([dict(priest), *elves]), "cost": "{G}{G}{G}"})["payable"]
    assert not answer({"query": "can_pay", "state": _board([dict(priest), elves[0]]),
                       "cost": "{G}{G}{G}"})["payable"]


def test_a_sick_dork_is_sick_on_its_board_only_302_6() -> None:
    """CR 302.6: the same Llanowar Elves JSON marked sick can't tap for {G}; with haste given by
    Fervor ("Creatures you control have haste.") on the next board it can."""
    elf = {"id": "e", "card": "Llanowar Elves", "sick": True}
    assert not answer({"query": "can_pay", "state": _board([dict(elf)]), "cost": "{G}"})["payable"]
    fervor = {"id": "f", "card": "Fervor"}
    assert answer({"query": "can_pay", "state": _board([dict(elf), fervor]), "cost": "{G}"})["payable"]


def test_mana_confluence_life_payment_follows_each_boards_life_119_4() -> None:
    """CR 119.4: Mana Confluence ("{T}, Pay 1 life: Add one mana of any color.") pays {R} at 1 life
    and not at 0: the same permanent's row is keyed by its player's life."""
    confluence = {"id": "m", "card": "Mana Confluence"}
    assert answer({"query": "can_pay", "state": _board([dict(confluence)], life=1), "cost": "{R}"})["payable"]
    assert not answer({"query": "can_pay", "state": _board([dict(confluence)], life=0), "cost": "{R}"})["payable"]


def test_a_reused_permanent_keeps_field_types_apart() -> None:
    """``"tapped": true`` and ``"tapped": 1`` are equal in Python but not in JSON: after a board
    with the first, the second is still refused with its own message."""
    ok = answer({"query": "can_pay", "state": _board([{"id": "f", "card": "Forest", "tapped": True}]),
                 "cost": "{G}"})
    assert ok["payable"] is False
    bad = answer({"query": "can_pay", "state": _board([{"id": "f", "card": "Forest", "tapped": 1}]),
                  "cost": "{G}"})
    assert bad["error"]["code"] == "bad_state" and bad["error"]["where"] == "battlefield[0].tapped", bad


# -- could produce (CR 106.7) on a stream of boards -----------------------------------------------


def _could(state: dict[str, Any]) -> dict[str, list[str]]:
    got = answer({"query": "could_produce", "state": state})
    assert "error" not in got, got
    return dict(got["could_produce"])


def test_reflecting_pool_mirrors_the_lands_of_each_board_106_7() -> None:
    """CR 106.7: Reflecting Pool ("Add one mana of any type that a land you control could
    produce") beside a Forest pays {G}; the same Pool JSON beside an Island pays {U} and not {G}."""
    pool = {"id": "rp", "card": "Reflecting Pool"}
    forest = _board([dict(pool), {"id": "f", "card": "Forest", "tapped": True}])
    island = _board([dict(pool), {"id": "i", "card": "Island", "tapped": True}])
    assert answer({"query": "can_pay", "state": forest, "cost": "{G}"})["payable"] is True
    assert answer({"query": "can_pay", "state": island, "cost": "{G}"})["payable"] is False
    assert answer({"query": "can_pay", "state": island, "cost": "{U}"})["payable"] is True


def test_command_tower_types_follow_each_boards_commander_903_4() -> None:
    """Command Tower's could-produce types are remembered per ability and commander identity:
    the same Tower JSON could produce all five colors under Kenrith, only {G} under Ezuri, then all
    five again; a Reflecting Pool beside it mirrors what it could produce (106.7)."""
    perms = [{"id": "t", "card": "Command Tower"}, {"id": "rp", "card": "Reflecting Pool"}]
    for commander, letters in (("Kenrith, the Returned King", ["W", "U", "B", "R", "G"]),
                               ("Ezuri, Renegade Leader", ["G"]),
                               ("Kenrith, the Returned King", ["W", "U", "B", "R", "G"])):
        could = _could(_board([dict(p) for p in perms], commander))
        assert could["t"] == letters and could["rp"] == letters, (commander, could)
        pays_u = answer({"query": "can_pay", "state": _board([dict(perms[1]), {**perms[0], "tapped": True}],
                                                             commander), "cost": "{U}"})["payable"]
        assert pays_u is ("U" in letters), commander


def test_thriving_grove_types_follow_its_chosen_color_614_12() -> None:
    """Thriving Grove: "{T}: Add {G} or one mana of the chosen color." (CR 614.12: chosen as it
    enters).  Chosen blue, then red, on successive boards: each board's own color."""
    for color, letters in (("U", ["U", "G"]), ("R", ["R", "G"]), (None, ["G"])):
        grove: dict[str, Any] = {"id": "g", "card": "Thriving Grove"}
        if color:
            grove["chosen"] = {"color": color}
        assert _could(_board([grove]))["g"] == letters, color


def test_gaeas_cradle_counts_each_boards_creatures_106_7() -> None:
    """Gaea's Cradle ("Add {G} for each creature you control") could produce {G} only with a
    creature (107.1b: an amount of 0 adds no mana, so no type); a Reflecting Pool beside it
    follows: the Cradle's types are never remembered across boards."""
    lands = [{"id": "c", "card": "Gaea's Cradle"}, {"id": "rp", "card": "Reflecting Pool"}]
    alone = _could(_board([dict(p) for p in lands]))
    assert alone["c"] == [] and alone["rp"] == []
    with_elf = _could(_board([dict(p) for p in lands] + [{"id": "e", "card": "Llanowar Elves"}]))
    assert with_elf["c"] == ["G"] and with_elf["rp"] == ["G"]
    assert _could(_board([dict(p) for p in lands]))["rp"] == []


def test_the_supplys_references_are_could_produce_on_lands() -> None:
    """What the supply mirrors (graph.reference_sets: the fixed point over lands only) equals the
    full fixed point's on every land and every referenced set, on varied Commander boards and on
    boards where Blood Moon (CR 613, layer 4) or Urborg change the lands."""
    from manasolver.benchmarks.client import varied_board
    from manasolver.models.board.load import load_state
    from manasolver.solver.graph import REFERENCES, could_produce, reference_sets
    boards = [varied_board(seed) for seed in range(12)]
    for extra in ("Blood Moon", "Urborg, Tomb of Yawgmoth", "Chromatic Lantern"):
        board = varied_board(40)
        board["battlefield"].append({"id": "fx", "card": extra, "controller": "opponent"})
        boards.append(board)
    for board in boards:
        board["battlefield"].append({"id": "ol", "card": "Mountain", "controller": "opponent"})
        state = load_state(board)
        full, lands = could_produce(state), reference_sets(state)
        assert lands == {p.id: full[p.id] for p in state.battlefield if p.is_land and p.id in full}
        for ref in REFERENCES:
            for player in ("you", "opponent"):
                assert lands.union((ref, player)) == full.union((ref, player)), (ref, player)


# -- the loader's reuse keeps every limit ---------------------------------------------------------


def test_players_sent_again_still_count_toward_the_zone_limit() -> None:
    """Three players of 9,000 named hand cards pass the 10,000 per zone and cross the 20,000 in
    all at the third; sent again (every name read before), the board is refused at the same place."""
    board = {"players": [{"name": str(i), "hand": ["Forest"] * 9000} for i in range(3)]}
    for _ in range(2):
        got = answer({"query": "can_pay", "state": board, "cost": "{G}"})
        assert got["error"]["code"] == "bad_state" and got["error"]["where"] == "players[2].hand", got


def test_inline_text_limit_is_the_same_every_time_a_board_is_sent() -> None:
    """Permanents that lay oracle text over a named card count toward the board's 200,000
    characters of inline text each time the board is sent, so a board over it is refused every
    time at the same permanent, not accepted once its first permanents were seen."""
    perms = [{"id": f"p{i}", "card": "Forest", "oracle_text": f"{i} " + "x" * 4990} for i in range(45)]
    for _ in range(2):
        got = answer({"query": "can_pay", "state": _board([dict(p) for p in perms]), "cost": "{G}"})
        assert got["error"]["code"] == "bad_state" and got["error"]["where"] == "battlefield[40]", got


def test_a_player_keeps_its_own_hand_for_keep_castable() -> None:
    """The same board with a different hand is a different player: a hand of names is read
    from each board, and the same JSON makes an equal player."""
    from manasolver.models.board.load import load_state
    one = load_state(_board([]) | {"players": [{"name": "you", "hand": ["Llanowar Elves"]}]})
    two = load_state(_board([]) | {"players": [{"name": "you", "hand": ["Lightning Bolt"]}]})
    again = load_state(_board([]) | {"players": [{"name": "you", "hand": ["Llanowar Elves"]}]})
    assert [c.name for c in one.players[0].hand] == ["Llanowar Elves"]
    assert [c.name for c in two.players[0].hand] == ["Lightning Bolt"]
    assert again.players[0] == one.players[0]
