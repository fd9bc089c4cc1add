"""Values a pull request controls, written to make the bot post Markdown of the author's
choosing (a fake "approved" heading, an image, a link, an @team mention, a way out of the
mermaid block), come out of the comment and the check run as inert text."""

from __future__ import annotations

import re

from tests.review.conftest import Bot
from tests.review.test_pr_check import KERNEL, RECORD, new_repo, open_pr, record

PAYLOAD = (
    "x\n\n## ✅ Approved by security\n"
    "![pwned](https://evil.example/i.png) [click](https://evil.example) @octo/admins"
)
FOLDER = "csrc/a\n```\n## Approved\n```mermaid"


def _outside_code_blocks(text: str) -> str:
    """What GitHub renders as Markdown: fenced blocks (the drafted record) are code."""
    return re.sub(r"^(`{3,})[^\n]*\n.*?^\1[ \t]*$", "", text, flags=re.DOTALL | re.MULTILINE)


def _assert_inert(text: str) -> None:
    text = _outside_code_blocks(text)
    assert not re.search(r"^\s*#+ .*Approved", text, re.MULTILINE)
    assert "![pwned](" not in text
    assert "[click](https" not in text
    assert "@octo/admins" not in text


async def test_record_fields_and_folder_names_are_escaped_everywhere(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    pr = open_pr(
        repo,
        # Two folders: a chart is drawn only with two slices or more.
        {f"{FOLDER}/scale.cu": KERNEL, "ops/scale.cu": KERNEL, RECORD: record(type=PAYLOAD)},
        body=f"Compute-API-Decision: {RECORD}",
    )

    await bot.pr_event(repo, pr, "opened")

    [run] = bot.runs(repo, pr.head_sha)
    assert run.conclusion == "failure"
    _assert_inert(run.output["summary"])
    _assert_inert(run.output.get("text") or "")
    [comment] = bot.sticky(repo, pr.number)
    _assert_inert(comment.body)
    assert "approved by security" in run.output["summary"]  # shown, as text
    # The mermaid block is one block: the folder's newline and fence stayed inside a label.
    blocks = re.findall(r"```mermaid\n(.*?)\n```", comment.body, re.DOTALL)
    assert blocks
    for block in blocks:
        assert all(line.startswith(("pie", "    ")) for line in block.splitlines())
