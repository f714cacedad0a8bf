"""What other objects give a permanent or a spell, as the board has them now (layer 6, CR 613.1f):
keywords, and the mana abilities of the objects a permanent has "all activated abilities of".

:func:`has_haste` says whether a permanent has haste now: its own (``Permanent.haste`` or the
keyword on its card, CR 702.10) or one given by a permanent on the battlefield (Fervor:
"Creatures you control have haste."; Concordant Crossroads: "All creatures have haste."; an
Equipment or Aura attached to it).  :func:`summoning_sick` is CR 302.6 with it: a creature whose
``{T}``/``{Q}`` abilities can't be activated.  Every layer that asks whether a permanent may tap
for mana asks here, so that a granted haste is seen by the supply, the options, the
activation of abilities, ``validate`` and the brute force alike.

:func:`spell_keywords` gives the keywords the board gives a spell its player casts (Chief
Engineer: "Artifact spells you cast have convoke.").  :func:`unread_haste` names a grant the
reader could not follow (a condition, a qualifier it does not check), so that the solver's
refusals (``solver.supply.unmodelled``) can refuse where it could make a creature hasty.

The grants of a board are found once per state, among the permanents the board's one pass marks
as printing one (:mod:`~manasolver.models.rules.marks`).

:func:`held_abilities` gives the mana abilities a permanent has by having "all activated abilities
of" other objects: Necrotic Ooze (creature cards in all graveyards), Experiment Kraj (each other
creature with a +1/+1 counter), Manascape Refractor (all lands on the battlefield), Myr Welder (cards
exiled with it), Dark Impostor and Patchwork Crawler (creature cards exiled with it), Mairsil, the
Pretender (the caged cards, each ability once each turn).  They are the holder's own abilities:
every cost, condition and amount is read on the holder (``{T}`` taps it, so a summoning-sick Ooze
without haste can't use one, CR 302.6; "for each creature you control" counts for its controller;
"~" in the ability's text names the holder, as the rulings say).  What they are is read from the
objects the board holds: the cards in the graveyards, the permanents on the battlefield (with the
abilities layers 4 and 6 give them, as 613.8a's dependency orders it: Refractor has what Chromatic
Lantern gives a land), and the cards exiled with the holder (the permanent's ``imprinted``,
on the board; without it, the answer is ``unsupported`` naming the field).

Refused with :class:`~manasolver.models.errors.Unsupported`, naming the holder, the object and the
clause: an ability that mirrors what other permanents could produce (Reflecting Pool, Exotic
Orchard, Star Compass: CR 106.7 read for the holder is not modelled), one linked to another ability
of its card (Chrome Mox's "the exiled card", CR 607.2), an ability whose cost spends other
permanents or cards (Heritage Druid, Skirge Familiar), a clause with mana that no reader reads, an
object that itself has "all activated abilities" of others (a dependency loop, 613.8b), the top
card of a library when the board's ``library`` does not give it, and a colored Phyrexian symbol in
the cost of a Refractor ability ("spend mana as though it were mana of any color", CR 609.4b; its other colored symbols
are paid as generic, which is exact).
The caller (:func:`manasolver.models.rules.board_effects.effective_mana_abilities`) passes the
board's active effects and a function giving a battlefield object's abilities, so that this module
stays below it in the layering; answers are remembered per state.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import cast

from manasolver.models.abilities import AbilityCost, ManaAbility
from manasolver.models.card import Card
from manasolver.models.card_text import GrantedKeyword
from manasolver.models.cost import ManaCost
from manasolver.models.effects import AbilitiesOf, ConditionalDamage, SpendAs, StructuredEffect
from manasolver.models.errors import Unsupported
from manasolver.models.rules.amounts import COULD_PRODUCE_KINDS, evaluate_amount
from manasolver.models.rules.marks import NOTABLE, marked
from manasolver.models.rules.missing import NotOnBoard, permanent_field, player_field
from manasolver.models.state import GameState, Permanent
from manasolver.models.symbols import ANY_COLOR, ANY_TYPE, ManaSymbol
from manasolver.models.text.mana_effects import mana_effects_of
from manasolver.models.text.read import card_text
from manasolver.models.text.triggers import self_tap_damage

__all__ = ["Giver", "granted_haste", "has_haste", "held_abilities", "holders", "printed_as_given",
           "spell_keywords", "summoning_sick", "unread_haste"]


def _grants(state: GameState) -> tuple[tuple[Permanent, GrantedKeyword], ...]:
    return tuple((perm, g) for _, perm in marked(state, NOTABLE) for g in card_text(perm.card).granted_keywords)


def _grants_of(state: GameState) -> tuple[tuple[Permanent, GrantedKeyword], ...]:
    """The board's ``grants`` (its view's field, computed when first asked)."""
    view = state.view
    found = view.grants
    if found is None:
        found = view.grants = _grants(state)
    return found  # type: ignore[no-any-return]


def _reaches(grant: GrantedKeyword, source: Permanent, perm: Permanent) -> bool:
    """Whether ``grant`` of ``source`` reaches permanent ``perm`` now."""
    if grant.attached:
        if source.attached_to != perm.id:
            return False
    elif grant.controller == "you" and perm.controller != source.controller:
        return False
    if grant.other and perm.id == source.id:
        return False
    if grant.tokens and not perm.token:
        return False
    if not grant.types <= set(perm.types):
        return False
    return not grant.subtypes or bool(grant.subtypes & set(perm.card.type_line.subtypes))


def _hasty(state: GameState) -> frozenset[str]:
    out: set[str] = set()
    for source, grant in _grants_of(state):
        if grant.keyword != "haste" or grant.scope != "permanents" or grant.unread:
            continue
        out.update(p.id for p in state.battlefield if _reaches(grant, source, p))
    return frozenset(out)


def granted_haste(state: GameState) -> frozenset[str]:
    """The ids of the permanents another permanent gives haste now (cached per state)."""
    view = state.view
    found = view.hasty
    if found is None:
        found = view.hasty = _hasty(state)
    return found  # type: ignore[no-any-return]


def has_haste(state: GameState, perm: Permanent) -> bool:
    """Whether ``perm`` has haste now: its own or one given by the board (CR 702.10, 613.1f)."""
    return perm.has_haste or perm.id in granted_haste(state)


def summoning_sick(state: GameState, perm: Permanent) -> bool:
    """Whether ``perm``'s ``{T}``/``{Q}`` abilities can't be activated (CR 302.6): a creature
    not controlled since its controller's most recent turn began, without haste of any kind."""
    return perm.sick and perm.is_creature and not has_haste(state, perm)


