"""The deck as sampled games see it: its cards by index, the faces each card is cast or played as,
the spells (one row per castable face) and the costs the board oracle is asked.

A face whose cost the model can't credit in full (delve, convoke, an alternative cost, a reduction)
is a row with a note: its ``p`` is a lower bound (:class:`Spell`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from manasolver.models.abilities import AbilityCost, Production, Restriction
from manasolver.models.card import Card
from manasolver.models.cost import ManaCost
from manasolver.models.symbols import B, G, R, U, W
from manasolver.solver.castability.lands import LandRule, land_rule
from manasolver.solver.castability.units import cast_cost
from manasolver.solver.request import SpellInfo, restriction_allows

__all__ = ["DeckModel", "Spell", "castable_faces", "land_faces"]


@dataclass(frozen=True, slots=True)
class Spell:
    """One castable face of a card: its row of the answer.  ``note`` says why ``p`` is only a lower
    bound when the face has a way to pay that the model does not credit (``lower_bound``)."""

    name: str
    cost: ManaCost
    mana_value: int
    card: str = ""
    note: str = ""

    @property
    def lower_bound(self) -> bool:
        return bool(self.note)


#: Keywords whose way of paying the model does not credit: p is what the mana cost alone allows.
_UNCREDITED = ("delve", "convoke", "improvise", "affinity", "evoke", "emerge", "spectacle", "surge",
               "dash", "prowl", "madness", "miracle", "undaunted", "assist", "bargain")


def _note(card: Card, face: Card) -> str:
    """Why the mana cost alone understates ``face``: a keyword or text that pays or lowers the cost
    otherwise (delve, convoke, affinity, an alternative cost, a reduction); empty when none."""
    words = sorted({k for k in card.keywords | face.keywords
                    if any(k.lower().startswith(u) for u in _UNCREDITED)})
    text = face.oracle_text.lower()
    for line in text.splitlines():  # keyword abilities the card data lists only in its text
        for u in _UNCREDITED:
            if re.match(rf"{u}\b", line) and not any(w.lower().startswith(u) for w in words):
                words.append(u)
    words.sort()
    if "rather than pay this spell's mana cost" in text or "without paying its mana cost" in text and \
            "you may cast" in text and "this spell" in text:
        words.append("an alternative cost")
    if re.search(r"this spell costs .*less to cast", text):
        words.append("a cost reduction")
    if not words:
        return ""
    return (", ".join(words) + " not modelled: p is what the mana cost alone allows (a lower bound)")


def _may_pay(r: Restriction, face: Card) -> bool:
    """Whether mana of restriction ``r`` may pay for casting ``face`` on some board (CR 106.6): mana
    for the creature type chosen as its source entered (Unclaimed Territory, Cavern of Souls) pays a
    creature spell of some creature type, the type being chosen for it; a restriction the engine
    does not check (kicked spells, spells from the graveyard) is counted as possibly paying."""
    if r.any_of:
        return any(_may_pay(a, face) for a in r.any_of)
    line = face.type_line
    if r.chosen_type:
        return "creature" in line.types and (bool(line.subtypes) or "changeling" in face.oracle_text.lower())
    if r.unchecked:
        return True
    cost = face.mana_cost
    spell = SpellInfo(types=frozenset(line.types), subtypes=frozenset(line.subtypes),
                      supertypes=frozenset(line.supertypes), colors=face.colors, card=face)
    return restriction_allows(r, spell, cost is not None and cost.x_count > 0,
                              cost is not None and cost.has_colorless)


def _restricted_sources(deck: list[Card]) -> list[tuple[str, Restriction]]:
    """(card name, restriction) of every mana ability of ``deck`` whose mana is restricted (CR 106.6)."""
    return [(c.name, a.production.restriction) for c in deck for a in c.mana_abilities
            if a.production.restriction is not None]


def _restricted_note(face: Card, restricted: list[tuple[str, Restriction]]) -> str:
    """Which of the deck's ``restricted`` sources (:func:`_restricted_sources`) add mana that may pay
    for ``face`` only under its restriction: the games count no restricted mana toward a spell, so
    ``face``'s ``p`` is then a lower bound; empty when none."""
    names = sorted({name for name, r in restricted if _may_pay(r, face)})
    if not names:
        return ""
    return ", ".join(names) + ": restricted mana not counted for this spell: p is a lower bound"


