"""Triggered abilities read from real oracle text (CR 603, 605.5a).

Each test names the card, quotes the text it reads and cites the rule.  Nissa,
Worldsoul Speaker is newer than the bundled card data and is given inline with the
oracle text quoted here.
"""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from paths import CARD_DATA
from manasolver.models.card import TypeLine
from manasolver.models.card_build import card_from_record
from manasolver.models.carddb import CardDB
from manasolver.models.symbols import G, R
from manasolver.models.text.triggers import (
    Trigger,
    enters_tapped,
    impending_counters,
    parse_triggers,
    triggers_of,
)
from manasolver.solver.service.protocol import answer

NISSA = {"name": "Nissa, Worldsoul Speaker", "type_line": "Legendary Creature — Elf Druid",
         "mana_cost": "{3}{G}",
         "oracle_text": "Landfall — Whenever a land you control enters, you get {E}{E}.\n"
                        "You may pay eight {E} rather than pay the mana cost for permanent spells you cast."}
CARDS = CARD_DATA / "cards.jsonl.gz"


def one(triggers: tuple[Trigger, ...]) -> Trigger:
    assert len(triggers) == 1, triggers
    return triggers[0]


# -- mana from a trigger is not a mana ability (CR 605.1b, 605.5a) ---------------------------------


def test_t120_lotus_cobra_landfall_adds_mana_but_is_not_a_mana_ability(db: CardDB) -> None:
    """T120 (CR 605.1b, 605.5a; Lotus Cobra ruling 2017-11-17): "Landfall — Whenever a land enters
    the battlefield under your control, add one mana of any color." uses the stack."""
    card = db.get("Lotus Cobra")
    trig = one(triggers_of(card))
    assert trig.event == "landfall" and trig.supported
    assert trig.adds_mana and not trig.is_mana_ability and trig.uses_stack
    assert card.mana_abilities == ()  # so it can never pay inside a 601.2g payment window


def test_t121_burning_tree_emissary_etb_mana_is_not_a_mana_ability(db: CardDB) -> None:
    """T121 (605.5a; ruling 2017-03-14): "When Burning-Tree Emissary enters the battlefield, add
    {R}{G}." is an ETB trigger, not a mana ability."""
    trig = one(triggers_of(db.get("Burning-Tree Emissary")))
    assert trig.event == "enters" and trig.supported and not trig.is_mana_ability
    (effect,) = trig.effects
    assert effect.kind == "mana" and effect.production is not None
    assert effect.production.options == ((R, G),)


def test_t122_dark_ritual_is_a_spell_with_no_trigger(db: CardDB) -> None:
    """T122 (605.5b): Dark Ritual is a spell: no mana ability and no triggered ability."""
    card = db.get("Dark Ritual")
    assert card.mana_abilities == () and triggers_of(card) == ()


# -- events -------------------------------------------------------------------------------------


def test_overlord_enters_or_attacks_creates_tapped_everywhere(db: CardDB) -> None:
    """CR 702.176a (DSK rulings): "Whenever Overlord of the Hauntwoods enters or attacks,
    create a tapped colorless land token named Everywhere that is every basic land type."
    Impending 4: it enters with four time counters."""
    card = db.get("Overlord of the Hauntwoods")
    trig = one(triggers_of(card))
    assert trig.event == "enters" and trig.also_attacks and trig.supported
    (effect,) = trig.effects
    assert (effect.kind, effect.token, effect.amount, effect.tapped) == ("token", "Everywhere", 1, True)
    assert impending_counters(card) == 4 and impending_counters(db.get("Forest")) is None


def test_nissa_worldsoul_speaker_landfall_gives_two_energy() -> None:
    """Nissa, Worldsoul Speaker (Lotus Cobra ruling 2009-10-01): "Landfall — Whenever a land you control enters, you get
    {E}{E}." (the current "enters" wording)."""
    trig = one(triggers_of(card_from_record(NISSA)))
    assert trig.event == "landfall" and trig.supported
    assert [(e.kind, e.amount) for e in trig.effects] == [("energy", 2)]


