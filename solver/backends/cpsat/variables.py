"""The handles of a built CP-SAT payment model: sources, the model's variables, roles, cuts.

:func:`~manasolver.solver.backends.cpsat.model.build_model` fills a :class:`Model`; the policy
terms (:mod:`~manasolver.solver.backends.cpsat.terms`), the resources a payment uses
(:mod:`~manasolver.solver.backends.cpsat.resources`) and the solve loop
(:mod:`~manasolver.solver.backends.cpsat.solve`) read and extend it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from manasolver.models.rules.ability_scope import AbilityScope

__all__ = ["Cut", "Model", "Role", "Src"]


@dataclass
class Src:
    """One source of units in the model: pool mana of one type, or the slots of one mask of an
    option (per class, or per member for classes whose abilities cost mana)."""

    key: tuple[Any, ...]        # ("pool", bit) | ("act", k, o, mask) | ("inst", k, j, o, mask)
    mask: int
    snow: bool
    pays_spell: bool
    pays_ability: AbilityScope  # whose mana abilities' costs it may pay (CR 106.6)
    amount: Any                 # int or linear expression
    ub: int
    inst: tuple[int, int, int, int] | None = None  # its node in the order of payments (cpsat/repeats.py)
    from_activation: bool = True
    colored_only: bool = False  # "can't be spent to pay generic mana costs" (Jegantha's mana)


#: A member's roles in one payment: ("A",) assists (convoke/improvise), else any of "T"
#: (tapped for another's cost), "S" (sacrificed to another's cost) and ("E", option) (an
#: exclusive activation of its own).
Role = tuple[object, ...]

#: A set of activation nodes (class, member, -1 or a repeatable ability, its batch:
#: cpsat/repeats.py) of which at least one gets no mana from the others.
Cut = tuple[tuple[int, int, int, int], ...]


@dataclass
class Model:
    """The built CP-SAT model and handles to its variables (also used by tests)."""

    cp: Any
    y: list[Any]
    x: Any
    uses: dict[tuple[int, int], Any]
    inst: dict[tuple[int, int, int], Any]
    flows: list[tuple[Src, tuple[Any, ...], int, Any]]
    terms: dict[str, tuple[Any, int]] = field(default_factory=dict)
    slack: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    life_slack: Any = 0
    energy_slack: Any = 0
    pair_flows: dict[tuple[tuple[int, int, int, int], tuple[int, int, int, int]], list[Any]] = field(
        default_factory=dict)
    #: Activations of a repeatable option per (class, member, option, batch) (cpsat/repeats.py).
    batch: dict[tuple[int, int, int, int], Any] = field(default_factory=dict)
    #: Classes with a variable per member (abilities that cost mana, variable counter costs).
    expanded: set[int] = field(default_factory=set)
    #: Whether some repeatable ability got fewer batches than its chain may need (MAX_BATCHES):
    #: the model then finds every payment of at most that many runs, not every payment.
    capped: bool = False
    assist_vars: dict[tuple[str, int], Any] = field(default_factory=dict)
    assist_flows: list[tuple[int, tuple[Any, ...], int, Any]] = field(default_factory=list)
    delve: Any = 0
    sac_vars: dict[tuple[int, int, int, int], Any] = field(default_factory=dict)
    tap_vars: dict[tuple[int, int, int], Any] = field(default_factory=dict)
    role_vars: dict[tuple[int, Role], Any] = field(default_factory=dict)
