"""The PR check on a notebook that gains a Triton kernel cell: the gate fails and the
annotation points at the notebook line holding the kernel (engine/notebooks.py)."""

from __future__ import annotations

from tests.engine.test_notebook_cases import PORTABLE, TRITON, line_of, notebook
from tests.review.conftest import Bot
from tests.review.test_pr_check import new_repo, open_pr


async def test_notebook_gaining_a_triton_cell_fails_with_an_annotation_on_its_line(
    bot: Bot,
) -> None:
    intro = ("markdown", "# Puzzles\n")
    repo = new_repo(
        bot.fake, {"Triton-Puzzles.ipynb": notebook(intro, ("code", PORTABLE)).decode()}
    )
    after = notebook(intro, ("code", PORTABLE), ("code", TRITON))
    pr = open_pr(repo, {"Triton-Puzzles.ipynb": after.decode()})

    await bot.pr_event(repo, pr, "opened")

    [run] = bot.runs(repo, pr.head_sha)
    assert (run.status, run.conclusion) == ("completed", "failure")
    kernel = [a for a in run.annotations if "kernel" in a["title"]]
    assert [(a["path"], a["start_line"], a["end_line"]) for a in kernel] == [
        ("Triton-Puzzles.ipynb", line_of(after, "@triton.jit"), line_of(after, "    tl.store("))
    ]
