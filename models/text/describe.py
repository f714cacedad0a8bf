"""Text for the parts of a mana ability that are read from the board.

The renderer (``solver/service/render.py``) prints ``Production.options`` and ``amount``;
these two functions give the text for the rest, so a card such as Command Tower or
Tainted Field shows what it really does:

>>> from manasolver.models.card import TypeLine
>>> from manasolver.models.text.oracle import parse_oracle
>>> land = TypeLine.parse("Land")
>>> tower = parse_oracle("{T}: Add one mana of any color in your commander's color identity.", land,
...                      "Command Tower").mana_abilities[0]
>>> extra_production_texts(tower.production)
["1 mana of one color in your commander's color identity"]
>>> field = parse_oracle("{T}: Add {W} or {B}. Activate only if you control a Swamp.", land, "Tainted Field")
>>> ability_notes(field.mana_abilities[0])
['activate only if you control a Swamp']
"""

from __future__ import annotations

from manasolver.models.abilities import Amount, ManaAbility, Production
from manasolver.models.symbols import mask_letters

__all__ = ["ability_notes", "amount_text", "extra_production_texts"]

_AMONG = {"permanents_you_control": "a permanent you control",
          "legendary_creatures_planeswalkers": "a legendary creature or planeswalker you control",
          "graveyard": "a card in your graveyard", "permanents": "a permanent a player controls"}
_KINDS = {"removed": "counters removed", "hand": "cards revealed", "life": "your life total",
          "count_or_named": "permanents by subtype or name", "sacrificed_mana_value": "the sacrificed mana value",
          "sacrificed_power": "the sacrificed power",
          "sacrificed_count": "permanents sacrificed", "tapped_count": "permanents tapped",
          "domain": "basic land types among your lands", "max_power": "the greatest power",
          "total_power": "the total power", "graveyard": "matching cards in your graveyard"}


def _slots(option: tuple[int, ...]) -> str:
    out = []
    for mask in option:
        letters = mask_letters(mask)
        out.append("{" + "|".join(letters) + "}" if len(letters) > 1 else "{" + letters + "}")
    return "".join(out)


def amount_text(amount: Amount) -> str:
    """A short name for the new amount kinds and filters (the renderer names the old ones)."""
    text = _KINDS.get(amount.kind, amount.kind)
    filters = []
    if amount.keywords:
        filters.append("with " + "/".join(sorted(amount.keywords)))
    if amount.min_power is not None:
        filters.append(f"with power {amount.min_power} or greater")
    if amount.name:
        filters.append("named " + ("this" if amount.name == "~" else amount.name))
    if amount.all_subtypes:
        filters.append(" ".join(sorted(amount.all_subtypes)))
    if amount.plus:
        filters.append(f"plus {amount.plus}")
    return " ".join([text, *filters])


def extra_production_texts(production: Production) -> list[str]:
    """The options ``Production.options`` does not show: chosen color, commander identity,
    colors among permanents, and the pool doubler."""
    out: list[str] = []
    if production.chosen:
        out.append(f"{production.chosen} mana of the chosen color")
    if production.commander:
        out.append(f"{production.commander} mana of one color in your commander's color identity")
    if production.colors_among:
        out.append(f"1 mana of a color of {_AMONG.get(production.colors_among, production.colors_among)}")
    if production.doubles_pool:
        out.append("double the amount of each type of unspent mana you have")
    return out


def ability_notes(ability: ManaAbility) -> list[str]:
    """Conditions, "instead" productions, per-turn limits and variable amounts, as text."""
    out: list[str] = []
    if ability.condition is not None:
        out.append(f"activate only if {ability.condition.text}" if ability.condition.counts
                   else ability.condition.text)
    production = ability.production
    if production.instead is not None:
        alternatives = " or ".join(_slots(o) for o in production.instead_options)
        out.append(f"instead {alternatives} if {production.instead.text}")
    if ability.per_turn:
        out.append(f"at most {ability.per_turn} activation{'s' if ability.per_turn > 1 else ''} each turn")
    if production.amount is not None and production.amount.kind in _KINDS:
        out.append("amount: " + amount_text(production.amount))
    return out
