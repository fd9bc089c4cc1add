"""Bad input: arbitrary bytes, adversarial text and huge files neither crash nor stall the engine,
and comments or blank lines never move a line between layers."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import classify
from bot.engine.languages import LANGUAGES, by_path
from bot.engine.lexer import lex
from bot.engine.model import FileReport
from bot.engine.registry import SPECS

PATHS = [
    "k.cu", "k.cuh", "x.h", "x.cpp", "k.hip", "a.py", "a.mojo", "k.metal", "k.cl", "k.comp",
    "k.wgsl", "CMakeLists.txt", "Makefile", "BUILD", "Dockerfile", "requirements.txt",
    "job.yaml", "pyproject.toml", "run.sh", "add.dp.cpp",
]  # fmt: skip
_SLASH_COMMENT = "// cuda __global__ torch.cuda"
COMMENT = {
    "c": _SLASH_COMMENT,
    "rust": _SLASH_COMMENT,
    "swift": "// MTLCreateSystemDefaultDevice makeCommandQueue",
    "js": "// @compute @workgroup_size(64)",
    "go": "// C.cudaMalloc cu.CtxCreate -lcudart",  # a comment; `// #cgo` lines are code
    "fortran": "! cudaMalloc",
    "matlab": "% gpuArray CUDAKernel mexcuda",
    "python": "# torch.cuda .cuda() 'cuda'",
    # Languages described by data are families of their own name (bot/engine/syntax.py).
    "MSBuild": '<!-- <CudaCompile Include="k.cu" /> CUDA 12.4.props -->',
    "Assembly": "; s_waitcnt lgkmcnt(0) .amdhsa_kernel",
    "AMDGPU Assembly": "; s_waitcnt lgkmcnt(0) .amdhsa_kernel",
    "LLVM IR": "; amdgpu_kernel llvm.nvvm.read.ptx.sreg.tid.x",  # GPU IR rules (*.llvm-ir-*)
    "Scala": _SLASH_COMMENT,  # a negative example: a Scala script beside bgfx's .sc shaders
    "C#": _SLASH_COMMENT,  # ILGPU's samples (rules cuda.dotnet-*)
    "Batch": "REM nvcc -lcudart CUDA_PATH_V12_9",  # build.nvcc reads Windows scripts
    "Pascal": "// vkCreateInstance TVkBuffer VK_SUCCESS",  # PasVulkan (vulkan.pascal-host)
    "Haskell": "-- import qualified Foreign.CUDA as CUDA",  # cuda.haskell-host
    "Odin": "// vk.CreateDevice vk.CmdDispatch",  # vulkan.odin-host
    "MLIR": _SLASH_COMMENT,  # Triton's dialect lowered in MLIR tests (lane h39-random-c)
    "Triton IR": "// tt.load tt.dot ttg.local_alloc",  # triton.ir-file (lane h39-random-h)
    "Maven POM": "<!-- <artifactId>jcuda</artifactId> cuda-12.4 -->",  # deps.jvm-cuda-artifact
    "ROS Package": "<!-- <depend>cuda</depend> libnvinfer-dev -->",  # deps.ros-cuda-package
    "IDL": "// ID3D12Device D3D12_COMMAND_LIST_TYPE",  # hlsl.directml-host (lane h41-random-g)
    "SPIR-V Assembly": "; OpEntryPoint GLCompute cuda",  # vulkan.spirv-assembly-file (h42-random-c)
    "Lua": '-- add_requires("vulkan-headers") "glslangValidator"',  # build.xmake-vulkan
    "Zig": _SLASH_COMMENT,  # Metal from Zig (metal.host-api, build.zig-metal-framework)
    # WESL files are kernel code whole (wgsl.shader-file): a `#` line would be a code line.
    "WebGPU Enhanced Shading Language": "// @compute @workgroup_size(64)",
    # Helm's named templates (.tpl) are read as Smarty, whose comments are {* *}; `#` is text
    # there, so a `#` line naming nvidia.com/gpu is a request (k8s.nvidia-gpu, h50-random-n).
    "Smarty Template": "{* nvidia.com/gpu: 1 --gpus all *}",
    # OpenQASM's comments are //; the VideoCore QPU rule's negative example is a quantum
    # circuit kept as .qasm (videocore.qpu-assembly-file, h50-random-b).
    "OpenQASM": "// cuda nvidia.com/gpu -gencode",
    # Dart's comments are //: ONNX Runtime's C API bound through dart:ffi
    # (onnxruntime.cuda-provider-api, lane h53-random-a).
    "Dart": "// OrtSessionOptionsAppendExecutionProvider_CUDA nvidia.com/gpu",
    # Lisp's comments start with `;`: opencl.source-file's negative example is Common Lisp
    # kept as .cl, now read as Lisp (lane h53-random-m).
    "Lisp": "; cuda nvidia.com/gpu -gencode",
    # A Jenkinsfile's comments are // (build.nvcc, image.nvidia-base, lane h55-scc-langs).
    "Jenkins Buildfile": "// sh 'nvidia-smi' docker.image('nvidia/cuda:12.4.1-devel')",
}
SNIPPETS = [(ex.path, ex.code) for spec in SPECS for ex in (*spec.positive, *spec.negative)]


def _check_shape(report: FileReport, data: bytes) -> None:
    assert report.skipped in (None, "binary")
    lines = data.count(b"\n") + (0 if not data or data.endswith(b"\n") else 1)
    assert report.code_lines <= lines
    assert sum(report.layers.values()) == report.code_lines
    if report.skipped is None:
        assert len(report.line_rules) == lines
        assert report.code_lines == sum(rule is not None for rule in report.line_rules)
    for finding in report.findings:
        assert 1 <= finding.start_line <= finding.end_line <= lines
        assert report.line_rules[finding.start_line - 1] == finding.rule
        assert report.line_rules[finding.end_line - 1] == finding.rule


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=st.sampled_from(PATHS), data=st.binary(max_size=2000))
def test_arbitrary_bytes_never_raise(path: str, data: bytes) -> None:
    _check_shape(classify(path, data), data)


_TOKENS = [
    "__global__", "__device__", "#if ", "#ifdef USE_ROCM", "#else", "#endif", "/*", "*/",
    '"""', "'''", 'R"(', ')"', "<<<", ">>>", "cudaMalloc(", "torch.cuda.", "@triton.jit\n",
    "def f(x):\n", "    ", "asm volatile(", "\\\n", "__shared__ ", "'cuda'", "x",
]  # fmt: skip
_ALPHABET = st.sampled_from([*"{}()[];\"'`\\/*#\n \t<>=:.,@", *_TOKENS])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=st.sampled_from(PATHS), parts=st.lists(_ALPHABET, max_size=120))
def test_token_soup_never_raises(path: str, parts: list[str]) -> None:
    data = "".join(parts).encode()
    _check_shape(classify(path, data), data)


