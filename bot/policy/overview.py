"""The register, kernel inventory and migration plans of one tree, as data.

What ``lockin plan`` prints and what the dashboard issue shows (bot/render/plan_out.py turns
an ``Overview`` into the ``lockin.plan`` document). The tree is given as the
census's file summaries, the list of its paths, and a ``read`` function for file contents
(a directory, a git revision or a downloaded archive), so the same code serves the CLI and
the bot. Only the files that need it are read: the decision records, CODEOWNERS, files
with kernels (for names) and Python and dependency files (for frameworks).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.engine.census import Census, FileSummary
from bot.engine.effort import Effort, Grade, Reason, included_traps
from bot.engine.frameworks import detect, wanted
from bot.engine.kernels import graded_inventory, kernel_rules
from bot.engine.model import Layer
from bot.engine.shims import SHIM_VENDORS, SHIMMED_ECOSYSTEMS
from bot.policy.codeowners import LOCATIONS
from bot.policy.codeowners import parse as parse_codeowners
from bot.policy.config import Policy
from bot.policy.decisions import DecisionRecord, read_records
from bot.policy.plan import TargetPlan, build_plan, target_name, targets
from bot.policy.register import Register, build_register

Reader = Callable[[str], bytes | None]
# Bounds on what a hostile tree can make the overview read.
MAX_FRAMEWORK_FILES = 5_000
MAX_READ_BYTES = 2 * 1024 * 1024


@dataclass(frozen=True)
class Overview:
    register: Register
    plans: list[TargetPlan]
    #: The census's lines that could not move off NVIDIA tomorrow: the headline.
    locked: int
    rates: Mapping[str, float]  # the effort model in use (lines per engineer-week)


def overview(
    files: Sequence[FileSummary],
    paths: Iterable[str],
    read: Reader,
    policy: Policy,
    *,
    only: Sequence[str] = (),
    records: tuple[list[DecisionRecord], list[str]] | None = None,
) -> Overview:
    """The register and plans of a tree; ``only`` restricts the plans to those targets.
    ``records`` (records, problems) when the caller has read them already (the bot)."""
    paths = list(paths)
    if records is None:
        folder = policy.decisions.folder.rstrip("/") + "/"
        found = [(p, data) for p in paths if p.startswith(folder) and (data := _read(read, p))]
        records = read_records(found)
    decisions, problems = records
    codeowners = None
    for location in LOCATIONS:
        if (data := _read(read, location)) is not None:
            codeowners = parse_codeowners(data, location)
            break
    candidates = [p for p in paths if wanted(p)][:MAX_FRAMEWORK_FILES]
    detected = detect((p, data) for p in candidates if (data := _read(read, p)) is not None)
    kernel_ids = frozenset(kernel_rules())
    # Files with kernels (for their names and grades) and any other kernel-layer code (for
    # the grade of its lines in the plan).
    with_kernels = [
        s for s in files if any(f.rule in kernel_ids or f.layer == Layer.KERNEL for f in s.findings)
    ]
    reached = included_traps((s.path, s.includes, s.findings) for s in files)
    kernels, efforts = graded_inventory(
        (
            (s.path, data.decode("utf-8", "replace"), s.findings)
            for s in with_kernels
            if (data := _read(read, s.path)) is not None
        ),
        reached,
    )
    census = Census(files)
    shimmed, switched = census.reaching_shim(), frozenset(census.hip_switched())
    for kernel in kernels:
        if kernel.path in shimmed and kernel.ecosystem in SHIMMED_ECOSYSTEMS:
            if kernel.path in switched:
                name, why = "HIP switch", "its file is built by hipcc too"
            else:
                name, why = "HIP shim", "its file includes a CUDA-to-HIP compatibility header"
            why += ": it builds for AMD as it is"
            for target in SHIM_VENDORS:
                kernel.targets[target] = Effort(
                    Grade.NONE, (Reason(name, kernel.start_line, why, Grade.NONE),)
                )
    register = build_register(
        files,
        decisions,
        policy,
        problems=problems,
        codeowners=codeowners,
        detected=detected,
        kernels=kernels,
    )
    chosen = {target_name(t) for t in only} if only else set(targets())
    by_path = {e.path: e for e in efforts}
    rates = policy.plan.lines_per_engineer_week
    plans = [
        build_plan(files, register, target, by_path, rates, shimmed)
        for target in targets()
        if target in chosen
    ]
    return Overview(register, plans, census.locked_to_nvidia(), rates)


def _read(read: Reader, path: str) -> bytes | None:
    data = read(path)
    return data[:MAX_READ_BYTES] if data is not None else None
