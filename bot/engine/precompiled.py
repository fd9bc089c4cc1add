"""The rule registry's start-up work, kept on disk: parsed data files and compiled regexes.

Every ``lockin`` command, the pre-commit hook and each server process load the registry
before any work: parsing a few hundred kilobytes of YAML, checking it against the schema
and compiling a few hundred regexes cost about a tenth of a second each time, a third of a
small scan. This file keeps both results in one ``marshal`` file (plain data: loading it
runs no code, unlike a pickle) under ``LOCKIN_CACHE_DIR`` (default
``$XDG_CACHE_HOME/lockin``, else ``~/.cache/lockin``; empty: no cache).

Nothing in it can be stale:

- the parsed documents sit under a SHA-256 of the rule files' bytes, the schema's bytes,
  Python's version and a stamp of the installed PyYAML and fastjsonschema (the file naming
  each one's version: path, size, modification time): any edit or other installation is
  another key, so another file, and the documents are parsed and checked again;
- a regex is stored under its own pattern text and flags, as the compiled program CPython's
  ``re`` builds from them (``re._parser`` and ``re._compiler``, the steps ``re.compile``
  runs), and only after rebuilding it gave a pattern equal to ``re.compile``'s (CPython
  compares the programs themselves). The file name holds Python's version and ``_sre``'s
  magic number, the program format;
- what the engine's own code derives from the documents (``derived``: the rule registry's
  rewritten patterns and what each pattern's matches need) sits under the same key, which
  then also covers that code's source (the caller passes it among the inputs).

A missing, unreadable, truncated or foreign file is a miss: everything is computed as
without a cache, and written again; a cached program ``_sre`` refuses is compiled again. The
file decides which rules run, so ``LOCKIN_CACHE_DIR`` must be a folder only its users can
write, like the installation itself. Writing goes to a temporary file renamed into place, so
concurrent processes each see a whole file or none; a read-only or missing home folder
means no cache, silently.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import marshal
import os
import re
import sys
import time
from array import array
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, AnyStr, overload

# CPython's regex engine and the two steps of re.compile before it, private modules without
# type stubs (hence Any); elsewhere regexes are compiled as usual and none is cached.
_sre: Any
try:
    _sre = importlib.import_module("_sre")
    _compiler: Any = importlib.import_module("re._compiler")
    _parser: Any = importlib.import_module("re._parser")
except ImportError:  # pragma: no cover - not CPython
    _sre = None

#: The engine's data files (rules, languages, ecosystems), read beside its modules as the
#: cache keys read the modules' own source (``module_sources``): importlib.resources, with
#: the tempfile, shutil and zipfile it loads, was 4 ms of every start-up.
DATA = Path(__file__).with_name("data")

#: Bump when the layout of the cached file changes.
FORMAT = 3
#: Cache files of other keys kept beside the current one (other checkouts, other versions).
KEEP = 4
#: A compiled program's code words as ``_sre.compile`` takes them (a list of ints) is kept
#: as the bytes of an ``array`` of them: marshal reads a string of bytes at once, where the
#: registry's half a million words, one object each, were 8 of its 12 ms to load; making
#: the list of each regex as it is built costs about 3. The words' size and byte order are
#: part of the key (``_CODE``).
_CODE = "I"
_Program = tuple[int, bytes, int, dict[str, int], tuple[str | None, ...]]
_Key = tuple[str | bytes, int]


def cache_dir() -> Path | None:
    """Where the cache lives: ``LOCKIN_CACHE_DIR``, an empty value meaning none."""
    configured = os.environ.get("LOCKIN_CACHE_DIR")
    if configured is not None:
        return Path(configured) if configured else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "lockin"


def _program(pattern: str | bytes, flags: int) -> _Program | None:
    """What ``_sre.compile`` takes to build ``re.compile(pattern, flags)``, if it agrees."""
    if _sre is None:
        return None
    try:
        tree = _parser.parse(pattern, flags)
        code = [int(word) for word in _compiler._code(tree, flags)]
        groupindex = dict(tree.state.groupdict)
        indexgroup: list[str | None] = [None] * tree.state.groups
        for name, index in groupindex.items():
            indexgroup[index] = name
        program = (int(flags | tree.state.flags), code, tree.state.groups - 1, groupindex)
        built = _sre.compile(pattern, *program, tuple(indexgroup))
    except Exception:  # a private API changed: compile as usual, cache nothing
        return None
    if built != re.compile(pattern, flags) or array(_CODE).itemsize != _sre.CODESIZE:
        return None
    flags, _, groups, groupindex = program
    return flags, array(_CODE, code).tobytes(), groups, groupindex, tuple(indexgroup)


#: The files that name the installed PyYAML's and fastjsonschema's versions: what parses
#: and checks the documents is part of their key.
_PARSERS = (("yaml", "__init__.py"), ("fastjsonschema", "version.py"))


def _stamp(package: str, file: str) -> tuple[str, int, int] | None:
    """A file of an installed package, with its size and modification time: another version
    (or another installation) of the package is another stamp. Unlike its ``__version__``
    the stamp needs no import: PyYAML and fastjsonschema were about 20 ms of every start-up,
    where a warm cache parses and checks nothing."""
    spec = importlib.util.find_spec(package)
    folders = spec.submodule_search_locations if spec is not None else None
    if not folders:
        return None
    path = os.path.join(folders[0], file)
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return path, stat.st_size, stat.st_mtime_ns


def module_sources(*modules: ModuleType) -> list[tuple[str, bytes]]:
    """Each module's name and source, as inputs of a store that keeps what the modules'
    code derives: another version of that code is another key."""
    return [(m.__name__, Path(m.__file__).read_bytes()) for m in modules if m.__file__]


def load_yaml(text: str) -> Any:
    """A YAML document of the engine's own data (rules, languages, ecosystems), read with
    libyaml's safe loader where it is built in."""
    import yaml  # late: a warm cache (above) parses no YAML, and the import costs 15 ms

    return yaml.load(text, getattr(yaml, "CSafeLoader", yaml.SafeLoader))