def unread_haste(state: GameState) -> tuple[tuple[Permanent, str], ...]:
    """The permanents on the battlefield with a haste grant the reader did not follow, and its
    clause."""
    return tuple((source, grant.unread) for source, grant in _grants_of(state)
                 if grant.keyword == "haste" and grant.unread)


def spell_keywords(state: GameState, player: str, spell: Card | None = None,
                   types: tuple[str, ...] = ()) -> frozenset[str]:
    """The keywords the permanents ``player`` controls give a spell ``player`` casts, whose card
    types are ``types`` (or ``spell``'s): convoke from Chief Engineer for an artifact spell."""
    grants = _grants_of(state)
    if not grants:
        return frozenset()  # (most boards give nothing)
    spell_types = set(types) if types else set(spell.type_line.types) if spell is not None else set()
    out: set[str] = set()
    for source, grant in grants:
        if grant.scope != "spells" or grant.unread or source.controller != player:
            continue
        if grant.types <= spell_types:
            out.add(grant.keyword)
    return frozenset(out)


# -- "~ has all activated abilities of …" (613.1f) ---------------------------------------------

#: What a permanent on the battlefield gives one that has all its activated abilities: its mana
#: abilities after layers 4 and 6, without the damage its own triggers or Auras deal when it is
#: tapped (the holder is tapped instead).
Giver = Callable[[GameState, Permanent], tuple[ManaAbility, ...]]
Active = tuple[tuple[Permanent, StructuredEffect], ...]

