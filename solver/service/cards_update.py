"""``manasolver cards update``: the newest cards from Scryfall, downloaded, checked and imported.

Scryfall publishes a bulk-data list (``https://api.scryfall.com/bulk-data``: ``{"object": "list",
"data": [{"object": "bulk_data", "type": "oracle_cards", "download_uri", "size", "updated_at",
…}, …]}``); its "oracle cards" file is a JSON array of one card object per Oracle card, some 160 MB.
:func:`update` reads the list, streams the file into a temporary file beside the card database
(never whole in memory) with a progress bar on standard error, checks it (a JSON array of card
objects, the size the list gives, a plausible number of cards) and imports it as ``cards import``
does (:func:`~manasolver.models.card_import.import_card_file`) into a temporary database that then
replaces the old one in one rename.  Any failure (no network, a refused or broken download, a file
that is not what the list promised) is an :class:`UpdateError` with a one-line message naming what
failed, and leaves the previous database as it was.

``--from URL_OR_FILE`` takes another source: a bulk-data list or a card file (our JSONL or a
Scryfall file, gzip-compressed or not), by URL or as a local file; what it is is read from its
content.  HTTP goes through :mod:`urllib` with a timeout.
"""

from __future__ import annotations

import gzip
import hashlib
import http.client
import json
import os
import socket
import sqlite3
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import zlib
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any

from manasolver.models.card_import import ImportResult, default_import_path, import_card_file
from manasolver.models.errors import ManasolverError

__all__ = ["BULK_TYPE", "DEFAULT_LIST", "SCRYFALL_MIN_CARDS", "TIMEOUT", "UpdateError", "Updated", "update"]

#: Scryfall's bulk-data list.
DEFAULT_LIST = "https://api.scryfall.com/bulk-data"
#: The entry of the list whose file is imported: one object per Oracle card.
BULK_TYPE = "oracle_cards"
#: Fewer cards than this in Scryfall's oracle file means a wrong or truncated file (it held some
#: 35,000 in 2026).
SCRYFALL_MIN_CARDS = 20000
#: Seconds a connection or a read may wait.
TIMEOUT = 30.0
#: A bulk-data list is a few kilobytes; a file larger than this is read as a card file.
_MAX_LIST = 4 << 20
_CHUNK = 1 << 16


