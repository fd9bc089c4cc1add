"""Cases for the engine-level misses the ninth round left (issue 27, lane h35-misses).

ledatelescope/bifrost (a map kernel written into a std::stringstream), software-mansion/TypeGPU
(functions marked 'use gpu'), rapidsai/cuml (``import cupy`` probing for a GPU), a whole CUDA
program held in a string with its ``main()``, Deep-Learning-Profiling-Tools/triton-viz (tests
that only name ``tl.load``) and Mozilla-Ocho/llamafile (its own ``cudaSharedOverhead``). Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers


def _spans(path: str, source: bytes) -> list[tuple[str, int, int]]:
    return [(f.rule, f.start_line, f.end_line) for f in classify(path, source).findings]


# -- ledatelescope/bifrost: src/map.cpp writes its kernels into a stream -------------------------

_BIFROST_MAP = b"""\
BFstatus build_map_kernel(int ndim, char const* func, std::string* ptx) {
\tlong x_size = 1;
\tfor( int d=0; d<ndim; ++d ) {
\t\tx_size *= 2;
\t}
\tstd::stringstream code;
\tcode << "#include \\"Complex.hpp\\"" << endl;
\tcode << "extern \\"C\\"\\n";
\tcode << "__global__\\n";
\tcode << "void map_kernel(float* x) {\\n";
\tcode <<
\t\t"  for( int _x=threadIdx.x; _x<" << x_size << "; _x+=blockDim.x ) {\\n";
\tcode << "    " << func << ";\\n";
\tcode << "  }\\n";
\tcode << "}\\n";
\tstd::stringstream cc_ss;
\tcc_ss << "compute_" << get_cuda_device_cc();
\toptions.push_back("-arch="+cc_ss.str());
\tnvrtcResult ret = nvrtcCompileProgram(program, 1, &options[0]);
\tstd::cout << "--- JIT compile log ---" << std::endl;
\treturn BF_STATUS_SUCCESS;
}
"""


def test_bifrost_kernel_written_into_a_stream_counts_its_writing_statements() -> None:
    # Before, no literal held a whole __global__ declaration and the file counted only its
    # NVRTC calls. The nine statements writing into `code` are the kernel (the audit of the
    # real file counted 55-60 such lines; lockin now counts 64); the shape loop, the compiler
    # options written into another stream and the log to std::cout are host code.
    spans = _spans("src/map.cpp", _BIFROST_MAP)
    assert ("cuda.streamed-source", 7, 15) in spans
    assert _layers("src/map.cpp", _BIFROST_MAP)["kernel"] == 9


def test_a_message_or_table_naming_thread_indices_is_no_kernel() -> None:
    source = b"""\
void check(int x) {
  if (x < 0) throw std::runtime_error("threadIdx.x out of range");
  std::cout << "launch with at most 1024 threads" << std::endl;
  const char* axes[] = {"threadIdx.x", "threadIdx.y"};
}
"""
    assert _layers("src/check.cpp", source) == {"portable": 5}


# -- software-mansion/TypeGPU: 'use gpu' functions are WGSL ----------------------------------


def test_typegpu_use_gpu_functions_are_shader_code() -> None:
    # apps/typegpu-docs/.../kernels/cross-scan.ts: helpers marked 'use gpu' and a compute entry
    # point handed to tgpu.computeFn. Before, only the computeFn call counted (4 of its lines);
    # across the repository 5,303 -> 18,923 kernel lines.
    source = b"""\
import { d, std, tgpu } from 'typegpu';

export const sourcePixel = (position: number, width: number) => {
  'use gpu';
  const x = position % width;
  return d.vec2u(x, position / width);
};

export const crossMerge = tgpu.computeFn({
  in: { gid: d.builtin.globalInvocationId },
  workgroupSize: [64],
})(({ gid }) => {
  'use gpu';
  const p = sourcePixel(gid.x, 8);
  output.$[gid.x] = std.max(p.x, p.y);
});

export function describe() {
  return 'use gpu';
}
"""
    layers = _layers("kernels/cross-scan.ts", source)
    assert layers == {"kernel": 13, "portable": 4}


# -- rapidsai/cuml: `import cupy` opening a try block is a probe ------------------------------


def test_cuml_cupy_import_probing_for_a_gpu_is_portable() -> None:
    # python/cuml/internals/available_devices.py (commit 5162d52): CuPy's presence stands for
    # a GPU without creating a CUDA context; nothing of CuPy is used. A blank line and a
    # comment between `try:` and the import change nothing (the withdrawn fix broke there).
    source = b"""\
from functools import lru_cache


def gpu_available_no_context_creation():
    try:

        # importing cupy creates no CUDA context
        import cupy

        return True
    except ImportError:
        return False


@lru_cache(maxsize=None)
def is_cuda_available():
    return GPU_ENABLED and gpu_available_no_context_creation()
"""
    path = "python/cuml/internals/available_devices.py"
    assert _layers(path, source) == {"portable": 10}


def test_optional_cupy_import_still_counts_the_lines_that_use_cupy() -> None:
    # python/cuml/benchmark/gpu_check.py: the import is optional, the device count is a use.
    source = b"""\
def has_gpu():
    try:
        import cupy as cp

        return cp.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


