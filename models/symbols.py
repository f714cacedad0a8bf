"""Mana symbols as data (CR 107.4).

A :class:`ManaSymbol` is a frozen value: a bitmask of the colors it may be paid
with, and flags for the other ways of paying it.  One function,
:func:`ManaSymbol.ways_to_pay`, says what pays a symbol; nothing else in the
code base branches on the kind of a symbol to decide payment.

Mana types are bits too: ``W=1, U=2, B=4, R=8, G=16`` and colorless ``C=32``.

>>> parse_symbol("u/w").text
'{W/U}'
>>> [w.text for w in parse_symbol("{2/W}").ways_to_pay()]
['{W}', '{2}']
"""

from __future__ import annotations

from dataclasses import dataclass, field

from manasolver.models.errors import BadCost

__all__ = [
    "TYPE_BITS",
    "ANY_COLOR",
    "ANY_TYPE",
    "COLORS",
    "HYBRID_PAIRS",
    "MAX_GENERIC",
    "TYPES",
    "B",
    "C",
    "G",
    "ManaSymbol",
    "PaidAs",
    "R",
    "U",
    "W",
    "iter_symbols",
    "mask_from_letters",
    "mask_letters",
    "parse_symbol",
    "type_bit",
]

W, U, B, R, G, C = 1, 2, 4, 8, 16, 32
ANY_COLOR = W | U | B | R | G
ANY_TYPE = ANY_COLOR | C
COLORS = "WUBRG"
TYPES = "WUBRGC"
#: The six mana type bits in WUBRGC order: iterate these, never a literal tuple.
TYPE_BITS = (W, U, B, R, G, C)
#: The rules' canonical order of the ten two-color pairs (CR 107.4e).
HYBRID_PAIRS = ("WU", "UB", "BR", "RG", "GW", "WB", "UR", "BG", "RW", "GU")
#: The largest numeral accepted: bigger ones are refused rather than modelled.
MAX_GENERIC = 1_000_000

# Symbols of silver-bordered (funny) cards: refused with a clear message.
_FUNNY = {"HW", "HU", "HB", "HR", "HG", "H", "½", "∞", "CHAOS", "A", "TK", "HS", "100000"}


def type_bit(letter: str) -> int:
    """The bit of one mana type letter (``"W"`` … ``"C"``)."""
    return 1 << TYPES.index(letter.upper())


def mask_letters(mask: int) -> str:
    """The type letters of a mask, in WUBRGC order: ``mask_letters(W|G) == 'WG'``."""
    return "".join(t for i, t in enumerate(TYPES) if mask >> i & 1)


def mask_from_letters(letters: str) -> int:
    """The mask of a string of type letters: ``mask_from_letters('WG') == W|G``."""
    mask = 0
    for ch in letters:
        mask |= type_bit(ch)
    return mask


@dataclass(frozen=True, slots=True)
class PaidAs:
    """One way of paying one symbol, as fixed at announcement (CR 601.2b).

    ``kind`` is ``"mana"`` (one mana of a type in ``mask``), ``"generic"``
    (``amount`` mana of any type), ``"life"`` (``amount`` life), ``"snow"``
    (one mana of any type from a snow source) or ``"energy"``.
    """

    kind: str
    mask: int = 0
    amount: int = 1

    @property
    def text(self) -> str:
        """The protocol's ``paid_as`` text: ``{W}``, ``{2}``, ``life``, ``{S}``, ``{E}``."""
        if self.kind == "mana":
            return "{" + mask_letters(self.mask) + "}"
        if self.kind == "generic":
            return "{" + str(self.amount) + "}"
        if self.kind == "snow":
            return "{S}"
        if self.kind == "energy":
            return "{E}"
        return "life"


