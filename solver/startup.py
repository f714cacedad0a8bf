"""The command line's process start: what every run compiled the same way, compiled once per machine.

Two compilers ran on every start of ``manasolver``, on the same inputs each time, for more than half
of a light query's time:

* creating a dataclass makes its ``__init__``, ``__repr__``, ``__eq__``, ``__hash__`` and, when
  frozen, ``__setattr__`` and ``__delattr__`` by writing their source and compiling it with
  ``exec``; some sixty dataclasses lie on the path of ``can-pay``;
* the oracle-text readers and the board loader compile a hundred regular expressions (the parser and
  code generator of :mod:`re` are written in Python).

:func:`install` puts a cache in front of both: :mod:`dataclasses` gets an ``exec`` that runs the
compiled code of a source text it has seen (a miss compiles it as ``exec`` would, with the same file
name ``<string>``), and :mod:`re`'s compiler gets the arguments its last step (``_sre.compile``) was
given for a pattern and flags it has seen (a miss runs the real compiler).  The code run and the
patterns made are the ones the compilers would make; only the compiling is skipped.  :func:`save`
writes what this run compiled when it ends.

The cache is one file, ``$XDG_CACHE_HOME/manasolver/startup-<tag>.marshal`` (else
``~/.cache/manasolver``; ``MANASOLVER_CACHE_DIR`` names another folder), keyed by the source text
and by the pattern and its flags, so an entry can never be stale: a changed class or pattern misses.
The tag is the interpreter's (``cpython-311``, as ``__pycache__`` names compiled modules), since
what is cached is read only by the version that wrote it.  A cache that can't be read is ignored and
one that can't be written is not written (``MANASOLVER_NO_CACHE=1`` turns it off): start-up is then
as slow as without it, never wrong.  A Python whose :mod:`re` or :mod:`dataclasses` is built
differently (no ``re._compiler``) is left alone.

Only the console script (:func:`manasolver.solver.cli.run`) installs it: a program that imports the
package is left as it is.
"""

from __future__ import annotations

import builtins
import marshal
import os
import sys
import threading
from types import CodeType
from typing import Any

__all__ = ["cache_path", "install", "installed", "save"]

#: Past this many entries in either table the cache is written anew with this run's entries only
#: (every command together uses about 700 sources and 350 patterns; entries of classes since changed
#: pile up until then, and every start reads the whole file).
_MAX_ENTRIES = 2_500

# Entries are kept marshalled, and read when asked for: a run reads the whole file but decodes only
# what it runs (a light query uses a third of what every command together has cached).
_code: dict[str, bytes] = {}  # source text -> its compiled code, marshalled
_patterns: dict[tuple[Any, int], bytes] = {}  # (pattern, flags) -> _sre.compile's arguments, marshalled
_used_code: dict[str, bytes] = {}
_used_patterns: dict[tuple[Any, int], bytes] = {}
_new = 0  # entries this run added
_installed = False
_local = threading.local()  # the pattern being compiled by this thread


def cache_path() -> str | None:
    """The cache file, or None when caching is turned off."""
    if os.environ.get("MANASOLVER_NO_CACHE"):
        return None
    tag = sys.implementation.cache_tag
    if not tag:
        return None
    folder = os.environ.get("MANASOLVER_CACHE_DIR")
    if not folder:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        folder = os.path.join(base, "manasolver")
    if not os.path.isabs(folder):
        return None  # no home to keep it in (an unexpanded "~"): nothing written where the process runs
    return os.path.join(folder, f"startup-{tag}.marshal")


def _read(path: str) -> None:
    try:
        with open(path, "rb") as fh:
            data = marshal.load(fh)
    except (OSError, EOFError, ValueError, TypeError):
        return
    if not isinstance(data, dict):
        return
    code, patterns = data.get("exec"), data.get("re")
    if isinstance(code, dict):
        _code.update((k, v) for k, v in code.items() if isinstance(k, str) and isinstance(v, bytes))
    if isinstance(patterns, dict):
        _patterns.update((k, v) for k, v in patterns.items() if isinstance(k, tuple) and isinstance(v, bytes))


