"""The decklist formats players and engines write, each read into entry rows.

A reader turns a file's text into entries (a card name as written, a count, the zone it is in and
where it was read) without looking names up: :mod:`manasolver.solver.castability.deck` resolves
every name at once, so a deck's unknown cards are reported together.  :func:`read_entries` picks the
format from the content, the file's extension only breaking ties and wording errors:

* ``<cockatrice_deck>`` XML: Cockatrice ``.cod`` (:mod:`.cockatrice`);
* ``<Deck>`` XML: MTGO ``.dek`` (:mod:`.mtgo_dek`);
* JSON: MTGJSON's deck files (``{"data": {"mainBoard", "commander", …}}``) or this program's own
  ``{"cards": [...], "commander": [...]}`` (:mod:`.jsondeck`);
* Forge ``.dck`` (``[Main]``, ``[Commander]`` sections, ``4 Name|SET``) and XMage ``.dck``
  (``4 [SET:NUM] Name``, ``SB:`` lines) (:mod:`.dck`);
* anything else: plain text, Arena and MTGO text exports (:mod:`.text`).
"""

from __future__ import annotations

import re

from manasolver.solver.castability.decklists import cockatrice, dck, jsondeck, mtgo_dek
from manasolver.solver.castability.decklists import text as plain
from manasolver.solver.castability.decklists.entries import DeckError, Listing

__all__ = ["read_entries"]

_FORGE_SECTION = re.compile(r"^\s*\[(metadata|main|sideboard|commander|avatar|planes|schemes|conspiracy|"
                            r"dungeon|attractions|contraptions)\]\s*$", re.IGNORECASE | re.MULTILINE)
_XMAGE_LINE = re.compile(r"^\s*(?:SB:\s*)?\d+\s+\[[A-Za-z0-9_]{0,8}:[^\]]*\]", re.MULTILINE)
_XML_ROOT = re.compile(r"<\s*([A-Za-z_][\w.-]*)")


def read_entries(text: str, filename: str = "") -> Listing:
    """The entries of the decklist ``text`` (``filename`` only as a hint: its extension)."""
    ext = filename.lower().rsplit(".", 1)[-1] if "." in filename else ""
    body = text.lstrip("\ufeff")
    start = body.lstrip()[:1]
    if start == "<":
        root = _xml_root(body)
        if root == "cockatrice_deck":
            return Listing("cockatrice", cockatrice.read(body), side_commander=True)
        if root == "deck":
            return Listing("mtgo-dek", mtgo_dek.read(body), side_commander=True)
        raise DeckError(f"an XML file whose first element is <{root}>: a Cockatrice deck starts with "
                        "<cockatrice_deck>, an MTGO .dek with <Deck>", "line 1")
    if ext in ("cod", "dek"):
        kind = "a Cockatrice .cod" if ext == "cod" else "an MTGO .dek"
        raise DeckError(f"the file is named .{ext} but is not XML: {kind} deck is an XML file", "line 1")
    if _FORGE_SECTION.search(body):
        return Listing("forge-dck", dck.read_forge(body))
    if start in ("{", "["):
        return jsondeck.read(body)
    if _XMAGE_LINE.search(body):
        return Listing("xmage-dck", dck.read_xmage(body), side_commander=True)
    return Listing("text", plain.read(body))


def _xml_root(text: str) -> str:
    """The lower-case name of the first element of an XML text (after the declaration and
    comments)."""
    stripped = re.sub(r"<\?.*?\?>|<!--.*?-->", "", text, flags=re.DOTALL)
    m = _XML_ROOT.search(stripped)
    return m.group(1).lower() if m else ""
