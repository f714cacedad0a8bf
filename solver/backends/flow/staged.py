"""The staged flow of the converter search: sources pay the converters' own costs in full first,
then a form's colored demands, then generic; what is left unpaid is the shortfall.

A max-flow never gives back what reached the sink, so the stages are one network augmented twice.
With one demand but generic and a few costs, the same numbers are counted instead as least cuts over
the sets of sinks (:func:`_staged_cuts`), which is what most converter boards ask.
"""

from __future__ import annotations

from manasolver.solver.backends.matching import Network
from manasolver.solver.casting.announce import Form

__all__ = ["Source", "staged"]


#: A source of the staged flow: ``(mask, snow, count, costs it may pay)`` (``None``: all of them).
Source = tuple[int, bool, int, "frozenset[int] | None"]


def staged(sources: list[Source], costs: list[tuple[int, int]], form: Form,
           x: int) -> dict[tuple[object, ...], int] | None:
    """What ``form`` lacks when ``sources`` pay it after paying the converters' ``costs`` (demand
    mask, 0 for generic; amount) in full: a max-flow that fills the costs, then the colored
    demands, then generic (a flow never gives back what reached the sink, so the costs stay paid
    and the colored demands served as much as they can be; generic, which every source pays, is
    what the sources have left, counted as :func:`~manasolver.solver.backends.matching.deficits`
    counts it); ``None`` when the costs can't all be paid.  With one demand but generic at most
    and a few costs, counted by :func:`_staged_cuts` instead of flowed."""
    dsts: list[tuple[tuple[object, ...], int, int]] = [(("spell", m), m, c) for m, c in form.demands]
    if form.snow:
        dsts.append((("snow",), -1, form.snow))
    ns, nd, nc = len(sources), len(dsts), len(costs)
    if nd <= 1 and nc <= _CUT_COSTS:
        return _staged_cuts(sources, costs, dsts, form.generic(x))
    sink = 1 + ns + nd + nc
    net = Network(sink + 1)
    for si, (mask, snow, count, pays) in enumerate(sources):
        node = 1 + si
        net.edge(0, node, count)
        for di, (_, m, _c) in enumerate(dsts):
            if (m == -1 and snow) or (m > 0 and mask & m):
                net.edge(node, 1 + ns + di, count)
        for ci, (m, _c) in enumerate(costs):
            if (pays is None or ci in pays) and (m == 0 or mask & m):
                net.edge(node, 1 + ns + nd + ci, count)
    paid = [net.edge(1 + ns + nd + ci, sink, c) for ci, (_, c) in enumerate(costs)]
    edges = [net.edge(1 + ns + di, sink, 0) for di in range(nd)]
    flowed = net.augment(sink)
    if any(net.cap[e] for e in paid):
        return None
    for e, (_, _, c) in zip(edges, dsts):
        net.cap[e] = c
    flowed += net.augment(sink)
    out: dict[tuple[object, ...], int] = {}
    for e, (key, _m, _c) in zip(edges, dsts):
        if net.cap[e]:
            out[key] = net.cap[e]
    generic = form.generic(x) + flowed - sum(source[2] for source in sources)
    if generic > 0:  # every source pays generic: what the two stages left, counted (see deficits)
        out[("generic",)] = generic
    return out


#: Costs past which :func:`staged` flows rather than counts (:func:`_staged_cuts` reads every set
#: of the costs and the demand).
_CUT_COSTS = 4


def _staged_cuts(sources: list[Source], costs: list[tuple[int, int]],
                 dsts: list[tuple[tuple[object, ...], int, int]], generic: int) -> dict[tuple[object, ...], int] | None:
    """:func:`staged` for one demand but generic at most (``dsts``), counted instead of flowed: the
    first stage pays every cost exactly when the maximum flow into the costs alone is all of them,
    and the second ends at a maximum flow of the whole network (augmenting paths reach one from any
    flow) with the costs still paid, so the demand is served that flow less the costs whichever
    paths the stages took (:func:`_most_flow` counts both)."""
    caps = [c for _, c in costs] + [c for _, _, c in dsts]
    nc = len(costs)
    paying: dict[int, int] = {}  # sources by the set of sinks they pay (bit ci: cost ci, bit nc: the demand)
    total = 0
    demand = dsts[0][1] if dsts else 0
    for mask, snow, count, pays in sources:
        total += count
        reach = 0
        for ci, (m, _c) in enumerate(costs):
            if (pays is None or ci in pays) and (m == 0 or mask & m):
                reach |= 1 << ci
        if dsts and ((demand == -1 and snow) or (demand > 0 and mask & demand)):
            reach |= 1 << nc
        if reach:
            paying[reach] = paying.get(reach, 0) + count
    paid = sum(caps[:nc])
    if nc and _most_flow(paying, caps, (1 << nc) - 1) < paid:
        return None
    flowed = _most_flow(paying, caps, (1 << len(caps)) - 1)
    out: dict[tuple[object, ...], int] = {}
    if dsts:
        served = flowed - paid
        if served < dsts[0][2]:
            out[dsts[0][0]] = dsts[0][2] - served
    generic += flowed - total
    if generic > 0:
        out[("generic",)] = generic
    return out


def _most_flow(paying: dict[int, int], caps: list[int], sinks: int) -> int:
    """The maximum flow from grouped sources (``paying``: units by the set of sinks they pay) into
    the sinks of the set ``sinks`` (bits of ``caps``' capacities), as its least cut: for every set
    ``beyond`` of those sinks cut off from the sources, the capacity of the others and the sources
    paying some sink of ``beyond``."""
    best = -1
    beyond = sinks
    while True:
        cut = 0
        for t, cap in enumerate(caps):
            if sinks >> t & 1 and not beyond >> t & 1:
                cut += cap
        for reach, count in paying.items():
            if reach & beyond:
                cut += count
        if best < 0 or cut < best:
            best = cut
        if not beyond:
            return best
        beyond = (beyond - 1) & sinks
