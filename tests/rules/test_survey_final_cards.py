"""The survey's final cards: hidden information counted as the least it can give, and costs and
wordings read exactly.

The top card of a library the board gives without it is chance from the payer's side: mana that
depends on it is counted as the least it can give and the answers name the source under
``uncertain``; a library the board does not give at all is ``unsupported`` naming the field; a
known top card keeps its exact reading.  Every payment is given back to ``validate``."""

from __future__ import annotations

from typing import Any

from cards import pay_validated as _pay
from manasolver.solver.service.protocol import answer


def _board(*cards: str | dict[str, Any], you: dict[str, Any] | None = None,
           opp: dict[str, Any] | None = None) -> dict[str, Any]:
    field = [{"id": f"p{i}", **({"card": c} if isinstance(c, str) else c)} for i, c in enumerate(cards)]
    return {"players": [{"name": "you", **(you or {})}, {"name": "opp", **(opp or {})}], "battlefield": field}


def _mana(out: dict[str, Any], pid: str = "p0") -> str:
    assert out.get("payable"), out
    return "".join(a["mana"] for a in out["payment"]["activations"] if a["permanent"] == pid)


def _uncertain(out: dict[str, Any]) -> list[str]:
    return [u["permanent"] for u in out.get("uncertain", [])]


# -- the top card of a library -----------------------------------------------------------------

HIDDEN = {"library": {"size": 40}}


def test_selvala_explorer_returned_parley_counts_nonland_top_cards() -> None:
    """Selvala, Explorer Returned's parley ("For each nonland card revealed this way, add {G}"):
    an Opt on each library's top adds {G}{G}; a Forest on top adds nothing for that library."""
    both = _board("Selvala, Explorer Returned", you={"library": {"size": 5, "top": ["Opt"]}},
                  opp={"library": {"size": 5, "top": ["Llanowar Elves"]}})
    out = _pay(both, "{G}{G}")
    assert _mana(out) == "{G}{G}" and not _uncertain(out)
    one = _board("Selvala, Explorer Returned", "Forest", you={"library": {"size": 5, "top": ["Forest"]}},
                 opp={"library": {"size": 5, "top": ["Opt"]}})
    assert _mana(_pay(one, "{G}{G}")) == "{G}"
    assert _pay(one, "{G}{G}{G}")["payable"] is False


def test_selvala_explorer_returned_hidden_top_cards_are_uncertain() -> None:
    """The board gives the libraries without their top cards: each is counted as a land (no {G}),
    and Selvala is named under uncertain; with one top known, that one counts.  A library of no
    cards reveals nothing (nothing uncertain); a library not given is unsupported naming it."""
    hidden = _board("Selvala, Explorer Returned", "Forest", you=HIDDEN, opp=HIDDEN)
    out = _pay(hidden, "{G}")
    assert _mana(out, "p1") == "{G}" and _mana(out, "p0") == "" and _uncertain(out) == ["p0"]
    assert "library of you and the library of opp" in out["uncertain"][0]["reason"]
    assert _pay(hidden, "{G}{G}")["payable"] is False
    half = _board("Selvala, Explorer Returned", you={"library": {"size": 5, "top": ["Opt"]}}, opp=HIDDEN)
    out = _pay(half, "{G}")
    assert _mana(out) == "{G}" and _uncertain(out) == ["p0"]
    empty = _board("Selvala, Explorer Returned", you={"library": {"size": 0}}, opp={"library": {"size": 0}})
    out = _pay(empty, "{G}")
    assert out["payable"] is False and not _uncertain(out)
    missing = _pay(_board("Selvala, Explorer Returned", you=HIDDEN), "{G}")
    assert missing["error"]["code"] == "unsupported" and missing["error"]["where"] == "players[1].library"


def test_selvala_validate_refuses_mana_from_a_hidden_top_card() -> None:
    """``validate`` reads the same least amount: a payment claiming {G} from Selvala while both
    top cards are hidden is illegal."""
    board = _board("Selvala, Explorer Returned", you=HIDDEN, opp=HIDDEN)
    payment = {"activations": [{"permanent": "p0", "ability": 0, "mana": "{G}"}]}
    check = answer({"query": "validate", "state": board, "cost": "{G}", "payment": payment})
    assert check["legal"] is False


