"""CUDA code compiled for AMD through a CUDA->HIP shim header (ggml's vendors/hip.h style):
which files are shims, which reach one, and what that changes in the census figures."""

from __future__ import annotations

import io
import json
from itertools import permutations
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from bot.cli import main
from bot.engine import RULES, classify
from bot.engine.census import Census
from bot.engine.classify import _hip_words
from bot.engine.languages import LANGUAGES
from bot.engine.model import Layer
from bot.engine.registry import RULES_BY_LANGUAGE
from bot.engine.shims import MIN_ALIASES, Includes, reaching_shim, scan_c
from bot.sources.tarball import ArchiveLimits, census_from_file
from tests.recount.archives import tarball

_NAMES = [
    "Malloc", "Free", "Memcpy", "MemcpyAsync", "MemsetAsync", "StreamCreate", "StreamDestroy",
    "GetDevice", "SetDevice", "GetLastError", "DeviceSynchronize", "Stream_t", "Error_t",
]  # fmt: skip


def shim_header(aliases: int) -> str:
    lines = [f"#define cuda{name} hip{name}\n" for name in _NAMES[:aliases]]
    return "#pragma once\n#include <hip/hip_runtime.h>\n" + "".join(lines)


COMMON = """#pragma once
#if defined(USE_HIP)
#include "vendors/hip.h"
#else
#include <cuda_runtime.h>
#endif
"""
KERNEL = """#include "common.cuh"
// a kernel written once, in CUDA
__global__ void twice(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}
void launch(float *x, int n, cudaStream_t stream) {
    twice<<<(n + 255) / 256, 256, 0, stream>>>(x, n);
}
"""
CUDA_ONLY = """__global__ void fill(float *x) { x[threadIdx.x] = 0.0f; }
"""


def repo(aliases: int = 12) -> dict[str, str]:
    files = {
        "src/gpu/common.cuh": COMMON,
        "src/gpu/k.cu": KERNEL,
        "src/other/only.cu": CUDA_ONLY,  # includes nothing: NVIDIA only whatever the shim
    }
    if aliases:
        files["src/gpu/vendors/hip.h"] = shim_header(aliases)
    return files


def census_of(files: dict[str, str]) -> Census:
    return Census(classify(path, text.encode()) for path, text in files.items())


def cuda_locked(files: dict[str, str], paths: set[str]) -> int:
    """CUDA kernel and vendor-path lines of ``paths``, read from the per-line report."""
    locked = {"kernel", "vendor-path"}
    return sum(
        1
        for path in paths
        for rule in classify(path, files[path].encode()).line_rules
        if rule and RULES[rule].ecosystem == "cuda" and RULES[rule].layer.value in locked
    )


def test_a_header_of_many_cuda_to_hip_defines_is_a_shim() -> None:
    shim, includes = scan_c_of("vendors/hip.h", shim_header(MIN_ALIASES))
    assert shim
    assert includes == ("hip/hip_runtime.h",)  # names a folder: may be the tree's own


def test_fewer_aliases_than_the_threshold_are_not_a_shim() -> None:
    assert not scan_c_of("vendors/hip.h", shim_header(MIN_ALIASES - 1))[0]
    files = repo(MIN_ALIASES - 1)
    census = census_of(files)
    assert census.reaching_shim() == frozenset()
    # k.cu's kernel, launch and stream type, common.cuh's CUDA include, only.cu's kernel.
    assert census.locked_to_nvidia() == cuda_locked(files, set(files)) == 4 + 2 + 1 + 1


def test_typedefs_and_neutral_names_count_commented_defines_do_not() -> None:
    jax_style = "".join(
        f"#define gpu{name} hip{name}\n" if i % 2 else f"typedef hip{name} gpu{name};\n"
        for i, name in enumerate(_NAMES[:MIN_ALIASES])
    )
    assert scan_c_of("jaxlib/gpu/vendor.h", jax_style)[0]
    commented = "".join(f"// #define cuda{name} hip{name}\n" for name in _NAMES)
    assert not scan_c_of("vendors/hip.h", commented)[0]
    # Defines to something other than a HIP name (a CUDA build's own half of the header).
    cuda_half = "".join(f"#define gpu{name} cuda{name}\n" for name in _NAMES)
    assert not scan_c_of("vendors/cuda.h", cuda_half)[0]


