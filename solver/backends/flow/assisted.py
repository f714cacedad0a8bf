"""The flow's units with convoke, improvise and delve (CR 702.51a, 702.126a, 702.66a).

A member taps once, for its own mana or to assist, so a class whose members assist is counted as
units of its mask and their colors, each permanent once.  Boards where grouped units can't say that
(sacrifice costs, an assisting class that adds more than one mana) are declined.
"""

from __future__ import annotations

from manasolver.solver.backends.flow.units import class_shape
from manasolver.solver.backends.matching import UnitKind
from manasolver.solver.backends.problem import Problem

__all__ = ["assisted_units"]


def assisted_units(problem: Problem) -> tuple[list[UnitKind], bool] | None:
    """The grouped units of a board with the assists of convoke, improvise and delve
    (:class:`~manasolver.solver.supply.resources.Assists`) and whether options were left out (those
    :func:`~.units.plain_units` leaves out: costs that tap other permanents among them, so that no
    permanent a unit counts is tapped twice), or ``None`` to decline.

    A member taps once (CR 118.10): for its own mana, or to convoke (it pays {1} or one mana of
    its colors, 702.51a) or improvise (it pays {1}, 702.126a), so a member of a class that adds
    one mana of a mask is one unit of that mask and its colors, and one with no mana ability
    (or summoning sick: it may convoke all the same) one unit of its colors; a unit with no color
    pays only generic.  Each card delve may exile pays {1} (702.66a).  Declined when a class whose
    members assist adds more than one mana, or the board has sacrifice costs."""
    sup = problem.supply
    if sup.fodder:
        return None
    assists = problem.assists
    assisting: dict[int, list[tuple[int, int]]] = {}  # class -> [(colors, members)]
    # (a comprehension is a call of its own: most pools are empty)
    out: list[UnitKind] = [(bit, False, n, -1, ()) for bit, n in sup.pool] if sup.pool else []
    for grp in assists.groups:
        colors = grp.colors if grp.creature else 0
        if grp.cls < 0:
            out.append((colors, False, len(grp.members), -1, ()))
        else:
            assisting.setdefault(grp.cls, []).append((colors, len(grp.members)))
    partial = bool(sup.tappable)
    for k, cls in enumerate(sup.classes):
        shape, part = class_shape(cls.options, problem.spell_ok[k])
        partial = partial or part
        helpers = assisting.get(k)
        if helpers is None:
            out += [(mask, cls.snow, cls.count * mult, k, pick) for mask, mult, pick in shape]
            continue
        if len(shape) > 1 or (shape and shape[0][1] != 1):
            return None
        mask = shape[0][0] if shape else 0
        rest = cls.count
        for colors, n in helpers:
            out.append((mask | colors, cls.snow, n, k, ()))
            rest -= n
        if rest < 0:
            return None
        if rest and shape:
            out.append((mask, cls.snow, rest, k, ()))
    if assists.graveyard:
        out.append((0, False, len(assists.graveyard), -1, ()))
    return out, partial