@dataclass(frozen=True, slots=True)
class ManaSymbol:
    """One symbol of a cost.

    ``colors``: the colors that pay it (and that it gives an object, CR 202.2);
    ``colorless``: one colorless mana pays it (``{C}``, ``{C/W}``, ``{C/P}``);
    ``generic``: the numeral, or the generic half of ``{2/W}``;
    ``phyrexian``: 2 life pays it; ``snow``: ``{S}``; ``variable``: X, Y or Z;
    ``special``: ``E`` (energy), ``T`` (tap) or ``Q`` (untap), which are not mana.
    """

    text: str
    colors: int = 0
    colorless: bool = False
    generic: int = 0
    phyrexian: bool = False
    snow: bool = False
    variable: str = ""
    special: str = ""
    #: :meth:`ways_to_pay`, filled once when first asked (one whole tuple, one store).
    _ways: tuple[PaidAs, ...] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def is_numeral(self) -> bool:
        """A plain generic symbol such as ``{3}`` or ``{0}``."""
        return not (self.colors or self.colorless or self.phyrexian or self.snow
                    or self.variable or self.special)

    @property
    def is_mana(self) -> bool:
        """True for symbols paid with mana or life, false for ``{E}``, ``{T}``, ``{Q}``."""
        return not self.special

    @property
    def is_hybrid(self) -> bool:
        """A symbol with more than one way of paying it that must be announced (601.2b)."""
        return len(self.ways_to_pay()) > 1

    @property
    def mana_value(self) -> int:
        """Contribution to mana value (CR 202.3): largest half; Phyrexian 1; X 0."""
        if self.special or self.variable:
            return 0
        if self.is_numeral:
            return self.generic
        return max(1, self.generic)

    def ways_to_pay(self) -> tuple[PaidAs, ...]:
        """Every announced form of this symbol (CR 107.4, 601.2b), in a fixed order."""
        ways = self._ways
        if ways is None:
            ways = _ways(self)
            object.__setattr__(self, "_ways", ways)
        return ways

    def __repr__(self) -> str:
        return f"parse_symbol({self.text!r})"


def _ways(sym: ManaSymbol) -> tuple[PaidAs, ...]:
    if sym.special == "E":
        return (PaidAs("energy"),)
    if sym.special:
        return ()
    if sym.snow:
        return (PaidAs("snow"),)
    if sym.is_numeral or sym.variable:
        return (PaidAs("generic", amount=sym.generic),)
    ways = [PaidAs("mana", bit) for bit in (W, U, B, R, G) if sym.colors & bit]
    if sym.colorless:
        ways.insert(0, PaidAs("mana", C))
    if sym.generic:
        ways.append(PaidAs("generic", amount=sym.generic))
    if sym.phyrexian:
        ways.append(PaidAs("life", amount=2))
    return tuple(ways)


def _pair(a: str, b: str, where: str, raw: str) -> str:
    for p in HYBRID_PAIRS:
        if {a, b} == set(p) and a != b:
            return p
    raise BadCost(f"unknown hybrid symbol {raw}", where)


def _parse_body(body: str) -> ManaSymbol | str:
    """The inside of one ``{…}`` parsed: the symbol or an error message (a symbol as the rules
    write it is one object, from :data:`_WRITTEN`)."""
    hit = _WRITTEN.get(body)
    return hit if hit is not None else _read_body(body)


