"""Land types on a board after the effects that change them (CR 305.6, 305.7, 613.1d, layer 4).

The land-type changes printed on the battlefield (:class:`~manasolver.models.effects.LandTypeChange`,
read by :mod:`manasolver.models.text.mana_effects`) are gathered once per state, in board order,
which stands for timestamp order (613.7).  A *setting* effect (Blood Moon, Magus of the Moon,
Spreading Seas) replaces the land types of the lands it reaches and takes away the abilities of
their rules text (305.7); an *adding* effect (Urborg, Yavimaya, Prismatic Omen) adds types.  An
adding effect whose source is a land that a setting effect reaches is gone (Urborg under Blood
Moon, dependency 613.8a), so setting effects apply first; their sources are not lands, so no
setting effect removes another.
"""

from __future__ import annotations

from manasolver.models.card import BASIC_LAND_TYPES
from manasolver.models.effects import LandTypeChange, StructuredEffect
from manasolver.models.state import GameState, Permanent
from manasolver.models.text.mana_effects import LAND_TYPES, mana_effects_of

__all__ = [
    "effective_land_types",
    "effective_subtypes",
    "has_effect",
    "is_basic",
    "loses_rules_text",
    "type_changes",
]


def _printed_land_types(perm: Permanent) -> tuple[str, ...]:
    return tuple(t for t in perm.card.type_line.subtypes if t in BASIC_LAND_TYPES)


def is_basic(perm: Permanent) -> bool:
    """Whether ``perm`` has the supertype basic (CR 205.4c)."""
    return "basic" in perm.card.type_line.supertypes


def _gather(state: GameState) -> tuple[tuple[Permanent, LandTypeChange], ...]:
    return tuple((perm, effect) for perm in state.battlefield for effect in mana_effects_of(perm.card)
                 if isinstance(effect, LandTypeChange)
                 and not (effect.while_counter and perm.counter(effect.while_counter) <= 0))


def type_changes(state: GameState) -> tuple[tuple[Permanent, LandTypeChange], ...]:
    """The land-type changes printed on the battlefield, in board order (cached per
    state: states are frozen, and every land of a board asks)."""
    view = state.view
    found = view.type_changes
    if found is None:
        found = view.type_changes = _gather(state)
    return found  # type: ignore[no-any-return]


def _setters(state: GameState) -> list[tuple[Permanent, LandTypeChange]]:
    """Blood Moon-style effects of the battlefield, in board order (timestamps).
    Their sources (Blood Moon, Magus of the Moon, Spreading Seas) are not lands, so no
    setting effect removes another."""
    return [(perm, effect) for perm, effect in type_changes(state) if effect.sets]


def _affects(effect: LandTypeChange, source: Permanent, land: Permanent, state: GameState) -> bool:
    if not land.is_land:
        return False
    if effect.affected == "nonbasic_lands":
        return not is_basic(land)
    if effect.affected == "enchanted_land":
        return source.attached_to == land.id
    if effect.affected == "lands_you_control":
        return land.controller == source.controller
    if effect.affected == "chosen_name_opponents":
        # Alpine Moon: a nonbasic land card name was chosen (CR 614.12); a basic land never has it
        if land.controller == source.controller or is_basic(land):
            return False
        if source.chosen_name is None:
            from manasolver.models.rules.missing import NotOnBoard, permanent_field
            raise NotOnBoard(f"{source.card.name} ({source.id}) changes the lands of the name chosen as it entered, "
                             f"and {land.card.name} ({land.id}) may have it, but the board does not give the name "
                             "(\"chosen\": {\"name\": …})", permanent_field(state, source, "chosen.name"))
        return land.card.name.lower() == source.chosen_name.lower()
    return True  # each_land


def _loses_abilities(state: GameState, perm: Permanent) -> bool:
    """True when a setting effect (Blood Moon, Spreading Seas) applies to land ``perm``:
    it loses the abilities of its rules text (305.7).  Setting effects come from
    non-land sources or from basic lands, so they never remove one another."""
    return any(_affects(effect, source, perm, state) for source, effect in _setters(state))


def has_effect(state: GameState, source: Permanent, effect: StructuredEffect) -> bool:
    """Whether ``source`` still has the ability that makes ``effect``: a land under a
    setting effect has lost its rules-text abilities (Urborg under Blood Moon, 613.8
    dependency: Blood Moon applies first)."""
    return not (source.is_land and _loses_abilities(state, source))


def loses_rules_text(state: GameState, permanent: Permanent) -> bool:
    """Whether ``permanent`` is a land that has lost its rules-text abilities to a
    land-type-setting effect (Blood Moon, Spreading Seas: CR 305.7), activated ones
    included."""
    return permanent.is_land and _loses_abilities(state, permanent)


def effective_land_types(state: GameState, permanent: Permanent) -> tuple[str, ...]:
    """The basic land types ``permanent`` has now, printed order first, after land-type changes.

    Layer 4 (613.1d) in timestamp order, board order standing for timestamps (613.7):
    a setting effect (Blood Moon) replaces the land types of the lands it affects
    (305.7); an adding effect (Urborg, Prismatic Omen) adds to them.  An adding effect
    whose source is a land that a setting effect reaches is gone (that land lost the
    ability: Urborg under Blood Moon, dependency 613.8a), so Blood Moon applies first.
    A non-land is returned its printed subtypes that are basic land types.
    """
    types = list(_printed_land_types(permanent))
    if not permanent.is_land:
        return tuple(types)
    for source, effect in type_changes(state):
        if not _affects(effect, source, permanent, state):
            continue
        if effect.sets:
            types = list(effect.types)
        elif has_effect(state, source, effect):
            types.extend(t for t in effect.types if t not in types)
    return tuple(dict.fromkeys(types))  # printed order, then the types effects add


def effective_subtypes(state: GameState, permanent: Permanent) -> tuple[str, ...]:
    """``permanent``'s subtypes now: for a land reached by a setting effect (Blood Moon)
    every land type (Locus, Gate, Urza's … too) is replaced by the new ones (305.7),
    other subtypes (Dryad Arbor's Dryad) stay; adding effects (Urborg) add theirs.
    Without type changes on the board, the printed subtypes."""
    printed = permanent.card.type_line.subtypes
    if not permanent.is_land or not type_changes(state):
        return printed
    basics = effective_land_types(state, permanent)
    if _loses_abilities(state, permanent):
        kept = [t for t in printed if t not in LAND_TYPES]
    else:
        kept = [t for t in printed if t not in BASIC_LAND_TYPES]
    return tuple(kept) + basics
