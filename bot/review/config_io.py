"""The repository's policy: `.github/lockin.yml` from the default branch, never from the PR.

Probot's convention: the repository's own file, else the same path in the owner's `.github`
repository, else the defaults. The client's conditional requests make the repeated read
free of quota. An invalid file is returned as an error, never replaced by the defaults: the
check reports it as a failure instead of silently loosening the team's gate.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.github.contents import file_contents
from bot.github.refs import RepoRef
from bot.policy.baseline import BASELINE_PATH, Baseline, load_baseline
from bot.policy.config import DEFAULT_POLICY, Policy, PolicyError, load_policy

if TYPE_CHECKING:
    from bot.github.client import GitHub

CONFIG_PATH = ".github/lockin.yml"
#: The owner-wide fallback repository, as Probot apps use it.
ORG_CONFIG_REPO = ".github"


@dataclass(frozen=True, slots=True)
class RepoConfig:
    policy: Policy
    source: str  # where it came from, for the output: "octo/repo:.github/lockin.yml@main"
    error: PolicyError | None = None


async def load_repo_config(gh: GitHub, repo: RepoRef, default_branch: str) -> RepoConfig:
    places: list[tuple[RepoRef, str | None]] = [(repo, default_branch)]
    if repo.name.lower() != ORG_CONFIG_REPO:
        places.append((RepoRef(repo.owner, ORG_CONFIG_REPO), None))  # its own default branch
    for where, ref in places:
        text = await file_contents(gh, where, CONFIG_PATH, ref)
        if text is None:
            continue
        source = f"{where.full_name}:{CONFIG_PATH}" + (f"@{ref}" if ref else "")
        try:
            return RepoConfig(load_policy(text, source), source)
        except PolicyError as error:
            return RepoConfig(DEFAULT_POLICY, source, error)
    return RepoConfig(DEFAULT_POLICY, "defaults (no .github/lockin.yml)")


async def load_repo_baseline(
    gh: GitHub, repo: RepoRef, default_branch: str, policy: Policy
) -> Baseline | None:
    """The repository's own baseline on its default branch (never the PR's, never the
    owner's): None when it has none. Raises PolicyError when it is invalid, which the check
    reports like an invalid configuration rather than gate without it."""
    data = await file_contents(gh, repo, BASELINE_PATH, default_branch)
    if data is None:
        return None
    return load_baseline(data, policy, f"{repo.full_name}:{BASELINE_PATH}@{default_branch}")
