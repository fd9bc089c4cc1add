"""Approvals of decision records: a record a pull request adds or changes is written by the
PR's author, so it counts only once someone else approves the pull request on GitHub.

Who may approve: the record's owner (a user, or a member of the owner team ``@org/team``) or
a code owner of the record's path in CODEOWNERS, never the PR's author. Pure: the review layer
reads the reviews, team memberships, CODEOWNERS and whether the owners exist on GitHub, and
hands them over as a `RecordReview`; this module only judges.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.policy.decisions import DecisionRecord

#: Owners of one record that lockin looks up on GitHub: bounds the requests a hostile
#: record's owner list can cost.
MAX_OWNERS = 10
# A GitHub login (letters, digits, single hyphens, at most 39) and a team slug.
_LOGIN = r"[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}"
_OWNER = re.compile(rf"@?({_LOGIN})(?:/([A-Za-z0-9][\w.-]*))?")
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")


@dataclass(frozen=True)
class Owners:
    """An owner field (or a CODEOWNERS rule's owners) read as GitHub accounts."""

    users: tuple[str, ...] = ()  # logins, without "@"
    teams: tuple[str, ...] = ()  # "org/team-slug"
    invalid: tuple[str, ...] = ()  # what is neither, as written

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(f"@{name}" for name in (*self.users, *self.teams))


def parse_owners(text: str | tuple[str, ...] | None, *, emails: bool = False) -> Owners:
    """``"@alice, @org/kernels"`` as accounts. ``emails``: skip email addresses (CODEOWNERS
    allows them; no review names one) rather than call them invalid."""
    tokens = text if isinstance(text, tuple) else _tokens(text or "")
    users: dict[str, None] = {}
    teams: dict[str, None] = {}
    invalid: list[str] = []
    for token in (t.strip() for t in tokens):
        if not token or (emails and _EMAIL.fullmatch(token)):
            continue
        match = _OWNER.fullmatch(token)
        if match is None:
            invalid.append(token)
        elif match.group(2):
            teams.setdefault(f"{match.group(1)}/{match.group(2)}".lower(), None)
        else:
            users.setdefault(match.group(1), None)
    return Owners(tuple(users), tuple(teams), tuple(invalid))


def _tokens(text: str) -> list[str]:
    """Owners separated by commas, or by blanks when each is an @name: "Platform team" is
    one (invalid) owner, "@alice @bob" two."""
    tokens: list[str] = []
    for part in text.split(","):
        words = part.split()
        tokens.extend(words if all(w.startswith("@") for w in words) else [" ".join(words)])
    return tokens


@dataclass(frozen=True)
class Approver:
    """Someone whose latest review approves the pull request, with the record as it reads
    now; ``teams``: the owner teams ("org/slug", lower case) they are an active member of."""

    login: str
    teams: frozenset[str] = frozenset()


@dataclass(frozen=True)
class RecordReview:
    """What GitHub shows about one record the pull request adds or changes.

    ``visible`` is False where reviews cannot be seen (``lockin diff``, the pre-commit hook):
    the record is then reported as awaiting approval and never counts.
    """

    author: str | None  # the pull request's author
    approvers: tuple[Approver, ...] = ()
    code_owners: tuple[str, ...] = ()  # of the record's path, CODEOWNERS on the default branch
    unknown_owners: tuple[str, ...] = ()  # owners GitHub does not know ("@ghost", "@org/x")
    visible: bool = True


def approval(record: DecisionRecord, review: RecordReview) -> tuple[str | None, list[str]]:
    """Who approved the record (``"@bob"``, ``"@carol (@org/kernels)"``), or the problems
    that keep it from counting, each naming whose approval it awaits."""
    owners = parse_owners(record.owner)
    problems = [f"owner {name!r} is not a GitHub @user or @org/team" for name in owners.invalid]
    problems += [f"owner {name} does not exist on GitHub" for name in review.unknown_owners]
    unknown = {name.lower() for name in review.unknown_owners}
    users = [u for u in owners.users if f"@{u}".lower() not in unknown]
    teams = [t for t in owners.teams if f"@{t}".lower() not in unknown]
    coders = parse_owners(review.code_owners, emails=True)
    allowed_users = {u.lower() for u in (*users, *coders.users)}
    allowed_teams = {t.lower() for t in (*teams, *coders.teams)}
    author = (review.author or "").lower()
    if review.visible:
        for approver in review.approvers:
            if approver.login.lower() == author:
                continue  # GitHub refuses it too, but a record never approves itself
            if approver.login.lower() in allowed_users:
                return f"@{approver.login}", problems
            team = next((t for t in sorted(approver.teams) if t in allowed_teams), None)
            if team is not None:
                return f"@{approver.login} (@{team})", problems
    problems.append(_awaiting(record, review, users, teams, coders))
    return None, problems


def _awaiting(
    record: DecisionRecord,
    review: RecordReview,
    users: list[str],
    teams: list[str],
    coders: Owners,
) -> str:
    who = [f"@{u}" for u in users if u.lower() != (review.author or "").lower()]
    who += [f"a member of @{t}" for t in teams]
    path = record.path or record.ref
    others = [n for n in coders.names if n.lower() != f"@{review.author or ''}".lower()]
    if others:
        who.append(f"a code owner of {path} ({', '.join(others)})")
    if not who:
        author = (review.author or "").lower()
        alone = any(u.lower() == author for u in users)
        why = f" (its owner @{review.author} opened this pull request)" if alone else ""
        return (
            f"awaiting an approving review, and nobody but the pull request's author can give "
            f"one{why}: name an owner who exists, or a code owner of {path} in CODEOWNERS"
        )
    if review.visible:
        return (
            f"awaiting an approving review from {_either(who)} "
            "(this pull request adds or changes it)"
        )
    return (
        f"awaiting an approving review from {_either(who)} on its pull request (not on the "
        "base; reviews are seen by the lockin App and Action, not here)"
    )


def _either(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