def test_old_and_new_enters_wording_read_alike() -> None:
    """CR 603.6a: "enters the battlefield" (older printed text) and "enters" are one event."""
    kinds = TypeLine.parse("Creature — Test")
    old = parse_triggers("When Test Brawler enters the battlefield, you get {E}{E}.", kinds, "Test Brawler")
    new = parse_triggers("When Test Brawler enters, you get {E}{E}.", kinds, "Test Brawler")
    assert [(t.event, t.effects[0].amount) for t in old] == [(t.event, t.effects[0].amount) for t in new] \
        == [("enters", 2)]
    lands = parse_triggers("Whenever a land you control enters the battlefield, create a Treasure token.",
                           kinds, "Test")
    assert one(lands).event == "landfall" and one(lands).effects[0].token == "Treasure"


def test_treasure_tokens_from_real_cards(db: CardDB) -> None:
    """"When Wily Goblin enters the battlefield, create a Treasure token." and two Treasures
    (Tavern Scoundrel's wording is a different event, so it is reported, not read)."""
    (effect,) = one(triggers_of(db.get("Wily Goblin"))).effects
    assert (effect.kind, effect.token, effect.amount, effect.tapped) == ("token", "Treasure", 1, False)
    scoundrel = one(triggers_of(db.get("Tavern Scoundrel")))
    assert scoundrel.event == "other" and not scoundrel.supported


def test_eldrazi_spawn_token_with_its_quoted_ability(db: CardDB) -> None:
    """Nest Invader: "create a 0/1 colorless Eldrazi Spawn creature token. It has "Sacrifice this
    creature: Add {C}."" — the predefined Eldrazi Spawn token."""
    (effect,) = one(triggers_of(db.get("Nest Invader"))).effects
    assert (effect.kind, effect.token, effect.amount) == ("token", "Eldrazi Spawn", 1)


def test_city_of_brass_becomes_tapped_damage(db: CardDB) -> None:
    """City of Brass: "Whenever City of Brass becomes tapped, it deals 1 damage to you." (CR 603.2)."""
    trig = one(triggers_of(db.get("City of Brass")))
    assert trig.event == "becomes_tapped" and [(e.kind, e.amount) for e in trig.effects] == [("damage", 1)]


def test_t23_happily_ever_after_upkeep_trigger_has_an_intervening_if(db: CardDB) -> None:
    """T23/T24 (CR 603.4): "At the beginning of your upkeep, if there are five colors …, you win
    the game." is read with its condition; its ETB "each player gains 5 life and draws a card"
    (drawing needs a library) is reported, not guessed."""
    etb, upkeep = triggers_of(db.get("Happily Ever After"))
    assert upkeep.event == "your_upkeep" and upkeep.condition == "happily_ever_after"
    assert [e.kind for e in upkeep.effects] == ["win"] and upkeep.supported
    assert etb.event == "enters" and not etb.supported and "draws a card" in etb.unsupported


# -- what is not read is reported with its text --------------------------------------------------------


def test_unread_triggers_are_reported_not_dropped(db: CardDB) -> None:
    """Voltaic Brawler's attack trigger, Sorrow's Path's damage to creatures, a conditional ETB:
    each comes back unsupported with its text."""
    brawler = triggers_of(db.get("Voltaic Brawler"))
    assert [t.event for t in brawler] == ["enters", "other"]
    assert brawler[0].supported and not brawler[1].supported and "attacks" in brawler[1].text
    path = one(triggers_of(db.get("Sorrow's Path")))
    assert path.event == "becomes_tapped" and not path.supported and "each creature" in path.unsupported
    kinds = TypeLine.parse("Creature — Test")
    cond = one(parse_triggers("When Test Rogue enters, if you attacked this turn, create a Treasure token.",
                              kinds, "Test Rogue"))
    assert not cond.supported and "if you attacked this turn" in cond.unsupported
    maybe = one(parse_triggers("When Test Rogue enters, you may create a Treasure token.", kinds, "Test Rogue"))
    assert not maybe.supported and maybe.effects == ()


def test_mana_from_becoming_tapped_is_not_guessed() -> None:
    """CR 605.1b: a trigger on becoming tapped that adds mana may be a triggered mana ability
    (when the tapping is a mana ability's cost): not decided here, reported."""
    trig = one(parse_triggers("Whenever Test Vale becomes tapped, add {G}.", TypeLine.parse("Land"),
                              "Test Vale"))
    assert trig.event == "becomes_tapped" and not trig.supported


