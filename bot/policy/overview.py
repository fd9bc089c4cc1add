"""The register, kernel inventory and migration plans of one tree, as one document.

What ``lockin plan`` prints and what the dashboard issue shows. The tree is given as the
census's file summaries, the list of its paths, and a ``read`` function for file contents
(a directory, a git revision or a downloaded archive), so the same code serves the CLI and
the bot. Only the files that need it are read: the decision records, CODEOWNERS, files
with kernels (for names) and Python and dependency files (for frameworks).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from bot.engine.census import FileSummary
from bot.engine.frameworks import detect, wanted
from bot.engine.kernels import inventory, kernel_rules
from bot.policy.codeowners import LOCATIONS
from bot.policy.codeowners import parse as parse_codeowners
from bot.policy.config import Policy
from bot.policy.decisions import read_records
from bot.policy.plan import build_plan, targets
from bot.policy.register import build_register
from bot.render.plan_out import plan_document

Reader = Callable[[str], bytes | None]
# Bounds on what a hostile tree can make the overview read.
MAX_FRAMEWORK_FILES = 5_000
MAX_READ_BYTES = 2 * 1024 * 1024


def overview_document(
    files: Sequence[FileSummary],
    paths: Iterable[str],
    read: Reader,
    policy: Policy,
    *,
    root: str,
    only: Sequence[str] = (),
) -> dict[str, Any]:
    """The ``lockin.plan/1`` document; ``only`` restricts the plans to those targets."""
    paths = list(paths)
    folder = policy.decisions.folder.rstrip("/") + "/"
    record_files = [(p, data) for p in paths if p.startswith(folder) and (data := _read(read, p))]
    records, problems = read_records(record_files)
    codeowners = None
    for location in LOCATIONS:
        if (data := _read(read, location)) is not None:
            codeowners = parse_codeowners(data, location)
            break
    candidates = [p for p in paths if wanted(p)][:MAX_FRAMEWORK_FILES]
    detected = detect((p, data) for p in candidates if (data := _read(read, p)) is not None)
    kernel_ids = frozenset(kernel_rules())
    with_kernels = [s for s in files if any(f.rule in kernel_ids for f in s.findings)]
    kernels = inventory(
        (s.path, data.decode("utf-8", "replace"), s.findings)
        for s in with_kernels
        if (data := _read(read, s.path)) is not None
    )
    register = build_register(
        files,
        records,
        policy,
        problems=problems,
        codeowners=codeowners,
        detected=detected,
        kernels=kernels,
    )
    plans = [build_plan(files, register, target) for target in (only or targets())]
    return plan_document(register, plans, root=root)


def _read(read: Reader, path: str) -> bytes | None:
    data = read(path)
    return data[:MAX_READ_BYTES] if data is not None else None
