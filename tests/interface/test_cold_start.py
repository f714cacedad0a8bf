"""What a cold ``manasolver can-pay example:commander "{2}{G}"`` loads (SPEC §8, start-up ≤ 0.2 s).

Speed is not asserted (a wall clock in a test measures the machine); what the command imports and
builds is: a fresh interpreter runs the command line's ``main`` and reports which of the modules
that a light query must not need it has loaded, and how many subcommand parsers it built.  The
console script's compile cache (:mod:`manasolver.solver.startup`) is checked to change nothing: the
same answers with and without it, the same classes and patterns from cached code as from the
compilers, a broken cache file ignored and rewritten, none written when it is turned off.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

#: Modules a light query must not load: the optimiser and what it brings, the source graph, the
#: enumerator, and what only card files, help text or package resources need.
NOT_NEEDED = ("ortools", "pandas", "numpy", "networkx", "constraint", "shutil", "lzma", "bz2", "gzip",
              "importlib.resources", "importlib.metadata", "manasolver.models.card_import", "difflib",
              # a payable can_pay writes no payment, and a board without doublers or cost modifiers
              # reads none of their modules
              "manasolver.solver.payment", "manasolver.solver.payment_writer", "manasolver.solver.pools.doublers",
              "manasolver.models.text.cost_modifiers", "manasolver.models.text.keyword_costs")

_CHILD = textwrap.dedent("""
    import argparse, contextlib, io, json, sys
    built = []
    real = argparse.ArgumentParser.__init__
    def counting(self, *args, **kwargs):
        built.append(kwargs.get("prog") or (args[0] if args else None))
        real(self, *args, **kwargs)
    argparse.ArgumentParser.__init__ = counting
    from manasolver.solver.cli import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(sys.argv[1:4])
    loaded = sorted(m for m in sys.argv[4:] if m in sys.modules)
    print(json.dumps({"code": code, "out": out.getvalue(), "loaded": loaded, "parsers": len(built)}))
""")


def _cold(*args: str) -> dict[str, object]:
    proc = subprocess.run([sys.executable, "-c", _CHILD, *args, *NOT_NEEDED], capture_output=True, text=True,
                          timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert isinstance(result, dict)
    return result


def test_cold_can_pay_loads_only_what_it_needs() -> None:
    got = _cold("can-pay", "example:commander", "{2}{G}")
    assert got["code"] == 0 and got["out"] == "payable\n"
    assert got["loaded"] == [], f"a cold can-pay loaded {got['loaded']}"
    assert got["parsers"] == 2, "the top-level parser and can-pay's alone"


def test_cold_start_with_an_imported_database_loads_no_card_file_reader(tmp_path: object) -> None:
    """--cards DB (made by cards import) opens the database: the card-file readers stay unloaded."""
    from pathlib import Path

    from manasolver.models.card_import import import_card_file

    scryfall = Path(__file__).resolve().parents[1] / "data" / "scryfall" / "oracle-cards.json"
    db = import_card_file(scryfall, Path(str(tmp_path)) / "cards.sqlite").out
    got = _cold("mana-value", "Insectile Aberration", f"--cards={db}")
    assert got["code"] == 0 and got["out"].startswith("mana value 1"), got["out"]
    assert "manasolver.models.card_import" not in got["loaded"]
    assert [m for m in got["loaded"] if m.split(".")[0] in ("ortools", "pandas", "networkx")] == []


# -- the compile cache of the console script -----------------------------------------------------

def _script(args: list[str], cache: object, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m manasolver.solver.cli ARGS`` (the console script's :func:`run`) with its cache in ``cache``."""
    import os

    full = {**os.environ, "MANASOLVER_CACHE_DIR": str(cache), **env}
    full.pop("MANASOLVER_NO_CACHE", None) if "MANASOLVER_NO_CACHE" not in env else None
    return subprocess.run([sys.executable, "-m", "manasolver.solver.cli", *args], capture_output=True,
                          text=True, timeout=120, check=False, env=full)


