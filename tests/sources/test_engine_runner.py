"""How a census shares paths out among its workers, and the parent its own share."""

from __future__ import annotations

import os
import time
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from bot.sources.engine_runner import LAST_CHUNK, _run, _tapering, scan_paths


@given(st.integers(0, 3000), st.integers(1, 128), st.integers(1, 8))
def test_tapering_chunks_keep_every_path_in_order_and_end_small(
    n: int, size: int, jobs: int
) -> None:
    chunks = list(_tapering(range(n), size, jobs))
    assert [i for chunk in chunks for i in chunk] == list(range(n))
    assert all(0 < len(chunk) <= size for chunk in chunks)
    # While far from the end a chunk is whole; the last ones shrink, so that no worker is
    # left alone on a whole chunk while the others have nothing to do.
    far = [c for i, c in enumerate(chunks) if sum(map(len, chunks[i:])) > 2 * jobs * size]
    assert all(len(chunk) == size for chunk in far)
    if n > 2 * jobs * size:
        assert len(chunks[-1]) <= max(LAST_CHUNK, -(-size // 2))


def _where(parent: int, chunk: list[int]) -> list[tuple[bool, int]]:
    """Each item, and whether the parent classified it: a worker takes its time, so that the
    workers' queue fills and the parent takes chunks of its own."""
    if os.getpid() != parent:
        time.sleep(0.02)
    return [(os.getpid() == parent, item) for item in chunk]


def test_the_parent_takes_chunks_while_the_workers_are_busy_and_order_holds() -> None:
    items = range(2_000)
    out = list(_run(_where, items, 20, (os.getpid(),), jobs=2, progress=None))
    assert [item for _, item in out] == list(items)
    here = {item for in_parent, item in out if in_parent}
    assert here, "the parent classified nothing"
    assert len(here) < len(out), "no worker classified anything"


def test_a_budget_holds_for_the_files_the_parent_classifies(tmp_path: Path) -> None:
    # Slow files among many small ones: wherever each is classified (the parent or its
    # worker), one over its budget is left out as not counted, and the others are counted.
    # The budget sits far from both: a small file takes a fraction of a millisecond, a slow
    # one some 200 ms; ITIMER_PROF counts every thread of the process, so a budget of 1 ms
    # was broken by a loaded machine's other threads charging a small file.
    slow = "".join(f"def f{i}(x):\n    return x + {i}\n" for i in range(100_000))
    paths = []
    for i in range(120):
        name = f"m{i:03}.py"
        (tmp_path / name).write_text(slow if i % 15 == 0 else "import torch\nx = torch.ones(3)\n")
        paths.append(name)
    # A process's first files build what the engine keeps (keyword automata: milliseconds),
    # on their own budget: warmed first, the forked worker inherits it.
    scan_paths(str(tmp_path), paths[1:3], jobs=1)
    census = scan_paths(str(tmp_path), paths, jobs=2, file_seconds=0.02)
    skipped = {path for path, _ in census.not_counted()}
    assert skipped == {name for i, name in enumerate(paths) if i % 15 == 0}
    assert len(census.files()) == 120 - len(skipped)