def _insertion_points(path: str, text: str) -> list[int]:
    """Line numbers (0-based) before which a whole line can go without entering a token."""
    lang, _ = by_path(path)
    assert lang is not None
    lexed = lex(text, lang.family)
    inside: set[int] = set()
    for start, end in lexed.strings:
        first, last = text.count("\n", 0, start), text.count("\n", 0, end)
        inside.update(range(first + 1, last + 1))
    lines = text.split("\n")
    for number, line in enumerate(lines[:-1]):
        if line.rstrip().endswith("\\") or "/*" in line or '"""' in line or "'''" in line:
            inside.add(number + 1)
    # Go: the comment right above `import "C"` is cgo's preamble, C code. A line inserted
    # inside it is C (a `//` comment there is C's, not Go's), and a blank line between it and
    # the import makes it no preamble at all, as cgo reads it: neither is a layout change.
    for number, line in enumerate(lines):
        if lang.family.name == "go" and re.match(r'[ \t]*import[ \t]+"C"', line):
            start = number
            while (
                start > 0
                and lines[start - 1].strip()
                and not lines[start - 1].startswith(("package", "import"))
            ):
                start -= 1
            inside.update(range(start, number + 1))
    return [n for n in range(len(lines)) if n not in inside]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(snippet=st.sampled_from(SNIPPETS), data=st.data())