def test_enters_tapped_replacement(db: CardDB) -> None:
    """CR 614.1c: "Wind-Scarred Crag enters the battlefield tapped." (True); Forest (False);
    "Woodland Cemetery enters the battlefield tapped unless you control a Swamp or a Forest."
    is conditional (None: the caller reports it)."""
    assert enters_tapped(db.get("Wind-Scarred Crag")) is True
    assert enters_tapped(db.get("Forest")) is False
    assert enters_tapped(db.get("Woodland Cemetery")) is None


# -- City of Brass through the protocol ---------------------------------------------------------


def _pay(*cards: str, cost: str) -> dict[str, object]:
    state = {"players": [{"name": "you"}],
             "battlefield": [{"id": f"p{i}", "card": c} for i, c in enumerate(cards)]}
    result = answer({"query": "pay", "state": state, "cost": cost})
    assert result["payable"] is True, result
    return result["payment"]  # type: ignore[return-value]


def test_city_of_brass_payment_reports_its_damage() -> None:
    """City of Brass ("Whenever City of Brass becomes tapped, it deals 1 damage to you."): a
    payment that taps it reports damage 1, as a pain land's does (the protocol's ``damage``)."""
    payment = _pay("City of Brass", "Forest", cost="{B}")
    assert [a["permanent"] for a in payment["activations"]] == ["p0"]  # type: ignore[index]
    assert payment["damage"] == 1


def test_city_of_brass_min_life_prefers_the_basic() -> None:
    """Policy ``min_life``: for {1}, the Forest is tapped, not City of Brass (listed first)."""
    payment = _pay("City of Brass", "Forest", cost="{1}")
    assert [a["permanent"] for a in payment["activations"]] == ["p1"]  # type: ignore[index]
    assert payment["damage"] == 0
    both = _pay("City of Brass", "Forest", cost="{W}{G}")
    assert both["damage"] == 1


def test_city_of_brass_damage_is_on_its_tap_ability_only(db: CardDB) -> None:
    """Only {T} abilities make it become tapped: the damage goes on each of them."""
    (ability,) = db.get("City of Brass").mana_abilities
    assert ability.cost.tap and ability.damage == 1
    kinds = TypeLine.parse("Land")
    text = ("Whenever Test Gate becomes tapped, it deals 1 damage to you.\n{T}: Add {C}.\n"
            "Sacrifice Test Gate: Add {R}.")
    from manasolver.models.text.oracle import parse_oracle
    parsed = parse_oracle(text, kinds, "Test Gate")
    assert [a.damage for a in parsed.mana_abilities] == [1, 0] and parsed.unsupported == ()


# -- the whole card data ------------------------------------------------------------------------


def test_every_triggered_line_of_the_card_data_is_returned() -> None:
    """No triggered line is dropped: every line starting "When"/"Whenever"/"At" (after an
    ability word) gives one Trigger, read or reported; the read ones include the energy,
    Treasure and landfall cards the engine applies."""
    start = re.compile(r"^(?:[A-Z][a-z']+(?: [a-z']+)* — )?(?:When|Whenever|At)\b")
    lines = found = 0
    events: Counter[str] = Counter()
    with gzip.open(CARDS, "rt", encoding="utf-8") as fh:
        for raw in fh:
            rec = json.loads(raw)
            text = rec.get("oracle_text") or ""
            kinds = TypeLine.parse(rec.get("type_line") or "")
            from manasolver.models.text.oracle import self_reference, strip_reminder
            # a card named "At Least It's a Dry Heat" names itself, it doesn't trigger
            lines += sum(1 for line in text.split("\n")
                         if start.match(self_reference(strip_reminder(line), rec["name"])))
            triggers = parse_triggers(text, kinds, rec["name"])
            found += len(triggers)
            events.update(t.event for t in triggers if t.supported)
            events.update(e.kind for t in triggers if t.supported for e in t.effects)
    assert found == lines
    # measured on the bundled data: 146 ETB, 7 landfall, 2 becomes-tapped triggers read in full,
    # 40 energy, 21 token, 7 mana effects among them
    assert events["enters"] > 100 and events["landfall"] >= 5 and events["becomes_tapped"] >= 1
    assert events["energy"] >= 35 and events["token"] >= 20 and events["mana"] >= 5