class Precompiled:
    """One registry load's cache: documents by content, regexes by pattern."""

    def __init__(
        self, directory: Path | None, inputs: Sequence[tuple[str, bytes]], name: str = "registry"
    ) -> None:
        """``inputs``: (name, bytes) of every file the documents come from; ``name`` the
        cached file's prefix (the rule registry, the language table)."""
        digest = hashlib.sha256()
        versions = (
            FORMAT,
            sys.version,
            sys.byteorder,
            *(_stamp(*where) for where in _PARSERS),
        )
        digest.update(repr(versions).encode())
        for file_name, data in inputs:
            digest.update(f"\0{file_name}\0{len(data)}\0".encode())
            digest.update(data)
        self.key = digest.hexdigest()
        self.path: Path | None = None
        if directory is not None and _sre is not None:
            tag = f"{sys.implementation.cache_tag}-{_sre.MAGIC}"
            self.path = directory / f"{name}-{tag}-{self.key[:32]}.marshal"
        self._name = name
        self._documents: list[Any] | None = None
        self._programs: dict[_Key, _Program] = {}
        self._used: set[_Key] = set()
        self._derived: dict[str, Any] = {}
        self._dirty = False
        self.hit = self._load()

    def _load(self) -> bool:
        if self.path is None:
            return False
        try:
            with open(self.path, "rb") as f:
                stored = marshal.loads(f.read())  # load(f) reads in small pieces: 10x slower
            if not (isinstance(stored, dict) and stored.get("key") == self.key):
                return False
            documents, programs = stored["documents"], stored["programs"]
            derived = stored["derived"]
        except (OSError, EOFError, ValueError, TypeError, KeyError):
            return False  # absent, unreadable, truncated or foreign: computed again
        self._documents = documents
        self._programs = programs
        self._derived = derived
        return True

    def documents(self, parse: Callable[[], list[Any]]) -> list[Any]:
        """The rule files' documents: cached, or ``parse()`` (which checks them)."""
        if self._documents is None:
            self._documents = parse()
            self._dirty = True
        return self._documents

    @property
    def writable(self) -> bool:
        """Whether what this load computes can be kept for the next: there is a cache file,
        in a folder this process may write or create."""
        if self.path is None:
            return False
        folder = self.path.parent
        while not folder.exists() and folder != folder.parent:
            folder = folder.parent
        return folder.is_dir() and os.access(folder, os.W_OK)

    def derived(self, name: str) -> Any | None:
        """The data kept under ``name`` by ``keep`` (None: not kept, compute it)."""
        return self._derived.get(name)

    def keep(self, name: str, value: Any) -> None:
        """Keep ``value`` (plain data: marshal's types) under ``name`` for the next load."""
        if self._derived.get(name) != value:
            self._derived[name] = value
            self._dirty = True

    def regex(self, pattern: AnyStr, flags: int) -> re.Pattern[AnyStr]:
        """``re.compile(pattern, flags)``, from its cached program where there is one."""
        flags = int(flags)  # a RegexFlag is no plain int to marshal
        self._used.add((pattern, flags))
        program = self._programs.get((pattern, flags))
        if program is not None and _sre is not None:
            try:
                flags_, code, groups, groupindex, indexgroup = program
                cached: re.Pattern[AnyStr] = _sre.compile(
                    pattern, flags_, array(_CODE, code).tolist(), groups, groupindex, indexgroup
                )
                return cached
            except (RuntimeError, TypeError, ValueError, OverflowError):
                pass  # _sre checks a program before running it: one it refuses is compiled again
        compiled = re.compile(pattern, flags)
        if self.path is not None and (program := _program(pattern, flags)) is not None:
            self._programs[(pattern, flags)] = program
            self._dirty = True
        return compiled

    def save(self) -> None:
        """Write what this load computed, if anything; never fails the load."""
        if self.path is None or not self._dirty:
            return
        stored = {
            "key": self.key,
            "documents": self._documents or [],
            # Only the programs this load asked for: a pattern since edited away is not
            # kept, so a store whose key holds no source (``fixed``) does not grow.
            "programs": {k: v for k, v in self._programs.items() if k in self._used},
            "derived": self._derived,
        }
        try:
            data = marshal.dumps(stored)
        except ValueError:  # a document holding something marshal cannot keep: no cache
            return
        import tempfile  # late: only a miss writes (tempfile and shutil: 2.5 ms of start-up)

        directory = self.path.parent
        try:
            directory.mkdir(parents=True, exist_ok=True)
            fd, temporary = tempfile.mkstemp(prefix=f".{self._name}-", dir=directory)
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
                    os.fchmod(f.fileno(), 0o644)  # mkstemp's 0600 would hide it from others
                os.replace(temporary, self.path)
            except BaseException:
                os.unlink(temporary)
                raise
        except OSError:
            return  # read-only home, full disk...: the next load computes again
        self._dirty = False
        _prune(directory, self.path, self._name)


