"""A Scryfall-sized card file: read on every command (``--cards FILE``) against imported once
(``manasolver cards import``, then ``--cards DB``).

It writes a Scryfall-shaped bulk file (the objects Scryfall's "default cards" holds: ids, image and
shop links, legalities, prices beside the card's fields, double-faced cards with ``card_faces`` and
no top-level mana cost) from the repository's card data, copied under distinct names until it
reaches the size asked (137 MB by default, the size of the file measured before the import
existed), in a temporary folder that is removed afterwards.  Then it times, as separate processes
(wall clock and peak memory from ``/usr/bin/time``, else wall clock only):

* ``can-pay example:commander "{2}{G}"`` with no card file, with ``--cards FILE``, with
  ``--cards DB`` after the import, and with ``--cards FILE`` again (the import found by itself);
* ``cards import FILE --out DB``.

Run it by hand (it takes a minute or two, and several hundred megabytes while the old path reads
the file)::

    python -m manasolver.benchmarks.card_files [--mb 137] [--runs 5] [--exe manasolver]

Nothing is asserted: these are figures, not tests.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "data" / "cards.jsonl.gz"
FORMATS = ("standard", "future", "historic", "timeless", "gladiator", "pioneer", "explorer", "modern",
           "legacy", "pauper", "vintage", "penny", "commander", "oathbreaker", "standardbrawl", "brawl",
           "alchemy", "paupercommander", "duel", "oldschool", "premodern", "predh")
_FACED_TOP = {"transform", "modal_dfc", "meld", "battle"}  # Scryfall: no top-level cost or text


def _uuid(text: str) -> str:
    h = hashlib.md5(text.encode("utf-8")).hexdigest()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def _images(cid: str) -> dict[str, str]:
    base = f"https://cards.scryfall.io/{{}}/front/{cid[0]}/{cid[1]}/{cid}.jpg?1562552462"
    return {k: base.format(k) for k in ("small", "normal", "large", "png", "art_crop", "border_crop")}


def scryfall_object(record: dict[str, Any], suffix: str, n: int) -> dict[str, Any]:
    """One of our records as Scryfall writes a card, its names (and faces' names) + ``suffix``."""
    name = record["name"] if not suffix else " // ".join(p + suffix for p in record["name"].split(" // "))
    cid = _uuid(f"{name}/{n}")
    layout = record.get("layout", "normal")
    sets = record.get("sets") or ["ZNR"]
    obj: dict[str, Any] = {
        "object": "card", "id": cid, "oracle_id": _uuid("oracle/" + name), "multiverse_ids": [400000 + n],
        "mtgo_id": 80000 + n, "tcgplayer_id": 200000 + n, "cardmarket_id": 500000 + n, "name": name,
        "lang": "en", "released_at": "2020-09-25",
        "uri": f"https://api.scryfall.com/cards/{cid}", "scryfall_uri": f"https://scryfall.com/card/x/{n}",
        "layout": layout, "highres_image": True, "image_status": "highres_scan",
    }
    faces = record.get("faces")
    if not faces or layout not in _FACED_TOP:
        obj["image_uris"] = _images(cid)
        obj["mana_cost"] = record.get("mana_cost", "")
    obj["cmc"] = float(record.get("mana_value", 0))
    obj["type_line"] = record.get("type_line", "")
    if not faces:
        obj["oracle_text"] = record.get("oracle_text", "")
        for key in ("power", "toughness", "loyalty"):
            if key in record:
                obj[key] = record[key]
    if not faces or layout not in _FACED_TOP:
        obj["colors"] = record.get("colors", [])
    obj["color_identity"] = record.get("colors", [])
    obj["keywords"] = []
    if faces:
        obj["card_faces"] = []
        for f in faces:
            face: dict[str, Any] = {"object": "card_face", "name": f["name"] + suffix,
                                    "mana_cost": f.get("mana_cost", ""), "type_line": f.get("type_line", ""),
                                    "oracle_text": f.get("oracle_text", ""), "colors": f.get("colors", []),
                                    "artist": "Someone", "artist_id": _uuid("artist"),
                                    "illustration_id": _uuid(f["name"])}
            for key in ("power", "toughness", "loyalty", "color_indicator"):
                if key in f:
                    face[key] = f[key]
            if layout in _FACED_TOP:
                face["image_uris"] = _images(cid)
            obj["card_faces"].append(face)
    obj.update({
        "legalities": {f: "legal" if n % 3 else "not_legal" for f in FORMATS},
        "games": ["paper", "mtgo"], "reserved": False, "foil": True, "nonfoil": True,
        "finishes": ["nonfoil", "foil"], "oversized": False, "promo": False, "reprint": len(sets) > 1,
        "variation": False, "set_id": _uuid("set/" + sets[0]), "set": sets[0].lower(), "set_name": sets[0],
        "set_type": "funny" if record.get("funny") else "expansion",
        "set_uri": f"https://api.scryfall.com/sets/{_uuid('set/' + sets[0])}",
        "set_search_uri": f"https://api.scryfall.com/cards/search?order=set&q=e%3A{sets[0].lower()}",
        "scryfall_set_uri": f"https://scryfall.com/sets/{sets[0].lower()}",
        "rulings_uri": f"https://api.scryfall.com/cards/{cid}/rulings",
        "prints_search_uri": f"https://api.scryfall.com/cards/search?order=released&q=oracleid%3A{cid}",
        "collector_number": str(n % 400 + 1), "digital": False, "rarity": "rare", "card_back_id": _uuid("back"),
        "artist": "Someone", "artist_ids": [_uuid("artist")], "illustration_id": _uuid(name),
        "border_color": "silver" if record.get("funny") else "black", "frame": "2015", "full_art": False,
        "textless": False, "booster": True, "story_spotlight": False, "edhrec_rank": n,
        "prices": {"usd": "0.25", "usd_foil": "1.10", "usd_etched": None, "eur": "0.20", "eur_foil": "0.90",
                   "tix": "0.03"},
        "related_uris": {"gatherer": f"https://gatherer.wizards.com/Pages/Card/Details.aspx?multiverseid={n}",
                         "tcgplayer_infinite_articles": "https://tcgplayer.com/search/articles?q=" + cid,
                         "tcgplayer_infinite_decks": "https://tcgplayer.com/search/decks?q=" + cid,
                         "edhrec": "https://edhrec.com/route/?cc=" + cid},
        "purchase_uris": {"tcgplayer": "https://tcgplayer.com/product/" + cid,
                          "cardmarket": "https://www.cardmarket.com/en/Magic/Products/Search?q=" + cid,
                          "cardhoarder": "https://www.cardhoarder.com/cards/" + cid},
    })
    return obj


def _records() -> list[dict[str, Any]]:
    with gzip.open(SOURCE, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def write_file(path: Path, megabytes: float) -> int:
    """Write a Scryfall bulk file of about ``megabytes`` MB (a JSON array, one card a line, as
    Scryfall writes it); returns the number of cards."""
    records = _records()
    goal = int(megabytes * 1_000_000)

    def cards() -> Iterator[bytes]:
        n = 0
        copy = 0
        while True:
            suffix = "" if copy == 0 else f" {'I' * (copy + 1)}"
            for record in records:
                yield json.dumps(scryfall_object(record, suffix, n), ensure_ascii=False).encode("utf-8")
                n += 1
            copy += 1

    written = 0
    count = 0
    with open(path, "wb") as out:
        out.write(b"[")
        for data in cards():
            out.write((b"\n" if count == 0 else b",\n") + data)
            written += len(data) + 2
            count += 1
            if written >= goal:
                break
        out.write(b"\n]\n")
    return count


def _timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float | None]:
    """(wall seconds, peak memory in MB or None) of one run of ``cmd``."""
    gnu_time = shutil.which("time") if Path("/usr/bin/time").exists() else None
    start = time.perf_counter()
    if gnu_time:
        out = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], env=env, capture_output=True, text=True)
        wall = time.perf_counter() - start
        if out.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)}: {out.stderr.strip()}")
        return wall, int(out.stderr.strip().splitlines()[-1]) / 1024
    subprocess.run(cmd, env=env, capture_output=True, check=True)
    return time.perf_counter() - start, None


