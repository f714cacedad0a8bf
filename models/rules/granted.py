"""Keywords given by other permanents, as the board has them now (layer 6, CR 613.1f).

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

The grants of a board are found once per state (identity-cached): a board with no granting
permanent costs one scan.
"""

from __future__ import annotations

from manasolver.models._memo import IdentityMemo
from manasolver.models.card import Card
from manasolver.models.card_text import GrantedKeyword
from manasolver.models.state import GameState, Permanent
from manasolver.models.text.read import card_text

__all__ = ["granted_haste", "has_haste", "spell_keywords", "summoning_sick", "unread_haste"]


def _grants(state: GameState) -> tuple[tuple[Permanent, GrantedKeyword], ...]:
    return tuple((perm, g) for perm in state.battlefield for g in card_text(perm.card).granted_keywords)


_GRANTS: IdentityMemo[GameState, tuple[tuple[Permanent, GrantedKeyword], ...]] = IdentityMemo(65)


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
    for source, grant in _GRANTS.get_or(state, _grants):
        if grant.keyword != "haste" or grant.scope != "permanents" or grant.unread:
            continue
        out.update(p.id for p in state.battlefield if _reaches(grant, source, p))
    return frozenset(out)


_HASTY: IdentityMemo[GameState, frozenset[str]] = IdentityMemo(65)


def granted_haste(state: GameState) -> frozenset[str]:
    """The ids of the permanents another permanent gives haste now (cached per state)."""
    return _HASTY.get_or(state, _hasty)


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
    return tuple((source, grant.unread) for source, grant in _GRANTS.get_or(state, _grants)
                 if grant.keyword == "haste" and grant.unread)


def spell_keywords(state: GameState, player: str, spell: Card | None = None,
                   types: tuple[str, ...] = ()) -> frozenset[str]:
    """The keywords the permanents ``player`` controls give a spell ``player`` casts, whose card
    types are ``types`` (or ``spell``'s): convoke from Chief Engineer for an artifact spell."""
    spell_types = set(types) if types else set(spell.type_line.types) if spell is not None else set()
    out: set[str] = set()
    for source, grant in _GRANTS.get_or(state, _grants):
        if grant.scope != "spells" or grant.unread or source.controller != player:
            continue
        if grant.types <= spell_types:
            out.add(grant.keyword)
    return frozenset(out)
