"""The ``plan`` query: several costs cast one after another this step, paid jointly.

"Can I cast Lightning Bolt and Counterspell from these lands?" needs a joint search: paying the
first cost its own best way can leave the second unpayable (Plains, Island, Tundra: ``{W}`` paid
by the Tundra leaves ``{U}{U}`` one Island short).  The mana pool does not empty between casts
in one step (CR 106.4), so mana an earlier activation made and the earlier cost did not spend (a
filter land's second mana, Sol Ring's second ``{C}``) pays a later cost.

The algorithm, exact on what it accepts:

1. Each cost object is cast up to its payment as a ``pay`` query would cast it (its own spell,
   X, alternative, additional costs, modifiers: CR 601.2a-f), giving one
   :class:`~manasolver.solver.backends.problem.Problem` per cost over the same board.
2. When every cost sees the same supply and none can convoke, improvise or delve, the plan is one
   *combined* problem: its forms
   are the sums of one form per cost (the product of the costs' forms, each locked in by its own
   601.2f total), so one optimisation (the ``pay`` chain: fastopt, then CP-SAT) chooses every
   announcement and every activation of the whole plan under the policy.  The plan's criteria
   are those of the combined payment: sacrifices, life, damage, activations and non-land sources
   summed over the plan, mana produced and never spent counted once at the end, and
   ``keep_castable``/``keep_colors`` read on what the whole plan leaves untapped.
3. The combined solution is split by cost: each unit of mana that paid a part of the total goes
   to one cost (in order), each activation to the first cost that uses its mana (directly or
   through the activations it pays for); mana an activation makes for a later cost floats and is
   that cost's ``pool_used``.  Each cost's payment is written by the backends' writer against its
   own problem, and validated (:mod:`~manasolver.solver.validate`) against the board the earlier
   payments left (tapped and sacrificed permanents, counters, life, energy, the pool): a payment
   that fails is an ``unsupported`` answer, never a wrong one.
4. When the plan is unpayable, the prefixes are asked in turn: the first cost whose prefix can't
   be paid is ``index``, and its REASON is the combined prefix's (``missing``: what added
   sources would have to cover for the plan to reach it).

When the costs' spells differ in what the board's restricted mana may pay (CR 106.6: Ancient
Ziggurat's mana only for creature spells), the combined problem lets restricted mana pay where it
may pay any cost, and CP-SAT's model of it gets each flow into the total split by cost, restricted
mana flowing only to the costs it may pay (:func:`_solve_restricted`).

Life (CR 119.4, 704.5a): a player at 0 life or less loses before casting the next cost.  When the
plan can't take the player's life to 0 (:func:`_life_critical`) the combined life constraints are
exact in every order.  Otherwise, on a board whose sources cost no mana, CP-SAT's model with per-cost
flows follows life cost by cost (:func:`_exact_life`); with filter lands and the like, the combined
forms pay one life more than they ask, so that every plan found keeps the player alive to its end,
and a plan payable only by dying on its last cost is refused.

Plans outside this (convoke, improvise or delve; a best plan whose mana abilities tap or sacrifice
other permanents as their costs; an ability whose own cost changes what pays) are refused as
``unsupported`` naming the cost, never answered by a guess.
"""

from manasolver.solver.plan.board_after import left_by
from manasolver.solver.plan.joint import PlanAnswer, plan

__all__ = ["PlanAnswer", "left_by", "plan"]