import cupy
"""
    assert _spans("python/cuml/benchmark/gpu_check.py", source) == [
        ("cupy.api", 5, 5),
        ("cupy.api", 10, 10),
    ]


# -- a whole CUDA program held in a string: main() is host code --------------------------------


def test_main_of_a_cuda_program_in_a_string_is_not_kernel_code() -> None:
    # A benchmark script writing a .cu file for nvcc: before, all 21 lines of the string
    # counted as kernel code; its check() helper and main() are the host side.
    source = b'''\
import subprocess

SRC = r"""
#include <cstdio>
#include <cuda_runtime.h>

__global__ void add(float* a, const float* b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += b[i];
}

static void check(cudaError_t e) {
    if (e != cudaSuccess) { printf("%s\\n", cudaGetErrorString(e)); }
}

int main() {
    float *a, *b;
    check(cudaMalloc(&a, 1024));
    check(cudaMalloc(&b, 1024));
    add<<<4, 256>>>(a, b, 1024);
    return 0;
}
"""


def build(path):
    open(path, "w").write(SRC)
'''
    spans = _spans("bench/write_cu.py", source)
    # Its #include lines are no kernel code either (h37 lane random3): the literal's opening
    # line stays, as the statement holding the program.
    assert [s for s in spans if s[0] == "cuda.source-string"] == [
        ("cuda.source-string", 3, 3),
        ("cuda.source-string", 7, 10),
        ("cuda.source-string", 23, 23),
    ]


def test_a_java_string_program_drops_its_main_too() -> None:
    source = b"""\
class Kern {
    static final String SRC = "extern \\"C\\" __global__ void add(float* a, float* b) {\\n" +
        "    a[threadIdx.x] += b[threadIdx.x];\\n" +
        "}\\n" +
        "int main() {\\n" +
        "  add<<<1, 32>>>(0, 0);\\n" +
        "  return 0;\\n" +
        "}\\n";
}
"""
    assert _spans("src/Kern.java", source) == [("cuda.source-string", 2, 4)]


def test_an_nvrtc_source_with_unqualified_helpers_stays_device_code() -> None:
    # Compiled with -default-device (bifrost's --device-as-default-execution-space): no main,
    # no launch, so the helper without __device__ is device code.
    source = b'''\
SRC = r"""
static float twice(float x) {
    return 2.0f * x;
}
extern "C" __global__ void k(float* a) {
    a[threadIdx.x] = twice(a[threadIdx.x]);
}
"""
'''
    assert _spans("jit/sources.py", source) == [("cuda.source-string", 1, 8)]


# -- Deep-Learning-Profiling-Tools/triton-viz: tests naming tl.load ----------------------------


def test_triton_viz_tests_that_only_mention_tl_load_are_portable() -> None:
    # tests/unit/test_trace_io.py and test_profiler.py: a record of a kernel line and asserts
    # on what a report printed. Before, each test function counted as generated Triton
    # source (62 kernel lines in the two files).
    source = b'''\
def test_roundtrip(tmp_path):
    info = TracebackInfo(
        filename="kernel.py",
        line_of_code="x = tl.load(ptr)",
    )
    out = render(info)
    assert "tl.load" in out
    assert info.line_of_code == "x = tl.load(ptr)"


def test_docstring():
    """The report points at the tl.store line."""
    assert True
'''
    assert "kernel" not in _layers("tests/unit/test_trace_io.py", source)


def test_a_generator_writing_triton_still_counts() -> None:
    source = b"""\
def generate(code, name):
    code.writeline("@triton.jit")
    code.writeline(f"def {name}(x_ptr, BLOCK: tl.constexpr):")
    code.writeline("    offs = tl.arange(0, BLOCK)")
    code.writeline("    tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 2)")
    return code
"""
    assert _spans("ops/gen.py", source) == [("triton.generated-source", 1, 6)]


# -- Mozilla-Ocho/llamafile: a constant named like the runtime ---------------------------------


def test_llamafile_own_shared_overhead_constant_is_not_the_cuda_runtime() -> None:
    # llamafile/pick_a_warp_kernel.c: an occupancy calculator run on the host. Before, every
    # line naming cudaSharedOverhead counted as a CUDA runtime call (5 lines; 17 in
    # explain_a_warp_kernel.cpp), and a commit adding one failed the gate.
    source = b"""\
#define sharedMemPerBlock 65536
#define cudaSharedOverhead 1024

int occupants(int smem) {
    if (smem + cudaSharedOverhead > sharedMemPerBlock)
        return 0;
    return sharedMemPerBlock / (smem + cudaSharedOverhead);
}
"""
    assert _layers("llamafile/pick_a_warp_kernel.c", source) == {"portable": 7}


def test_a_program_own_qualifier_macro_marks_device_helpers() -> None:
    # The #define above main() is no part of its header, and HD names __device__.
    source = b'''\
SRC = r"""
#include <cstdio>
#define HD __host__ __device__

HD float twice(float x) {
    return 2.0f * x;
}

__global__ void k(float* a) {
    a[threadIdx.x] = twice(a[threadIdx.x]);
}

int main() {
    k<<<1, 1>>>(nullptr);
    return 0;
}
"""
'''
    # The #include line between them is host and device code alike: no kernel line.
    assert _spans("gen.py", source) == [
        ("cuda.source-string", 1, 1),
        ("cuda.source-string", 3, 3),
        ("cuda.source-string", 5, 7),
        ("cuda.source-string", 9, 11),
        ("cuda.source-string", 17, 17),
    ]