def _read_body(body: str) -> ManaSymbol | str:
    """:func:`_parse_body`, read."""
    up = body.strip().upper()
    if up.isdigit() and up.isascii():
        n = int(up)
        if n > MAX_GENERIC:
            return f"generic amount {{{body}}} is larger than {MAX_GENERIC}"
        return ManaSymbol("{" + str(n) + "}", generic=n)
    if up in _FUNNY or up.startswith("H") and len(up) == 2 and up[1] in COLORS:
        return (f"{{{body}}} is a symbol of silver-bordered (Un-set) cards, such as half mana or "
                f"infinity, which manasolver does not support")
    if len(up) == 1:
        if up in COLORS:
            return ManaSymbol("{" + up + "}", colors=type_bit(up))
        if up == "C":
            return ManaSymbol("{C}", colorless=True)
        if up == "S":
            return ManaSymbol("{S}", snow=True)
        if up in "XYZ":
            return ManaSymbol("{" + up + "}", variable=up)
        if up in "ETQ":
            return ManaSymbol("{" + up + "}", special=up)
        if up == "P":
            return "{P} alone is not a cost symbol; write a Phyrexian symbol such as {W/P}"
        return f"unknown mana symbol {{{body}}}"
    parts = up.split("/")
    if len(parts) == 2:
        a, b = parts
        if a in COLORS and b == "P":
            return ManaSymbol("{" + a + "/P}", colors=type_bit(a), phyrexian=True)
        if a == "C" and b == "P":  # colorless Phyrexian (CR 107.4f): one colorless mana or 2 life
            return ManaSymbol("{C/P}", colorless=True, phyrexian=True)
        if a == "2" and b in COLORS:
            return ManaSymbol("{2/" + b + "}", colors=type_bit(b), generic=2)
        if a == "C" and b in COLORS or b == "C" and a in COLORS:
            col = b if a == "C" else a
            return ManaSymbol("{C/" + col + "}", colors=type_bit(col), colorless=True)
        if a in COLORS and b in COLORS and a != b:
            p = _pair(a, b, "", body)
            return ManaSymbol("{" + p[0] + "/" + p[1] + "}", colors=type_bit(a) | type_bit(b))
    if len(parts) == 3 and parts[2] == "P":
        a, b = parts[0], parts[1]
        if a in COLORS and b in COLORS and a != b:
            p = _pair(a, b, "", body)
            return ManaSymbol("{" + p[0] + "/" + p[1] + "/P}", colors=type_bit(a) | type_bit(b),
                              phyrexian=True)
    return f"unknown mana symbol {{{body}}}"


def _written() -> dict[str, ManaSymbol]:
    """Every symbol as the rules write it (CR 107.4: W U B R G C S X Y Z E T Q, the hybrids in
    the rules' order, {2/W}, {C/W}, Phyrexian ones, numerals up to 20) by its inside."""
    bodies = list(COLORS + "CSXYZETQ") + [str(n) for n in range(21)]
    bodies += [f"{p[0]}/{p[1]}" for p in HYBRID_PAIRS] + [f"{p[0]}/{p[1]}/P" for p in HYBRID_PAIRS]
    bodies += [f"{a}/P" for a in COLORS + "C"] + [f"2/{a}" for a in COLORS] + [f"C/{a}" for a in COLORS]
    out: dict[str, ManaSymbol] = {}
    for body in bodies:
        sym = _read_body(body)
        if isinstance(sym, ManaSymbol):
            out[body] = sym
    return out


#: The symbols as the rules write them, made at import, so that parsing a cost looks each up
#: (and every ``{W}`` is one object); any other spelling is read again each time.
_WRITTEN = _written()


def parse_symbol(text: str, where: str = "") -> ManaSymbol:
    """Parse one symbol, with or without braces, case-insensitively.

    Raises :class:`BadCost` naming the symbol (and ``where``) when it is unknown.
    """
    body = text.strip()
    if body.startswith("{") and body.endswith("}"):
        body = body[1:-1]
    if not body or "{" in body or "}" in body:
        raise BadCost(f"malformed mana symbol {text!r}", where)
    result = _parse_body(body)
    if isinstance(result, str):
        raise BadCost(result, where)
    return result


def iter_symbols(text: str, where: str = "cost") -> list[ManaSymbol]:
    """Split a string of braced symbols (``"{2}{W}"``) into symbols.

    Whitespace between symbols is allowed; anything else is an error naming the
    character position, e.g. ``cost[4]``.
    """
    out: list[ManaSymbol] = []
    i, n = 0, len(text)
    index = 0
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        if ch != "{":
            raise BadCost(f"expected '{{' at character {i} of {_short(text)}, found {ch!r}",
                          f"{where}[{index}]")
        j = text.find("}", i + 1)
        if j < 0:
            raise BadCost(f"unclosed '{{' at character {i} of {_short(text)}", f"{where}[{index}]")
        sym = _WRITTEN.get(text[i + 1:j])  # as the rules write it: parse_symbol would find it there too
        out.append(sym if sym is not None else parse_symbol(text[i:j + 1], f"{where}[{index}]"))
        index += 1
        i = j + 1
    return out


def _short(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:57] + "...")
