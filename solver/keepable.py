"""The colors the permanents left untapped could still make: what ``keep_colors`` counts.

A color is kept when an untapped permanent could make it with an ability that costs no mana
(as "could produce" reads it, restricted mana included), or with a *converter*: an ability
whose mana cost is one symbol of one or two colors, ``{C}`` (a filter land's ``{U/B}``) or ``{1}``
(Study Hall, a Signet: any mana pays it),
once that symbol can be paid by a chain of activations of other untapped permanents that
starts from a cost-free ability of a permanent without a converter.  Sunken Ruins beside an
untapped Island: the Island's ``{U}`` pays ``{U/B}``, so blue and black are kept; Sunken Ruins
alone keeps none (its ``{C}`` pays no colored symbol).  A chain may run through several
converters (Mountain, Rugged Prairie, Mystic Gate: ``{R}`` pays ``{R/W}``, its ``{W}`` pays
``{W/U}``), each permanent once.

Stated limits, the same in every backend and in the tests' brute force: abilities whose
cost has more mana than one symbol (Cascading Cataracts' ``{5}``) or a larger generic,
hybrid-generic, Phyrexian, snow or X symbol are not converters; a source class whose
converters want different symbols keeps no color through them; mana a converter's class
makes with its own cost-free abilities does not start a chain.  Under these limits the
colors kept are the least fixpoint :func:`kept_colors` computes: every chain uses each
class once, and a class with one input symbol never needs two of its members in one chain.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from manasolver.models.symbols import ANY_COLOR, ANY_TYPE, C
from manasolver.models.rules.ability_scope import restriction_pays_abilities
from manasolver.solver.supply.model import Option, SourceClass, Supply

__all__ = ["Keepable", "converter_input", "keepable"]


def counts_for_colors(opt: Option) -> bool:
    """Does this option make mana on its own permanent only (no other permanent sacrificed or
    tapped), so that its colors may count as kept?"""
    return not (opt.sacrifice_other or opt.tap_creatures)


def converter_input(opt: Option, generic: bool = False) -> int:
    """The one symbol a converter's mana cost asks for, as a type mask (colors, or ``C``), or 0
    when the option is not a converter (see the module docstring); ``generic``: a ``{1}`` is
    one too (``keep_colors`` reads it; the fast optimiser's filter modes take colored inputs)."""
    if not opt.mana_cost or not counts_for_colors(opt):
        return 0
    syms = [s for s in opt.mana_cost.symbols if not s.special]
    if len(syms) != 1:
        return 0
    s = syms[0]
    if generic and s.is_numeral and s.generic == 1:
        return ANY_TYPE  # Study Hall's, a Signet's {1}: any mana pays it
    if s.is_numeral or s.phyrexian or s.snow or s.variable or s.generic:
        return 0
    return (s.colors & ANY_COLOR) | (C if s.colorless else 0)


@dataclass(frozen=True, slots=True)
class Keepable:
    """One supply's reading for ``keep_colors``: per class, the colors its cost-free options
    make (``free``), the types they feed into converters (``feed``, starters only: classes
    without a converter), and its converters' input mask (``needs``, 0: none), the types their
    mana may feed on (``gives``) and the colors they make (``makes``).  The supply's classes
    come first, then its idle ones (the payment can't use them; they stay untapped after it:
    :func:`~manasolver.solver.backends.problem.idle_classes`), with their members in ``idle``."""

    free: tuple[int, ...]
    feed: tuple[int, ...]
    needs: tuple[int, ...]
    gives: tuple[int, ...]
    makes: tuple[int, ...]
    idle: tuple[int, ...] = ()

    @property
    def converters(self) -> list[int]:
        """The classes with a converter."""
        return [k for k, n in enumerate(self.needs) if n]

    def class_colors(self, k: int) -> int:
        """Every color class ``k`` could ever add to the colors kept (a bound)."""
        return self.free[k] | self.makes[k]

    def kept(self, left: Sequence[int]) -> int:
        """The colors kept when ``left[k]`` members of each of the supply's classes stay
        untapped (and every idle member)."""
        return kept_colors(self, (*left, *self.idle) if self.idle else left)


def _class_reading(cls: SourceClass) -> tuple[int, int, int, int, int]:
    """A class's reading, kept in its options object (the options of one card in one state are
    one object, shared by the boards that hold it): it reads nothing else of the class."""
    options = cls.options
    hit = options.reading
    if hit is None:
        hit = options.reading = _options_reading(options)
    return hit


def _options_reading(options: tuple[Option, ...]) -> tuple[int, int, int, int, int]:
    free = feed = 0
    inputs: set[int] = set()
    gives = makes = 0
    for o in options:
        if o.free:
            if counts_for_colors(o):
                free |= o.union & ANY_COLOR
                if restriction_pays_abilities(o.restriction):
                    feed |= o.union
            continue
        need = converter_input(o, generic=True)
        if need:
            inputs.add(need)
            makes |= o.union & ANY_COLOR
            if restriction_pays_abilities(o.restriction):
                gives |= o.union
    if len(inputs) != 1:
        return free, feed, 0, 0, 0
    return free, 0, inputs.pop(), gives, makes


def keepable(sup: Supply, idle: Sequence[tuple[SourceClass, int]] = ()) -> Keepable:
    """The supply read for ``keep_colors``, its ``idle`` classes (with their members) after
    its own (see :class:`Keepable`)."""
    rows = [_class_reading(cls) for cls in sup.classes]
    rows += [_class_reading(cls) for cls, _n in idle]
    return Keepable(tuple(r[0] for r in rows), tuple(r[1] for r in rows), tuple(r[2] for r in rows),
                    tuple(r[3] for r in rows), tuple(r[4] for r in rows), tuple(n for _cls, n in idle))


def kept_colors(kp: Keepable, left: Sequence[int]) -> int:
    """The least fixpoint of the module docstring: the colors the untapped members could make."""
    kept = 0
    fed = 0
    free, feed, needs = kp.free, kp.feed, kp.needs
    waiting: list[int] = []  # the converters with members left, in class order
    for k, n in enumerate(left):
        if n > 0:
            kept |= free[k]
            fed |= feed[k]
            if needs[k]:
                waiting.append(k)
    grew = True
    while waiting and grew:
        grew = False
        rest = []
        for k in waiting:
            if kp.needs[k] & fed:
                kept |= kp.makes[k]
                fed |= kp.gives[k]
                grew = True
            else:
                rest.append(k)
        waiting = rest
    return kept & ANY_COLOR
