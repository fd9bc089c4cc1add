"""What a webhook names, read once: the repository, the pull request, who sent it.

Handlers take these values from the event and pass them on, rather than loose owner, name
and number arguments that each caller splits out of ``full_name`` its own way.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from gidgethub import sansio


@dataclass(frozen=True, slots=True)
class RepoRef:
    owner: str
    name: str

    @classmethod
    def parse(cls, full_name: str) -> RepoRef:
        """``owner/name`` as GitHub writes it in payloads."""
        owner, sep, name = full_name.partition("/")
        if not (owner and sep and name):
            raise ValueError(f"not an owner/name repository name: {full_name!r}")
        return cls(owner, name)

    @property
    def full_name(self) -> str:
        return f"{self.owner}/{self.name}"

    def __iter__(self) -> Iterator[str]:
        """``owner, name = ref`` for the calls that still take them apart."""
        return iter((self.owner, self.name))


@dataclass(frozen=True, slots=True)
class PullRef:
    repo: RepoRef
    number: int

    def __str__(self) -> str:
        return f"{self.repo.full_name}#{self.number}"


def repo_of(event: sansio.Event) -> RepoRef:
    """The repository the event happened in."""
    return RepoRef.parse(event.data["repository"]["full_name"])


def repos_listed(repositories: list[dict[str, Any]]) -> list[RepoRef]:
    """The repositories an installation event lists (added, removed, installed on)."""
    return [RepoRef.parse(repository["full_name"]) for repository in repositories]


def sender_is_bot(event: sansio.Event) -> bool:
    """Whether a bot account sent the event (GitHub marks Apps' users ``Bot`` and their
    logins end in ``[bot]``)."""
    sender = event.data.get("sender") or {}
    return sender.get("type") == "Bot" or (sender.get("login") or "").endswith("[bot]")
