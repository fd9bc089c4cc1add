"""What names a repository and a pull request: one value each, split from ``full_name`` in
one place, passed instead of loose owner, name and number arguments."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

#: Pull requests of one merge group whose links and reviews are read.
MAX_GROUP_PRS = 20
# gh-readonly-queue/<base>/pr-<number>-<sha>: the last pull request a merge group adds.
_QUEUE_REF = re.compile(r"/pr-(\d+)-[0-9a-f]+$")
# The subjects a merge queue writes: "Title (#12)" (squash) and "Merge pull request #12 ...".
_SUBJECT = re.compile(r"\(#(\d+)\)\s*$|^Merge pull request #(\d+)\b")


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


def merge_group_pulls(head_ref: str, messages: Iterable[str]) -> list[int]:
    """The pull requests a merge group merges, in queue order: those its commits' subjects
    name, and the one its ``gh-readonly-queue/<base>/pr-<n>-<sha>`` ref names, last."""
    found: dict[int, None] = {}
    for message in messages:
        if match := _SUBJECT.search(message.partition("\n")[0]):
            found.setdefault(int(match.group(1) or match.group(2)), None)
    if match := _QUEUE_REF.search(head_ref):
        found.pop(int(match.group(1)), None)
        found[int(match.group(1))] = None
    return list(found)[-MAX_GROUP_PRS:]
