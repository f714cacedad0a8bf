"""Cards whose mana reads the board's history fields: ``cards_drawn_this_turn``, ``entered_this_turn``,
``renowned``, ``designations`` and ``library``.  Each answers exactly from the field, and is
``unsupported`` naming the field where the board leaves it out.  Every payment is checked by
``validate``."""

from __future__ import annotations

from typing import Any

from cards import pay_validated as _pay


def _board(card: str, perm: dict[str, Any] | None = None, *others: dict[str, Any] | str,
           **player: Any) -> dict[str, Any]:
    field: list[dict[str, Any]] = [{"id": "k", "card": card, **(perm or {})}]
    for i, other in enumerate(others):
        field.append({"id": f"o{i}", **({"card": other} if isinstance(other, str) else other)})
    return {"players": [{"name": "you", **player}, {"name": "opp"}], "battlefield": field}


def _unsupported(out: dict[str, Any], where: str) -> None:
    assert out["error"]["code"] == "unsupported", out
    assert out["error"]["where"] == where, out


def _mana(out: dict[str, Any], pid: str = "k") -> str:
    return "".join(a["mana"] for a in out["payment"]["activations"] if a["permanent"] == pid)


def test_kydele_chosen_of_kruphix_adds_c_per_card_drawn() -> None:
    """Kydele: "{T}: Add {C} for each card you've drawn this turn" reads cards_drawn_this_turn
    (default 0)."""
    assert _mana(_pay(_board("Kydele, Chosen of Kruphix", None, cards_drawn_this_turn=3), "{3}")) == "{C}{C}{C}"
    assert _pay(_board("Kydele, Chosen of Kruphix", None, cards_drawn_this_turn=2), "{3}")["payable"] is False
    assert _pay(_board("Kydele, Chosen of Kruphix"), "{1}")["payable"] is False


def test_alena_kessig_trapper_reads_creatures_that_entered_this_turn() -> None:
    """Alena: {R} equal to the greatest power among creatures you control that entered this turn
    (her own 4, a Grizzly Bears' 2 when she did not)."""
    alena = "Alena, Kessig Trapper"
    assert _mana(_pay(_board(alena, {"entered_this_turn": True}), "{4}")) == "{R}{R}{R}{R}"
    out = _pay(_board(alena, {"entered_this_turn": False},
                      {"card": "Grizzly Bears", "entered_this_turn": True}), "{2}")
    assert _mana(out) == "{R}{R}"
    out = _pay(_board(alena, {"entered_this_turn": False},
                      {"card": "Grizzly Bears", "entered_this_turn": False}), "{1}")
    assert out["payable"] is False
    _unsupported(_pay(_board(alena, {"entered_this_turn": False}, "Grizzly Bears"), "{1}"),
                 "battlefield[1].entered_this_turn")
    _unsupported(_pay(_board(alena), "{1}"), "battlefield[0].entered_this_turn")


def _cards(*names: str, **player: Any) -> dict[str, Any]:
    return {"players": [{"name": "you", **player}, {"name": "opp"}],
            "battlefield": [{"id": f"p{i}", "card": n} for i, n in enumerate(names)]}


def test_millikin_mills_from_the_library_701_13() -> None:
    """Millikin ("{T}, Mill a card: Add {C}"): paid from the board's library; an empty library pays
    no milling cost (CR 118.3); without a library the Millikin is left out naming the field."""
    out = _pay(_cards("Millikin", "Forest", library={"size": 5}), "{2}")
    assert _mana(out, "p0") == "{C}" and "mill a card" in out["payment"]["activations"][0]["costs"]
    assert _pay(_cards("Millikin", "Forest", library={"size": 0}), "{2}")["payable"] is False
    out = _pay(_cards("Millikin", "Forest"), "{G}")
    (gap,) = out["unsupported"]
    assert gap["permanent"] == "p0" and '"library"' in gap["reason"]


def test_deranged_assistant_and_millikin_share_the_library() -> None:
    """Two milling costs (Millikin, Deranged Assistant) need two cards: with one, the answer does
    not guess which is paid and leaves one out naming why."""
    both = _pay(_cards("Millikin", "Deranged Assistant", "Forest", library={"size": 2}), "{3}")
    assert both["payable"] is True and "unsupported" not in both
    one = _pay(_cards("Millikin", "Deranged Assistant", "Forest", library={"size": 1}), "{G}")
    assert one["payable"] is True
    assert {u["permanent"] for u in one["unsupported"] if "2 milling costs" in u["reason"]} == {"p0", "p1"}
    refused = _pay(_cards("Millikin", "Deranged Assistant", "Forest", library={"size": 1}), "{2}")
    assert refused["error"]["code"] == "unsupported"


