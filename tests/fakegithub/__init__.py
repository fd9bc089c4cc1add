"""A fake GitHub REST API on loopback for the bot's server and feature tests.

    async with FakeGitHub() as github:            # or the `fake_github` fixture
        repo = github.add_repo("acme/ml", files={"kernels/add.cu": "__global__ ..."})
        repo.commit({"kernels/mul.cu": "..."}, branch="feature")
        pr = repo.open_pr(head_branch="feature", body="Compute-API-Decision: #3")
        ...                                        # drive the bot with GITHUB_API_URL=github.url
        assert github.contract_errors == []       # every request matched GitHub's contract
        assert repo.check_runs[...].conclusion == "failure"

Routes, parameters and bodies come from tests/contract/rest-api.subset.json (validated with
openapi-core); state is real git data (blob, tree and commit SHAs as git computes them);
`fail()` injects 5xx, timeouts and rate limits; `requests` records every call.
"""

from .server import FakeGitHub, Recorded
from .state import CheckRun, Comment, Issue, PullRequest, Reaction, Repo, Review, Team

__all__ = [
    "CheckRun",
    "Comment",
    "FakeGitHub",
    "Issue",
    "PullRequest",
    "Reaction",
    "Recorded",
    "Repo",
    "Review",
    "Team",
]