def test_trigger_to_json_for_the_card_answer(db: CardDB) -> None:
    """The protocol form keeps the printed text and says a mana trigger is no mana ability (T120)."""
    (cobra,) = [t.to_json() for t in triggers_of(db.get("Lotus Cobra"))]
    assert cobra == {"event": "landfall",
                     "text": "Landfall — Whenever a land you control enters, add one mana of any color.",
                     "effects": [{"kind": "mana", "options": ["{W|U|B|R|G}"]}], "mana_ability": False}
    (overlord,) = [t.to_json() for t in triggers_of(db.get("Overlord of the Hauntwoods"))]
    assert overlord["effects"] == [{"kind": "token", "amount": 1, "token": "Everywhere", "tapped": True}]
    assert overlord["also_attacks"] is True


_FRAGMENTS = ["When ~ enters, ", "Whenever a land you control enters, ", "At the beginning of your upkeep, ",
              "Whenever ~ becomes tapped, ", "Landfall — ", "if ", "you get {E}", "{E}", "create a ",
              "tapped ", "Treasure token", "add ", "{R}", "one mana of any color", ".", ", ", " and ",
              "it deals 1 damage to you", "you gain 2 life", "(", ")", "\"", "named Everywhere ", "{", "}"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_FRAGMENTS), max_size=14), st.text(max_size=40))
def test_parse_triggers_never_raises(parts: list[str], noise: str) -> None:
    """The protocol: any text, however malformed, is read or reported, never a traceback;
    every trigger is either supported with effects of known kinds or says why not."""
    from manasolver.models.text.triggers import EFFECT_KINDS, EVENTS
    text = "".join(parts) + noise
    for trig in parse_triggers(text, TypeLine.parse("Creature — Test"), "Test"):
        assert trig.event in EVENTS
        assert trig.supported or trig.unsupported
        assert all(e.kind in EFFECT_KINDS for e in trig.effects)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_FRAGMENTS), max_size=14), st.booleans())
def test_entering_any_text_never_crashes(parts: list[str], land: bool) -> None:
    """A permanent with any trigger text enters, on a board with Nissa: the answer is a result
    (what happened, what was not resolved) or an input error, never another exception."""
    from manasolver.models.errors import ManasolverError
    from manasolver.models.rules.events import enter
    from manasolver.models.state import GameState, Permanent, Player, Turn
    record = {"name": "Test Thing", "type_line": "Land" if land else "Creature — Test", "mana_cost": "",
              "oracle_text": "".join(parts)}
    nissa = card_from_record(NISSA)
    state = GameState((Player("you"),), Turn("you"), (Permanent("n", nissa, "you"),))
    try:
        card = card_from_record(record)
        result = enter(state, card)
    except ManasolverError:
        return
    assert result.state.player("you").energy >= (2 if land else 0)


def test_self_tap_damage(db: CardDB) -> None:
    """City of Brass deals 1 each time it becomes tapped; a Forest 0; Sorrow's Path's trigger is
    not read (it also hurts creatures), so 0 here and reported by triggers_of."""
    from manasolver.models.text.triggers import self_tap_damage
    assert self_tap_damage(db.get("City of Brass")) == 1
    assert self_tap_damage(db.get("Forest")) == 0
    assert self_tap_damage(db.get("Sorrow's Path")) == 0


def test_city_of_brass_under_urborg_still_hurts() -> None:
    """Urborg, Tomb of Yawgmoth makes City of Brass a Swamp too; tapping it for {B} with that
    intrinsic ability still makes it become tapped: 1 damage (CR 305.6, 603.2)."""
    payment = _pay("City of Brass", "Urborg, Tomb of Yawgmoth", cost="{B}{B}")
    assert payment["damage"] == 1