def test_charmed_pendant_stays_left_out_for_its_instant_timing() -> None:
    """Charmed Pendant ("{T}, Mill a card: … Activate only as an instant"): the library is given,
    but its timing is not modelled, so it stays left out saying so."""
    out = _pay(_cards("Charmed Pendant", "Forest", library={"size": 3, "top": ["Lightning Bolt"]}), "{G}")
    (gap,) = out["unsupported"]
    assert "instant" in gap["reason"]


def _borrower(library: dict[str, Any] | None) -> dict[str, Any]:
    you: dict[str, Any] = {"name": "you"} if library is None else {"name": "you", "library": library}
    return {"players": [you, {"name": "opp"}],
            "battlefield": [{"id": "s", "card": "Skill Borrower"}, {"id": "f", "card": "Forest"}]}


def test_skill_borrower_has_the_top_cards_abilities_613_1f() -> None:
    """Skill Borrower: while the top card of its controller's library is an artifact or creature
    card, it has that card's activated abilities (a Sol Ring on top: {C}{C}); a land on top or an
    empty library gives nothing; the top card not given is hidden information, counted as giving
    nothing and named under uncertain; no library is unsupported naming it."""
    assert _mana(_pay(_borrower({"size": 3, "top": ["Sol Ring"]}), "{3}"), "s") == "{C}{C}"
    assert _pay(_borrower({"size": 3, "top": ["Forest"]}), "{2}")["payable"] is False
    assert _pay(_borrower({"size": 0}), "{2}")["payable"] is False
    hidden = _pay(_borrower({"size": 3}), "{1}")
    assert hidden["payable"] is True and [u["permanent"] for u in hidden["uncertain"]] == ["s"]
    _unsupported(_pay(_borrower(None), "{1}"), "players[0].library")


def test_conspicuous_snoop_reads_only_a_goblin_on_top() -> None:
    """Conspicuous Snoop: only a Goblin card on top gives its abilities; a Sol Ring does not."""
    board = _borrower({"size": 3, "top": ["Sol Ring"]})
    board["battlefield"][0]["card"] = "Conspicuous Snoop"
    assert _pay(board, "{2}")["payable"] is False
    assert _pay(board, "{G}")["payable"] is True


def test_gathering_place_entered_this_turn_or_a_basic_land_602_5b() -> None:
    """Gathering Place ("Activate only if this land entered this turn or if you control a basic
    land"): with a basic land (Wastes) its entered_this_turn is not needed; without one, it
    answers from entered_this_turn, and names the field when it is left out."""
    def place(entered: bool | None, other: str) -> dict[str, Any]:
        return _board("Gathering Place", {} if entered is None else {"entered_this_turn": entered}, other)
    assert _mana(_pay(place(None, "Wastes"), "{W}")) == "{W}"
    assert _mana(_pay(place(True, "Sol Ring"), "{W}")) == "{W}"
    assert _pay(place(False, "Sol Ring"), "{W}")["payable"] is False
    assert _mana(_pay(place(True, "Sol Ring"), "{W}")) == "{W}"
    _unsupported(_pay(place(None, "Sol Ring"), "{W}"), "battlefield[0].entered_this_turn")


def test_mirrex_activates_only_the_turn_it_entered() -> None:
    """Mirrex ("{T}: Add one mana of any color. Activate only if this land entered this turn")."""
    assert _mana(_pay(_board("Mirrex", {"entered_this_turn": True}), "{B}")) == "{B}"
    assert _pay(_board("Mirrex", {"entered_this_turn": False}), "{B}")["payable"] is False


def test_sarevoks_tome_reads_the_initiative_725() -> None:
    """Sarevok's Tome ("{T}: Add {C}. If you have the initiative, add {C}{C} instead"): read from the
    player's designations; left out, the answer names the field where the Tome could help."""
    tome = "Sarevok's Tome"
    assert _mana(_pay(_board(tome, None, designations=["initiative"]), "{2}")) == "{C}{C}"
    assert _pay(_board(tome, None, designations=[]), "{2}")["payable"] is False
    assert _pay(_board(tome, None, designations=["monarch"]), "{2}")["payable"] is False
    _unsupported(_pay(_board(tome), "{1}"), "players[0].designations")