def castable_faces(card: Card) -> list[Card]:
    """The faces of ``card`` cast from the hand, each its own row: both halves of a split or
    aftermath card (``Fire // Ice``: Fire and Ice), the creature and the adventure, each spell face of
    a modal double-faced card; the front face of a transforming card; the card itself otherwise.
    Faces that are lands and faces without a mana cost are left out."""
    if card.faces and card.layout in ("split", "aftermath", "adventure", "modal_dfc"):
        faces = list(card.faces)
    elif card.faces:
        faces = [card.faces[0]]
    else:
        faces = [card]
    return [f for f in faces if "land" not in f.type_line.types and f.mana_cost is not None]


def land_faces(card: Card) -> list[Card]:
    """The faces of ``card`` that can be played as a land: the card itself for a land, each land face
    of a modal double-faced card (Shatterskull Smashing's back; both faces of a Pathway)."""
    if card.faces and card.layout == "modal_dfc":
        return [f for f in card.faces if "land" in f.type_line.types]
    return [card] if "land" in card.type_line.types else []


def _relaxed(spells: list[Spell]) -> tuple[tuple[int, str, ManaCost], ...]:
    """For each spell and each color of its one-color symbols, the cost with one such symbol paid by
    any mana (``{1}{U}`` for Counterspell's U): a board that pays it and not the spell lacks that color."""
    one = ManaCost.parse("{1}")
    out: list[tuple[int, str, ManaCost]] = []
    for i, spell in enumerate(spells):
        done: set[str] = set()
        for k, sym in enumerate(spell.cost.symbols):
            letter = sym.text.strip("{}")
            if letter in done or letter not in ("W", "U", "B", "R", "G"):
                continue
            done.add(letter)
            rest = spell.cost.symbols[:k] + spell.cost.symbols[k + 1:]
            out.append((i, letter, ManaCost.of(rest + one.symbols)))
    return tuple(out)


