"""Which paths a census or a diff looks at: default exclusions plus user patterns.

One ``PathFilter`` serves the CLI (``--include``/``--exclude``), the policy file's
``paths.include``/``paths.exclude`` lists and the bot, so that a path counted by one is
counted by all. Patterns are gitignore-style (pathspec), matched against paths relative
to the repository root with ``/`` separators.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import re2
from pathspec import GitIgnoreSpec
from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern
from pathspec.util import normalize_file

#: The include/exclude patterns come from `.github/lockin.yml`: RE2 matches them in time
#: linear in the path, where Python's ``re`` backtracks exponentially on a pattern such as
#: ``*a*a*a*a*a*a*a*a*b`` against a long name.
PATTERN_BACKEND = "re2"


def matchable(path: str) -> str:
    """A path as RE2 can read it: a file name that is not valid UTF-8 comes in with its
    bytes as lone surrogates (``surrogateescape``), which RE2 cannot encode; each such byte
    is matched as U+FFFD, a character no pattern from a UTF-8 file names."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


#: Vendored and generated-by-tooling trees: someone else's code, not the team's lock-in.
DEFAULT_EXCLUDES: tuple[str, ...] = (
    "third_party/",
    # Spelled with a hyphen as often (GitHub linguist's vendor list matches both).
    "third-party/",
    "vendor/",
    "external/",
    "node_modules/",
    # A committed virtualenv or interpreter tree: installed packages, none of them the team's.
    "site-packages/",
    # Jupyter's installed notebook and lab extensions beside it (VENV/share/jupyter/...):
    # webpack bundles of pip packages' front ends, such as pydeck's deck.gl or plotly's, whose
    # WebGL shaders counted as the team's kernel code.
    "**/share/jupyter/nbextensions/",
    "**/share/jupyter/labextensions/",
    # Jupyter's autosaved copy of each notebook beside it: counted, every notebook twice.
    ".ipynb_checkpoints/",
    ".git/",
)

# `path = some/dir` inside a [submodule "..."] section of .gitmodules.
# The value runs to the end of the line and is stripped in code: a lazy group before
# `[ \t]*$` is quadratic in a run of blanks.
_SUBMODULE_PATH = re.compile(r"^[ \t]*path[ \t]*=(.+)$", re.MULTILINE)


def submodule_paths(gitmodules: str) -> list[str]:
    """The submodule paths declared in a ``.gitmodules`` file's text."""
    values = (m.group(1).strip(" \t") for m in _SUBMODULE_PATH.finditer(gitmodules))
    return [value.strip('"').strip("/") for value in values if value]


# A named group of a pathspec regex (its directory marker): renamed away when combining.
_NAMED_GROUP = re.compile(r"\(\?P<\w+>")


#: Patterns per RE2 set: pathspec's RE2 backend builds one set of a spec's patterns, and
#: RE2 refuses a set past its memory budget (a few thousand listed paths); at 2,048 listed
#: paths the combined search's DFA already runs out of memory and RE2 logs on every path.
_RUN = 1024


def _runs(patterns: Sequence[GitIgnoreSpecPattern]) -> list[GitIgnoreSpec]:
    """``patterns`` as consecutive specs RE2 can each build, in order: one for any ordinary
    .gitignore. Projet_long_3DGS_Rust_WebGPU's lists 4,333 build outputs one by one, past
    RE2's budget for one set, and the walk crashed; a run RE2 still refuses (long patterns)
    is halved. Every run stays on RE2, in time linear in the path, where Python's ``re``
    would not be."""
    if len(patterns) > _RUN:
        return [run for i in range(0, len(patterns), _RUN) for run in _runs(patterns[i : i + _RUN])]
    try:
        return [GitIgnoreSpec(patterns, backend=PATTERN_BACKEND)]
    except re2.error:
        if len(patterns) < 2:
            raise
        half = len(patterns) // 2
        return _runs(patterns[:half]) + _runs(patterns[half:])


def _search(spec: GitIgnoreSpec) -> Callable[[bytes], object]:
    """One search for any pattern of ``spec`` that includes or excludes."""
    sources = [
        _NAMED_GROUP.sub("(?:", p.regex.pattern)
        for p in spec.patterns
        if p.include is not None and p.regex is not None
    ]
    # RE2 has no `(?!)`; an empty character class matches nothing as well.
    nothing = r"[^\s\S]"
    combined = "|".join(f"(?:{s})" for s in sources) if sources else nothing
    # Compiled and searched as UTF-8 bytes, as RE2 reads text anyway: a str search also
    # maps RE2's byte offsets back to characters, a third of its cost, for a yes or no.
    return re2.compile(combined.encode()).search


class _Source:
    """A gitignore pattern's regex as pathspec's RE2 backend reads it: the source alone
    (``pattern``). pathspec compiles each pattern with Python's ``re`` first, about 30 us
    apiece (12 of the 18 ms the bench corpus's .gitignore files took to load), although RE2
    does all the matching; a direct ``match`` (no path of ours takes it) compiles in RE2."""

    __slots__ = ("_match", "pattern")

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self._match: Callable[[str], object] | None = None

    def match(self, text: str) -> object:
        if self._match is None:
            self._match = re2.compile(self.pattern).match
        return self._match(text)


def _pattern(line: str) -> GitIgnoreSpecPattern | None:
    """One .gitignore line as a pattern; None for a blank line, a comment or one git cannot
    read either. Git matches nothing with a malformed pattern (``cython_debug/\\``, a stray
    escape at the end, in CUDA_and_OpenMP's .gitignore) and goes on; pathspec raised, and
    the walk crashed."""
    if not line:
        return None
    try:
        source, include = GitIgnoreSpecPattern.pattern_to_regex(line)
    except ValueError:
        return None
    if include is None or source is None:
        return None
    # pathspec takes any object with a ``match`` as a compiled regex (its stubs say re's).
    pattern = GitIgnoreSpecPattern(_Source(source), include)  # type: ignore[type-var]
    pattern.pattern = line  # what a note names (``*.cuh``), as pathspec keeps it
    return pattern