_ONCE = "only once each turn"
_THOSE_ANY_COLOR = "You may spend mana as though it were mana of any color to activate those abilities."
_COULD_PRODUCE = COULD_PRODUCE_KINDS
_ONE = ManaSymbol("{1}", generic=1)


@dataclass(frozen=True, slots=True)
class _Object:
    """One object whose activated abilities the holder has: its card, its mana abilities as given,
    where the board holds it (a field path) and how to name it."""

    card: Card
    abilities: tuple[ManaAbility, ...]
    where: str
    label: str
    permanent: Permanent | None = None


_TOP_CARD = re.compile(r"As long as the top card of your library is an? ([A-Za-z ]+?) card, this creature has all "
                       r"activated abilities of that card\.")


def _top_card_object(state: GameState, holder: Permanent, text: str) -> list[_Object]:
    """The top card of the holder's controller's library, when it is of the kind the effect names
    (Conspicuous Snoop: a Goblin card; Skill Borrower: an artifact or creature card), read from the
    board's ``library``; nothing when the library is empty or the card is of another kind."""
    from manasolver.models.rules.history import top_card

    m = _TOP_CARD.fullmatch(text.strip())
    if m is None:
        raise _Refusal(f"{_who(holder)}: {text!r} gives it the abilities of the top card of a library in a way "
                       "this engine does not read", _at(state, holder))
    try:
        card = top_card(state, holder.controller, holder)
    except NotOnBoard as missing:
        raise _Refusal(str(missing.args[0]), missing.where or _at(state, holder), missing=True) from None
    if card is None:
        return []
    kinds = [k.strip().lower() for k in m.group(1).split(" or ")]
    if not any(k in card.type_line.types or card.type_line.has(k) for k in kinds):
        return []
    where = player_field(state, holder.controller, "library.top[0]")
    label = f"{card.name} (the top card of the library of {holder.controller})"
    return [_Object(card, printed_as_given(card), where, label)]


class _Refusal(Exception):
    """What an ability of an object given to the holder does that the engine can't apply; raised
    again as ``Unsupported`` (or ``NotOnBoard`` when ``missing``) naming the holder."""

    def __init__(self, message: str, where: str, missing: bool = False) -> None:
        super().__init__(message)
        self.message, self.where, self.missing = message, where, missing


def holders(state: GameState, active: Active) -> dict[str, tuple[AbilitiesOf, ...]]:
    """The permanents with an "all activated abilities of" effect in force (``active``: the
    board's effects in force), by id, with their effects (board order); read once per board (its
    view's ``abilities_of``)."""
    return _abilities_of(state, active)[0]


def given_abilities_of(state: GameState, active: Active) -> tuple[tuple[Permanent, AbilitiesOf], ...]:
    """The "all activated abilities of" effects in force that other permanents have ("Creatures
    you control have …": Steward of the Harvest), with their sources; read once per board."""
    return _abilities_of(state, active)[1]


_Held = dict[str, tuple[AbilitiesOf, ...]]
_Given = tuple[tuple[Permanent, AbilitiesOf], ...]


def _abilities_of(state: GameState, active: Active) -> tuple[_Held, _Given]:
    """:func:`holders` and :func:`given_abilities_of`, from one pass over the board's effects."""
    view = state.view
    found = view.abilities_of
    if found is None:
        held: _Held = {}
        given: list[tuple[Permanent, AbilitiesOf]] = []
        for source, effect in active:
            if isinstance(effect, AbilitiesOf):
                if effect.given_to:
                    given.append((source, effect))
                else:
                    held[source.id] = held.get(source.id, ()) + (effect,)
        found = view.abilities_of = (held, tuple(given))
    return cast(tuple[_Held, _Given], found)