def test_quoted_includes_are_recorded_in_order_system_and_commented_ones_not() -> None:
    text = '#include "a.h"\n#include <b.h>\n// #include "c.h"\n  #  include "d/e.cuh"\n'
    assert scan_c_of("x.cu", text)[1] == ("a.h", "d/e.cuh")
    # An angle-bracket include naming a folder may be the project's own header (-I include/).
    assert scan_c_of("x.cu", "#include <vector>\n#include <proj/util.h>\n")[1] == ("proj/util.h",)
    # Only C-family files say anything about includes.
    assert classify("x.py", b'#include "a.h"\n').includes == ()


def scan_c_of(path: str, text: str) -> tuple[bool, tuple[str, ...]]:
    report = classify(path, text.encode())
    return report.shim, report.includes


def test_kernel_lines_that_reach_a_shim_are_no_longer_nvidia_only() -> None:
    files, without = repo(), repo(aliases=0)
    census, before = census_of(files), census_of(without)
    assert census.reaching_shim() == {"src/gpu/vendors/hip.h", "src/gpu/common.cuh", "src/gpu/k.cu"}
    # Layers and ecosystems do not change: only where the lines run.
    k_cu = census.get("src/gpu/k.cu")
    assert k_cu is not None
    assert k_cu.layers[Layer.KERNEL] == 4
    assert census.totals.layers[Layer.KERNEL] == before.totals.layers[Layer.KERNEL]
    assert census.totals.ecosystems["cuda"] == before.totals.ecosystems["cuda"]
    # k.cu's and common.cuh's CUDA lines left the NVIDIA-only count; only.cu's stayed.
    carried = cuda_locked(files, {"src/gpu/k.cu", "src/gpu/common.cuh"})
    assert carried >= 4 + 2  # the kernel, the launch and the stream type at least
    assert census.locked_to_nvidia() == before.locked_to_nvidia() - carried
    assert census.locked_to_nvidia() == cuda_locked(files, {"src/other/only.cu"})
    # The AMD column drops k.cu's kernel; other targets still need the rewrite.
    amd, amd_before = census.matrix()["amd"], before.matrix()["amd"]
    assert amd[Layer.KERNEL] == amd_before[Layer.KERNEL] - 4 == 1  # only.cu's kernel
    assert census.matrix()["intel"][Layer.KERNEL] == before.matrix()["intel"][Layer.KERNEL] == 5


def test_a_repository_without_a_shim_is_unchanged() -> None:
    files = repo(aliases=0)
    census = census_of(files)
    assert census.reaching_shim() == frozenset()
    assert census.locked_to_nvidia() == cuda_locked(files, set(files))
    assert census.matrix()["amd"][Layer.KERNEL] == 4 + 1


def test_include_cycles_terminate() -> None:
    files = {
        "a.cuh": '#include "b.cuh"\n#include "vendors/hip.h"\n',
        "b.cuh": '#include "a.cuh"\n__device__ int b() { return threadIdx.x; }\n',
        "c.cuh": '#include "d.cuh"\n',
        "d.cuh": '#include "c.cuh"\n#include "d.cuh"\n',
        "k.cu": '#include "b.cuh"\n',
        "vendors/hip.h": shim_header(12),
    }
    assert census_of(files).reaching_shim() == {"a.cuh", "b.cuh", "k.cu", "vendors/hip.h"}


def test_includes_resolve_from_the_folder_then_from_folders_above() -> None:
    paths = {"src/gpu/common.cuh", "src/gpu/vendors/hip.h", "jaxlib/gpu/vendor.h", "top.h"}
    target = Includes(paths).target
    assert target("src/gpu/k.cu", "common.cuh") == "src/gpu/common.cuh"
    assert target("src/gpu/common.cuh", "vendors/hip.h") == "src/gpu/vendors/hip.h"
    assert target("src/main.cu", "gpu/common.cuh") == "src/gpu/common.cuh"  # -I src
    assert target("jaxlib/gpu/k.cu.cc", "jaxlib/gpu/vendor.h") == "jaxlib/gpu/vendor.h"
    assert target("src/gpu/sub/x.cu", "../common.cuh") == "src/gpu/common.cuh"
    assert target("src/gpu/k.cu", "../../../top.h") is None  # outside the tree
    assert target("src/gpu/k.cu", "missing.h") is None
    # Answers are kept per folder and name: asking again, or from a sibling, answers alike.
    assert target("src/gpu/k.cu", "missing.h") is None
    assert target("src/gpu/other.cu", "common.cuh") == "src/gpu/common.cuh"
    assert target("src/gpu/sub/y.cu", "gpu/common.cuh") == "src/gpu/common.cuh"


