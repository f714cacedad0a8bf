"""Tier 2 of checking a board (python-chess style): :func:`status` names every
inconsistency of a well-formed :class:`~manasolver.models.state.GameState` that the
rules would not allow or that is probably a mistake.

Nothing here stops a query: a board for an autotapper may be a sketch, and the
loader (:mod:`manasolver.models.board.load`, tier 1) has already refused what is
malformed.  Each sentence starts with the path of what it is about and cites the
rule.

>>> from manasolver.models.board.load import load_state
>>> status(load_state({"players": [{"name": "you"}], "battlefield": [
...     {"id": "m", "name": "Stone", "type_line": "Artifact", "sick": True}]}))[0][:46]
'battlefield[0] (m): marked sick, but Stone is '
"""

from __future__ import annotations

import re

from manasolver.models.card import BASIC_LAND_TYPES, Card
from manasolver.models.state import GameState, Permanent

__all__ = ["PREDEFINED_TOKENS", "TOKEN_NAMES", "is_token_card", "status"]

#: Tokens that ``"card"`` may name; they are tokens unless ``"token": false`` says otherwise.
PREDEFINED_TOKENS = ("Treasure", "Gold", "Powerstone", "Eldrazi Spawn", "Eldrazi Scion", "Everywhere")
#: The predefined tokens' names, in lower case (:func:`is_token_card`).
TOKEN_NAMES = frozenset(n.lower() for n in PREDEFINED_TOKENS)
_STATUS_LIFE = 2**31


def is_token_card(card: Card) -> bool:
    """True for the predefined tokens (Treasure, Everywhere, …)."""
    return card.layout == "token" or card.name.lower() in TOKEN_NAMES


_ENCHANT = re.compile(r"^enchant (?P<what>[a-z][a-z -]*?)(?: you control| an opponent controls)?$",
                      re.IGNORECASE | re.MULTILINE)
_PERMANENT_TYPES = frozenset({"artifact", "battle", "creature", "enchantment", "land", "planeswalker"})
_NORMAL_TYPES = _PERMANENT_TYPES | {"instant", "sorcery", "kindred"}


def status(state: GameState) -> list[str]:
    """Every inconsistency of a loaded board that is not a parse error, as sentences.

    An empty list means the board is consistent as far as these checks go.  The
    problems named here never stop a query: a board for an autotapper may be a
    sketch.  Each sentence starts with the path of the object it is about.
    """
    problems: list[str] = []
    by_id = {p.id: p for p in state.battlefield}
    active = state.turn.active
    for i, perm in enumerate(state.battlefield):
        problems.extend(f"battlefield[{i}] ({perm.id}): {msg}"
                        for msg in _permanent_status(perm, by_id, state))
    legends: dict[tuple[str, str], int] = {}
    for i, perm in enumerate(state.battlefield):
        if "legendary" in perm.card.type_line.supertypes:
            key = (perm.controller, perm.card.name)
            if key in legends:
                problems.append(f"battlefield[{i}] ({perm.id}): {perm.controller} controls two "
                                f"legendary permanents named {perm.card.name!r} (legend rule, "
                                f"CR 704.5j; the other is battlefield[{legends[key]}])")
            else:
                legends[key] = i
    for i, player in enumerate(state.players):
        where = f"players[{i}] ({player.name})"
        if player.life > _STATUS_LIFE or player.starting_life > _STATUS_LIFE:
            problems.append(f"{where}: life above 2^31 is out of any real game's range")
        if player.energy > _STATUS_LIFE:
            problems.append(f"{where}: energy above 2^31 is out of any real game's range")
        if player.life == 0:
            problems.append(f"{where}: a player at 0 life loses the game (CR 704.5a)")
        for zone in ("hand", "graveyard"):
            for j, card in enumerate(getattr(player, zone)):
                if is_token_card(card):
                    problems.append(f"{where}.{zone}[{j}]: {card.name} is a token, and a token "
                                    "in a hand or graveyard ceases to exist (CR 704.5d)")
                odd = [t for t in card.type_line.types if t not in _NORMAL_TYPES]
                if odd:
                    problems.append(f"{where}.{zone}[{j}]: {card.name} is a {', '.join(odd)} card, "
                                    "which is never in a hand or graveyard in normal play")
        if state.turn.step in ("untap", "cleanup") and player.pool:
            problems.append(f"{where}: mana in the pool during the {state.turn.step} step, where no "
                            "player gets priority (CR 502.4, 514.3)")
    if state.turn.step == "untap":
        tapped = [p.id for p in state.battlefield if p.controller == active and p.tapped]
        if tapped:
            problems.append(f"turn: the active player's permanents untap during the untap step "
                            f"(CR 502.3), yet these are tapped: {', '.join(tapped[:10])}"
                            + (" …" if len(tapped) > 10 else ""))
    if state.turn.step in ("untap", "cleanup") and not state.turn.stack_empty:
        problems.append(f"turn: the stack is normally empty in the {state.turn.step} step "
                        "(no player gets priority, CR 502.4, 514.3)")
    return problems


