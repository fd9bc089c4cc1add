"""What a webhook names, read once: the repository, the pull request, who sent it.

Handlers take these values from the event and pass them on, rather than loose owner, name
and number arguments that each caller splits out of ``full_name`` its own way.
"""

from __future__ import annotations

from gidgethub import sansio

from bot.github.refs import PullRef, RepoRef


def repo_of(event: sansio.Event) -> RepoRef:
    """The repository the event happened in."""
    return RepoRef.parse(event.data["repository"]["full_name"])


def sender_is_bot(event: sansio.Event) -> bool:
    """Whether a bot account sent the event (GitHub marks Apps' users ``Bot`` and their
    logins end in ``[bot]``)."""
    sender = event.data.get("sender") or {}
    return sender.get("type") == "Bot" or (sender.get("login") or "").endswith("[bot]")


__all__ = ["PullRef", "RepoRef", "repo_of", "sender_is_bot"]
