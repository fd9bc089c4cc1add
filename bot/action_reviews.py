"""The Action's view of approvals: the reviews of the pull request (or of a merge group's
pull requests), read from GitHub with the job's token, for the records the change adds.

The same judgement as the App's (bot.review.approvals_io, bot.policy.approvals); file texts
come from the checkout, where the head and the base are, rather than from the API. Without a
token the Action cannot see reviews and such a record awaits approval, as in ``lockin diff``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Coroutine, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import aiohttp

from bot.cli.diff import Reviewer
from bot.github.auth import token_client
from bot.github.client import GitHub
from bot.github.errors import GitHubError
from bot.github.payloads import PullRequest
from bot.github.refs import RepoRef
from bot.policy.gate import LinkedDecision
from bot.review.approvals_io import with_reviews
from bot.sources import SourceError
from bot.sources.git import GitRepo

T = TypeVar("T")

#: Seconds one request to GitHub may take before it is retried.
REQUEST_TIMEOUT = 30.0


class ReviewsError(Exception):
    """GitHub could not tell the reviews; the message is one line."""


@dataclass(frozen=True)
class Reviews:
    """Where the Action reads reviews: the job's token, its repository and pull requests."""

    token: str
    api_url: str
    repo: RepoRef
    checkout: GitRepo
    head_sha: str
    base_sha: str

    def descriptions(self, numbers: Sequence[int]) -> list[str]:
        """The descriptions of these pull requests (a merge group's links are there)."""
        return self._run(self._descriptions(numbers))

    async def _descriptions(self, numbers: Sequence[int]) -> list[str]:
        async with self._client() as gh:
            return [(await self._pull(gh, n)).body for n in numbers]

    def reviewer(self, numbers: Sequence[int]) -> Reviewer:
        def review(linked: list[LinkedDecision]) -> list[LinkedDecision]:
            return self._run(self._reviewed(linked, numbers))

        return review

    def _run(self, work: Coroutine[Any, Any, T]) -> T:
        try:
            return asyncio.run(work)
        except GitHubError as exc:
            raise ReviewsError(f"could not read the reviews from GitHub: {exc}") from None

    @asynccontextmanager
    async def _client(self) -> AsyncIterator[GitHub]:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None)) as session:
            yield token_client(
                self.token, api_url=self.api_url, session=session, request_timeout=REQUEST_TIMEOUT
            )

    async def _reviewed(
        self, linked: list[LinkedDecision], numbers: Sequence[int]
    ) -> list[LinkedDecision]:
        async with self._client() as gh:
            prs = [await self._pull(gh, n) for n in numbers]
            return await with_reviews(
                gh,
                linked,
                repo=self.repo,
                prs=prs,
                head_sha=self.head_sha,
                default_branch=self.base_sha,
                read_at_head=True,
                read=self._read,
            )

    async def _pull(self, gh: GitHub, number: int) -> PullRequest:
        return PullRequest.from_payload(
            await gh.getitem(f"/repos/{self.repo.full_name}/pulls/{number}")
        )

    async def _read(self, path: str, ref: str) -> bytes | None:
        """A file at a commit of the checkout; None where the commit is not in it (a review
        of a commit a shallow checkout lacks approves nothing it cannot compare)."""
        try:
            return await asyncio.to_thread(self.checkout.read_file, ref, path)
        except SourceError:
            return None
