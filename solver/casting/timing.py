"""When a spell may be cast: the legality half of casting (CR 117, 307.1, 601.3).

A spell with sorcery timing (creature, sorcery, artifact, enchantment,
planeswalker, battle, or anything cast for its impending cost) may be cast only
by the active player in a main phase with an empty stack (CR 307.1, 301.1,
302.1, 306.1, 310.1 and 702.176a via 601.3); an instant or a spell with flash
whenever its caster has priority (CR 117.1a, 702.8a).  Nobody gets priority in
the untap step (CR 502.4) or, normally, in the cleanup step (CR 514.3).
"""

from __future__ import annotations

from dataclasses import dataclass

from manasolver.models.card import Card
from manasolver.models.state import Turn

__all__ = ["MAIN_PHASES", "NO_PRIORITY_STEPS", "TimingVerdict", "check_timing"]

NO_PRIORITY_STEPS = frozenset({"untap", "cleanup"})
MAIN_PHASES = frozenset({"main1", "main2"})
_SORCERY_SPEED = frozenset({"creature", "sorcery", "artifact", "enchantment", "planeswalker", "battle"})


@dataclass(frozen=True, slots=True)
class TimingVerdict:
    """Whether the spell may be cast now, and if not, why (a sentence)."""

    allowed: bool
    message: str = ""


def check_timing(card: Card, turn: Turn, player: str, alternative: str | None = None) -> TimingVerdict:
    """May ``player`` cast ``card`` now, in ``turn``? Lands are played, not cast (CR 305.1)."""
    if card.is_type("land") and not any(card.is_type(t) for t in _SORCERY_SPEED | {"instant"}):
        return TimingVerdict(False, f"{card.name} is a land: lands are played, not cast (CR 305.1)")
    if turn.step in NO_PRIORITY_STEPS:
        return TimingVerdict(False, f"no player gets priority during the {turn.step} step "
                                    f"(CR {'502.4' if turn.step == 'untap' else '514.3'}), so nothing can be cast")
    sorcery_speed = alternative == "impending" or (
        "flash" not in card.keywords and not card.is_type("instant")
        and any(card.is_type(t) for t in _SORCERY_SPEED))
    if not sorcery_speed:
        return TimingVerdict(True)
    why = "cast for impending" if alternative == "impending" else "a " + "/".join(card.type_line.types) + " spell"
    if turn.active != player:
        return TimingVerdict(False, f"{card.name} is {why}: it can be cast only during its controller's own "
                                    f"turn (CR 307.1), and it is {turn.active}'s turn")
    if turn.step not in MAIN_PHASES:
        return TimingVerdict(False, f"{card.name} is {why}: it can be cast only in a main phase "
                                    f"(CR 307.1), not during the {turn.step} step")
    if not turn.stack_empty:
        return TimingVerdict(False, f"{card.name} is {why}: it can be cast only while the stack is empty "
                                    f"(CR 307.1)")
    return TimingVerdict(True)
