"""What to change in a deck's mana: a few candidate changes, each run on the same sampled games, ranked
by how much they raise the spells' chance to be cast on curve.

The candidates (:func:`candidates`) are those a deck builder weighs first: a basic land of each color
the spells ask for in place of a land that does not add it, or in place of the most expensive spell (one
land more); a dual land of the two colors most asked for (a shock land) in place of a basic of one of
them; one land less (the most common land in place of another copy of the cheapest spell).  Each change
swaps cards at fixed places of the library (:attr:`.run.Options.swaps`), so the same seed deals the same
games, card for card, except where a swapped card is: the differences are the change's, not chance's.
A spell's on-curve turn is its mana value (turn 1 for mana value 0).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from manasolver.models.card import Card
from manasolver.models.carddb import CardDB
from manasolver.solver.castability.deck import Deck
from manasolver.solver.castability.games import DeckModel, land_faces
from manasolver.solver.castability.run import Options, run

__all__ = ["candidates", "suggest"]

BASICS = {"W": "Plains", "U": "Island", "B": "Swamp", "R": "Mountain", "G": "Forest"}
#: The shock land of each color pair (untapped for 2 life; both basic land types).
SHOCKS = {"WU": "Hallowed Fountain", "UB": "Watery Grave", "BR": "Blood Crypt", "RG": "Stomping Ground",
          "WG": "Temple Garden", "WB": "Godless Shrine", "UR": "Steam Vents", "BG": "Overgrown Tomb",
          "WR": "Sacred Foundry", "UG": "Breeding Pool"}
_ORDER = "WUBRG"


def _adds(card: Card) -> set[str]:
    """The colors a land adds, read from its (land faces') mana abilities' fixed options."""
    out: set[str] = set()
    for face in land_faces(card) or [card]:
        for a in face.mana_abilities:
            if a.production.commander or a.production.reference or a.production.colors_among:
                out |= set(_ORDER)
            for option in a.production.options:
                for bit in option:
                    for i, c in enumerate(_ORDER):
                        if bit & (1 << i):
                            out.add(c)
    return out


def _demand(model: DeckModel, deck: Deck) -> dict[str, int]:
    """Colored symbols of the deck's spells, each spell weighted by its copies."""
    copies = {name: n for name, n, _ in deck.cards}
    out: dict[str, int] = {}
    for spell in model.spells:
        for sym in spell.cost.symbols:
            for c in _ORDER:
                if sym.colors & (1 << _ORDER.index(c)):
                    out[c] = out.get(c, 0) + copies.get(spell.card or spell.name, 1)
    return out


def candidates(deck: Deck, db: CardDB) -> list[tuple[str, tuple[tuple[int, str], ...]]]:
    """``(label, swaps)`` of each candidate change: ``swaps`` are ``(library place, card name)``."""
    model = DeckModel.build(deck.cards, deck.commander)
    first: dict[str, int] = {}
    for pos, index in enumerate(model.library):
        first.setdefault(model.cards[index].name, pos)
    lands = [(name, n, card) for name, n, card in deck.cards if land_faces(card)]
    spells = [(name, n, card) for name, n, card in deck.cards if not land_faces(card)
              and card.mana_cost is not None and not card.mana_abilities]
    demand = _demand(model, deck)
    colors = sorted(demand, key=lambda c: (-demand[c], _ORDER.index(c)))
    out: list[tuple[str, tuple[tuple[int, str], ...]]] = []
    names = {name for name, _, _ in deck.cards}
    priciest = max(spells, key=lambda s: (s[2].mana_value, s[1], s[0]), default=None)
    cheapest = min(spells, key=lambda s: (s[2].mana_value, -s[1], s[0]), default=None)
    for c in colors:
        basic = BASICS[c]
        others = [land for land in lands if c not in _adds(land[2]) and land[0] != basic]
        if others:
            gone = max(others, key=lambda land: (land[1], land[0]))
            out.append((f"+1 {basic}, -1 {gone[0]}", ((first[gone[0]], basic),)))
        if priciest is not None:
            out.append((f"+1 {basic}, -1 {priciest[0]} (one land more)", ((first[priciest[0]], basic),)))
    if len(colors) >= 2:
        pair = "".join(sorted(colors[:2], key=_ORDER.index))
        shock = SHOCKS[pair]
        basics = [land for land in lands if land[0] in (BASICS[pair[0]], BASICS[pair[1]])]
        if basics and not (deck.is_commander and shock in names):
            gone = max(basics, key=lambda land: (land[1], land[0]))
            out.append((f"+1 {shock}, -1 {gone[0]}", ((first[gone[0]], shock),)))
    if lands and cheapest is not None:
        gone = max(lands, key=lambda land: (land[1], land[0]))
        if not deck.is_commander:
            out.append((f"+1 {cheapest[0]}, -1 {gone[0]} (one land less)", ((first[gone[0]], cheapest[0]),)))
    return out


def _on_curve(result: dict[str, Any]) -> dict[str, tuple[int, float]]:
    lo, hi = result["turns"]
    out: dict[str, tuple[int, float]] = {}
    for s in result["spells"]:
        turn = max(1, s["mana_value"])
        if lo <= turn <= hi:
            out[s["card"]] = (turn, next(r["p"] for r in s["turns"] if r["turn"] == turn))
    return out


def suggest(deck: Deck, opts: Options, db: CardDB, base: dict[str, Any],
            progress: Callable[[str], None] | None = None) -> list[dict[str, Any]]:
    """Each candidate change run with ``opts`` (the same seed and games as ``base``, the deck's own
    answer), with the change of each spell's on-curve ``p``; best first (the mean change over the
    spells, then the label)."""
    before = _on_curve(base)
    rows: list[dict[str, Any]] = []
    for label, swaps in candidates(deck, db):
        if progress is not None:
            progress(label)
        after = _on_curve(run(deck, replace(opts, swaps=swaps)))
        changes = {name: round(p_after - before[name][1], 4) for name, (_, p_after) in after.items()
                   if name in before}
        mean = sum(changes.values()) / len(changes) if changes else 0.0
        order = sorted(changes, key=lambda name: -abs(changes[name]))
        spells: list[dict[str, Any]] = [{"card": name, "turn": after[name][0], "p": after[name][1],
                                         "change": changes[name]} for name in order]
        rows.append({"change": label, "mean_change": round(mean, 4), "spells": spells})
    rows.sort(key=lambda r: (-r["mean_change"], r["change"]))
    return rows