def test_replace_keeps_the_figures_of_a_census_built_from_scratch() -> None:
    files = repo()
    reports = {path: classify(path, text.encode()) for path, text in files.items()}
    for order in permutations(reports):
        census = Census()
        for path in order:
            census.replace(path, reports[path])
            figures_match(census, Census(reports[s.path] for s in census.files()))
    # Cutting the include, then removing the shim, each give back a from-scratch census.
    unhooked = classify("src/gpu/common.cuh", b"#pragma once\n#include <cuda_runtime.h>\n")
    census.replace("src/gpu/common.cuh", unhooked)
    rest = [reports["src/gpu/k.cu"], reports["src/other/only.cu"], unhooked]
    figures_match(census, Census([*rest, reports["src/gpu/vendors/hip.h"]]))
    assert census.reaching_shim() == {"src/gpu/vendors/hip.h"}
    census.replace("src/gpu/common.cuh", reports["src/gpu/common.cuh"])
    census.replace("src/gpu/vendors/hip.h", None)
    figures_match(census, census_of(repo(aliases=0)))
    twin = census.copy()
    twin.replace("src/gpu/vendors/hip.h", reports["src/gpu/vendors/hip.h"])
    figures_match(twin, census_of(files))
    figures_match(census, census_of(repo(aliases=0)))  # the copy is independent


def figures_match(a: Census, b: Census) -> None:
    assert a.locked_to_nvidia() == b.locked_to_nvidia()
    assert a.matrix() == b.matrix()
    assert a.reaching_shim() == b.reaching_shim()
    assert a.totals == b.totals


def test_scan_and_tarball_census_count_shimmed_code_alike(tmp_path: Path) -> None:
    files = repo()
    root = tmp_path / "repo"
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    out = io.StringIO()
    assert (
        main(["scan", str(root), "--format", "json", "--jobs", "1"], out=out, err=io.StringIO())
        == 0
    )
    totals = json.loads(out.getvalue())["totals"]
    expected = census_of(files)
    assert totals["nvidia_locked_lines"] == expected.locked_to_nvidia() == 1
    out = io.StringIO()
    assert main(["scan", str(root), "--jobs", "1"], out=out, err=io.StringIO()) == 0
    carried = cuda_locked(files, {"src/gpu/k.cu", "src/gpu/common.cuh"})
    assert expected.carried_by_shims() == carried
    assert (
        "CUDA lines also built for AMD through a HIP shim header (src/gpu/vendors/hip.h): "
        f"{carried}, not counted as NVIDIA-only"
    ) in out.getvalue()
    archive = tmp_path / "repo.tar.gz"
    archive.write_bytes(tarball(files, root=None))
    counted = census_from_file(archive, limits=ArchiveLimits.for_archive(2**20)).census
    figures_match(counted, expected)


def test_reaching_shim_takes_reports_directly() -> None:
    reports = [classify(path, text.encode()) for path, text in repo().items()]
    assert reaching_shim(reports) == census_of(repo()).reaching_shim()


def test_only_includes_that_resolve_to_a_reached_file_reach_the_shim() -> None:
    files = {
        "src/gpu/vendors/hip.h": shim_header(12),
        "src/gpu/a.cuh": '#include "vendors/hip.h/."\n',  # the file's name is not last
        "src/gpu/b.cuh": '#include "vendors/sub/../hip.h"\n',
        "src/gpu/c.cuh": '#include "vendors/"\n',  # a folder: no file
        "lib/hip.h": "int lib_only;\n",  # the shim's name, another file
        "lib/k.cu": '#include "hip.h"\n#include "../src/gpu/a.cuh"\n',
        "lib/l.cu": '#include "hip.h"\n',
    }
    reached = {"src/gpu/vendors/hip.h", "src/gpu/a.cuh", "src/gpu/b.cuh", "lib/k.cu"}
    assert census_of(files).reaching_shim() == reached


@given(st.text(alphabet="hiHIPp_ \n#", max_size=60))
def test_the_keyword_search_counts_the_hip_words_a_shim_needs(text: str) -> None:
    # classify reads the count from the keyword search it ran anyway, where scan_c would
    # count each word over the whole file again.
    for language in ("C", "C++", "C Header", "CUDA", "HIP"):
        lang = LANGUAGES[language]
        found = RULES_BY_LANGUAGE[language].keywords.occurrences(text)
        assert _hip_words(lang, found) == text.count("hip") + text.count("HIP")


def test_scan_c_takes_the_count_of_hip_words_it_is_given() -> None:
    header = shim_header(MIN_ALIASES)
    assert scan_c(header, header)[0]
    assert not scan_c(header, header, hip_words=0)[0]