def test_aura_tap_damage_is_in_the_payment() -> None:
    """CR 603.2: Contaminated Ground ("Whenever enchanted land becomes tapped, its controller
    loses 2 life") makes tapping the enchanted land cost life: the payment says so, and
    min_life taps another land when one will do."""
    from manasolver.solver.service.protocol import answer
    state = {"players": [{"name": "you"}],
             "battlefield": [{"id": "s1", "card": "Swamp"}, {"id": "s2", "card": "Swamp"},
                             {"id": "cg", "card": "Contaminated Ground", "attached_to": "s1"}]}
    out = answer({"query": "pay", "state": state, "cost": "{B}"})
    assert [a["permanent"] for a in out["payment"]["activations"]] == ["s2"]
    out = answer({"query": "pay", "state": state, "cost": "{B}{B}"})
    assert out["payment"]["damage"] + out["payment"]["life"] == 2


def test_unread_tap_triggers_refuse_payments() -> None:
    """A trigger on becoming tapped that payments don't apply (Seizures: 3 damage unless its
    controller pays {3}) is reported as unsupported by pay, never left out of the answer."""
    from manasolver.solver.service.protocol import answer
    state = {"players": [{"name": "you"}],
             "battlefield": [{"id": "c", "card": "Grizzly Bears"}, {"id": "s1", "card": "Swamp"},
                             {"id": "z", "card": "Seizures", "attached_to": "c"}]}
    out = answer({"query": "pay", "state": state, "cost": "{B}"})
    assert out["error"]["code"] == "unsupported" and out["error"]["where"] == "battlefield[2]"
    assert answer({"query": "can_pay", "state": state, "cost": "{B}"}) == {"payable": True}


def test_a_trigger_of_no_event_read_is_told_by_its_words_603_1() -> None:
    """A trigger line holding none of the words of the events read ("enters", "becomes tapped",
    "your upkeep") comes back as an unread trigger with its text, ability word or not, without the
    events' patterns tried; one holding them is read by its event, under an ability word too."""
    from manasolver.models.text.triggers import _HEAD_WORDS, _HEADS

    assert all(any(w in p.pattern for w in _HEAD_WORDS) for p, _ in _HEADS)
    kinds = TypeLine.parse("Creature — Test")
    for line in ("Whenever you cast a noncreature spell, create a Treasure token.",
                 "Raid — At the beginning of your end step, if you attacked this turn, draw a card.",
                 "When Test Rogue dies, you get {E}{E}."):
        trigger = one(parse_triggers(line, kinds, "Test Rogue"))
        assert (trigger.event, trigger.text, trigger.unsupported) == ("other", line, "trigger event not read")
    read = {"Eerie — Whenever Test Rogue enters, you get {E}.": "enters",
            "Whenever a land you control enters, create a Treasure token.": "landfall",
            "Whenever Test Rogue becomes tapped, it deals 1 damage to you.": "becomes_tapped",
            "At the beginning of your upkeep, you gain 1 life.": "your_upkeep"}
    for line, event in read.items():
        trigger = one(parse_triggers(line, kinds, "Test Rogue"))
        assert trigger.event == event and trigger.supported, trigger


def test_a_text_with_the_words_but_no_trigger_line_has_no_trigger() -> None:
    """The card-text reader reads triggers from any text holding "When" or "At": a text holding them
    only inside a line, in a reminder or in a card's own name ("At Least It's a Dry Heat") has none,
    and one whose trigger follows an ability word has it."""
    for name, text in (("Test Ward", "Attach to target creature you control. Equip {2}"),
                       ("Test Ward", "Flash\nCounter target spell. Whenever is not a start here."),
                       ("Test Ward", "Flying (When it would fall, it doesn't.)"),
                       ("At Least It's a Dry Heat", "At Least It's a Dry Heat deals 2 damage to any target.")):
        card = card_from_record({"name": name, "type_line": "Creature — Test", "oracle_text": text})
        assert card.text is not None and card.text.triggers == (), text
    eerie = card_from_record({"name": "Test Ward", "type_line": "Creature — Test", "oracle_text":
                              "Flying\nEerie — Whenever an enchantment you control enters, draw a card."})
    assert eerie.text is not None and [t.event for t in eerie.text.triggers] == ["other"]