class IgnoreSpec:
    """A gitignore pattern list that answers the common case, a path no pattern matches, with
    one combined search instead of pathspec's one search per pattern; any other path gets
    pathspec's own answer (last match wins, directory and negation rules)."""

    __slots__ = ("_any", "_folders", "patterns", "specs")

    def __init__(self, lines: Iterable[str]) -> None:
        # Parsed once (pathspec compiles each pattern), then grouped into RE2 sets.
        self.patterns = [p for p in map(_pattern, lines) if p is not None]
        self.specs = _runs(self.patterns)
        self._any = [_search(spec) for spec in self.specs]
        self._folders: list[tuple[GitIgnoreSpecPattern, Callable[[str], object]]] | None = None

    def _folder_searches(self) -> list[tuple[GitIgnoreSpecPattern, Callable[[str], object]]]:
        """Each including or excluding pattern with its RE2 search, compiled on the first
        folder a pattern matches: pathspec compiled each pattern with Python's ``re``, which
        backtracks on ``*a*a*a*a*b`` against a long folder name (1.2 s at 28 characters,
        doubling with each one more) where RE2 stays linear."""
        if self._folders is None:
            self._folders = [
                (p, re2.compile(p.regex.pattern).search)
                for p in self.patterns
                if p.include is not None and p.regex is not None
            ]
        return self._folders

    def check(self, path: str) -> bool | None:
        """True when the last pattern matching ``path`` ignores it, False when it re-includes
        it, None when no pattern matches."""
        path = matchable(normalize_file(path))
        encoded = path.encode()
        for search in self._any:
            if search(encoded) is not None:
                break
        else:
            return None
        for spec in reversed(self.specs):  # a later run of patterns overrides an earlier one
            include = spec.check_file(path).include
            if include is not None:
                return include
        return None

    def match_file(self, path: str) -> bool:
        return bool(self.check(path))

    def deciding(self, path: str) -> tuple[bool, str] | None:
        """(ignored, the pattern that says so) for the last pattern matching ``path``, None
        when no pattern matches: to tell a user which line of a .gitignore hid a file."""
        if self.check(path) is None:
            return None
        path = matchable(normalize_file(path))
        if path.endswith("/"):
            # A folder (the walk asks about each before entering it) is decided as git does,
            # by the last pattern naming it. pathspec ranks a pattern ending in `/` below one
            # that does not, right for the files inside but wrong for the folder itself:
            # `*` then `!*/` (ignore every file, keep walking folders, Arraymancer's
            # whitelist .gitignore) hid every folder, so nothing was counted.
            for pattern, search in reversed(self._folder_searches()):
                if search(path) is not None:
                    return bool(pattern.include), str(pattern.pattern)
            return None
        for spec in reversed(self.specs):
            result = spec.check_file(path)
            if result.index is not None:
                return bool(result.include), str(spec.patterns[result.index].pattern)
        return None


@dataclass(frozen=True, slots=True)
class PathFilter:
    """Decides whether a repository path is part of the analysis.

    A path is included when it matches no exclusion (defaults, submodules, user
    excludes) and, if include patterns are given, matches at least one of them.
    """

    exclude_spec: IgnoreSpec
    include_spec: IgnoreSpec | None
    # A "!pattern" can bring back a file under an excluded folder, so such a folder
    # cannot be skipped wholesale.
    reincludes: bool = False
    # Every exclusion names folders only (``vendor/``, a submodule) and no pattern includes:
    # a file is analysed exactly when no folder above it is pruned, so a walk that does not
    # enter pruned folders need not ask about each file.
    folders_decide: bool = False

    @classmethod
    def build(
        cls,
        include: Iterable[str] = (),
        exclude: Iterable[str] = (),
        *,
        submodules: Iterable[str] = (),
        defaults: bool = True,
    ) -> PathFilter:
        """Combine default exclusions, submodule paths and user patterns.

        ``include``/``exclude`` take the same pattern lists as the policy file, so a
        policy's lists can be passed straight through.
        """
        excluded = [*DEFAULT_EXCLUDES] if defaults else []
        # A submodule is a directory at a fixed place: anchor it so a same-named folder
        # elsewhere stays in.
        excluded += [f"/{path}/" for path in submodules if path]
        excluded += [p for p in exclude if p.strip()]
        includes = [p for p in include if p.strip()]
        reincludes = any(p.lstrip().startswith("!") for p in excluded)
        return cls(
            exclude_spec=IgnoreSpec(excluded),
            include_spec=IgnoreSpec(includes) if includes else None,
            reincludes=reincludes,
            folders_decide=not includes
            and not reincludes
            and all(p.endswith("/") for p in excluded),
        )

    def includes(self, path: str) -> bool:
        """True when the file at ``path`` is analysed."""
        path = path.removeprefix("./")
        if self.exclude_spec.match_file(path):
            return False
        return self.include_spec is None or self.include_spec.match_file(path)

    def prunes(self, directory: str) -> bool:
        """True when nothing under ``directory`` can be included (lets walks skip it)."""
        if self.reincludes:
            return directory.rstrip("/").rsplit("/", 1)[-1] == ".git"
        return bool(self.exclude_spec.match_file(directory.rstrip("/") + "/"))


#: The filter used when nothing is configured.
DEFAULT_FILTER = PathFilter.build()
