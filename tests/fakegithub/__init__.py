"""A fake GitHub REST API on loopback for the bot's server and feature tests."""

from .server import FakeGitHub, Recorded
from .state import CheckRun, Comment, Issue, PullRequest, Reaction, Repo

__all__ = [
    "CheckRun",
    "Comment",
    "FakeGitHub",
    "Issue",
    "PullRequest",
    "Reaction",
    "Recorded",
    "Repo",
]
