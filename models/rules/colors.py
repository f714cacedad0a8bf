"""The colors of a permanent now, after color-setting effects (layer 5, CR 613.1d, 105.3).

:func:`permanent_colors` starts from the card's colors (its mana cost and color indicator, CR
202.2) and applies, in board order (timestamps, CR 613.7), the color-setting effects printed on
the battlefield that :func:`manasolver.models.text.granted.read_color_settings` reads: Celestial
Dawn's "Nonland permanents you control are white.", Thran Lens's "All permanents are
colorless.", Mycosynth Lattice's "… spells, and permanents are colorless.", Darkest Hour's "All
creatures are black.", Shifting Sky's "All nonland permanents are the chosen color." (the ``chosen`` color given on
the board; not given, it sets nothing).
The effects of a board are found once per state.
"""

from __future__ import annotations

from manasolver.models.state import GameState, Permanent
from manasolver.models.symbols import type_bit

__all__ = ["permanent_colors"]

_Setting = tuple[Permanent, str, bool, bool, "int | None", bool]


def _settings(state: GameState) -> tuple[_Setting, ...]:
    from manasolver.models.text.granted import read_color_settings
    out: list[_Setting] = []
    for perm in state.battlefield:
        text = perm.card.oracle_text
        if " are " not in text:
            continue
        for what, nonland, mine, bits, add in read_color_settings(text):
            out.append((perm, what, nonland, mine, bits, add))
        if _ALL_COLORLESS in text:  # Mycosynth Lattice: the permanents part (spells: not a permanent's)
            out.append((perm, "permanents", False, False, 0, False))
    return tuple(out)


#: Mycosynth Lattice's color-setting effect; its spells and cards off the battlefield are no
#: permanent's colors (the solver refuses where a spell's colors would matter).
_ALL_COLORLESS = "All cards that aren't on the battlefield, spells, and permanents are colorless."


def _settings_of(state: GameState) -> tuple[_Setting, ...]:
    """The board's ``color_settings`` (its view's field, computed when first asked)."""
    view = state.view
    found = view.color_settings
    if found is None:
        found = view.color_settings = _settings(state)
    return found  # type: ignore[no-any-return]


def permanent_colors(state: GameState, perm: Permanent) -> int:
    """``perm``'s colors now, as a bitmask (see the module docstring)."""
    colors = perm.card.colors
    for source, what, nonland, mine, bits, add in _settings_of(state):
        if mine and perm.controller != source.controller:
            continue
        if nonland and perm.is_land:
            continue
        if what == "creatures" and not perm.is_creature:
            continue
        if what == "sliver" and "sliver" not in perm.card.type_line.subtypes:
            continue
        if bits is None:
            if source.chosen_color is None:
                continue
            bits = type_bit(source.chosen_color)
        colors = colors | bits if add else bits
    return colors