def test_comments_and_blank_lines_never_change_a_layer_count(
    snippet: tuple[str, str], data: st.DataObject
) -> None:
    path, text = snippet
    named, _ = by_path(path)
    assert named is not None
    # The comment syntax of the language the content makes it (a .m file may be MATLAB).
    family = LANGUAGES[classify(path, text.encode()).language].family.name
    comment = COMMENT.get(family, "# cuda nvidia.com/gpu -gencode")
    if family == "docker":
        comment = "# FROM nvidia/cuda:12.4"
    points = _insertion_points(path, text)
    chosen = data.draw(st.lists(st.sampled_from(points), max_size=6))
    extra = data.draw(st.lists(st.sampled_from(["", "   ", comment]), min_size=6, max_size=6))
    lines = text.split("\n")
    for n, point in enumerate(sorted(chosen, reverse=True)):
        lines.insert(point, extra[n])
    before = classify(path, text.encode())
    after = classify(path, "\n".join(lines).encode())
    assert after.layers == before.layers
    assert after.ecosystems == before.ecosystems


ADVERSARIAL = [
    ("k.cu", b"/*" * 100_000),
    ("k.cu", b"/*/*/*" * 40_000),
    ("k.cu", b'"\\"\\"' * 50_000),
    ("k.cu", b"(" * 200_000),
    ("k.cu", b"{" * 200_000),
    ("k.cu", b"}" * 200_000),
    ("k.cu", b"__global__ void k() {\n" * 20_000),
    ("k.cu", b"#if __CUDA_ARCH__\n" * 20_000),
    ("k.cu", b"#define D __device__\nD D D D D\n" * 10_000),
    ("k.cu", b"cudaMalloc(" * 50_000),
    ("k.cu", b'R"x(' * 50_000),
    ("k.cu", b"'" * 200_000),
    ("x.h", b'asm volatile("mma.sync' * 20_000),
    ("a.py", b'"""' + b"x" * 200_000),
    ("a.py", b"'''\\" * 50_000),
    ("a.py", b'"\\' * 100_000),
    ("a.py", b"@triton.jit\n" * 20_000 + b"import triton\n"),
    ("a.py", b"import triton\n@triton.jit\ndef k(\n" + b"(" * 100_000),
    ("a.py", b"x = cp.RawKernel(" * 30_000 + b"import cupy\n"),
    ("a.py", b"'cuda'," * 50_000),
    ("a.py", b"from jax.experimental.pallas import tpu as pltpu\n" + b"pltpu.x\n" * 20_000),
    ("requirements.txt", b"cupy-cuda12x" * 50_000),
    ("setup.py", b"'-gencode' " * 50_000),
    ("setup.py", b"'nvidia-cublas-cu12" + b"x" * 100_000 + b"'"),
    ("CMakeLists.txt", b"#[[" * 50_000),
    ("Dockerfile", b"FROM nvidia/cuda " * 50_000),
    # Kernels streamed into C++ strings, 'use gpu' directives, whole programs in strings,
    # literals only mentioned, probing imports (lane h35-misses).
    ("x.cpp", b'void f() {\ncode << "threadIdx.x"' + b' << "threadIdx.x"' * 50_000 + b";\n}\n"),
    ("x.cpp", b'void f() {\ncode << "__global__";\n' + b'log << "blockIdx.x";\n' * 30_000 + b"}"),
    ("x.cpp", b'code << "__syncthreads();"\n' * 30_000),
    ("a.ts", b"{'use gpu';\n" * 50_000),
    # An HTML page's script elements (engine/html_scripts.py): tags that never close, a tag
    # whose attributes never end, thousands of shader elements.
    ("p.html", b"<script>" * 50_000),
    ("p.html", b"<script type=" + b"a" * 200_000),
    ("p.html", b"<script type='x-shader/x-vertex'>void main() {\n</script>\n" * 10_000),
    ("p.html", b"<SCRIPT>const gl = c.getContext('webgl2');\n" * 20_000),
    ("a.py", b'S = """__global__ void k(int n) {}\nint main() ' + b"f(" * 100_000 + b'{ }\n"""\n'),
    ("a.py", b'S = """__global__ void k() {}\nint main() {\n' + b"{ }\n" * 50_000 + b'}"""\n'),
    ("a.py", b"def f():\n    g(\n" + b'        x="tl.load(p)",\n' * 30_000 + b"    )\n"),
    ("a.py", b"import cupy\ntry:\n" + b"\n" * 100_000 + b"    import cupy\n" * 20_000),
    # Includes spliced into a device function, DEVICE macro arguments and bodies far below,
    # Kokkos host policies, SYCL command groups (lane h37-misses).
    ("k.cuh", b"__device__ void f() {\n" + b'#include "frag.h"\n' * 50_000 + b"}\n"),
    ("k.cuh", b"__device__ void f() {\n" + b'{\n#include "a.h"\n}\n' * 30_000 + b"}\n"),
    ("x.h", b"#include <cuda_fp16.h>\nF(a, " + b"DEVICE, " * 100_000 + b"\n"),
    ("x.h", b"#include <cuda_fp16.h>\nF(a, DEVICE, " + b"\n" * 100_000 + b"W({ 1 })\n"),
    ("x.h", b"#include <cuda_fp16.h>\n" + b"F(a, DEVICE,\n\n" * 30_000),
    (
        "k.cpp",
        b"parallel_for(RangePolicy<Kokkos::Serial>(0, n),\n" * 30_000 + b"KOKKOS_LAMBDA(int i) {}",
    ),
    ("s.cpp", b"q.submit([&](handler& h) {" * 30_000),
    ("a.py", b"@jit\ndef f():\n" + b"    x = load(p, " * 50_000 + b"mask=m)\n    program_id(0)\n"),
    # An angle-bracket include naming folders without end; Vulkan's loader and allocator
    # headers and calls (lane h41-random-i).
    ("x.cpp", b"#include <" + b"a/" * 100_000),
    ("x.cpp", b'#include "' + b"a.b-c/" * 30_000 + b"volk.hp"),
    ("x.cpp", b"vmaMapMemory(VmaAllocation glfwCreateWindowSurface(SDL_Vulkan_" * 4_000),
    # One long CMake define naming a back end again and again: each name was tried against
    # every end of the run (lane h43-random-f).
    ("run.sh", b"cmake -D" + b"CUDA" * 50_000 + b"=OFF\n"),
    ("run.sh", b"cmake -D" + b"HIP" * 60_000 + b"=OFF\n"),
    ("run.sh", b"cmake -D" + b"SYCL" * 50_000 + b"=OFF\n"),
    # Attribute lists and base lists on one line, each item once read to the line's end
    # (cuda.fortran-host, hlsl.computesharp-shader: found by bench/rule_lines_bench.py).
    ("k.f90", b"program p\nuse cudafor\nreal" + b", device" * 50_000 + b"\nend\n"),
    ("k.cs", b"struct A " * 50_000 + b"IComputeShader\n"),
    ("k.cu", b"x" * 5_000_000),  # a 5 MB one-line file
    ("min.py", (b"a=torch.cuda.x;" * 330_000)),  # a 5 MB one-line file with hits
]


@pytest.mark.timeout(20)
@pytest.mark.parametrize(
    ("path", "data"), ADVERSARIAL, ids=[f"{p}:{d[:12]!r}" for p, d in ADVERSARIAL]
)
def test_adversarial_input_completes(path: str, data: bytes) -> None:
    _check_shape(classify(path, data), data)


@pytest.mark.timeout(20)
def test_long_macro_with_many_matches_completes() -> None:
    data = (
        b"#define BODY \\\n"
        + b"  __shared__ float s; threadIdx.x; cudaFree(p); \\\n" * 20_000
        + b"\n"
    )
    report = classify("k.cu", data)
    _check_shape(report, data)
    assert report.layers["kernel"] == report.code_lines
