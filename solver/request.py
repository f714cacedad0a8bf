"""A payment question in domain terms: what casting hands the queries.

Casting (:func:`manasolver.solver.casting.build.build_request`) turns a decoded query into a
:class:`PaymentRequest`; the queries and backends read only this.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from manasolver.models.abilities import Restriction
from manasolver.models.card import Card
from manasolver.models.cost import ManaCost
from manasolver.models.state import GameState
from manasolver.models.symbols import ANY_COLOR
from manasolver.models.slots import slot_setters

if TYPE_CHECKING:
    from manasolver.models.state import Permanent
    from manasolver.models.text.activated import ActivatedAbility

__all__ = ["DEFAULT_POLICY", "PLAIN_POLICY", "AbilityActivation", "Criterion", "Modifier", "ModifierKind",
           "PaymentRequest", "Policy", "restriction_allows",
           "Sources", "SpellInfo"]

#: The kinds of cost modifier (CR 601.2f).
ModifierKind = Literal["increase", "reduce", "minimum"]

#: A criterion a policy may name (:data:`manasolver.solver.policy.CRITERIA` says what
#: each one counts).
Criterion = Literal["no_sacrifice", "preserve", "min_life", "keep_castable", "keep_colors", "min_waste", "prefer_lands",
                    "min_sources", "use_pool", "max_colors_spent", "min_energy", "min_convoke",
                    "min_improvise", "min_delve"]

#: The default policy: lexicographic order of criteria.
DEFAULT_POLICY: tuple[Criterion, ...] = ("no_sacrifice", "min_life", "keep_castable", "keep_colors", "min_waste",
                                         "prefer_lands", "min_sources", "use_pool")


@dataclass(frozen=True, slots=True)
class SpellInfo:
    """What is being cast or activated, for restrictions and modifiers.

    ``types``: lower-case card types of the spell (``{"creature"}``);
    ``colors``: color bitmask; ``card``: the card when it is a known one;
    ``ability``: true for an activated ability rather than a spell.
    """

    types: frozenset[str] = frozenset()
    subtypes: frozenset[str] = frozenset()
    supertypes: frozenset[str] = frozenset()
    colors: int = 0
    card: Card | None = None
    ability: bool = False

    @staticmethod
    def of_ability(card: Card, types: tuple[str, ...] | None = None) -> SpellInfo:
        """An activated ability of ``card``, as restrictions see it (CR 106.6): the source's
        types (``types``: its current ones on the battlefield), subtypes and colors."""
        line = card.type_line
        return SpellInfo(types=frozenset(line.types if types is None else types), subtypes=frozenset(line.subtypes),
                         supertypes=frozenset(line.supertypes), colors=card.colors, card=card, ability=True)


@dataclass(frozen=True, slots=True)
class Modifier:
    """A cost modifier of CR 601.2f: ``kind`` is ``increase``, ``reduce`` or ``minimum``;
    ``cost`` the amount for the first two, ``amount`` the minimum total for the last."""

    kind: ModifierKind
    cost: ManaCost | None = None
    amount: int = 0


@dataclass(frozen=True, slots=True)
class Policy:
    """What "best" means: criteria compared lexicographically.

    ``keep_castable``: costs to keep payable afterwards (``None``: the cards in
    hand); ``spend_color``: minimum mana of each color to spend (adamant);
    ``weights``: a caller's own integer weights per criterion, when given the
    criteria are summed with these weights instead of compared in order.
    """

    #: :data:`Criterion` names, read from a caller and checked by :func:`~manasolver.solver.policy.check_policy`.
    criteria: tuple[Criterion, ...] = DEFAULT_POLICY
    keep_castable: tuple[ManaCost, ...] | None = None
    spend_color: tuple[tuple[str, int], ...] = ()
    weights: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Sources:
    """The player's word on particular permanents, by id: ``require``: activated in the payment
    ("tap this one, the engine does the rest"); ``exclude``: never used; ``preserve``: used only
    when nothing else pays (the ``preserve`` criterion).

    ``idle`` is no word of the player's: the permanents a board solved for ``exclude`` and
    ``preserve`` takes as tapped (:func:`~manasolver.solver.carry.excluded_board`) that are
    untapped on the player's board.  The payment can't use them, yet they stay untapped after
    it, so ``keep_colors`` and ``keep_castable`` count them as left
    (:func:`~manasolver.solver.backends.problem.idle_classes`).  A request naming only them
    is solved as one without sources."""

    require: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    preserve: tuple[str, ...] = ()
    idle: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.require or self.exclude or self.preserve)


@dataclass(frozen=True, slots=True)
class AbilityActivation:
    """An activated ability chosen for activation and what paying for it means (CR 602.2).

    ``state``: the board for the mana payment (the source tapped when ``{T}`` is
    part of the cost; life already reduced by ``life``); ``cost``: mana and
    ``{E}`` symbols; ``life``: life paid as a cost; ``spell``: what restrictions
    see; ``permanent``: the source on the battlefield, if any.
    """

    ability: ActivatedAbility
    card: Card
    state: GameState
    cost: ManaCost
    spell: SpellInfo
    life: int = 0
    permanent: Permanent | None = None

    def describe(self) -> dict[str, Any]:
        """The ability as answers show it."""
        cost = self.ability.cost
        out: dict[str, Any] = {"ability": self.ability.index, "text": self.ability.text,
                               "costs": (cost.parts() if cost else []) + list(self.ability.extra)}
        if self.permanent is not None:
            out = {"permanent": self.permanent.id, **out}
        else:
            out = {"card": self.card.name, "zone": self.ability.zone, **out}
        if self.ability.keyword:
            out["keyword"] = self.ability.keyword
        return out


#: The policy of a request that names none, and its sources: what the player said of no permanent.
#: The policy of every request that names none (:data:`DEFAULT_POLICY`'s criteria): one frozen value.
PLAIN_POLICY = Policy()
_NO_SOURCES = Sources()


@dataclass(frozen=True, slots=True, init=False)
class PaymentRequest:
    """Everything a payment query needs (the protocol's common fields and cost context).

    Its ``__init__`` is written out to store each field through its slot's descriptor
    (:data:`_STORE`), where a frozen dataclass's generated one calls ``object.__setattr__`` for each,
    which costs about half as much again: a request is made, and remade by ``dataclasses.replace``,
    for every query.  Its parameters are the fields, in order, with their defaults.
    """

    state: GameState
    cost: ManaCost
    player: str
    spell: SpellInfo | None = None
    x: int | None = None
    modifiers: tuple[Modifier, ...] = ()
    alternative: str | None = None
    convoke: bool = False
    delve: bool = False
    improvise: bool = False
    policy: Policy = PLAIN_POLICY
    #: The ability being activated, when the query names one (:mod:`~manasolver.solver.casting.abilities`):
    #: its life payment is already taken from ``state`` and is part of the payment's ``life``.
    activation: AbilityActivation | None = None
    #: What the player said about particular permanents (required, excluded, preserved).
    sources: Sources = _NO_SOURCES

    def __init__(self, state: GameState, cost: ManaCost, player: str, spell: SpellInfo | None = None,
                 x: int | None = None, modifiers: tuple[Modifier, ...] = (), alternative: str | None = None,
                 convoke: bool = False, delve: bool = False, improvise: bool = False,
                 policy: Policy = PLAIN_POLICY, activation: AbilityActivation | None = None,
                 sources: Sources = _NO_SOURCES) -> None:
        # Each field set through its slot (see slot_setters): a request per query.
        s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12 = _STORE
        s0(self, state)
        s1(self, cost)
        s2(self, player)
        s3(self, spell)
        s4(self, x)
        s5(self, modifiers)
        s6(self, alternative)
        s7(self, convoke)
        s8(self, delve)
        s9(self, improvise)
        s10(self, policy)
        s11(self, activation)
        s12(self, sources)

    @property
    def ability_life(self) -> int:
        """The life the activated ability's own cost pays ("Pay N life", CR 602.2b): already
        taken from ``state``, and part of every payment's ``life``; 0 for a spell."""
        return 0 if self.activation is None else self.activation.life


#: The setter of each of :class:`PaymentRequest`'s slots, in field order (its ``__init__``).
_STORE: tuple[Callable[[PaymentRequest, Any], None], ...] = slot_setters(PaymentRequest)


def restriction_allows(r: Restriction | None, spell: SpellInfo | None, has_x: bool, has_c: bool = False) -> bool:
    """May mana with restriction ``r`` pay for ``spell`` (CR 106.6; Ancient Ziggurat rulings)?
    ``has_x`` / ``has_c``: the cost paid contains ``{X}`` / ``{C}``.

    Without spell information a restriction is never assumed to be met, but for one whose cost
    decides it (Cultivator Drone's "or pay a cost that contains {C}").
    """
    if r is None or r.no_generic:  # the symbols it may pay are the backends' to choose
        return True
    if r.any_of:
        return any(restriction_allows(a, spell, has_x, has_c) for a in r.any_of)
    if r.c_only:
        return has_c
    if spell is None:
        return False
    if r.x_only and not has_x:
        return False
    if spell.ability:
        if not r.abilities or (r.colorless and spell.colors & ANY_COLOR):
            return False
        named = r.spell_types | r.subtypes  # the abilities of what it names (its source's types)
        return not named or bool(named & (spell.types | spell.subtypes))
    if not r.spells:
        return False
    if r.spell_types and not (r.spell_types & spell.types):
        return False
    if r.not_types & spell.types:
        return False
    if r.subtypes and not (r.subtypes & spell.subtypes):
        return False
    if r.multicolored and (spell.colors & ANY_COLOR).bit_count() < 2:
        return False
    return not (r.colorless and spell.colors & ANY_COLOR)