def test_mul_daya_channelers_hidden_top_card_is_uncertain() -> None:
    """Mul Daya Channelers: the top card hidden, its "{T}: Add two mana of any one color" is not
    counted and it is named under uncertain; tapped, it is not named (it could not add anything)."""
    out = _pay(_board("Mul Daya Channelers", "Forest", you=HIDDEN), "{G}")
    assert _mana(out, "p1") == "{G}" and _uncertain(out) == ["p0"]
    tapped = _pay(_board({"card": "Mul Daya Channelers", "tapped": True}, "Forest", you=HIDDEN), "{G}")
    assert not _uncertain(tapped)
    known = _pay(_board("Mul Daya Channelers", you={"library": {"size": 4, "top": ["Forest"]}}), "{W}{W}")
    assert _mana(known) == "{W}{W}" and not _uncertain(known)


def test_conspicuous_snoop_and_skill_borrower_hidden_top_card_are_uncertain() -> None:
    """Conspicuous Snoop and Skill Borrower have the top card's abilities: hidden, they have none
    and are named under uncertain; a library not given is unsupported naming it."""
    for name in ("Conspicuous Snoop", "Skill Borrower"):
        out = _pay(_board(name, "Forest", you=HIDDEN), "{1}")
        assert _mana(out, "p1") == "{G}" and _uncertain(out) == ["p0"], name
        assert _pay(_board(name, "Forest", you=HIDDEN), "{2}")["payable"] is False
        missing = _pay(_board(name, "Forest"), "{1}")
        assert missing["error"]["where"] == "players[0].library", name


def test_hidden_top_card_is_named_by_every_payment_query() -> None:
    """can_pay, payments and max_x name the same uncertain source as pay."""
    board = _board("Selvala, Explorer Returned", "Forest", you=HIDDEN, opp=HIDDEN)
    for query, extra in (("can_pay", {"cost": "{G}"}), ("payments", {"cost": "{G}"}), ("max_x", {"cost": "{X}"})):
        out = answer({"query": query, "state": board, **extra})
        assert [u["permanent"] for u in out.get("uncertain", [])] == ["p0"], (query, out)


# -- options names what it leaves out by why -----------------------------------------------------

def test_options_names_heritage_druids_tapping_cost_as_payment_queries_only() -> None:
    """Heritage Druid's "Tap three untapped Elves you control" and Skirge Familiar's "Discard a
    card" are read (the payment queries pay them); ``options`` leaves them out saying so, not that
    the text could not be read."""
    for name in ("Heritage Druid", "Skirge Familiar", "Priest of Yawgmoth"):
        out = answer({"query": "options", "state": _board(name, "Forest")})
        reason = out["unsupported"][0]["reason"]
        assert "modelled only by the payment queries" in reason and "could not read" not in reason, out
    unread = answer({"query": "options", "state": _board("Cryptex", "Forest")})
    assert "could not read" in unread["unsupported"][0]["reason"]


# -- costs ---------------------------------------------------------------------------------------

FURGUL = "Furgul, Quag Nurturer"


def test_furgul_quag_nurturer_adds_the_sacrificed_creatures_power_608_2h() -> None:
    """Furgul ("{T}, Sacrifice a creature: Add an amount of {G} equal to the sacrificed creature's
    power"): a Grizzly Bears with two +1/+1 counters gives four; Furgul may sacrifice itself (a
    2/2: two); a creature with a power it can't compute (Tarmogoyf's ``*``) is refused, not guessed."""
    bears = {"card": "Grizzly Bears", "counters": {"+1/+1": 2}}
    out = _pay(_board(FURGUL, bears), "{G}{G}{G}{G}")
    assert [(a["mana"], a.get("sacrificed")) for a in out["payment"]["activations"]] == [("{G}" * 4, ["p1"])]
    alone = _pay(_board(FURGUL), "{G}{G}")
    assert [(a["mana"], a.get("sacrificed")) for a in alone["payment"]["activations"]] == [("{G}{G}", ["p0"])]
    assert _pay(_board(FURGUL), "{G}{G}{G}")["payable"] is False
    assert _pay(_board(FURGUL, "Tarmogoyf"), "{G}")["error"]["code"] == "unsupported"