@dataclass
class DeckModel:
    """The deck as the games see it: ``cards`` by index (the deck's cards, then the land faces of its
    modal double-faced cards), the library as indices, what each card is.  ``faces[c]``: the indices
    of the cards a land ``c`` of the hand can be played as (itself, or its land faces)."""

    cards: tuple[Card, ...]
    library: tuple[int, ...]
    is_land: tuple[bool, ...]
    sources: tuple[int, ...]
    spells: tuple[Spell, ...]
    commander: bool
    rules: dict[int, LandRule] = field(default_factory=dict)
    faces: dict[int, tuple[int, ...]] = field(default_factory=dict)
    #: ``(spell index, color, cost)``: the spell's cost with one symbol of that color paid by any mana
    relaxed: tuple[tuple[int, str, ManaCost], ...] = ()
    #: per land that chooses a color as it enters (the Thriving lands), the cards it can be on the
    #: battlefield as: itself with each color worth choosing (:func:`_color_choices`)
    choices: dict[int, tuple[int, ...]] = field(default_factory=dict)
    #: the color chosen (a WUBRG mask) of each card of :attr:`choices`' values (and of :attr:`splits`')
    chosen: dict[int, int] = field(default_factory=dict)
    #: per card of :attr:`choices`' values whose color is any of several until a mana source's casting
    #: depends on it, the cards of one color each it becomes then (:meth:`.games._Game._split`)
    splits: dict[int, tuple[int, ...]] = field(default_factory=dict)
    #: per nonland mana source, what it is cast for (:func:`.units.cast_cost`: Everflowing Chalice kicked once)
    cast_costs: dict[int, ManaCost] = field(default_factory=dict)

    def costs(self) -> list[ManaCost]:
        """The costs the board oracle answers, in the order of the mask's bits: the spells', then the
        relaxed ones."""
        return [s.cost for s in self.spells] + [c for _, _, c in self.relaxed]

    @staticmethod
    def build(deck_cards: tuple[tuple[str, int, Card], ...], commander: tuple[Card, ...],
              swaps: tuple[tuple[int, Card], ...] = (), split: bool = True) -> DeckModel:
        """The model of a deck; ``swaps`` put another card at some places of the library (a changed
        deck whose other cards keep their places, so that the same seed deals the same games);
        ``split`` false plays each color a land may choose as its own card from the start (the
        search :attr:`splits` shortens, kept to check it)."""
        cards: list[Card] = []
        library: list[int] = []
        for _, n, card in deck_cards:
            cards.append(card)
            library.extend([len(cards) - 1] * n)
        for pos, card in swaps:
            if card not in cards:
                cards.append(card)
            library[pos] = cards.index(card)
        kept = set(library)
        order = [i for i in range(len(cards)) if i in kept]
        if len(order) != len(cards):  # a card swapped out entirely: renumber the rest
            renumber = {old: new for new, old in enumerate(order)}
            cards = [cards[i] for i in order]
            library = [renumber[i] for i in library]
        for card in commander:
            if card not in cards:
                cards.append(card)
        in_library = set(library)
        physical = len(cards)
        faces: dict[int, tuple[int, ...]] = {}
        for i in range(physical):
            found = land_faces(cards[i])
            if not found:
                continue
            if found == [cards[i]]:
                faces[i] = (i,)
                continue
            idx = []
            for f in found:
                cards.append(f)
                idx.append(len(cards) - 1)
            faces[i] = tuple(idx)
        is_land = tuple(i in faces or "land" in c.type_line.types for i, c in enumerate(cards))
        sources = tuple(i for i, c in enumerate(cards[:physical]) if not is_land[i] and c.mana_abilities
                        and c.mana_cost is not None and i in in_library
                        and any(t in c.type_line.types for t in ("artifact", "creature", "enchantment")))
        spells: list[Spell] = []
        seen: set[str] = set()
        restricted = _restricted_sources(cards[:physical])
        for i, card in enumerate(cards[:physical]):
            if "land" in card.type_line.types and not card.faces:
                continue
            for face in castable_faces(card):
                if face.name in seen or face.mana_cost is None:
                    continue
                seen.add(face.name)
                cost = face.mana_cost
                note = "; ".join(n for n in (_note(card, face), _restricted_note(face, restricted)) if n)
                spells.append(Spell(face.name, cost, cost.mana_value(), card.name, note))
        rules = {i: land_rule(c) for i, c in enumerate(cards) if "land" in c.type_line.types}
        relaxed = _relaxed(spells)
        cast_costs = {i: paid for i in sources if (paid := cast_cost(cards[i])) is not None}
        source_costs = list(cast_costs.values())
        # the costs of mana abilities too: a filter land turns a chosen color into others
        asked = [s.cost for s in spells] + [c for _, _, c in relaxed] + source_costs + \
            [a.cost.mana for c in cards for a in c.mana_abilities]
        # a mana source of a colored cost, or a mana ability of one (a filter land), may be cast or
        # activated on an earlier turn with the chosen color: the choice then ties the turns together
        colored_sources = any(sym.colors for cost in source_costs + [a.cost.mana for c in cards
                                                                    for a in c.mana_abilities]
                              for sym in cost.symbols)
        choices, chosen, splits = _color_choices(cards, rules, asked, colored_sources, split)
        if split:
            _face_choices(cards, faces, rules, colored_sources, chosen, splits)
        is_land += (True,) * (len(cards) - len(is_land))
        return DeckModel(tuple(cards), tuple(library), is_land, sources, tuple(spells), bool(commander),
                         rules, faces, relaxed, choices, chosen, splits, cast_costs)


def _one_color_land(face: Card, rule: LandRule) -> int:
    """The color of ``face`` when it is a land whose text is only "{T}: Add {C}." of one color and that
    enters untapped or tapped whatever the board (a Pathway's face), else 0."""
    if rule.kind not in ("untapped", "tapped") or rule.fetch is not None or len(face.mana_abilities) != 1:
        return 0
    a = face.mana_abilities[0]
    options = a.production.options
    if a.cost != AbilityCost(tap=True) or a.production != Production(options=options) or len(options) != 1 \
            or len(options[0]) != 1 or options[0][0] not in (W, U, B, R, G) \
            or face.oracle_text.strip() != a.text.strip() or a.condition is not None or a.extra or a.damage:
        return 0
    return options[0][0]


