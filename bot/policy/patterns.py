"""gitignore-style path patterns, shared by the policy's include/exclude and decision scopes.

Patterns come from repositories (`.github/lockin.yml`, decision records a pull request may
add), so they are hostile input: Python's backtracking `re`, which pathspec uses by default,
takes exponential time on a scope like `*a*a*a*a*a*a*a*a*a*b` against a long name. They are
compiled for RE2 instead (pathspec's `re2` backend), which matches in time linear in the
path, and their number and length are capped.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from pathspec import GitIgnoreSpec

#: Patterns in one list (a scope, include or exclude); git's own files rarely hold 100.
MAX_PATTERNS = 500
#: Characters in one pattern: longer than any path a repository holds in practice.
MAX_PATTERN_LENGTH = 1024


class PatternError(ValueError):
    """A pattern git itself would reject (a lone ``!``, a trailing backslash), or past the
    limits on count and length."""

    def __init__(self, pattern: str, index: int, reason: str | None = None) -> None:
        shown = pattern if len(pattern) <= 80 else pattern[:77] + "..."
        super().__init__(reason or f"invalid gitignore-style pattern {shown!r}")
        self.pattern = pattern
        self.index = index


@lru_cache(maxsize=512)
def _compile(patterns: tuple[str, ...]) -> GitIgnoreSpec:
    if len(patterns) > MAX_PATTERNS:
        raise PatternError(
            patterns[MAX_PATTERNS],
            MAX_PATTERNS,
            f"too many patterns ({len(patterns)}; at most {MAX_PATTERNS})",
        )
    for index, pattern in enumerate(patterns):
        if len(pattern) > MAX_PATTERN_LENGTH:
            raise PatternError(
                pattern,
                index,
                f"pattern too long ({len(pattern)} characters; at most {MAX_PATTERN_LENGTH})",
            )
    try:
        return GitIgnoreSpec.from_lines(patterns, backend="re2")
    except ValueError:
        for index, pattern in enumerate(patterns):
            try:
                GitIgnoreSpec.from_lines([pattern], backend="re2")
            except ValueError:
                raise PatternError(pattern, index) from None
        raise


def compile_patterns(patterns: Sequence[str]) -> GitIgnoreSpec:
    """Compile (and cache) a list of patterns; raises PatternError naming the bad one."""
    return _compile(tuple(patterns))


def repo_path(path: str) -> str:
    """A path as patterns see it: relative to the repository root, forward slashes."""
    return path.replace("\\", "/").removeprefix("./").lstrip("/")
