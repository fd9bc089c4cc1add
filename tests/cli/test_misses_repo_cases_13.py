"""Gate cases from audits of random repositories (issue 27): `lockin diff` on small git
repositories. Snippets are small rewrites of the pattern each repository showed."""

from __future__ import annotations

from pathlib import Path

from tests.cli.gitrepo import commit, init
from tests.cli.test_cli import run

# mritools/cupyimg 494ea73 (cupyimg/numpy/lib/histograms.py): black rewraps a CuPy module.
# Where a statement breaks decides which of its lines the engine places in cupy.api
# (``ok = (`` was portable, ``ok = cupy.can_cast(`` is not), so the added cupy lines hold
# a name the removed ones did not, though the hunk holds the same words as before.
BEFORE_BLACK = """import cupy

_body = '''
y[i] = x[i] * 2;
'''
_double = cupy.ElementwiseKernel(
    'raw T x', 'raw T y',
    _body, 'double_it')


def castable(w):
    ok = (
        cupy.can_cast(w.dtype, cupy.float64) or
        cupy.can_cast(w.dtype, complex)
    )
    return ok


def edges(lo, hi, n, kind):
    return cupy.linspace(lo, hi, n + 1,
                         endpoint=True, dtype=kind)
"""
AFTER_BLACK = """import cupy

_body = \"\"\"
y[i] = x[i] * 2;
\"\"\"
_double = cupy.ElementwiseKernel("raw T x", "raw T y", _body, "double_it")


def castable(w):
    ok = cupy.can_cast(
        w.dtype, cupy.float64
    ) or cupy.can_cast(w.dtype, complex)
    return ok


def edges(lo, hi, n, kind):
    return cupy.linspace(
        lo,
        hi,
        n + 1,
        endpoint=True,
        dtype=kind,
    )
"""


def _diff(tmp_path: Path, before: str, after: str) -> tuple[int, str]:
    repo = init(tmp_path / "repo")
    base = commit(repo, {"histograms.py": before})
    commit(repo, {"histograms.py": after})
    code, out, _ = run("diff", base, "HEAD", "--repo", str(repo), "--jobs", "1")
    return code, out


def test_a_black_reformat_that_moves_where_cupy_lines_start_passes(tmp_path: Path) -> None:
    code, out = _diff(tmp_path, BEFORE_BLACK, AFTER_BLACK)
    assert code == 0, out
    assert "the same code reformatted" in out


def test_a_black_reformat_with_one_new_cupy_call_still_fails(tmp_path: Path) -> None:
    grown = AFTER_BLACK.replace(
        "    return ok\n", "    ok = ok and cupy.cuda.is_available()\n    return ok\n"
    )
    code, out = _diff(tmp_path, BEFORE_BLACK, grown)
    assert code == 1, out