def _face_choices(cards: list[Card], faces: dict[int, tuple[int, ...]], rules: dict[int, LandRule],
                  colored_sources: bool, chosen: dict[int, int], splits: dict[int, tuple[int, ...]]) -> None:
    """Play a card of several land faces that differ only in the one color each adds (a Pathway:
    Barkchannel Pathway adds {G}, Tidechannel Pathway {U}; the same types, entering the same way, each
    text that one ability) as one card of the color chosen as it enters, any of theirs (as a Thriving
    land of several colors, :func:`_color_choices`): ``faces`` then holds that card alone, appended to
    ``cards`` with its rule, its colors in ``chosen``, and, when a mana source or ability of the deck
    has a colored cost (``colored_sources``), the faces as its :attr:`DeckModel.splits`.

    The answers are those of playing each face: which face is played is a choice made once as the
    land enters and read by nothing but the mana it adds (no type, entry or text differs), so each
    question, one payment on one board, may take the face that serves it; and where a source's casting
    depends on the face the search splits the card into its faces (:meth:`.games._Game._split`).  The
    search keeps one state where it kept one per face, 2**k of them for k Pathways played."""
    for physical, idx in list(faces.items()):
        if len(idx) < 2:
            continue
        first = cards[idx[0]]
        colors = [_one_color_land(cards[f], rules[f]) for f in idx]
        if not all(colors) or len(set(colors)) != len(colors) \
                or any(rules[f] != rules[idx[0]] or cards[f].type_line != first.type_line
                       or cards[f].colors != first.colors or cards[f].keywords != first.keywords for f in idx):
            continue
        ability = first.mana_abilities[0]
        either = replace(ability, production=Production(chosen=1), text="{T}: Add one mana of the chosen color.")
        cards.append(replace(first, name=cards[physical].name, oracle_text=either.text, mana_abilities=(either,),
                             layout="modal_dfc", faces=tuple(cards[f] for f in idx)))
        card = len(cards) - 1
        rules[card] = rules[idx[0]]
        mask = 0
        for color in colors:
            mask |= color
        chosen[card] = mask
        if colored_sources:
            splits[card] = idx
        faces[physical] = (card,)


_COLOR_BITS = {"white": W, "blue": U, "black": B, "red": R, "green": G}
_CHOOSES = re.compile(r"\bas [^.]*? enters[^.]*?, choose a color( other than (white|blue|black|red|green))?\b",
                      re.IGNORECASE)


def _color_choices(cards: list[Card], rules: dict[int, LandRule], asked: list[ManaCost], colored_sources: bool,
                   split: bool = True) -> tuple[dict[int, tuple[int, ...]], dict[int, int], dict[int, tuple[int, ...]]]:
    """For each land of ``cards`` with a mana ability of the color chosen as it enters (the Thriving
    lands: "As it enters, choose a color other than blue", CR 614.12), the cards it can enter as,
    appended to ``cards`` (its rule copied in ``rules``): the same card with each color its controller
    may choose that some cost of ``asked`` has a symbol of (choosing another adds mana no cost asked
    can use, so it changes no answer); one card of the first color allowed when no cost has one.
    The search plays each, so the choice is the one serving the question best, made once as the land
    enters.  When no mana source or mana ability of the deck has a colored cost (``colored_sources``
    false) the choice is one card of all those colors (a mask of several): each question is one
    payment on one board (a source cast on an earlier turn pays the same whatever the color), so the
    color chosen for it, fixed on every turn before, is the one that serves it; the oracle asks each.
    Otherwise too (``split``) the land is played as that one card, and the cards of each color are its
    :attr:`DeckModel.splits`: the search turns it into them when a source's casting depends on the color
    (:meth:`.games._Game._split`); until then each question is again one payment whose color is free."""
    used = 0
    for cost in asked:
        for sym in cost.symbols:
            used |= sym.colors
    choices: dict[int, tuple[int, ...]] = {}
    chosen: dict[int, int] = {}
    splits: dict[int, tuple[int, ...]] = {}
    for i in list(rules):
        card = cards[i]
        if not any(a.production.chosen for a in card.mana_abilities):
            continue
        m = _CHOOSES.search(card.oracle_text)
        if m is None:
            continue
        allowed = [c for c in (W, U, B, R, G) if m.group(2) is None or c != _COLOR_BITS[m.group(2).lower()]]
        worth = [c for c in allowed if c & used] or allowed[:1]
        mask = 0
        for color in worth:
            mask |= color
        out: list[int] = []
        for color in worth if colored_sources or len(worth) == 1 else ():
            cards.append(card)
            chosen[len(cards) - 1] = color
            rules[len(cards) - 1] = rules[i]
            out.append(len(cards) - 1)
        if len(worth) > 1 and (split or not colored_sources):
            cards.append(card)
            chosen[len(cards) - 1] = mask
            rules[len(cards) - 1] = rules[i]
            if out:
                splits[len(cards) - 1] = tuple(out)
            out = [len(cards) - 1]
        choices[i] = tuple(out)
    return choices, chosen, splits