def test_cached_start_answers_as_an_uncached_one(tmp_path: object) -> None:
    """The first run writes the cache; the second, reading it, answers byte for byte the same, and so
    does a run with the cache turned off (which writes none)."""
    from pathlib import Path

    cache = Path(str(tmp_path)) / "cache"
    args = ["pay", "example:commander", "{2}{G}{W/U}", "--json"]
    first = _script(args, cache)
    assert first.returncode == 0, first.stderr
    files = list(cache.glob("startup-*.marshal"))
    assert len(files) == 1 and files[0].stat().st_size > 0, files
    second = _script(args, cache)
    assert second.returncode == 0 and second.stdout == first.stdout, (second.stderr, second.stdout)
    off = Path(str(tmp_path)) / "off"
    plain = _script(args, off, MANASOLVER_NO_CACHE="1")
    assert plain.returncode == 0 and plain.stdout == first.stdout
    assert not off.exists(), "MANASOLVER_NO_CACHE=1 wrote a cache"
    assert json.loads(first.stdout)["payable"] is True


def test_a_broken_cache_file_is_ignored_and_rewritten(tmp_path: object) -> None:
    from pathlib import Path

    cache = Path(str(tmp_path))
    good = _script(["can-pay", "example:commander", "{2}{G}"], cache / "good")
    assert good.returncode == 0 and good.stdout == "payable\n", good.stderr
    (name,) = [p.name for p in (cache / "good").iterdir()]
    (cache / "bad").mkdir()
    (cache / "bad" / name).write_bytes(b"\x00not a marshal file" * 10)
    got = _script(["can-pay", "example:commander", "{2}{G}"], cache / "bad")
    assert got.returncode == 0 and got.stdout == "payable\n", got.stderr
    assert (cache / "bad" / name).stat().st_size > 1000, "the broken cache was not rewritten"


_SAME = textwrap.dedent("""
    import dataclasses, json, re, sys
    from manasolver.solver import startup
    startup.install()
    assert startup.installed()
    patterns = [(r"(?P<n>\\d+)|{(?P<sym>[WUBRGCXS/P0-9]+)}", 0), (r"^Add (\\{[WUBRG]\\})+\\.$", re.MULTILINE),
                (r"when(ever)? .* (dies|enters)", re.IGNORECASE), (rb"\\x00[a-z]{2,}", 0)]
    texts = ["{2}{W/U} and 17", "Add {G}{G}.\\nAdd {R}.", "Whenever a creature dies", b"\\x00abc"]
    def run():
        out = []
        for (p, f), t in zip(patterns, texts):
            c = re._compiler.compile(p, f)  # what re.compile calls once per pattern and flags
            m = c.search(t)
            out.append([c.pattern if isinstance(c.pattern, str) else c.pattern.decode(), c.flags, c.groups,
                        dict(c.groupindex),
                        None if m is None else [m.span(), m.group(0) if isinstance(m.group(0), str)
                                                else m.group(0).decode()]])
        @dataclasses.dataclass(frozen=True, slots=True, order=True)
        class Point:
            x: int
            y: int = 0
        a, b = Point(1, 2), Point(1, 3)
        try:
            a.x = 5
            frozen = False
        except dataclasses.FrozenInstanceError:
            frozen = True
        out.append([repr(a), a == Point(1, 2), a < b, hash(a) == hash(Point(1, 2)), frozen,
                    dataclasses.astuple(b), list(Point.__match_args__)])
        return out
    first = run()   # compiled: the cache notes it
    second = run()  # from the cache
    print(json.dumps({"first": first, "second": second, "new": startup._new}))
""")


def test_cached_code_makes_the_same_classes_and_patterns(tmp_path: object) -> None:
    """A dataclass made from cached code and a pattern made from cached compiler output behave as
    the ones the compilers make: the same repr, equality, order, hash, frozenness; the same pattern,
    flags, groups and matches."""
    import os

    env = {**os.environ, "MANASOLVER_CACHE_DIR": str(tmp_path)}
    env.pop("MANASOLVER_NO_CACHE", None)
    proc = subprocess.run([sys.executable, "-c", _SAME], capture_output=True, text=True, timeout=120,
                          check=False, env=env)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert got["new"] > 0, "nothing went through the cache"
    assert got["first"] == got["second"]
    assert got["first"][0][3] == {"n": 1, "sym": 2} and got["first"][0][4] == [[0, 3], "{2}"]
    assert got["first"][-1] == ["run.<locals>.Point(x=1, y=2)", True, True, True, True, [1, 3], ["x", "y"]]
