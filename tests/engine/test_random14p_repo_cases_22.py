"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h50-random-p).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 497-503. One was skipped: iomeone/gputest (499) had no
snapshot to fetch. Read were qnope/VulkanWrapper (a C++23 Vulkan wrapper with GLSL shaders,
ray tracing passes and GLSL compiled from strings in its tests), TomClabault/RayTracer (a Java
CPU ray tracer, no GPU code), varnholt/dynablaster_revenge (a C++/Qt OpenGL game with GLSL
shader files), Reuzola/modern-cpp-cuda-path-tracer-with-rust-harness (a C++ CPU path tracer
whose CUDA port is only planned, with a Rust scene tool), vinaygaba/pycuda-filters (Python 2
image filters with PyCUDA SourceModule kernels) and navatala-systems/navatala_gpu (a
generated multi-back-end kernel library: .cu/.hip/.cl/.metal/.comp kernel files, kernels held
in raw strings of C++ registries, ROCm benchmarks calling rocBLAS/rocSPARSE). Fifteen files
of each repository were sampled with ``random.Random("owner/name")`` over every file lockin
counts and labelled before any fix, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10) checked apart, files outside the sample that
hold kernel lines counted by hand (up to 5 a repository), and up to three commits touching
GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- navatala-systems/navatala_gpu: vendor names listed in a row are no dynamic import -------------


def test_vendor_name_list_beside_import_module_is_portable() -> None:
    # python/tests/_manifest_driven/test_public_naming.py: a test imports the package's modules
    # with importlib.import_module and checks that no public name holds a vendor fragment from a
    # tuple whose one row lists "cudf", "cuml", ...; the row is data, not a module argument.
    source = b"""\
import importlib

FORBIDDEN = (
    "cudf", "cuml", "cugraph", "rapids",
)

def test_names():
    mod = importlib.import_module("shapes.api")
    for name in dir(mod):
        assert not any(f in name.lower() for f in FORBIDDEN)
"""
    assert _rules("tests/test_api_names.py", source) == set()
    assert _layers("tests/test_api_names.py", source) == {"portable": 8}


def test_rapids_name_alone_in_multiline_import_call_still_counts() -> None:
    # The same rule still reads a RAPIDS module named on its own line of a call running over
    # lines, with a trailing comma and nothing after it.
    source = b"""\
import importlib

def load_gpu_frames():
    lib = importlib.import_module(
        "cudf",
    )
    return lib.read_csv("x.csv")
"""
    assert _rules("frames/io.py", source) == {
        "cudf.python-dynamic-import",
    }
    assert _layers("frames/io.py", source) == {"vendor-library": 1, "portable": 5}
