"""Board-dependent amounts of mana (CR 107.1b, 107.2) and the concrete options they give.

:func:`evaluate_amount` reads an :class:`~manasolver.models.abilities.Amount`
off a :class:`~manasolver.models.state.GameState` for one permanent (the
ability's source); :func:`concrete_options` turns a
:class:`~manasolver.models.abilities.Production` into the options one
activation can really add now, each option's slots repeated ``amount`` times.

Counting follows the permanents' current characteristics: an impending
Overlord with a time counter is not a creature (``Permanent.types``).  Devotion
(CR 700.5) counts the mana symbols of the mana costs of the controller's
permanents, a hybrid symbol counting once for devotion to any of its colors
(Nykthos ruling 2013-09-15).  Power is the card's printed power plus +1/+1 and
minus -1/-1 counters; a power that is not a number (``*``) is refused as unsupported.
"""

from __future__ import annotations

from manasolver.models.abilities import Amount, Production
from manasolver.models.errors import Unsupported
from manasolver.models.state import GameState, Permanent
from manasolver.models.symbols import COLORS, type_bit

__all__ = ["concrete_options", "devotion", "evaluate_amount", "power_of"]


def _matches(perm: Permanent, amount: Amount) -> bool:
    card = perm.card
    if amount.types and not (set(amount.types) & set(perm.types)):
        return False
    if amount.subtypes:
        subs = set(card.type_line.subtypes)
        if "creature" not in perm.types and "kindred" not in perm.types:
            # creature types belong only to creatures and kindred (CR 205.1a, 205.3d)
            subs -= _creature_types_of(card.type_line.subtypes, perm)
        if not (set(amount.subtypes) & subs):
            return False
    return not (amount.supertypes and not set(amount.supertypes) <= set(card.type_line.supertypes))


def _creature_types_of(subtypes: tuple[str, ...], perm: Permanent) -> set[str]:
    """The subtypes that were creature types: those of a creature card that is no longer one."""
    if "creature" in perm.card.type_line.types or "kindred" in perm.card.type_line.types:
        return set(subtypes)
    return set()


def power_of(perm: Permanent) -> int:
    """Power: printed power plus +1/+1 counters minus -1/-1 counters.

    A power set by a characteristic-defining ability (``*``) is not computed:
    :class:`~manasolver.models.errors.Unsupported`, never a guess."""
    raw = perm.card.power
    if raw is None:
        base = 0  # not a creature card: no power to read
    else:
        try:
            base = int(raw)
        except ValueError:
            raise Unsupported(f"{perm.card.name} ({perm.id}) has power {raw!r}, which the engine cannot "
                              f"evaluate", f"battlefield.{perm.id}") from None
    return base + perm.counter("+1/+1") - perm.counter("-1/-1")


def devotion(state: GameState, controller: str, colors: int) -> int:
    """Mana symbols among the mana costs of ``controller``'s permanents that are any of ``colors``."""
    total = 0
    for perm in state.controlled_by(controller):
        cost = perm.card.mana_cost
        if cost is None:
            continue
        total += sum(1 for s in cost.symbols if s.colors & colors)
    return total


def evaluate_amount(amount: Amount | None, state: GameState, permanent: Permanent,
                    option_colors: int = 0) -> int:
    """The value of ``amount`` for ``permanent``'s ability now; negative values give 0.

    ``option_colors``: for devotion to "that color" (``Amount.colors == 0``,
    Nykthos), the color of the option chosen.  None means 1.
    """
    if amount is None:
        return 1
    kind = amount.kind
    if kind == "fixed":
        value = 1
    elif kind == "count":
        if amount.controller == "you":
            pool = state.controlled_by(permanent.controller)
        elif amount.controller == "opponents":
            pool = tuple(p for p in state.battlefield if p.controller != permanent.controller)
        else:
            pool = state.battlefield
        value = sum(1 for p in pool if _matches(p, amount) and not (amount.other and p.id == permanent.id))
    elif kind == "power":
        value = power_of(permanent)
    elif kind == "counters":
        value = permanent.counter(amount.counter)
    elif kind == "devotion":
        colors = amount.colors or option_colors
        value = devotion(state, permanent.controller, colors) if colors else 0
    else:
        raise ValueError(f"unknown amount kind {kind!r}")
    return max(0, value * amount.times)


def concrete_options(production: Production, state: GameState,
                     permanent: Permanent) -> tuple[tuple[int, ...], ...]:
    """The options one activation adds now: each option's slots repeated ``amount``
    times; options that would add no mana are left out (CR 106.5, 107.1b).

    A "could produce" production (``reference``) has no options of its own: the
    solver resolves it against the other permanents (CR 106.7); this returns ().
    """
    out: list[tuple[int, ...]] = []
    for option in production.options:
        colors = 0
        if production.amount is not None and production.amount.kind == "devotion" and not production.amount.colors:
            for slot in option:
                colors |= slot
            colors &= sum(type_bit(c) for c in COLORS)
        n = evaluate_amount(production.amount, state, permanent, colors)
        if n > 0 and option:
            out.append(option * n)
    return tuple(dict.fromkeys(out))