def _load(data: bytes) -> Any:
    try:
        return marshal.loads(data)
    except (EOFError, ValueError, TypeError):
        return None


def _cached_exec(source: Any, globals: Any = None, locals: Any = None) -> None:
    """``exec`` for :mod:`dataclasses`: a source text runs its cached compiled code."""
    global _new
    if isinstance(source, str):
        data = _code.get(source)
        code = _load(data) if data is not None else None
        if data is None or not isinstance(code, CodeType):
            code = compile(source, "<string>", "exec")
            data = _code[source] = marshal.dumps(code)
            _new += 1
        _used_code[source] = data
        source = code
    builtins.exec(source, globals, locals)


class _Sre:
    """:mod:`re`'s ``_sre`` as its compiler sees it: ``compile`` notes its arguments for the
    pattern this thread is compiling; everything else is the real module's."""

    def __init__(self, real: Any) -> None:
        self._real = real

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)

    def compile(self, *args: Any) -> Any:
        key = getattr(_local, "key", None)
        if key is not None:
            _local.key = None
            _local.args = args
        return self._real.compile(*args)


def _cached_compile(real: Any, sre: Any) -> Any:
    def compile_pattern(p: Any, flags: int = 0) -> Any:
        """``re._compiler.compile``: a pattern and flags seen before skip the parse and code generation."""
        global _new
        if type(p) not in (str, bytes) or flags & 128:  # re.DEBUG prints as it compiles
            return real(p, flags)
        key = (p, flags)
        data = _patterns.get(key)
        args = _load(data) if data is not None else None
        if data is not None and isinstance(args, tuple) and len(args) == 6:
            _used_patterns[key] = data
            pattern, final, code, groups, groupindex, indexgroup = args
            return sre.compile(pattern, final, code, groups, groupindex, indexgroup)
        _local.key, _local.args = key, None
        try:
            out = real(p, flags)
        finally:
            got, _local.key, _local.args = _local.args, None, None
        if got is not None and len(got) == 6:
            # the compiler's opcodes are int subclasses (named constants): kept as the ints they are
            pattern, final, code, groups, groupindex, indexgroup = got
            try:
                _patterns[key] = _used_patterns[key] = marshal.dumps(
                    (pattern, int(final), [int(c) for c in code], int(groups),
                     {str(k): int(v) for k, v in groupindex.items()}, tuple(indexgroup)))
                _new += 1
            except ValueError:
                pass  # something marshal can't write: compiled every time, as without the cache
        return out
    return compile_pattern


def install() -> None:
    """Read the cache and put it in front of the two compilers (once per process; before the
    package's dataclasses and patterns are made, for them to gain)."""
    global _installed
    if _installed:
        return
    _installed = True
    path = cache_path()
    if path is None:
        return
    import dataclasses
    import re

    _read(path)
    dataclasses.exec = _cached_exec  # type: ignore[attr-defined]  # found before the builtin
    compiler = getattr(re, "_compiler", None)
    real_sre = getattr(compiler, "_sre", None)
    if compiler is not None and real_sre is not None and callable(getattr(compiler, "compile", None)):
        proxy = _Sre(real_sre)
        compiler._sre = proxy
        compiler.compile = _cached_compile(compiler.compile, real_sre)


def installed() -> bool:
    """Whether the cache is in front of the compilers in this process."""
    return getattr(sys.modules.get("dataclasses"), "exec", None) is _cached_exec


def save() -> None:
    """Write the cache when this run compiled something new (atomically: a temporary file renamed
    over the old one, so a concurrent start reads the old cache or the new one, never half)."""
    global _new
    path = cache_path()
    if not _new or path is None or not installed():
        return
    code = _code if len(_code) <= _MAX_ENTRIES else _used_code
    patterns = _patterns if len(_patterns) <= _MAX_ENTRIES else _used_patterns
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, "wb") as fh:
            marshal.dump({"exec": dict(code), "re": dict(patterns)}, fh)
        os.replace(tmp, path)
        _new = 0
    except (OSError, ValueError):
        try:
            os.unlink(tmp)
        except OSError:
            pass