def _prune(directory: Path, current: Path, name: str) -> None:
    """Remove all but the newest KEEP cache files beside ``current``, and temporary files
    a killed process left (any older than an hour: a write takes milliseconds)."""
    try:
        others = [p for p in directory.glob(f"{name}-*.marshal") if p != current]
        others.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        for stale in others[KEEP:]:
            stale.unlink()
        for left in directory.glob(f".{name}-*"):
            if left.stat().st_mtime < time.time() - 3600:
                left.unlink()
    except OSError:
        return  # another process pruned first, or the folder went away


#: The regexes written in the engine's own modules (tokens, regions, statements: about a
#: hundred, 11 ms of every start-up to compile), kept like the rules' by pattern text, so
#: nothing in it can be stale whatever the code's version; written once the engine's
#: modules are all loaded (bot/engine/__init__.py).
_FIXED = Precompiled(cache_dir(), [], name="fixed")


@overload
def fixed_regex(pattern: str, flags: int = 0) -> re.Pattern[str]: ...
@overload
def fixed_regex(pattern: bytes, flags: int = 0) -> re.Pattern[bytes]: ...
def fixed_regex(pattern: str | bytes, flags: int = 0) -> re.Pattern[Any]:
    """``re.compile(pattern, flags)`` for a regex of the engine's code, compiled at import."""
    return _FIXED.regex(pattern, flags)


def keep_fixed() -> None:
    """Write what ``fixed_regex`` compiled for the next process, if anything."""
    _FIXED.save()
