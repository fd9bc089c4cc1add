"""gitignore-style path patterns, shared by the policy's include/exclude and decision scopes."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from pathspec import GitIgnoreSpec


class PatternError(ValueError):
    """A pattern git itself would reject (a lone ``!``, a trailing backslash)."""

    def __init__(self, pattern: str, index: int) -> None:
        super().__init__(f"invalid gitignore-style pattern {pattern!r}")
        self.pattern = pattern
        self.index = index


@lru_cache(maxsize=512)
def _compile(patterns: tuple[str, ...]) -> GitIgnoreSpec:
    try:
        return GitIgnoreSpec.from_lines(patterns)
    except ValueError:
        for index, pattern in enumerate(patterns):
            try:
                GitIgnoreSpec.from_lines([pattern])
            except ValueError:
                raise PatternError(pattern, index) from None
        raise


def compile_patterns(patterns: Sequence[str]) -> GitIgnoreSpec:
    """Compile (and cache) a list of patterns; raises PatternError naming the bad one."""
    return _compile(tuple(patterns))


def repo_path(path: str) -> str:
    """A path as patterns see it: relative to the repository root, forward slashes."""
    return path.replace("\\", "/").removeprefix("./").lstrip("/")
