"""The one matching of the checker: counted classes placed on counted slots.

Every "can these go to distinct those" question of :mod:`manasolver.solver.validate` is this
transport: a left class ``i`` has ``supply[i]`` units, a right class ``j`` takes
``capacity[j]`` units, and ``edges[i]`` lists the right classes a unit of ``i`` may go to.
The checker asks it whether the mana an activation claims fits the slots of its results
(Hall's condition), whether the mana of a payment covers its symbols, and which
"sacrifice a creature" or "tap an untapped Elf" costs find no distinct permanent
(CR 118.10).

The algorithm is Ford–Fulkerson with depth-first augmenting paths on the bipartite graph,
left classes taken in index order, each placed as fully as it can be before the next; a unit
placed earlier may be moved to another slot but stays placed.  The result is a maximum
transport, and the left classes left short are the ones a greedy placement in that order
leaves short (with unit supplies and capacities: the augmenting-path maximum matching).
It is written here, not shared with the backends, so that a bug in theirs cannot hide
behind the same bug in the checker.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["unplaced"]


def unplaced(supply: Sequence[int], capacity: Sequence[int], edges: Sequence[Sequence[int]]) -> list[int]:
    """Per left class, how many of its units a maximum transport leaves without a slot."""
    load = [0] * len(capacity)
    held: list[dict[int, int]] = [{} for _ in capacity]  # right class -> left class -> units there

    def place(i: int, want: int, seen: set[int]) -> int:
        """Place up to ``want`` more units of ``i``, moving placed units along augmenting
        paths; how many were placed."""
        done = 0
        for j in edges[i]:
            if j in seen:
                continue
            seen.add(j)
            here = held[j]
            free = capacity[j] - load[j]
            if free > 0:
                take = min(free, want - done)
                load[j] += take
                here[i] = here.get(i, 0) + take
                done += take
                if done == want:
                    return done
            for other, n in list(here.items()):
                if other == i:
                    continue
                moved = place(other, min(n, want - done), seen)
                if moved:
                    if moved == n:
                        del here[other]
                    else:
                        here[other] = n - moved
                    here[i] = here.get(i, 0) + moved
                    done += moved
                    if done == want:
                        return done
        return done

    left = list(supply)
    for i, n in enumerate(left):
        while n:
            got = place(i, n, set())
            if not got:
                break
            n -= got
        left[i] = n
    return left