def test_furgul_validate_reads_the_named_creatures_power() -> None:
    """``validate``: four {G} for sacrificing a 2/2 Grizzly Bears is illegal; its two {G} are legal."""
    board = _board(FURGUL, "Grizzly Bears", {"card": "Grizzly Bears", "counters": {"+1/+1": 2}})
    payment = _pay(board, "{G}" * 4)["payment"]
    assert payment["activations"][0]["sacrificed"] == ["p2"]
    payment["activations"][0]["sacrificed"] = ["p1"]
    wrong = answer({"query": "validate", "state": board, "cost": "{G}" * 4, "payment": payment})
    assert wrong["legal"] is False
    assert [a["sacrificed"] for a in _pay(board, "{G}{G}")["payment"]["activations"]] in (
        [["p0"]], [["p1"]])


def test_charmed_pendant_hidden_top_card_adds_nothing_and_is_uncertain() -> None:
    """Charmed Pendant ("{T}, Mill a card: For each colored mana symbol in the milled card's mana
    cost, add one mana of that color"): with the top card hidden it is counted as adding nothing
    and named under uncertain (tapped, not named); an empty library pays no milling cost (CR
    118.3); a known top card still leaves it out naming its "Activate only as an instant"."""
    out = _pay(_board("Charmed Pendant", "Forest", you=HIDDEN), "{G}")
    assert _mana(out, "p1") == "{G}" and _uncertain(out) == ["p0"]
    assert "without colored mana symbols" in out["uncertain"][0]["reason"]
    assert _pay(_board("Charmed Pendant", "Forest", you=HIDDEN), "{1}{G}")["payable"] is False
    assert not _uncertain(_pay(_board({"card": "Charmed Pendant", "tapped": True}, "Forest", you=HIDDEN), "{G}"))
    empty = _pay(_board("Charmed Pendant", "Forest", you={"library": {"size": 0}}), "{G}")
    assert _mana(empty, "p1") == "{G}" and not empty.get("unsupported") and not _uncertain(empty)
    known = _pay(_board("Charmed Pendant", "Forest", you={"library": {"size": 3, "top": ["Opt"]}}), "{G}")
    assert "instant" in known["unsupported"][0]["reason"]


# -- one-card wordings ---------------------------------------------------------------------------

TAZRI = "Tazri, Stalwart Survivor"


def test_tazri_grants_mana_only_to_creatures_with_another_activated_ability_602_5b() -> None:
    """Tazri, Stalwart Survivor: each creature you control has "{T}: Add one mana of any of this
    creature's colors. Spend this mana only to activate an ability of a creature. Activate only if
    this creature has another activated ability."  Tazri (its mill ability) and Prodigal Sorcerer
    (its ping) have another; Grizzly Bears and Goblin Guide (haste, a trigger) have none, but
    beside two Tazris a Grizzly Bears has two instances of the ability."""
    def options(*cards: str) -> list[str]:
        out = answer({"query": "options", "state": _board(TAZRI, *cards)})
        assert out["complete"] is True, out
        return list(out["options"])
    assert options() == ["{W}"]
    assert options("Prodigal Sorcerer") == ["{W}{U}"]
    assert options("Grizzly Bears") == ["{W}"]
    assert options("Goblin Guide") == ["{W}"]
    assert options(TAZRI, "Grizzly Bears") == ["{W}{W}{G}"]  # two instances: each the other's "another"


def test_tazri_mana_pays_only_abilities_of_creatures_106_6() -> None:
    """Tazri's mana pays no spell ({W} for a spell is unpayable from Tazri alone); a creature with
    an activated ability its text does not let the engine rule out is refused, not guessed."""
    out = _pay(_board(TAZRI), "{W}")
    assert out["payable"] is False and out["reason"]["code"] == "restricted_mana"
    odd = _pay(_board(TAZRI, {"name": "Odd", "type_line": "Creature — Elf", "mana_cost": "{G}",
                              "oracle_text": "Cycling {2}"}), "{W}")
    assert odd["error"]["code"] == "unsupported" and "another activated ability" in odd["error"]["message"]