def _given_to(source: Permanent, effect: AbilitiesOf, perm: Permanent) -> bool:
    """Does ``effect`` of ``source`` give ``perm`` the abilities: a creature (with a +1/+1 counter
    on it, for ``"countered_creature"``) or Food its controller controls?"""
    if perm.controller != source.controller:
        return False
    if effect.given_to == "countered_creature":
        return perm.is_creature and perm.counter("+1/+1") > 0
    return perm.is_creature if effect.given_to == "creature" else "food" in perm.card.type_line.subtypes


def printed_as_given(card: Card) -> tuple[ManaAbility, ...]:
    """``card``'s printed mana abilities as another object has them: without the damage of the
    card's own "Whenever ~ becomes tapped, it deals N damage to you" (City of Brass), which the
    parser puts on its ``{T}`` abilities: tapping the holder does not trigger it."""
    own = self_tap_damage(card)
    if not own:
        return card.mana_abilities
    return tuple(replace(a, damage=max(0, a.damage - own)) if a.cost.tap else a for a in card.mana_abilities)


def held_abilities(state: GameState, holder: Permanent, active: Active, giver: Giver) -> tuple[ManaAbility, ...]:
    """The mana abilities ``holder`` has from its "all activated abilities of" effects now (none
    when it has no such effect), in the order of its effects and of the objects on the board;
    unindexed (the caller numbers them after the holder's own).  Raises ``Unsupported`` where the
    engine can't apply one (see the module docstring)."""
    effects = holders(state, active).get(holder.id, ())
    given = given_abilities_of(state, active)
    if given:
        effects += tuple(e for s, e in given if _given_to(s, e, holder) and e not in effects)
    if not effects:
        return ()
    memo = state.view.held
    hit = memo.get(holder.id)
    if hit is None:
        try:
            hit = _held(state, holder, effects, active, giver)
        except _Refusal as refusal:
            hit = refusal
        memo[holder.id] = hit
    if isinstance(hit, _Refusal):
        raise (NotOnBoard if hit.missing else Unsupported)(hit.message, hit.where)
    return hit


def _held(state: GameState, holder: Permanent, effects: tuple[AbilitiesOf, ...], active: Active,
          giver: Giver) -> tuple[ManaAbility, ...]:
    own_spend_as = next((e for s, e in active if s.id == holder.id and isinstance(e, SpendAs) and e.own_abilities),
                        None)
    others = holders(state, active)
    out: list[ManaAbility] = []
    for effect in effects:
        once = _ONCE in effect.text
        spend_as = own_spend_as
        if _THOSE_ANY_COLOR in effect.text:
            # Drana and Linvala: "… to activate those abilities" (CR 609.4b), the held ones only
            spend_as = SpendAs(effect.text, ANY_TYPE, ANY_COLOR, own_abilities=True)
        for obj in _objects(state, holder, effect, active, giver):
            if obj.permanent is not None and obj.permanent.id in others:
                raise _Refusal(f"{_having(holder, effect, obj)}, which itself has "
                               f"{others[obj.permanent.id][0].text!r}; that dependency (CR 613.8) is not followed",
                               obj.where)
            _refuse_unread(holder, effect, obj)
            for ab in obj.abilities:
                given = _as_held(state, holder, effect, obj, ab, spend_as)
                if once:
                    given = replace(given, per_turn=1)
                out.append(given)
    return _distinct(out)


def _who(perm: Permanent) -> str:
    return f"{perm.card.name} ({perm.id})"


def _having(holder: Permanent, effect: AbilitiesOf, obj: _Object) -> str:
    """The start of a refusal: which holder has which object's abilities, and by which clause."""
    return f"{_who(holder)} has the activated abilities of {obj.label} ({effect.text!r})"


def _at(state: GameState, perm: Permanent) -> str:
    """The board path of a permanent: ``battlefield[3]``."""
    return permanent_field(state, perm, "").rstrip(".")


