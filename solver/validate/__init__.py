"""An independent checker of a proposed payment (the protocol's ``validate``).

:func:`validate` re-derives everything from the state and the cost.  It shares no code with
the solvers: it imports only :mod:`manasolver.models`, :mod:`manasolver.solver.graph`,
:mod:`manasolver.solver.request` and :mod:`manasolver.solver.payment`, and writes its own
totals and its own matching rather than reuse those of ``solver.casting``,
``solver.supply`` or ``solver.backends``, so that a bug in a backend cannot hide behind the
same bug here and every backend's answer can be checked by it.  Only board semantics are
shared: :mod:`manasolver.solver.graph` for effective abilities, amounts and "could produce".

What it checks, each failure a readable sentence naming where it is
(``activations[2]: Forest f1 is tapped``), one module per part:

* :mod:`.totals`: the announcement (CR 601.2b): one choice per hybrid,
  monocolored-hybrid and Phyrexian symbol, each one of that symbol's ways to pay; X as
  fixed by the request, 0 when the cost has none; and the total (CR 601.2f, 118.7): the
  claimed ``total`` is the cost after the choices, the increases, the reductions (every
  way of applying them is tried) and the minimum;
* :mod:`.activations`: every activation a real permanent the player controls, an existing
  mana ability, its cost parts the ability's, ``{T}``/``{Q}`` not paid by a summoning-sick
  creature (302.6), the claimed mana a legal result of the ability now, an ability's
  activations within its limit ("Activate only once each turn", 602.5b) and a variable
  counter cost's X counted as the counters it removes (107.3);
* :mod:`.resources`: tapped or untapped consistently across the whole payment, sacrificed
  at most once, counters there to remove, costs that tap or sacrifice other permanents
  paid by distinct ones; pool mana used is in the pool, delved cards in the graveyard;
  life (119.4), energy (107.14), and the totals the payment states for life, energy and
  damage;
* :mod:`.cover`: everything produced plus the pool mana used covers, exactly, the total
  plus the activations' own mana costs plus the claimed floating mana, each symbol taking the
  mana the 609.4b rules reaching it allow (Chromatic Orrery: any mana pays ``{U}``; Celestial
  Dawn: only white pays ``{R}``; otherwise its own type, ``{C}`` taking only colorless),
  ``{S}`` only snow mana, restricted mana only what it allows (106.6), an activation's mana cost only mana made
  *before* it (some order must work, 601.2g);
* :mod:`.order`: the order as stated (each activation's mana cost payable at its place) and
  the ``allocation`` of the symbols to what paid them;
* :mod:`.matching`: the one matching all of these use (augmenting paths over counted
  classes).

Conventions of the protocol: ``req.cost`` is the cost being paid
(the alternative cost when one was named); ``Payment.life`` is all life paid (Phyrexian
symbols, "Pay N life" costs of the mana abilities and of the ability being activated, whose
life ``req.state`` has already paid); ``damage`` is pain-land damage; an activation's
``mana`` is everything it added over its ``times`` activations.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from manasolver.models.errors import ManasolverError
from manasolver.models.rules.counts import payment_spend_table
from manasolver.models.state import Player
from manasolver.solver.payment import Payment
from manasolver.solver.request import PaymentRequest
from manasolver.solver.validate.activations import read_activations
from manasolver.solver.validate.cover import MAX_ORDERS, check_mana, cost_letters
from manasolver.solver.validate.order import check_allocation, check_order
from manasolver.solver.validate.resources import (ability_life_problem, check_delve, check_life_and_energy,
                                                  check_permanents, check_pool)
from manasolver.solver.validate.totals import announce, locked_total, mana_units

__all__ = ["MAX_ORDERS", "ValidationResult", "validate"]


@dataclass(frozen=True)
class ValidationResult:
    """``legal``: the payment is legal and complete; ``problems``: why not, one sentence each."""

    legal: bool
    problems: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        """The protocol's answer (the protocol's ``validate``)."""
        return {"legal": self.legal, "problems": list(self.problems)}


def validate(req: PaymentRequest, payment: Payment) -> ValidationResult:
    """Check ``payment`` against ``req`` from first principles; see the module docstring."""
    problems: list[str] = []
    try:
        return _validate(req, payment, problems)
    except ManasolverError as err:
        problems.append(f"{err.where or 'payment'}: {err.message}")
        return ValidationResult(False, problems)


def _validate(req: PaymentRequest, pay: Payment, problems: list[str]) -> ValidationResult:
    unpaid = ability_life_problem(req, pay)  # 602.2b
    if unpaid is not None:
        return ValidationResult(False, [unpaid])
    try:
        player: Player = req.state.player(req.player)
    except KeyError:
        return ValidationResult(False, [f"player: there is no player named {req.player!r}"])
    plain, choice_life, cost_energy = announce(req, pay, problems)  # 601.2b
    total = locked_total(plain, req, pay, problems)  # 601.2f
    led = read_activations(req, pay, player, problems)
    after = check_permanents(req, pay, player.name, led, problems)
    check_delve(pay, player, led.units, problems)
    check_pool(pay, player, led.units, problems)
    check_life_and_energy(pay, player, led, choice_life, cost_energy, req.ability_life, problems)
    floating = mana_units(pay.floating, "floating", problems)
    if total is not None and floating is not None:
        mana_ok = len(problems)
        check_mana(total, floating, led.units, led.demands, led.split_choices, led.costly, pay, req.spell,
                   cost_letters(req.cost), led.sources, after, problems,
                   payment_spend_table(req.state, req.player, req.spell))
        if len(problems) == mana_ok and not led.split_choices:  # led.demands now holds the whole payment's
            check_order(pay, led.units, led.demands, led.costly, led.sources, req.spell,
                        cost_letters(req.cost), problems, led.demands, led.restrictions)
    check_allocation(pay, problems, payment_spend_table(req.state, req.player, req.spell))
    return ValidationResult(not problems, problems)

