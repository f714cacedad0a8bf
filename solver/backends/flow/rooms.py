"""Whether an option's other costs can never limit a payment: the life and energy it pays
(:func:`life_room`), the other permanents it taps (:func:`tap_room`), the other permanents or cards
it takes (:func:`fodder_room`).

Each is a count over the board: when it holds, the options with that cost are as good as free ones
for whether a cost is payable and what it lacks, so the wider units
(:mod:`~manasolver.solver.backends.flow.wide`) and the converter search
(:mod:`~manasolver.solver.backends.flow.converters`) read them as free; when it does not, they
decline, and a backend that models the cost answers.
"""

from __future__ import annotations

from manasolver.solver.backends.problem import Problem

__all__ = ["fodder_room", "life_room", "tap_room"]


def life_room(problem: Problem) -> bool:
    """Can the life and energy that options of ``problem`` pay never limit a payment?  True when
    every activation of them at once pays no more life than the player has (CR 119.4) and no more
    energy than the player has beside the most a form pays (107.14), and no form pays life where an
    option does (a form's life payment counts the options' life before it, 601.2g-h).  Then such
    options are free ones: every payment and every least shortfall is the same without the life."""
    sup = problem.supply
    life = energy = 0
    for cls in sup.classes:
        for opt in cls.options:
            if opt.life or opt.energy:
                uses = cls.count * (1 if opt.exclusive else opt.repeat)
                life += opt.life * uses
                energy += opt.energy * uses
    if not life and not energy:
        return True
    if life and (life > sup.life or any(f.life for f in problem.forms)):
        return False
    return not energy or energy + max(f.energy for f in problem.forms) <= sup.energy


def tap_room(problem: Problem) -> bool:
    """Can the permanents that options' "tap an untapped <type> you control" costs tap (Jaspera
    Sentinel, Holdout Settlement; CR 118.3) never limit a payment?  True when some exclusive option
    has such a cost and the player's untapped permanents that are no supply member (no mana
    ability of their own to lose by it) and have a type every such option accepts are at least the
    permanents every member's costliest such option taps at once.  Then each activation taps
    permanents nothing else in a payment by the other options would use (convoke and improvise,
    which use them too, are not asked of units: :attr:`Problem.has_assists`), so such options are
    free ones for whether a cost is payable."""
    sup = problem.supply
    if not sup.tappable:
        return False
    need = 0
    kinds: list[tuple[str, ...]] = []
    for cls in sup.classes:
        most = 0
        for opt in cls.options:
            if opt.tap_creatures and opt.exclusive:
                most = max(most, opt.tap_creatures)
                if opt.tap_types not in kinds:
                    kinds.append(opt.tap_types)
        need += cls.count * most
    if not need:
        return False
    spare = sum(len(grp.members) for grp in sup.tappable
                if grp.cls < 0 and grp.untapped and all(grp.matches.intersection(kind) for kind in kinds))
    return need <= spare


def fodder_room(problem: Problem) -> bool:
    """Can the permanents and cards that options' costs take besides their own permanent (Bog
    Witch's "discard a card", an Altar's creature: :attr:`Option.sacrifice_other`, CR 701.21a)
    never limit a payment?  True when every such option is exclusive, the problem has no convoke,
    improvise or delve (which use permanents and graveyard cards too: :attr:`Problem.has_assists`),
    and the player's fodder that is no supply member (no mana ability of its own to lose by it) and
    is of every kind those options take is at least what every member's costliest such option
    takes at once.  Then each activation takes fodder nothing else in a payment would use, so such
    options are options without that cost for whether a cost is payable and what it lacks."""
    sup = problem.supply
    if problem.has_assists:
        return False
    need = 0
    kinds: set[str] = set()
    for cls in sup.classes:
        most = 0
        for opt in cls.options:
            if opt.sacrifice_other:
                if not opt.exclusive:
                    return False
                most = max(most, len(opt.sacrifice_other))
                kinds.update(opt.sacrifice_other)
        need += cls.count * most
    spare = sum(len(grp.members) for grp in sup.fodder if grp.cls < 0 and kinds <= grp.matches)
    return need <= spare