def _permanent_status(perm: Permanent, by_id: dict[str, Permanent], state: GameState) -> list[str]:
    """What is wrong with one permanent."""
    out: list[str] = []
    card = perm.card
    types = set(perm.types)
    if not types & _PERMANENT_TYPES:
        if types & {"instant", "sorcery"}:
            out.append(f"{card.name} is an instant or sorcery, which can't be on the battlefield "
                       "(CR 304.4, 307.4)")
        else:
            out.append(f"{card.name} has no permanent card type (type line {card.type_line.text!r})")
    # tokens
    predefined = card.name.lower() in TOKEN_NAMES
    if predefined and not perm.token:
        out.append(f"{card.name} is a predefined token but is marked \"token\": false")
    elif perm.token and not predefined and card.layout != "token":
        out.append(f"marked as a token, but {card.name!r} is the name of a card, not a predefined "
                   "token (fine for a token copy of a card)")
    # alternative cost and X
    if perm.cast_for == "impending" and card.alternative_cost("impending") is None \
            and "impending" not in card.oracle_text.lower():
        out.append(f"cast_for \"impending\", but {card.name} has no impending cost (CR 702.176)")
    if perm.x is not None and (card.mana_cost is None or not card.mana_cost.variables):
        out.append(f"x = {perm.x}, but the mana cost of {card.name} has no X (CR 107.3)")
    # summoning sickness only matters to creatures (CR 302.6)
    if perm.sick and not perm.is_creature:
        out.append(f"marked sick, but {card.name} is not a creature: summoning sickness matters "
                   "only to creatures (CR 302.6); harmless")
    # attachments
    sub = set(card.type_line.subtypes)
    if perm.attached_to is not None:
        target = by_id.get(perm.attached_to)
        if perm.attached_to == perm.id:
            out.append("attached to itself (CR 301.5c, 303.4d)")
        elif target is not None:
            out.extend(_attachment_status(perm, target, sub))
        if not sub & {"aura", "equipment", "fortification"}:
            out.append(f"attached_to is set, but {card.name} is not an Aura, Equipment or "
                       "Fortification (CR 301.5, 303.4)")
    elif "aura" in sub and "enchantment" in types:
        out.append(f"{card.name} is an Aura attached to nothing: it would be put into its owner's "
                   "graveyard (CR 704.5m); give attached_to")
    if "planeswalker" in types and perm.counter("loyalty") == 0:
        out.append(f"{card.name} is a planeswalker with no loyalty counters (CR 704.5i)")
    out.extend(_choice_status(perm))
    if any(a.production.commander for a in card.mana_abilities):
        owner = next((p for p in state.players if p.name == perm.controller), None)
        if owner is not None and not owner.commander:
            out.append(f"{card.name} adds mana of your commander's color identity, but {perm.controller} has no "
                       "\"commander\": it is undefined and adds no mana (CR 903.4f)")
    return out