def test_blazemire_verge_needs_a_swamp_or_a_mountain_602_5b() -> None:
    """Blazemire Verge's second ability ("Activate only if you control a Swamp or a Mountain"):
    either subtype, after land-type changes, is enough."""
    assert _mana(_pay(_board("Blazemire Verge", None, "Swamp"), "{R}")) == "{R}"
    assert _mana(_pay(_board("Blazemire Verge", None, "Mountain"), "{R}{R}")) == "{R}"
    assert _pay(_board("Blazemire Verge", None, "Forest"), "{R}")["payable"] is False
    assert _mana(_pay(_board("Blazemire Verge", None, "Forest"), "{B}")) == "{B}"


def test_honored_hierarch_has_mana_while_renowned_702_112b() -> None:
    """Honored Hierarch ("As long as this creature is renowned, it has … "{T}: Add one mana of any
    color.""): read from renowned; left out, the answer names the field."""
    assert _mana(_pay(_board("Honored Hierarch", {"renowned": True}), "{U}")) == "{U}"
    assert _pay(_board("Honored Hierarch", {"renowned": False}), "{U}")["payable"] is False
    _unsupported(_pay(_board("Honored Hierarch"), "{U}"), "battlefield[0].renowned")


def test_mul_daya_channelers_with_a_land_on_top() -> None:
    """Mul Daya Channelers: "{T}: Add two mana of any one color" while the top card of the library
    is a land card (a Forest on top), not with an Opt on top or an empty library; with the top card
    not given it is counted as not a land and named under uncertain."""
    def channelers(library: dict[str, Any]) -> dict[str, Any]:
        return _board("Mul Daya Channelers", None, library=library)
    assert _mana(_pay(channelers({"size": 4, "top": ["Forest"]}), "{U}{U}")) == "{U}{U}"
    assert _pay(channelers({"size": 4, "top": ["Opt"]}), "{U}")["payable"] is False
    assert _pay(channelers({"size": 0}), "{U}")["payable"] is False
    hidden = _pay(channelers({"size": 4}), "{U}")
    assert hidden["payable"] is False and [u["permanent"] for u in hidden["uncertain"]] == ["k"]


def test_ugins_labyrinth_reads_the_card_exiled_with_it_607_2a() -> None:
    """Ugin's Labyrinth ("If a card is exiled with this land, add {C}{C} instead"): read from its
    imprinted cards; left out, the answer names the field."""
    assert _mana(_pay(_board("Ugin's Labyrinth", {"imprinted": ["Ulamog, the Infinite Gyre"]}), "{2}")) == "{C}{C}"
    assert _pay(_board("Ugin's Labyrinth", {"imprinted": []}), "{2}")["payable"] is False
    _unsupported(_pay(_board("Ugin's Labyrinth"), "{1}"), "battlefield[0].imprinted")


def test_vexing_puzzlebox_mana_is_certain_before_its_roll() -> None:
    """Vexing Puzzlebox ("{T}: Add one mana of any color. Roll a d20."): the roll comes after the
    mana and does not change it, so no chance is involved in what the payment relies on."""
    assert _mana(_pay(_board("Vexing Puzzlebox"), "{U}")) == "{U}"


def test_regal_behemoth_adds_while_its_controller_is_the_monarch_724() -> None:
    """Regal Behemoth ("Whenever you tap a land for mana while you're the monarch, add an additional
    one mana of any color"): a Forest gives {G} and one more mana while the monarch, only {G} when
    not; without designations the answer names the field."""
    def behemoth(**player: Any) -> dict[str, Any]:
        return _board("Regal Behemoth", None, "Forest", **player)
    assert _mana(_pay(behemoth(designations=["monarch"]), "{U}{G}"), "o0") == "{U}{G}"
    assert _pay(behemoth(designations=[]), "{U}")["payable"] is False
    assert _pay(behemoth(designations=["monarch"]), "{2}{G}")["payable"] is False
    _unsupported(_pay(behemoth(), "{U}"), "players[0].designations")
