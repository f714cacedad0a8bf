"""Decks as JSON: MTGJSON's deck files and this program's own shape.

* MTGJSON (``AllDeckFiles``, one file a product): ``{"meta": …, "data": {"name", "code",
  "commander": [cards], "mainBoard": [cards], "sideBoard": [cards], …}}``, each card an object with
  ``name`` and ``count`` among many other fields; ``mainBoard`` is the library, ``commander`` the
  command zone; ``sideBoard``, ``displayCommander``, ``planes``, ``schemes`` and ``tokens`` are not
  drawn.  The ``data`` object alone is read the same.
* Ours: ``{"cards": [{"name", "count"}], "commander": [names], "sideboard": [...], "name": …}``; a
  card may be a bare name (one copy).
"""

from __future__ import annotations

import json
from typing import Any

from manasolver.solver.castability.decklists.entries import DeckError, Entry, Listing, Zone, count_of

__all__ = ["read"]

_OURS = ("cards", "commander", "sideboard", "name")
_MTGJSON_ZONES: dict[str, Zone] = {"mainBoard": "deck", "commander": "commander"}


def read(text: str) -> Listing:
    """The entries of a JSON deck, MTGJSON's or ours."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as err:
        raise DeckError(f"line {err.lineno}: not valid JSON ({err.msg})", f"line {err.lineno}") from None
    if isinstance(obj, dict) and isinstance(obj.get("data"), dict) and _is_mtgjson(obj["data"]):
        return Listing("mtgjson", _mtgjson(obj["data"], "data."))
    if isinstance(obj, dict) and _is_mtgjson(obj):
        return Listing("mtgjson", _mtgjson(obj, ""))
    return Listing("json", _ours(obj))


def _is_mtgjson(obj: dict[str, Any]) -> bool:
    return "mainBoard" in obj or ("commander" in obj and "cards" not in obj and "sideBoard" in obj)


def _mtgjson(data: dict[str, Any], prefix: str) -> tuple[Entry, ...]:
    out: list[Entry] = []
    for key in ("commander", "mainBoard"):
        board = data.get(key, [])
        if not isinstance(board, list):
            raise DeckError(f'{prefix}{key}: a list of cards (objects with "name" and "count")',
                            f"{prefix}{key}")
        for i, card in enumerate(board):
            where = f"{prefix}{key}[{i}]"
            if not isinstance(card, dict) or not isinstance(card.get("name"), str) or not card["name"].strip():
                raise DeckError(f'{where}: each card is an object with "name" and "count"', where)
            count = card.get("count", 1)
            if not isinstance(count, int) or isinstance(count, bool):
                raise DeckError(f"{where}.count: a count must be a whole number", f"{where}.count")
            n = count_of(str(count), f"{where}.count")
            out.append(Entry(card["name"].strip(), n, _MTGJSON_ZONES[key], f"{where}.name", i + 1))
    return tuple(out)


def _ours(obj: object) -> tuple[Entry, ...]:
    if not isinstance(obj, dict):
        raise DeckError('a JSON deck must be an object with "cards" (or an MTGJSON deck file with '
                        '"data": {"mainBoard": …})', "deck")
    unknown = sorted(set(obj) - set(_OURS))
    if unknown:
        raise DeckError(f"unknown field {unknown[0]!r} in the JSON deck (known: {', '.join(_OURS)})",
                        unknown[0])
    raw = obj.get("cards")
    if not isinstance(raw, list):
        raise DeckError('a JSON deck needs "cards": a list of {"name", "count"}', "cards")
    out: list[Entry] = []
    for i, item in enumerate(raw):
        where = f"cards[{i}]"
        if isinstance(item, str):
            item = {"name": item, "count": 1}
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise DeckError(f'{where}: each card is {{"name": NAME, "count": N}}', where)
        count = item.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool):
            raise DeckError(f"{where}.count: a count must be a whole number", f"{where}.count")
        n = count_of(str(count), f"{where}.count")
        out.append(Entry(item["name"], n, "deck", f"{where}.name", i + 1))
    raw_cmd = obj.get("commander", [])
    if isinstance(raw_cmd, str):
        raw_cmd = [raw_cmd]
    if not isinstance(raw_cmd, list):
        raise DeckError('"commander" is a list of card names', "commander")
    for i, item in enumerate(raw_cmd):
        name = item.get("name") if isinstance(item, dict) else item
        if not isinstance(name, str):
            raise DeckError(f"commander[{i}]: a card name", f"commander[{i}]")
        out.append(Entry(name, 1, "commander", f"commander[{i}]", i + 1))
    return tuple(out)
