""""Activate only if this creature has another activated ability" (Tazri, Stalwart Survivor's
grant, CR 602.5b): read from the creature's card and the board, or refused where the engine can't
tell.

A creature has another activated ability when its card has a mana ability or another activated
ability that works on the battlefield (CR 602.1: "cost: effect"), or when two such grants its
controller controls give it two instances of the ability (each is the other's "another").  It has
none only when that is certain: every line of its rules text (reminder text aside) is a trigger or
a static ability without a cost (no ":", "{", "—", "activated abilities", and no Crew, Saddle or
Station), and no other permanent could give it one (no quoted ability or "has all activated
abilities" in another permanent's text).  An ability that works only from another zone (cycling,
ninjutsu) and anything else is refused naming the card and clause, never guessed.
"""

from __future__ import annotations

from manasolver.models.errors import Unsupported
from manasolver.models.state import GameState, Permanent

__all__ = ["has_another_activated_ability"]

#: The condition clause, with the permanent that has the ability read as ``~``.
_CLAUSE = "~ has another activated ability"


def has_another_activated_ability(state: GameState, permanent: Permanent) -> bool:
    """Does ``permanent`` have an activated ability besides the one whose condition asks (see the
    module docstring)?  Raises :class:`Unsupported` where it can't be told exactly."""
    from manasolver.models.text.read import card_text

    card = permanent.card
    text = card_text(card)
    if card.mana_abilities or text.tap_costs or any(a.zone == "battlefield" for a in text.activated):
        return True
    if sum(1 for p in state.controlled_by(permanent.controller)
           if any(_CLAUSE_TEXT in line for line in _lines(p.card.oracle_text))) > 1:
        return True  # two instances of the granted ability: each is the other's "another"
    clause = _CLAUSE.replace("~", "this creature")
    unclear = next((line for line in _lines(card.oracle_text) if not _plain_line(line)), None)
    if text.activated or text.hand_abilities or unclear is not None:
        what = unclear if unclear is not None else (text.activated[0].text if text.activated else "a hand ability")
        raise Unsupported(f"{card.name} ({permanent.id}): whether {what!r} is an activated ability it has, which "
                          f"decides {clause!r}, is not read", f"battlefield.{permanent.id}")
    for other in state.battlefield:
        if other.id == permanent.id:
            continue
        giving = [line for line in _lines(other.card.oracle_text)
                  if ('"' in line or "activated abilities of" in line) and _CLAUSE_TEXT not in line]
        if giving:
            raise Unsupported(f"{card.name} ({permanent.id}): {other.card.name} ({other.id}) may give it an activated "
                              f"ability ({giving[0]!r}), which decides {clause!r}", f"battlefield.{other.id}")
    return False


#: A line of rules text that may be an activated keyword ability without a cost symbol.
_COSTLESS_ACTIVATED = ("crew ", "saddle ", "station")
_CLAUSE_TEXT = "Activate only if this creature has another activated ability."


def _lines(oracle_text: str) -> list[str]:
    """The lines of a rules text, reminder text aside."""
    from manasolver.models.text.oracle import strip_reminder

    return [line for line in (strip_reminder(raw).strip() for raw in oracle_text.split("\n")) if line]


def _plain_line(line: str) -> bool:
    """Is ``line`` certainly no activated ability: a trigger ("When", "Whenever", "At"), or a
    static ability or keyword list without a cost ("Flying, haste"; "Protection from red")?"""
    if line.startswith(("When ", "Whenever ", "At ")):
        return ":" not in line.split('"')[0] and "activated abilit" not in line
    return (not any(mark in line for mark in (":", "{", "—", "activated abilit"))
            and not line.lower().startswith(_COSTLESS_ACTIVATED))

