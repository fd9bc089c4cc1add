"""What names a repository and a pull request: one value each, split from ``full_name`` in
one place, passed instead of loose owner, name and number arguments."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass


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