def _objects(state: GameState, holder: Permanent, effect: AbilitiesOf, active: Active,
             giver: Giver) -> list[_Object]:
    """The objects whose activated abilities ``effect`` gives ``holder`` now."""
    out: list[_Object] = []
    if effect.of == "none":
        return out  # Sharkey: "except mana abilities"
    if effect.of in ("graveyard_creatures", "graveyard_lands", "your_graveyard_artifacts"):
        kind = {"graveyard_creatures": "creature", "graveyard_lands": "land"}.get(effect.of, "artifact")
        for k, player in enumerate(state.players):
            if effect.of == "your_graveyard_artifacts" and player.name != holder.controller:
                continue  # Trazyn the Infinite: "in your graveyard"
            for i, card in enumerate(player.graveyard):
                if kind in card.type_line.types:
                    out.append(_Object(card, printed_as_given(card), f"players[{k}].graveyard[{i}]",
                                       f"{card.name} (in the graveyard of {player.name})"))
        return out
    if effect.of in ("countered_creatures", "lands", "legendary_creatures_you_control", "differently_named_creatures",
                     "opponents_creatures"):
        for i, perm in enumerate(state.battlefield):
            if perm.id == holder.id or not _reached(effect.of, holder, perm):
                continue
            out.append(_Object(perm.card, giver(state, perm), f"battlefield[{i}]", _who(perm), perm))
        return out
    text = effect.text
    if "top card of" in text:
        return _top_card_object(state, holder, text)
    if ("exiled with it" in text or "in exile with cage counters" in text or text.endswith("of the exiled card.")
            or effect.of == "exiled_with_source"):
        creatures_only = "creature cards exiled with" in text
        lands_only = "land cards exiled with" in text
        for exiler in _exilers(state, holder, active, effect):
            if exiler.imprinted is None:
                raise _Refusal(f"{_who(holder)}: {text!r} gives it the abilities of the cards exiled with "
                               f"{_who(exiler)}, and the board does not give them (\"imprinted\")",
                               permanent_field(state, exiler, "imprinted"), missing=True)
            for j, card in enumerate(exiler.imprinted):
                if (creatures_only and "creature" not in card.type_line.types) or (
                        lands_only and "land" not in card.type_line.types):
                    continue
                out.append(_Object(card, printed_as_given(card), permanent_field(state, exiler, f"imprinted[{j}]"),
                                   f"{card.name} (exiled with {_who(exiler)})"))
        return out
    raise _Refusal(f"{_who(holder)}: {text!r} may give it mana abilities of objects this engine does not read",
                   _at(state, holder))


def _reached(of: str, holder: Permanent, perm: Permanent) -> bool:
    """Is ``perm`` (another permanent) one whose abilities an effect ``of`` gives ``holder``: a land
    (Manascape Refractor), another creature with a +1/+1 counter (Experiment Kraj), a legendary
    creature its controller controls (Robaran Mercenaries), a creature its controller controls with
    another name (Marvin, Murderous Mimic), a creature an opponent controls (Drana and Linvala)?"""
    if of == "lands":
        return perm.is_land
    if of == "countered_creatures":
        return perm.is_creature and perm.counter("+1/+1") > 0
    if of == "opponents_creatures":
        return perm.is_creature and perm.controller != holder.controller
    if not (perm.is_creature and perm.controller == holder.controller):
        return False
    if of == "legendary_creatures_you_control":
        return "legendary" in perm.card.type_line.supertypes
    return perm.card.name != holder.card.name


def _exilers(state: GameState, holder: Permanent, active: Active, effect: AbilitiesOf) -> list[Permanent]:
    """Whose ``imprinted`` cards ``effect`` reads: the holder's ("exiled with it"); for Mairsil's
    "all cards you own in exile with cage counters on them", every permanent of its controller with
    that effect (each one's caged cards are its ``imprinted``)."""
    if effect.of == "exiled_with_source":
        # Steward of the Harvest: each source of this effect its controller controls
        return [s for s, e in active if e == effect and s.controller == holder.controller]
    if "in exile with cage counters" not in effect.text:
        return [holder]
    return [s for s, e in active if e == effect and s.controller == holder.controller]


