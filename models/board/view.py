"""One view per board: what the rules read of a whole :class:`~manasolver.models.state.GameState`,
computed when first asked and kept with the state.

A state is frozen, so what follows from it alone (the effects in force, land-type changes,
color-setting effects, keyword grants, the tap damage of the board's triggers) is a field of its
view, filled lazily (:func:`functools.cached_property`), and goes when the state goes.  A board
kept between queries (the board cache, a session's handle) keeps its view and so everything
computed on it; a fresh board computes what it is asked and nothing else.  Each field is built by
the rules module that owns its reading; the view only says when and where the value is kept.

Thread-safe: a field is one immutable value written by a single attribute store; two threads
that ask at once both compute it and one value stays (equal to the other).  ``held`` is the one
mutable field, a dictionary filled with whole values by single stores.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Collection

    from manasolver.models.effects import ConditionalDamage, LandTypeChange, SpendAs, StructuredEffect
    from manasolver.models.rules.board_effects import _TapHurt
    from manasolver.models.rules.colors import _Setting
    from manasolver.models.rules.granted import _Refusal
    from manasolver.models.abilities import ManaAbility
    from manasolver.models.card_text import GrantedKeyword
    from manasolver.models.state import GameState, Permanent

__all__ = ["BoardView"]


class BoardView:
    """What the rules read of one board, each field computed once when first asked."""

    def __init__(self, state: GameState) -> None:
        self.state = state

    @cached_property
    def active(self) -> tuple[tuple[Permanent, StructuredEffect], ...]:
        """Every structured effect on the battlefield whose source still has it, in board order."""
        from manasolver.models.rules.board_effects import _active
        return _active(self.state)

    @cached_property
    def sparing(self) -> dict[str, list[ConditionalDamage]]:
        """Per source id, its effects that spare some mana abilities their damage (CR 106.12)."""
        from manasolver.models.rules.board_effects import _sparing
        return _sparing(self.state)

    @cached_property
    def tap_hurt(self) -> _TapHurt:
        """What the board's triggers on becoming tapped cost each permanent's controller (CR 603.2)."""
        from manasolver.models.rules.board_effects import _tap_hurt
        return _tap_hurt(self.state)

    @cached_property
    def spend_effects(self) -> tuple[tuple[Permanent, SpendAs], ...]:
        """Every rule of spending mana as though it were another color in force (CR 609.4b)."""
        from manasolver.models.rules.counts import _spend_effects
        return _spend_effects(self.state)

    @cached_property
    def color_settings(self) -> tuple[_Setting, ...]:
        """The color-setting effects in force (CR 105.3, 613.1e)."""
        from manasolver.models.rules.colors import _settings
        return _settings(self.state)

    @cached_property
    def typed(self) -> tuple[tuple[str, str, tuple[str, ...], Collection[str]], ...]:
        """Each permanent as (id, controller, types now, the subtypes a count reads), board order."""
        from manasolver.models.rules.amounts import _typed_rows
        return _typed_rows(self.state)

    @cached_property
    def type_changes(self) -> tuple[tuple[Permanent, LandTypeChange], ...]:
        """The land-type changes printed on the battlefield, in board order (CR 305.7)."""
        from manasolver.models.rules.land_types import _gather
        return _gather(self.state)

    @cached_property
    def grants(self) -> tuple[tuple[Permanent, GrantedKeyword], ...]:
        """Every keyword grant printed on the battlefield, with its source."""
        from manasolver.models.rules.granted import _grants
        return _grants(self.state)

    @cached_property
    def hasty(self) -> frozenset[str]:
        """The ids of the permanents another permanent gives haste now (CR 302.6)."""
        from manasolver.models.rules.granted import _hasty
        return _hasty(self.state)

    @cached_property
    def held(self) -> dict[str, tuple[ManaAbility, ...] | _Refusal]:
        """Per holder id, the mana abilities it has from "all activated abilities of" effects (or
        why the engine refuses them), filled as holders are asked."""
        return {}
