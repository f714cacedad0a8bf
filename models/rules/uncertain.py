"""Mana whose amount depends on chance or on another player's choice (Rhystic Cave's "unless any
player pays {1}", CR 118.12), or on a hidden card the board does not give (the top card of a
library: Mul Daya Channelers, Conspicuous Snoop, Charmed Pendant, Selvala, Explorer Returned's
parley): it is
counted as the least it can give, so no payment relies on it, and the answers name each such
source a player could activate now, with why.
"""

from __future__ import annotations

from manasolver.models.abilities import ManaAbility
from manasolver.models.card import Card
from manasolver.models.effects import AbilitiesOf, GrantedAbility
from manasolver.models.rules.amounts import condition_holds
from manasolver.models.rules.board_effects import effective_mana_abilities
from manasolver.models.rules.granted import summoning_sick
from manasolver.models.rules.history import MILLED_CARD_MANA, unknown_tops
from manasolver.models.rules.marks import UNCERTAIN, marked
from manasolver.models.state import GameState, Permanent
from manasolver.models.text.read import card_text

__all__ = ["uncertain_sources"]

#: What a card reads of the top card of a library (:func:`_top_reader`): nothing, its controller's
#: (a condition or "has all activated abilities of that card"), or each player's (parley).
_NONE, _OWN, _EACH = "", "own", "each"


def uncertain_sources(state: GameState, player: str) -> tuple[tuple[str, str], ...]:
    """``(permanent id, why)`` for each of ``player``'s permanents with a mana ability whose mana
    is uncertain that could be activated now: its condition holds and its ``{T}``/``{Q}`` cost can
    be paid (untapped or tapped as needed, not summoning sick, CR 302.6); and for each permanent
    whose mana reads the top card of a library the board gives without it."""
    out: list[tuple[str, str]] = []
    for _, perm in marked(state, UNCERTAIN):  # (none on most boards)
        if perm.controller != player:
            continue
        printed, reader = _facts(perm.card)
        if not (printed or reader):
            continue
        if reader:
            why = _hidden_top(state, perm, reader)
            if why:
                out.append((perm.id, why))
                continue
        if not printed:
            continue  # only printed abilities are uncertain: no grant of one is printed
        for ab in effective_mana_abilities(state, perm):
            why = ab.production.uncertain
            if not why or not condition_holds(ab.condition, state, perm):
                continue
            if ab.production.chosen and perm.chosen_color:
                continue  # Gem Bazaar with the color last chosen given: nothing uncertain
            if not _can_activate(state, perm, ab):
                continue
            out.append((perm.id, f"{perm.card.name}: {why}; counted as adding nothing ({ab.text})"))
            break
    return tuple(out)


def _can_activate(state: GameState, perm: Permanent, ab: ManaAbility) -> bool:
    """Can ``ab``'s ``{T}``/``{Q}`` part be paid now (untapped or tapped as needed, not summoning
    sick)?"""
    if (ab.cost.tap and perm.tapped) or (ab.cost.untap and not perm.tapped):
        return False
    return not ((ab.cost.tap or ab.cost.untap) and summoning_sick(state, perm))


def _facts(card: Card) -> tuple[bool, str]:
    """(a printed mana ability of ``card`` is uncertain, what it reads of a library's top card),
    computed once per card (kept in its facts) of the cards marked ``UNCERTAIN``."""
    facts = card.facts
    hit: tuple[bool, str] | None = facts.uncertain
    if hit is None:
        hit = facts.uncertain = (any(ab.production.uncertain for ab in card.mana_abilities), _top_reader(card))
    return hit


def _top_reader(card: Card) -> str:
    """What of the top card of a library ``card``'s mana reads: each player's (a mana ability that
    reveals them), its controller's (an ability granted while the top card is of a kind, or the top
    card's abilities), or nothing.  Only a card with mana abilities, effects on mana or abilities
    that tap other permanents can read it (most cards have none): a card whose reading holds neither
    effects on mana nor tapping costs reads it only through a revealing mana ability."""
    if any(ab.production.amount is not None and ab.production.amount.kind == "revealed_nonland"
           for ab in card.mana_abilities):
        return _EACH
    text = card_text(card)
    if not text.mana_effects and not text.tap_costs:
        return _NONE  # (what _top_ability and the top card's abilities are read from)
    if _top_ability(card) is not None or any(isinstance(e, AbilitiesOf) and "top card of" in e.text
                                           for e in text.mana_effects):
        return _OWN
    return _NONE


def _hidden_top(state: GameState, perm: Permanent, reader: str) -> str:
    """Why ``perm``'s mana is counted as the least it can give: the board gives the library (not
    empty) of a player whose top card it reads, without that card; "" otherwise, or when the
    ability that reads it can't be activated now."""
    players = tuple(p.name for p in state.players) if reader == _EACH else (perm.controller,)
    hidden = unknown_tops(state, players)
    if not hidden:
        return ""
    if reader == _EACH:
        ab = next(a for a in perm.card.mana_abilities if a.production.amount is not None
                  and a.production.amount.kind == "revealed_nonland")
        if not _can_activate(state, perm, ab):
            return ""
        counted = f"each unknown top card counted as a land card ({ab.text})"
    else:
        reading = _top_ability(perm.card)
        if reading is not None and not _can_activate(state, perm, reading):
            return ""
        counted = ("counted as a card without colored mana symbols, so it adds nothing"
                   if reading is not None and MILLED_CARD_MANA in reading.text
                   else "counted as not of the kind it asks for, so it adds nothing from that card")
    whose = " and ".join(f"the library of {p}" for p in hidden)
    return (f"{perm.card.name}: the top card of {whose} is hidden and the board does not give it "
            f"(\"library.top\"); {counted}")


def _top_ability(card: Card) -> ManaAbility | None:
    """The mana ability of ``card`` that reads its controller's top card: one it has while that
    card is of a kind (Mul Daya Channelers), or one that adds the milled card's colored symbols
    (Charmed Pendant); None for the top card's own abilities (Conspicuous Snoop)."""
    text = card_text(card)
    granted = next((e.ability for e in text.mana_effects if isinstance(e, GrantedAbility)
                    and e.condition is not None and any(a.kind == "top_card" for a, _ in e.condition.counts)), None)
    return granted or next((t.ability for t in text.tap_costs if MILLED_CARD_MANA in t.ability.text), None)