class UpdateError(Exception):
    """A failed update: ``message`` says what failed, in one line; nothing was changed."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Updated:
    """What :func:`update` did: the import's result, the source imported (a URL or a path) and the
    date the list gave the file (``""`` when none)."""

    result: ImportResult
    source: str
    updated_at: str


def update(source: str | None = None, out: str | os.PathLike[str] | None = None, *, timeout: float = TIMEOUT,
           min_cards: int | None = None, progress: IO[str] | None = None) -> Updated:
    """Bring the card database at ``out`` (default: the user's, as ``cards import`` writes it) up
    to date from ``source`` (default: Scryfall's bulk-data list).  ``min_cards``: the fewest cards
    the file must hold (default :data:`SCRYFALL_MIN_CARDS` from Scryfall's list, 1 from another
    source).  Progress goes to ``progress`` (default standard error)."""
    target = Path(out) if out is not None else default_import_path()
    origin = source or DEFAULT_LIST
    least = min_cards if min_cards is not None else (SCRYFALL_MIN_CARDS if source is None else 1)
    created = [p for p in (target.parent, *target.parent.parents) if not p.exists()]
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise UpdateError(f"can't create the folder {target.parent}: {err.strerror or err}") from None
    temps: list[Path] = []
    finished = False
    try:
        card_file, label, entry = _obtain(origin, target.parent, temps, timeout, progress or sys.stderr)
        _check_array(card_file, label)
        if entry.get("size") is not None:
            _check_size(card_file, label, entry["size"], entry.get("received"))
        for algo in ("sha256", "sha1", "md5"):
            if isinstance(entry.get(algo), str):
                _check_digest(card_file, label, algo, entry[algo])
        staged = target.with_name(target.name + ".new")
        temps.append(staged)
        try:
            result = import_card_file(card_file, staged)
        except ManasolverError as err:
            raise UpdateError(err.message.replace(str(card_file), label)) from None
        if result.cards < least:
            raise UpdateError(f"{label} holds {result.cards:,} cards; at least {least:,} were expected "
                              "(a truncated or wrong file)")
        updated_at = str(entry.get("updated_at") or "")
        if card_file in temps:  # downloaded: the database names the URL, not the temporary file
            _set_meta(staged, {"source": label, "source_updated_at": updated_at,
                               "downloaded_at": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")})
        os.replace(staged, target)
        finished = True
        done = ImportResult(target, result.cards, result.keys, result.skipped, result.seconds)
        return Updated(done, label, updated_at)
    except OSError as err:
        name = getattr(err, "filename", None) or target
        raise UpdateError(f"can't write {name}: {err.strerror or err}") from None
    except sqlite3.Error as err:
        raise UpdateError(f"can't write {target}: {err}") from None
    finally:
        for path in temps:
            try:
                path.unlink()
            except OSError:
                pass  # already gone, or not ours to remove
        for folder in created if not finished else ():
            try:
                folder.rmdir()  # the folders made for this update, when it failed
            except OSError:
                break


def _is_url(text: str) -> bool:
    return urllib.parse.urlsplit(text).scheme.lower() in ("http", "https", "file")


def _obtain(origin: str, folder: Path, temps: list[Path], timeout: float,
            progress: IO[str]) -> tuple[Path, str, dict[str, Any]]:
    """The card file ``origin`` leads to (following a bulk-data list to its oracle-cards file), its
    label for messages, and the list's entry for it (``{}`` when there was no list)."""
    if _is_url(origin):
        first, _ = _download(origin, folder, temps, timeout, progress)
    else:
        first = Path(origin)
        if not first.is_file():
            raise UpdateError(f"{origin} is not a file or an http(s) URL")
    listing = _bulk_list(first, origin)
    if listing is None:
        return first, origin, {}
    entry = _entry(listing, origin)
    url = urllib.parse.urljoin(origin, str(entry["download_uri"])) if _is_url(origin) else str(entry["download_uri"])
    if not _is_url(url):
        raise UpdateError(f"the {BULK_TYPE} entry of {origin} has a download_uri that is not a URL: {url!r}")
    path, received = _download(url, folder, temps, timeout, progress, entry.get("name"))
    return path, url, {**entry, "received": received}


def _bulk_list(path: Path, label: str) -> dict[str, Any] | None:
    """The bulk-data list in ``path``, or None when the file is something else (a card file)."""
    try:
        if path.stat().st_size > _MAX_LIST:
            return None
        with open(path, "rb") as fh:
            head = fh.read(_MAX_LIST)
    except OSError as err:
        raise UpdateError(f"can't read {label}: {err.strerror or err}") from None
    if head[:2] == b"\x1f\x8b" or not head.lstrip().startswith(b"{"):
        return None
    try:
        obj = json.loads(head.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    if not isinstance(obj, dict):
        return None
    data = obj.get("data")
    if obj.get("object") == "list" and isinstance(data, list) and data and all(
            isinstance(d, dict) and d.get("object") == "bulk_data" for d in data):
        return dict(obj)
    return None


def _entry(listing: dict[str, Any], label: str) -> dict[str, Any]:
    entries = listing["data"]
    for entry in entries:
        if entry.get("type") == BULK_TYPE:
            if not isinstance(entry.get("download_uri"), str):
                raise UpdateError(f"the {BULK_TYPE} entry of {label} has no download_uri")
            return dict(entry)
    kinds = ", ".join(str(e.get("type")) for e in entries)
    raise UpdateError(f"{label} lists no {BULK_TYPE} file (it lists: {kinds})")


def _download(url: str, folder: Path, temps: list[Path], timeout: float, progress: IO[str],
              name: object = None) -> tuple[Path, int]:
    """``url`` streamed into a temporary file in ``folder`` (added to ``temps``), with a progress
    bar, and the bytes received; a gzip transfer encoding is undone on the way."""
    fd, tmp = tempfile.mkstemp(prefix=".cards-update-", suffix=".part", dir=folder)
    path = Path(tmp)
    temps.append(path)
    request = urllib.request.Request(url, headers={
        "User-Agent": f"manasolver/{_version()}", "Accept": "application/json, */*;q=0.5",
        "Accept-Encoding": "gzip"})
    host = urllib.parse.urlsplit(url).netloc or url
    got = 0
    total: int | None = None
    try:
        with os.fdopen(fd, "wb") as out, urllib.request.urlopen(request, timeout=timeout) as answer:
            length = answer.headers.get("Content-Length")
            total = int(length) if length and length.isdigit() else None
            unzip = (zlib.decompressobj(16 + zlib.MAX_WBITS)
                     if (answer.headers.get("Content-Encoding") or "").lower() == "gzip" else None)
            bar = _Bar(progress, str(name or Path(urllib.parse.urlsplit(url).path).name or url), total)
            while True:
                chunk = answer.read(_CHUNK)
                if not chunk:
                    break
                got += len(chunk)
                out.write(unzip.decompress(chunk) if unzip is not None else chunk)
                bar.show(got)
            if unzip is not None:
                out.write(unzip.flush())
                if not unzip.eof:
                    raise UpdateError(f"the download from {url} is a cut-short gzip stream")
            bar.done(got)
    except urllib.error.HTTPError as err:
        raise UpdateError(f"{url} answered HTTP {err.code} {err.reason}") from None
    except urllib.error.URLError as err:
        reason = err.reason
        if isinstance(reason, (TimeoutError, socket.timeout)):
            raise UpdateError(f"{host} did not answer within {timeout:g} s ({url})") from None
        why = reason.strerror if isinstance(reason, OSError) and reason.strerror else str(reason)
        raise UpdateError(f"can't reach {host}: {why} ({url})") from None
    except (TimeoutError, socket.timeout):
        raise UpdateError(f"{host} stopped answering for {timeout:g} s after {got:,} bytes ({url})") from None
    except (http.client.HTTPException, ConnectionError) as err:
        expected = f" of {total:,}" if total else ""
        raise UpdateError(f"the download from {url} broke off after {got:,}{expected} bytes "
                          f"({type(err).__name__})") from None
    except zlib.error as err:
        raise UpdateError(f"the download from {url} is not valid gzip ({err})") from None
    if total is not None and got < total:
        raise UpdateError(f"the download from {url} broke off after {got:,} of {total:,} bytes")
    return path, got


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("manasolver")
    except PackageNotFoundError:
        return "unknown"


class _Bar:
    """A one-line progress bar: bytes received of the total (when known).  On a terminal it is
    redrawn in place at most ten times a second; elsewhere (a log) a line is written at each tenth
    of the total (each 10 MB when the total is unknown) and at the end."""

    def __init__(self, out: IO[str], name: str, total: int | None) -> None:
        self.out, self.name, self.total = out, name, total
        self.tty = bool(getattr(out, "isatty", lambda: False)())
        self.last = 0.0
        self.step = 0
        scale = total or 0
        self.unit, self.div = ("MB", 1e6) if scale >= 1e6 or not total else ("kB", 1e3)

    def _line(self, got: int) -> str:
        size = f"{got / self.div:,.1f}"
        if not self.total:
            return f"downloading {self.name}: {size} {self.unit}"
        frac = min(1.0, got / self.total)
        filled = int(frac * 30)
        return (f"downloading {self.name}: {size} of {self.total / self.div:,.1f} {self.unit} "
                f"[{'#' * filled}{'.' * (30 - filled)}] {frac:4.0%}")

    def show(self, got: int) -> None:
        if self.tty:
            now = time.monotonic()
            if now - self.last >= 0.1:
                self.last = now
                self.out.write("\r" + self._line(got))
                self.out.flush()
            return
        step = got * 10 // self.total if self.total else got // 10_000_000
        if step > self.step and (not self.total or got < self.total):
            self.step = step
            self.out.write(self._line(got) + "\n")
            self.out.flush()

    def done(self, got: int) -> None:
        self.out.write(("\r" if self.tty else "") + self._line(got) + "\n")
        self.out.flush()


def _check_array(path: Path, label: str) -> None:
    """The file is a JSON array (or our JSONL); Scryfall's bulk files are arrays."""
    try:
        with (gzip.open(path, "rb") if _gzipped(path) else open(path, "rb")) as fh:
            head = fh.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")
    except (OSError, EOFError, zlib.error) as err:
        raise UpdateError(f"{label} can't be read: {err}") from None
    if not head:
        raise UpdateError(f"{label} is empty")
    if head[:1] == b"[":
        return
    if head[:1] == b"{" and _is_jsonl(head):
        return
    shown = head[:40].decode("utf-8", "replace")
    raise UpdateError(f"{label} is not a JSON array of cards (it starts with {shown!r})")


def _is_jsonl(head: bytes) -> bool:
    """Our JSONL card file: one record a line, the first a whole object with a name."""
    first = head.split(b"\n", 1)[0]
    try:
        record = json.loads(first)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return False
    return isinstance(record, dict) and "name" in record and record.get("object") is None


def _gzipped(path: Path) -> bool:
    with open(path, "rb") as fh:
        return fh.read(2) == b"\x1f\x8b"


def _check_size(path: Path, label: str, size: object, received: object) -> None:
    """The file has the size the list gives: as written, or as received when it came compressed
    (which of the two a list means by ``size`` is not said, so either agrees)."""
    have = path.stat().st_size
    if isinstance(size, int) and not isinstance(size, bool) and size > 0 and size not in (have, received):
        raise UpdateError(f"{label} has {have:,} bytes; the bulk-data list says {size:,}")


def _check_digest(path: Path, label: str, algo: str, want: str) -> None:
    digest = hashlib.new(algo)
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    if digest.hexdigest().lower() != want.strip().lower():
        raise UpdateError(f"{label} has {algo} {digest.hexdigest()}; the bulk-data list says {want}")


def _set_meta(db: Path, rows: dict[str, str]) -> None:
    con = sqlite3.connect(db)
    try:
        with con:
            for key, value in rows.items():
                con.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value.encode("utf-8")))
    finally:
        con.close()