def test_barbflare_gremlin_untapped_never_fires_603_4() -> None:
    """Barbflare Gremlin ("Whenever a player taps a land for mana, if this creature is tapped, that
    player adds one mana of any type that land produced. Then that land deals 1 damage to that
    player."): untapped, with nothing on the board able to tap it while lands are tapped for mana,
    its intervening "if" is false, so a payment is answered without it; tapped, or beside
    Springleaf Drum (whose cost could tap it first), it stays refused naming the clause."""
    out = _pay(_board("Barbflare Gremlin", "Forest"), "{G}")
    assert _mana(out, "p1") == "{G}" and out["payment"]["damage"] == 0 and not out.get("unsupported")
    tapped = _pay(_board({"card": "Barbflare Gremlin", "tapped": True}, "Forest"), "{G}")
    assert tapped["error"]["code"] == "unsupported" and "if this creature is tapped" in tapped["error"]["message"]
    drum = _pay(_board("Barbflare Gremlin", "Forest", "Springleaf Drum"), "{G}")
    assert drum["error"]["code"] == "unsupported"
    assert answer({"query": "options", "state": _board("Barbflare Gremlin", "Forest")})["options"] == ["{G}"]
    drum_options = answer({"query": "options", "state": _board("Barbflare Gremlin", "Forest", "Springleaf Drum")})
    assert drum_options["error"]["code"] == "unsupported"


def test_the_bus_runner_tokens_abilities_are_the_tokens_111_1() -> None:
    """The Bus Runner's enters trigger creates a token that has "{T}: Add {C}" and a trigger on
    becoming tapped: those are the token's abilities (a permanent of its own on the board, CR
    111.1), so the Bus Runner alone changes no payment; the token, given with its text, adds {C}."""
    out = _pay(_board("The Bus Runner", "Forest"), "{G}")
    assert _mana(out, "p1") == "{G}"
    token = {"name": "Desert Vehicle", "token": True, "type_line": "Artifact Land — Desert Vehicle",
             "oracle_text": "{T}: Add {C}."}
    assert _mana(_pay(_board("The Bus Runner", token), "{1}"), "p1") == "{C}"


def test_machine_gods_effigy_named_did_not_copy_614_1c() -> None:
    """Machine God's Effigy ("You may have this artifact enter as a copy of any creature …, except
    it's an artifact and it has "{T}: Add {U}.""; "{T}: Add {U}."): the copy is chosen as it enters
    and shows in the board's characteristics, so the card named alone adds {U}; given a copy's
    characteristics, it has that creature's abilities and the {U} one."""
    assert _mana(_pay(_board("Machine God's Effigy", "Forest"), "{U}{G}")) == "{U}"
    elves = {"card": "Machine God's Effigy", "name": "Llanowar Elves", "type_line": "Artifact — Elf Druid",
             "oracle_text": "{T}: Add {G}.\n{T}: Add {U}."}
    out = _pay(_board(elves), "{G}")
    assert _mana(out) == "{G}"


def test_runaway_growth_intensity_is_named_only_when_attached() -> None:
    """Runaway Growth ("Whenever enchanted land is tapped for mana, its controller adds an
    additional amount of {G} equal to this enchantment's intensity"): its intensity is not on the
    board; attached to nothing it adds nothing (the Forest pays alone), attached to the Forest the
    answer that may need it is refused naming the intensity."""
    out = _pay(_board("Runaway Growth", "Forest"), "{G}")
    assert _mana(out, "p1") == "{G}" and not out.get("unsupported")
    attached = _pay(_board({"card": "Runaway Growth", "attached_to": "p1"}, "Forest", "Island"), "{G}")
    assert attached["error"]["code"] == "unsupported" and "intensity" in attached["error"]["message"]


def test_vigorous_farming_perpetual_library_grant_changes_no_payment() -> None:
    """Vigorous Farming's end-step trigger gives a card in the library an ability; a land that has
    it is given on the board with its text, so the enchantment changes no payment now."""
    out = _pay(_board("Vigorous Farming", "Forest"), "{G}")
    assert _mana(out, "p1") == "{G}" and not out.get("unsupported")


def test_oyaminartok_reflexive_mana_is_no_mana_ability_605_1a() -> None:
    """Oyaminartok, Polar Werebear ("{U}, Sacrifice a Food: Draft a card … When you do, add
    {U}{U}{U}"): the activated ability adds no mana as it resolves, a reflexive trigger does (CR
    603.12), so it is no mana ability (605.1a) and no payment activates it: beside an Island and
    a Food, {U} is paid by the Island and {U}{U} is unpayable, with nothing left out."""
    food = {"name": "Food", "token": True, "type_line": "Artifact — Food",
            "oracle_text": "{2}, {T}, Sacrifice this artifact: You gain 3 life."}
    board = _board("Oyaminartok, Polar Werebear", "Island", food)
    out = _pay(board, "{U}")
    assert _mana(out, "p1") == "{U}" and not out.get("unsupported")
    assert _pay(board, "{U}{U}")["payable"] is False
