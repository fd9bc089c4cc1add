"""What to do when the gate wants a compute-API decision, said the same way on every surface:
``lockin diff`` (text and Markdown), the Action's job summary, the pre-commit hook and the
App's comment. Two ways out: write the drafted record (a command puts it on disk, pre-filled,
``status: proposed``) and let the change see it, or link a record that already exists.

Built from the gate's Verdict: whatever the gate counts as needing a decision, the fix names.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass
from typing import Literal

from bot.policy.decisions import link_line
from bot.policy.gate import Verdict

#: How the change gets to see a record: staged with it (the pre-commit hook reads the index),
#: linked by a ``Compute-API-Decision:`` line (a pull request, a commit range), or only once
#: it is on the default branch (``decisions.require_default_branch``).
Via = Literal["staged", "link", "default-branch"]
#: Set by pre-commit in every hook's environment: lockin is then installed in pre-commit's
#: own environment, not on the user's PATH, so the command goes through pre-commit.
PRE_COMMIT_ENV = "PRE_COMMIT"
#: The manual-stage hook of .pre-commit-hooks.yaml that writes the drafted record.
RECORD_HOOK = "pre-commit run lockin-record --hook-stage manual"


@dataclass(frozen=True)
class Fix:
    record: str  # repository path the drafted record is written to
    files: int  # files no decision covers
    command: str  # a shell command that writes the drafted record there
    via: Via
    accepted_only: bool  # the policy counts accepted records only, not proposed ones


def fix_of(
    verdict: Verdict,
    record: str,
    *,
    command: str,
    via: Via,
    accepted_only: bool,
) -> Fix | None:
    """The fix for a verdict; ``None`` when every file it gates is covered."""
    if not verdict.uncovered:
        return None
    return Fix(record, len(verdict.uncovered), command, via, accepted_only)


def write_command(argv: list[str], record: str, *, environ: dict[str, str] | None = None) -> str:
    """The command that writes the drafted record: ``lockin`` with ``argv`` (the arguments
    that reproduce this verdict) and ``--write-record``; under pre-commit, its manual hook."""
    env = os.environ if environ is None else environ
    if env.get(PRE_COMMIT_ENV) and "--staged" in argv:
        return RECORD_HOOK
    return shlex.join(["lockin", *argv, "--write-record", record])


def _steps(fix: Fix) -> list[tuple[str, str]]:
    """Numbered steps: (sentence, the command or line it ends with, or "")."""
    files = (
        "the file that needs one" if fix.files == 1 else f"the {fix.files:,} files that need one"
    )
    write = f"Write the drafted record (status: proposed; its scope covers {files}):"
    fill = "Fill in its TODOs (owner, compute_api, migration_cost)"
    if fix.accepted_only:
        fill += "; set status: accepted once its owner agrees"
    if fix.via == "staged":
        see = "Stage it with this change (the hook reads records from the index):"
        line = f"git add {shlex.quote(fix.record)}"
    elif fix.via == "link":
        see = (
            "Commit it and add this line to the pull request's description or a commit "
            "message; it counts once its owner (or a code owner) approves the pull request:"
        )
        line = link_line(fix.record)
    else:
        see = (
            "Merge it to the default branch first (decisions.require_default_branch), then "
            "add this line to the pull request's description:"
        )
        line = link_line(fix.record)
    return [(write, fix.command), (fill + ".", ""), (see, line)]


def _existing(fix: Fix) -> str:
    if fix.via == "staged":
        return "Or, if a recorded decision should cover this code, add these files to its scope."
    return "Or link a record that already exists with that line, naming its path."


def fix_text(fix: Fix) -> list[str]:
    """The fix as terminal lines."""
    out = ["", "How to fix: record the compute-API decision this change implies."]
    for n, (sentence, literal) in enumerate(_steps(fix), 1):
        out.append(f"  {n}. {sentence}")
        if literal:
            out.append(f"       {literal}")
    out.append(f"  {_existing(fix)}")
    return out


def _fence(text: str) -> str:
    """Longer than any run of backticks in ``text`` (a branch name may hold some), so
    nothing inside closes the block."""
    return "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", text)), default=0))


def fix_markdown(fix: Fix, draft: str = "") -> str:
    """The fix as Markdown; ``draft`` (a ``<details>`` block holding the record) goes under
    the first step."""
    parts = ["**How to fix**: record the compute-API decision this change implies."]
    for n, (sentence, literal) in enumerate(_steps(fix), 1):
        block = f"\n\n   {_fence(literal)}\n   {literal}\n   {_fence(literal)}" if literal else ""
        parts.append(f"{n}. {sentence}{block}")
        if n == 1 and draft:
            parts.append(draft)
    parts.append(_existing(fix))
    return "\n\n".join(parts)
