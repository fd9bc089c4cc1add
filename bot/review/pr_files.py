"""The files a pull request changes, as GitHub lists them (all pages, at most 3,000)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.github.client import GitHub
    from bot.github.refs import PullRef

#: GitHub lists at most this many files for a PR, whatever the pagination.
MAX_PR_FILES = 3000


@dataclass(frozen=True, slots=True)
class PRFile:
    filename: str
    status: str  # added | removed | modified | renamed | copied | changed | unchanged
    sha: str | None  # blob SHA at the head (at the base for removed files)
    additions: int
    deletions: int
    patch: str | None  # absent for binary files and for diffs GitHub found too large
    previous_filename: str | None = None

    @classmethod
    def from_api(cls, item: dict[str, Any]) -> PRFile:
        return cls(
            filename=item["filename"],
            status=item["status"],
            sha=item.get("sha") or None,
            additions=item.get("additions", 0),
            deletions=item.get("deletions", 0),
            patch=item.get("patch"),
            previous_filename=item.get("previous_filename"),
        )

    @property
    def looks_binary(self) -> bool:
        """GitHub's way of listing a binary file: no patch and no counted line. Not so for a
        pure rename or copy, nor a mode-only change (``changed``, e.g. chmod +x), which are
        listed the same way."""
        if self.status in ("renamed", "copied", "changed", "unchanged"):
            return False
        return self.patch is None and self.additions + self.deletions == 0


async def list_pr_files(gh: GitHub, pull: PullRef) -> list[PRFile]:
    """Every page of ``pulls/{number}/files`` (100 a page), stopping at GitHub's cap."""
    files: list[PRFile] = []
    url = f"/repos/{pull.repo.full_name}/pulls/{pull.number}/files"
    async for item in gh.getiter(url):
        files.append(PRFile.from_api(item))
        if len(files) >= MAX_PR_FILES:
            break
    return files
