"""Headers spliced into device code: included inside a kernel's or device function's body
(merzlab/QUICK's gpu_eri_assembler_*.h include 98 src/gpu/iclass/*.h of recurrences within
`__device__` functions). One file cannot show it; the census reads its include graph."""

from __future__ import annotations

import io
import json
from pathlib import Path

from bot.cli import main
from bot.engine import classify
from bot.engine.census import Census
from bot.engine.model import Layer
from bot.sources.tarball import ArchiveLimits, census_from_file
from tests.recount.archives import tarball

ASSEMBLER = """\
#undef VY
#define VY(a) LOCVY(YVerticalTemp, (a))
__device__ static inline void ERint_vertical_sp(const int I, double* store, double* YVerticalTemp,
                                                const double Ptempx, const double WPtempx) {
#include "iclass_ssss.h"
    if (I >= 1) {
#include "iclass_psss.h"
    }
}
"""
# A fragment of a function body: no declaration, nothing that says device code.
SSSS = """\
/* Written by a code generator */

{
    double VY_0 = VY(0);
    LOCSTORE(store, 0, 0) += VY_0;
}
"""
PSSS = """\
{
    double x_1_0 = Ptempx * VY(0) + WPtempx * VY(1);
    LOCSTORE(store, 1, 0) += x_1_0;
}
"""
HOST = """\
#include "iclass/iclass_ssss.h"
"""
KERNEL_FILE = """\
#include "gpu_common.h"
#include "gpu_eri_assembler_sp.h"
__global__ void get2e_kernel(double* store) { ERint_vertical_sp(0, store, store, 0.0, 0.0); }
"""


def tree() -> dict[str, str]:
    return {
        "src/gpu/gpu_eri_assembler_sp.h": ASSEMBLER,
        "src/gpu/iclass/iclass_ssss.h": SSSS,
        "src/gpu/iclass/iclass_psss.h": PSSS,
        "src/gpu/gpu_common.h": "#pragma once\ntypedef double QUICKDouble;\n",
        "src/gpu/gpu_get2e.cu": KERNEL_FILE,
    }


def census_of(files: dict[str, str]) -> Census:
    return Census(classify(path, text.encode()) for path, text in files.items())


def test_includes_inside_a_device_function_are_recorded_with_its_rule() -> None:
    report = classify("src/gpu/gpu_eri_assembler_sp.h", ASSEMBLER.encode())
    assert report.spliced == (
        ("iclass_ssss.h", "cuda.device-function"),
        ("iclass_psss.h", "cuda.device-function"),
    )
    # Top-level includes of a kernel file are no splice.
    assert classify("src/gpu/gpu_get2e.cu", KERNEL_FILE.encode()).spliced == ()


def test_headers_included_only_inside_device_code_are_its_kernel_lines() -> None:
    census = census_of(tree())
    ssss = census.get("src/gpu/iclass/iclass_ssss.h")
    assert ssss is not None
    # Found by name along the include path (QUICK builds with -I src/gpu/iclass).
    assert ssss.layers[Layer.KERNEL] == 4
    assert ssss.layers[Layer.PORTABLE] == 0
    assert ssss.ecosystems == {"cuda": 4}
    assert [(f.rule, f.start_line, f.end_line) for f in ssss.findings] == [
        ("cuda.device-function", 1, 6)
    ]
    psss = census.get("src/gpu/iclass/iclass_psss.h")
    assert psss is not None
    assert psss.layers[Layer.KERNEL] == 4
    # A header the kernel file includes at the top stays what it is.
    common = census.get("src/gpu/gpu_common.h")
    assert common is not None
    assert common.layers[Layer.KERNEL] == 0
    # The totals count the spliced lines once, as the files do.
    assert census.totals.layers[Layer.KERNEL] == sum(s.layers[Layer.KERNEL] for s in census.files())


def test_a_header_also_included_outside_device_code_stays_portable() -> None:
    files = {**tree(), "src/cpu/reference.cpp": HOST.replace("iclass/", "../gpu/iclass/")}
    census = census_of(files)
    ssss = census.get("src/gpu/iclass/iclass_ssss.h")
    assert ssss is not None
    assert ssss.layers[Layer.KERNEL] == 0
    psss = census.get("src/gpu/iclass/iclass_psss.h")
    assert psss is not None
    assert psss.layers[Layer.KERNEL] == 4


def test_a_census_changed_file_by_file_settles_to_the_census_built_at_once() -> None:
    files = tree()
    census = census_of(files)
    # The includer loses its body include: the header counts as itself again.
    changed = ASSEMBLER.replace('#include "iclass_psss.h"\n', "")
    census.replace(
        "src/gpu/gpu_eri_assembler_sp.h",
        classify("src/gpu/gpu_eri_assembler_sp.h", changed.encode()),
    )
    census.settle()
    fresh = census_of({**files, "src/gpu/gpu_eri_assembler_sp.h": changed})
    assert [census.get(p) for p in sorted(files)] == [fresh.get(p) for p in sorted(files)]
    assert census.totals == fresh.totals
    psss = census.get("src/gpu/iclass/iclass_psss.h")
    assert psss is not None
    assert psss.layers[Layer.KERNEL] == 0
    # The header itself replaced (a push editing it) is counted again as spliced.
    census.replace(
        "src/gpu/iclass/iclass_ssss.h", classify("src/gpu/iclass/iclass_ssss.h", b"{\n}\n")
    )
    census.settle()
    ssss = census.get("src/gpu/iclass/iclass_ssss.h")
    assert ssss is not None
    assert ssss.layers[Layer.KERNEL] == 2
    # Without markers (a policy that forbids them) the census settles the same way.
    assert census.without_markers().totals == census.totals


def test_the_cli_and_an_archive_census_count_spliced_headers(tmp_path: Path) -> None:
    files = tree()
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    out = io.StringIO()
    args = ["scan", str(tmp_path), "--format", "json", "--jobs", "1"]
    assert main(args, out=out, err=io.StringIO()) == 0
    by_path = {f["path"]: f for f in json.loads(out.getvalue())["files"]}
    assert by_path["src/gpu/iclass/iclass_ssss.h"]["layers"]["kernel"] == 4
    archive = tmp_path / "tree.tar.gz"
    archive.write_bytes(tarball({p: t.encode() for p, t in files.items()}, root=None))
    counted = census_from_file(archive, limits=ArchiveLimits.for_archive(2**20)).census
    ssss = counted.get("src/gpu/iclass/iclass_ssss.h")
    assert ssss is not None
    assert ssss.layers[Layer.KERNEL] == 4
