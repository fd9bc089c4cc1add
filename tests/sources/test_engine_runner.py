"""How a census shares paths out among its workers."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.sources.engine_runner import LAST_CHUNK, _tapering


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