_CHOOSES_COLOR = re.compile(r"\bchoose a color\b(?!\.\s*Add)", re.IGNORECASE)
_CHOOSES_TYPE = re.compile(r"\bchoose a creature type\b", re.IGNORECASE)
_OTHER_THAN = re.compile(r"\bchoose a color other than (white|blue|black|red|green)\b", re.IGNORECASE)
_COLOR_LETTERS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
_USES_CHOICE = re.compile(r"\bthe chosen (color|type)\b", re.IGNORECASE)


def _choice_status(perm: Permanent) -> list[str]:
    """A card that chooses a color or creature type as it enters and uses "the chosen
    color/type" later, on a permanent without that ``chosen`` field: its mana of the
    chosen color is undefined and adds nothing (CR 106.5), its chosen-type mana pays nothing."""
    text = perm.card.oracle_text
    uses = {m.group(1).lower() for m in _USES_CHOICE.finditer(text)}
    out: list[str] = []
    if "color" in uses and _CHOOSES_COLOR.search(text) and perm.chosen_color is None:
        out.append(f"{perm.card.name} chooses a color as it enters, but no \"chosen\": {{\"color\": …}} is "
                   "given: its mana of the chosen color is undefined and adds nothing (CR 106.5)")
    if "type" in uses and _CHOOSES_TYPE.search(text) and perm.chosen_type is None:
        out.append(f"{perm.card.name} chooses a creature type as it enters, but no \"chosen\": {{\"type\": …}} "
                   "is given: mana restricted to the chosen type can pay for nothing")
    other = _OTHER_THAN.search(text)
    if other and perm.chosen_color == _COLOR_LETTERS[other.group(1).lower()]:
        out.append(f"chosen color {perm.chosen_color}, but {perm.card.name} chooses a color other than "
                   f"{other.group(1).lower()}")
    if perm.chosen_color is not None and "color" not in uses:
        out.append(f"chosen color {perm.chosen_color} is given, but {perm.card.name} uses no chosen color; "
                   "harmless")
    if perm.chosen_type is not None and "type" not in uses:
        out.append(f"chosen type {perm.chosen_type!r} is given, but {perm.card.name} uses no chosen type; "
                   "harmless")
    return out


def _attachment_status(perm: Permanent, target: Permanent, sub: set[str]) -> list[str]:
    out: list[str] = []
    card = perm.card
    target_types = set(target.types)
    target_sub = set(target.card.type_line.subtypes)
    if "aura" in sub:
        m = _ENCHANT.search(card.oracle_text)
        if m:
            what = m.group("what").strip().lower()
            whole = m.group(0).lower()
            word = what[:-1] if what.endswith("s") and what[:-1] in _PERMANENT_TYPES else what
            if word in _PERMANENT_TYPES and word not in target_types:
                out.append(f"{card.name} (Enchant {what}) is attached to {target.id}, which is not "
                           f"a {word} (CR 303.4d)")
            elif word in BASIC_LAND_TYPES and word not in target_sub:
                out.append(f"{card.name} (Enchant {what}) is attached to {target.id}, which is not "
                           f"a {word.title()} (CR 303.4d)")
            if whole.endswith("you control") and target.controller != perm.controller:
                out.append(f"{card.name} enchants a permanent you control, but {target.id} is "
                           f"controlled by {target.controller} (CR 303.4d)")
    elif "equipment" in sub and "creature" not in target_types:
        out.append(f"{card.name} is Equipment attached to {target.id}, which is not a creature "
                   "(CR 301.5c, 704.5n)")
    elif "fortification" in sub and "land" not in target_types:
        out.append(f"{card.name} is a Fortification attached to {target.id}, which is not a land "
                   "(CR 301.6, 704.5n)")
    return out