def _row(label: str, runs: list[tuple[float, float | None]]) -> str:
    wall = statistics.median(r[0] for r in runs)
    mems = [r[1] for r in runs if r[1] is not None]
    mem = f"{statistics.median(mems):.0f}" if mems else "-"
    return f"| {label} | {wall:.3f} | {mem} | {len(runs)} |"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=137.0, help="the size of the Scryfall file (MB)")
    parser.add_argument("--runs", type=int, default=5, help="runs of each command (median)")
    parser.add_argument("--exe", default="manasolver", help="the manasolver command to time")
    args = parser.parse_args(argv)
    exe = shutil.which(args.exe) or args.exe
    tmp = Path(tempfile.mkdtemp(prefix="manasolver-cards-"))
    try:
        env = {**os.environ, "XDG_DATA_HOME": str(tmp / "data")}
        env.pop("MANASOLVER_CARDS", None)
        big = tmp / "default-cards.json"
        count = write_file(big, args.mb)
        size = big.stat().st_size / 1e6
        query = ["can-pay", "example:commander", "{2}{G}"]
        lines = [f"Scryfall-shaped file: {count} cards, {size:.0f} MB.", "",
                 "| command | median s | peak MB | runs |", "|---|---|---|---|"]
        lines.append(_row("`can-pay` (bundled cards only)", [_timed([exe, *query], env) for _ in range(args.runs)]))
        lines.append(_row("`can-pay --cards FILE` (read on every command)",
                          [_timed([exe, *query, "--cards", str(big)], env) for _ in range(max(1, args.runs // 2))]))
        db = tmp / "data" / "manasolver" / "cards.sqlite"
        lines.append(_row("`cards import FILE` (once)", [_timed([exe, "cards", "import", str(big)], env)]))
        lines.append(_row("`can-pay --cards DB`",
                          [_timed([exe, *query, "--cards", str(db)], env) for _ in range(args.runs)]))
        lines.append(_row("`can-pay --cards FILE` after the import (found by itself)",
                          [_timed([exe, *query, "--cards", str(big)], env) for _ in range(args.runs)]))
        lines.append("")
        lines.append(f"Database: {db.stat().st_size / 1e6:.1f} MB.")
        print("\n".join(lines))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