def _refuse_unread(holder: Permanent, effect: AbilitiesOf, obj: _Object) -> None:
    """Refuse an object with a clause about mana no reader reads (it may be a mana ability) or a
    mana ability whose cost spends other permanents or cards (Heritage Druid's tapping, Skirge
    Familiar's discarding: :mod:`manasolver.models.text.tap_costs`, read by the supply for the
    permanent that prints it)."""
    text = card_text(obj.card)
    for clause in text.unread:
        if "add" in clause.lower():
            raise _Refusal(f"{_having(holder, effect, obj)}, and {obj.card.name}'s {clause!r} is not read",
                           obj.where)
    for tapping in text.tap_costs:
        raise _Refusal(f"{_having(holder, effect, obj)}, and {obj.card.name}'s {tapping.ability.text!r} has a cost "
                       "read apart from its mana abilities (other permanents or cards it spends), which the supply "
                       "reads only for the permanent that prints it", obj.where)


def _as_held(state: GameState, holder: Permanent, effect: AbilitiesOf, obj: _Object, ab: ManaAbility,
             spend_as: SpendAs | None) -> ManaAbility:
    """``ab`` of ``obj`` as ``holder`` has it, or a refusal."""
    production = ab.production
    clause = ab.text or f"mana ability {ab.index}"
    head = f"{_having(holder, effect, obj)}, and {obj.card.name}'s {clause!r}"
    if production.reference or production.colors_among in _COULD_PRODUCE:
        raise _Refusal(f"{head} adds what other permanents could produce (CR 106.7), which is not read for "
                       f"{holder.card.name}", obj.where)
    if production.colors_among in ("imprinted", "noted"):
        raise _Refusal(f"{head} is linked to another ability of {obj.card.name} (CR 607.2), which is not followed",
                       obj.where)
    damage = ab.damage
    for e in mana_effects_of(obj.card):
        if isinstance(e, ConditionalDamage) and e.text == ab.text and evaluate_amount(e.unless, state, holder):
            damage = max(0, damage - e.damage)  # Tomb of Urami: "if you don't control an Ogre", for the holder
    cost = ab.cost
    if spend_as is not None and cost.mana:
        cost = replace(cost, mana=_spent_as(cost.mana, spend_as, head, obj))
    return replace(ab, cost=cost, damage=damage, intrinsic=False, index=0)


def _spent_as(mana: ManaCost, spend_as: SpendAs, head: str, obj: _Object) -> ManaCost:
    """A cost of the holder's ability under its "You may spend mana as though it were mana of any
    color to pay the activation costs of ~'s abilities" (Manascape Refractor, CR 609.4b): a symbol
    any of whose colors ``spend_as`` lets any mana pay is paid by one mana of any type, as ``{1}``
    is; the other symbols are unchanged.  A colored Phyrexian symbol (any mana or 2 life) has no
    such writing: refused."""
    if spend_as.spent != ANY_TYPE:
        raise _Refusal(f"{head} has a mana cost, which {spend_as.text!r} changes; not applied", obj.where)
    symbols: list[ManaSymbol] = []
    changed = False
    for s in mana.symbols:
        if s.colors & spend_as.as_types and not s.variable:
            if s.phyrexian:
                raise _Refusal(f"{head} has {s.text} in its cost, which {spend_as.text!r} lets any mana pay; "
                               "not applied", obj.where)
            symbols.append(_ONE)
            changed = True
        else:
            symbols.append(s)
    return ManaCost.of(symbols) if changed else mana


def _distinct(abilities: list[ManaAbility]) -> tuple[ManaAbility, ...]:
    """``abilities`` without repeats that add no activation: two equal ``{T}`` (or ``{Q}``, or
    sacrifice-this) abilities can't both be activated, and two equal unlimited ones draw on the same
    life, energy and counters; equal abilities limited per turn (Mairsil) are all kept."""
    seen: set[ManaAbility] = set()
    out: list[ManaAbility] = []
    for ab in abilities:
        cost: AbilityCost = ab.cost
        exclusive = cost.tap or cost.untap or cost.sacrifice_self
        if ab in seen and (exclusive or not ab.per_turn):
            continue
        seen.add(ab)
        out.append(ab)
    return tuple(out)
