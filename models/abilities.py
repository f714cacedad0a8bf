"""Mana abilities as data: what an activation costs and what it produces.

The oracle parser (:mod:`manasolver.models.oracle`) builds these from card text;
the solvers read them.  Nothing here knows how a payment is searched.

Production is a list of *options* (the player picks one when the ability
resolves); an option is a tuple of *slots*, one mana each, and a slot is a
bitmask of the types that mana may be (``W=1 … G=16, C=32``).  So:

* ``{T}: Add {G}.``                             → options ``((G,),)``
* ``{T}: Add {U}{U}, {U}{R}, or {R}{R}.``       → ``((U, U), (U, R), (R, R))``
* ``{T}: Add one mana of any color.``           → ``((ANY_COLOR,),)``
* ``{T}: Add two mana in any combination of colors.`` → ``((ANY_COLOR, ANY_COLOR),)``
* ``{T}: Add three mana of any one color.``     → five options ``((W, W, W), …)``
* ``{T}: Add {G} for each creature you control.`` → ``((G,),)`` with ``amount``
  counting creatures: the chosen option is repeated ``amount`` times.
* Reflecting Pool → no options of its own, ``reference`` = "lands_you_control".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from manasolver.models.cost import ManaCost

__all__ = ["AbilityCost", "Amount", "ManaAbility", "Production", "Restriction"]


@dataclass(frozen=True, slots=True)
class Restriction:
    """A spending restriction on produced mana (CR 106.6), e.g. Ancient Ziggurat's.

    The mana may pay for a spell when the spell matches: any of ``spell_types``
    (card types, lower case; empty means any type), any of ``subtypes`` (empty:
    any), and ``multicolored`` / ``colorless`` when set.  ``abilities`` says
    whether it may also pay activated abilities (of matching sources when types
    are named).  ``x_only``: only costs that contain ``{X}`` (Rosheen).
    ``any_ability``: it may also pay activated abilities of any source, whatever
    ``spell_types`` says (Powerstone: "can't be spent to cast nonartifact spells").
    ``text`` is the rules text, shown to the user.
    """

    text: str
    spell_types: frozenset[str] = frozenset()
    subtypes: frozenset[str] = frozenset()
    multicolored: bool = False
    colorless: bool = False
    abilities: bool = False
    spells: bool = True
    x_only: bool = False
    any_ability: bool = False


@dataclass(frozen=True, slots=True)
class Amount:
    """A number read from the board when the ability resolves (CR 107.1b, 107.2).

    ``kind``:
      * ``"count"``: permanents matching ``types`` / ``subtypes`` / ``supertypes``
        (any-of within each field, all fields together) controlled by
        ``controller`` (``"you"``, ``"opponents"``, ``"any"``); ``other`` excludes
        the source itself;
      * ``"power"``: the source's power; ``"counters"``: counters of kind ``counter``
        on the source; ``"devotion"``: the controller's devotion to ``colors``
        (``colors == 0``: to the color of the option chosen, as Nykthos's "devotion
        to that color"; :func:`manasolver.models.amounts.concrete_options` evaluates it);
      * ``"fixed"``: ``times`` alone.
    The value is multiplied by ``times``; a negative value counts as 0.
    """

    kind: str
    types: frozenset[str] = frozenset()
    subtypes: frozenset[str] = frozenset()
    supertypes: frozenset[str] = frozenset()
    controller: str = "you"
    other: bool = False
    counter: str = ""
    colors: int = 0
    times: int = 1


@dataclass(frozen=True, slots=True)
class AbilityCost:
    """The activation cost of a mana ability (CR 602.1, 118).

    ``tap``/``untap``: ``{T}``/``{Q}``; ``mana``: mana paid on activation (filter
    lands, Signets); ``life``, ``energy``: amounts paid; ``sacrifice_self``;
    ``sacrifice``: other permanents to sacrifice, each a lower-case type or
    subtype (``"creature"``, ``"land"``, ``"artifact"``, ``"forest"``);
    ``remove_counters``: ``(kind, n)`` pairs removed from this permanent;
    ``tap_creatures``: untapped creatures you control to tap (Springleaf Drum).
    """

    tap: bool = False
    untap: bool = False
    mana: ManaCost = ManaCost()
    life: int = 0
    energy: int = 0
    sacrifice_self: bool = False
    sacrifice: tuple[str, ...] = ()
    remove_counters: tuple[tuple[str, int], ...] = ()
    tap_creatures: int = 0

    def parts(self) -> list[str]:
        """The cost as the protocol prints it: ``["{T}", "sacrifice"]``."""
        out: list[str] = []
        if self.mana:
            out.append(self.mana.format())
        if self.tap:
            out.append("{T}")
        if self.untap:
            out.append("{Q}")
        if self.life:
            out.append(f"pay {self.life} life")
        if self.energy:
            out.append("{E}" * self.energy)
        if self.sacrifice_self:
            out.append("sacrifice")
        out.extend(f"sacrifice a {what}" for what in self.sacrifice)
        out.extend(f"remove {n} {kind} counter{'s' if n > 1 else ''}" for kind, n in self.remove_counters)
        if self.tap_creatures:
            out.append(f"tap {self.tap_creatures} untapped creature"
                       f"{'s' if self.tap_creatures > 1 else ''} you control")
        return out


@dataclass(frozen=True, slots=True)
class Production:
    """What one activation adds (see the module docstring for the encoding).

    ``reference``: for "could produce" abilities (CR 106.7), which permanents'
    types are mirrored: ``"lands_you_control"`` (Reflecting Pool),
    ``"lands_opponents_control"`` (Exotic Orchard, Fellwar Stone) or
    ``"sacrificed_land"``; ``colors_only`` drops colorless (Orchard, Fellwar).
    With a reference the activation adds ``reference_count`` mana of one such type.
    ``restriction``: the spending restriction of every mana produced.
    """

    options: tuple[tuple[int, ...], ...] = ()
    amount: Amount | None = None
    reference: str = ""
    colors_only: bool = False
    reference_count: int = 1
    restriction: Restriction | None = None

    def max_mana(self) -> int:
        """The most mana one option adds before ``amount`` (for bounds)."""
        if self.reference:
            return self.reference_count
        return max((len(o) for o in self.options), default=0)


@dataclass(frozen=True, slots=True)
class ManaAbility:
    """An activated mana ability (CR 605.1a): cost, production and riders.

    ``index`` is its position among the permanent's mana abilities, intrinsic
    basic-land abilities first (SPEC §5 ``ability``); ``damage`` is damage the
    source deals to its controller on resolution (pain lands); ``text`` is the
    clause it was read from; ``intrinsic`` marks abilities granted by a basic
    land type (CR 305.6).
    """

    cost: AbilityCost
    production: Production
    text: str = ""
    index: int = 0
    damage: int = 0
    intrinsic: bool = False
    extra: tuple[str, ...] = field(default=())
