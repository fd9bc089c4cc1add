"""CODEOWNERS read with GitHub's semantics: gitignore-style patterns, the last match wins.

A line GitHub would reject (a pattern git cannot compile, a `!` negation or `[...]` range,
which CODEOWNERS does not support, an owner that is neither @user, @org/team nor an email)
is reported with its line number and skipped; the rest of the file still applies.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.policy.patterns import PatternError, compile_patterns, repo_path

#: Where GitHub looks, in the order it looks.
LOCATIONS = (".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS")
_OWNER = re.compile(r"^(?:@[\w.-]+(?:/[\w.-]+)?|[^@\s]+@[^@\s]+\.[^@\s]+)$")
# Bounded work on a hostile file: GitHub itself refuses CODEOWNERS over 3 MB.
MAX_BYTES = 3 * 1024 * 1024


@dataclass(frozen=True)
class Rule:
    line: int
    pattern: str
    owners: tuple[str, ...]


@dataclass(frozen=True)
class CodeOwners:
    source: str
    rules: tuple[Rule, ...]
    errors: tuple[str, ...]  # "CODEOWNERS:3: ..." one per rejected line

    def owners(self, path: str) -> tuple[str, ...]:
        """The owners of a path: the last matching rule's (none when it lists none)."""
        target = repo_path(path)
        for rule in reversed(self.rules):
            if compile_patterns((rule.pattern,)).match_file(target):
                return rule.owners
        return ()


def parse(text: str | bytes, source: str = "CODEOWNERS") -> CodeOwners:
    if isinstance(text, bytes):
        text = text[:MAX_BYTES].decode("utf-8", "replace")
    rules: list[Rule] = []
    errors: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _strip_comment(raw).strip()
        if not line:
            continue
        pattern, *owners = line.split()
        problem = _problem(pattern, owners)
        if problem:
            errors.append(f"{source}:{number}: {problem}")
            continue
        rules.append(Rule(number, pattern.replace("\\ ", " "), tuple(owners)))
    return CodeOwners(source, tuple(rules), tuple(errors))


def _strip_comment(line: str) -> str:
    # A '#' starts a comment unless escaped; owners never hold one.
    return re.sub(r"(?<!\\)#.*$", "", line)


def _problem(pattern: str, owners: list[str]) -> str | None:
    if pattern.startswith("!"):
        return f"negated pattern {pattern!r}: CODEOWNERS does not support '!'"
    if re.search(r"(?<!\\)\[", pattern):
        return f"pattern {pattern!r}: CODEOWNERS does not support [ ] ranges"
    try:
        compile_patterns((pattern,))
    except PatternError as e:
        return str(e)
    bad = next((owner for owner in owners if not _OWNER.match(owner)), None)
    if bad is not None:
        return f"{bad!r} is not an owner (@user, @org/team or an email)"
    return None
