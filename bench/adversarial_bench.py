"""Benchmark: the engine's speed on inputs built to make it slow, in MB/s, in one process.

    python bench/adversarial_bench.py [--mb 1.0] [--floor 2.0] [--only NAME ...]
    python bench/adversarial_bench.py --reference bench/corpus/flash-attention --floor-ratio 0.1

Each input is a file a pull request author could write (long macros with many matches,
thousands of ``#if`` branches, unclosed conditional chains, deep braces, a 4 MB single line,
unterminated strings and comments, keyword soup, ``__device__`` repeated inside string
literals, ...). It is classified once (the best of ``--repeat`` runs is kept) and the table
prints its size, wall and CPU seconds and MB/s of each. With ``--floor F`` the exit status is
1 when any input is slower than F MB/s of CPU time (wall time on a shared machine measures
the neighbours as much as the engine), so the figure can gate a change.

With ``--reference DIR ...`` the files of those folders that lockin counts are classified
first, in the same process, for the engine's speed on real code; each input's CPU MB/s is
then also given as a share of it (``x real``), and ``--floor-ratio R`` exits 1 when an
input is slower than R times real code: a goal that a busier or faster machine scales alike.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.engine.classify import classify  # noqa: E402
from bot.engine.languages import by_path  # noqa: E402

Maker = Callable[[int], tuple[str, str]]  # size in bytes -> (path, text)


def _repeat(unit: str, size: int) -> str:
    return unit * max(1, size // len(unit))


def long_macro(size: int) -> tuple[str, str]:
    body = _repeat("  threadIdx.x + blockIdx.x + __syncthreads(); cudaMalloc(p); \\\n", size)
    return "k.cu", f"#define BIG(x) \\\n{body}  0\n"


def if_branches(size: int) -> tuple[str, str]:
    unit = (
        "#if defined(__CUDA_ARCH__)\nint a;\n#elif defined(USE_ROCM)\nint b;\n"
        "#else\nint c;\n#endif\n"
    )
    return "k.cu", _repeat(unit, size)


def unclosed_if(size: int) -> tuple[str, str]:
    unit = "#ifdef __CUDACC__\nint a;\n#else\n#ifndef USE_ROCM\nint b;\n#else\n"
    return "k.cu", _repeat(unit, size)


def deep_braces(size: int) -> tuple[str, str]:
    half = size // 4
    return "k.cu", "__global__ void k() " + "{" * half + "\n" + "}" * half + "\n"


def unclosed_braces(size: int) -> tuple[str, str]:
    return "k.cu", _repeat("__device__ void f() { if (x) { threadIdx.x;\n", size)


def single_line(size: int) -> tuple[str, str]:
    return "k.cu", _repeat("__device__ int f(int x) { return threadIdx.x; } ", size)


def single_line_words(size: int) -> tuple[str, str]:
    return "k.cu", _repeat("cudaMalloc x ", size)


def unterminated_string(size: int) -> tuple[str, str]:
    return "k.py", 'x = """' + _repeat("__global__ void k() { threadIdx.x; }\n", size)


def unterminated_comment(size: int) -> tuple[str, str]:
    return "k.cu", "/*" + _repeat("__global__ void k() { threadIdx.x; }\n", size)


def unterminated_quotes(size: int) -> tuple[str, str]:
    return "k.cu", _repeat('"cudaMalloc(\\\n', size)


def keyword_density(size: int) -> tuple[str, str]:
    unit = "__global__ __device__ threadIdx cudaMalloc <<< cublas nccl __shared__ hip wmma::\n"
    return "k.cu", _repeat(unit, size)


def device_in_py_string(size: int) -> tuple[str, str]:
    return "k.py", 'SRC = r"""' + _repeat("__device__ ", size) + '"""\n'


def device_in_cpp_raw_string(size: int) -> tuple[str, str]:
    return "k.cpp", 'const char* s = R"(' + _repeat("__device__ ", size) + ')";\n'


def device_in_rust_string(size: int) -> tuple[str, str]:
    return "k.rs", 'const S: &str = r#"' + _repeat("__device__ ", size) + '"#;\n'


def many_device_macros(size: int) -> tuple[str, str]:
    count = max(1, size // 60)
    defines = "".join(f"#define M{i} __device__\n" for i in range(count))
    uses = "".join(f"M{i} int f{i}(int x);\n" for i in range(0, count, 7))
    return "k.cu", defines + uses


def device_every_line(size: int) -> tuple[str, str]:
    return "k.cu", _repeat("__device__ int x;\n", size)


def device_every_line_no_end(size: int) -> tuple[str, str]:
    return "k.cu", _repeat("__device__ int x\n", size)


def rawkernel_tuple(size: int) -> tuple[str, str]:
    names = max(1, size // 40)
    items = ", ".join(f"'a{i}'" for i in range(names))
    return "k.py", f"import cupy as cp\nK = cp.RawKernel(({items}), 'k')\n"


def rawkernel_many(size: int) -> tuple[str, str]:
    unit = "k = cp.RawKernel(SRC, 'name')\n"
    return "k.py", "import cupy as cp\nSRC = '__global__ void k() {}'\n" + _repeat(unit, size)


def rawkernel_names(size: int) -> tuple[str, str]:
    count = max(1, size // 50)
    consts = "".join(f"S{i} = 'x'\n" for i in range(count))
    call = "k = cp.RawKernel(" + " + ".join(f"S{i}" for i in range(count)) + ", 'k')\n"
    return "k.py", "import cupy as cp\n" + consts + call


def dockerfile(size: int) -> tuple[str, str]:
    unit = "RUN amdgpu-install --usecase=rocm && apt-get install -y cuda-toolkit-12-4 \\\n"
    return "Dockerfile", "FROM nvidia/cuda:12.4.0-devel\n" + _repeat(unit, size) + "  true\n"


def python_nesting(size: int) -> tuple[str, str]:
    return "k.py", "import triton\nx = (" + _repeat("[(tl.program_id(0),\n", size) + "\n"


def python_defs(size: int) -> tuple[str, str]:
    unit = "@triton.jit\ndef k(x):\n    tl.program_id(0)\n"
    return "k.py", "import triton\nimport triton.language as tl\n" + _repeat(unit, size)


def stacked_decorators(size: int) -> tuple[str, str]:
    unit = "@triton.jit\n" * 50 + "def k(x):\n    tl.program_id(0)\n"
    return "k.py", "import triton\nimport triton.language as tl\n" + _repeat(unit, size)


def unclosed_functions_in_branches(size: int) -> tuple[str, str]:
    unit = "KERNEL void f(int* p) {\n#ifdef USE_CUDA\n  p[threadIdx.x] = 0;\n#else\n"
    return "k.cc", _repeat(unit, size)


def cmake_args(size: int) -> tuple[str, str]:
    unit = 'set(CMAKE_CUDA_ARCHITECTURES "70;80;90" -gencode arch=compute_80,code=sm_80)\n'
    return "CMakeLists.txt", _repeat(unit, size)


def statement_no_end(size: int) -> tuple[str, str]:
    return "k.cu", _repeat("cudaMalloc x\n", size)


def branches_in_one_function(size: int) -> tuple[str, str]:
    unit = "#ifdef USE_CUDA\n  p[threadIdx.x] = 0;\n#endif\n"
    return "k.cc", "KERNEL void f(int* p) {\n" + _repeat(unit, size) + "}\n"


def nested_device_lists(size: int) -> tuple[str, str]:
    half = max(1, size // 10)
    return "k.py", "x = " + "['cuda', " * half + "]" * half + "\n"


def device_dispatch_chain(size: int) -> tuple[str, str]:
    unit = "if d == 'cuda':\n    pass\nelif d == 'cuda:0':\n    pass\n"
    return "k.py", _repeat(unit, size)


def kernel_heads_in_string(size: int) -> tuple[str, str]:
    return "k.py", 'SRC = """' + _repeat("kernel void f(", size) + '"""\n'


def swift_metal_strings(size: int) -> tuple[str, str]:
    unit = (
        '"kernel void f(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]]) {" +\n'
    )
    return "k.swift", "let src = " + _repeat(unit, size) + '"}"\n'


def js_wgsl_templates(size: int) -> tuple[str, str]:
    unit = "const s = `@compute @workgroup_size(64) fn main() {}`;\n"
    return "k.js", _repeat(unit, size)


def rust_cube_attributes(size: int) -> tuple[str, str]:
    unit = "#[cube(launch)]\nfn k(x: &Array<f32>) {\n    let i = ABSOLUTE_POS;\n"
    return "k.rs", "use cubecl::prelude::*;\n" + _repeat(unit, size)


def rust_unclosed_device_fns(size: int) -> tuple[str, str]:
    unit = "#[kernel]\npub unsafe fn k(x: *mut f32) {\n    let i = thread::index_1d();\n"
    return "k.rs", "use cuda_std::*;\n" + _repeat(unit, size)


def rust_ptx_strings(size: int) -> tuple[str, str]:
    unit = 'const P: &str = r#".version 7.5\n.target sm_70\n.visible .entry k(\n"#;\n'
    return "k.rs", _repeat(unit, size)


def opencl_file_unclosed(size: int) -> tuple[str, str]:
    unit = "DECLSPEC void f(u32* w) {\n  const u64 gid = get_global_id(0);\n#if VECT_SIZE == 2\n"
    return "k.cl", _repeat(unit, size)


def opencl_host_strings(size: int) -> tuple[str, str]:
    unit = '"__kernel void k(__global int* d) { d[get_global_id(0)] = 0; }\\n"\n'
    return "k.cpp", "const char* src =\n" + _repeat(unit, size) + ";\n"


def cmake_languages_line(size: int) -> tuple[str, str]:
    return "CMakeLists.txt", "project(x " + _repeat("LANGUAGES C ", size) + ") CUDA\n"


def meson_add_languages_line(size: int) -> tuple[str, str]:
    return "meson.build", _repeat("add_languages(", size) + ") 'cuda'\n"


def vulkan_vendor_if_line(size: int) -> tuple[str, str]:
    return "k.cpp", _repeat("if (x ", size) + "; VK_NV_x\n"


def unclosed_import_lists(size: int) -> tuple[str, str]:
    # Triton's and TileLang's file conditions look for the package named in an import list;
    # open lists that never close must not make each `import (` scan to the end.
    head = "@triton.jit\ndef k(x):\n    pass\n@T.prim_func\ndef m(x):\n    pass\n"
    return "k.py", head + _repeat("import (", size) + "\ntriton tilelang\n"


def sycl_unclosed_captures(size: int) -> tuple[str, str]:
    # sycl.parallel-for-lambda looks for a lambda's capture list after parallel_for(: a line
    # of '[' that never close must not be rescanned from every bracket.
    head = "#include <sycl/sycl.hpp>\nvoid f(sycl::queue q) {\n    ParallelFor(q, n, "
    return "k.sycl", head + _repeat("[", size) + "\n}\n"


def sycl_unclosed_launches(size: int) -> tuple[str, str]:
    # sycl.kernel reads a launch's arguments to the lambda's body: a launch on every line whose
    # parameter list never closes must not have each match read the lines after it.
    line = "h.parallel_for([=](sycl::id<1> i\n"
    return "k.cpp", "#include <sycl/sycl.hpp>\n" + _repeat(line, size)


def sycl_launches_with_calls(size: int) -> tuple[str, str]:
    # sycl-unclosed-launches with a call closed on every line: the walk over each match's
    # parameter list finds a ')' ahead, so it reads its whole budget of brackets.
    line = "h.parallel_for([=](sycl::id<1> i, f(x)\n"
    return "k.cpp", "#include <sycl/sycl.hpp>\n" + _repeat(line, size)


def sycl_unclosed_bodies(size: int) -> tuple[str, str]:
    # A kernel on every line whose body never closes: each runs to the file's end, and the
    # calls its callees closure reads must be read once, not once per kernel.
    line = "q.parallel_for(sycl::range<1>(n), [=](sycl::item<1> it) { f(\n"
    return "k.cpp", "#include <sycl/sycl.hpp>\n" + _repeat(line, size)


def sycl_callee_uses(size: int) -> tuple[str, str]:
    # A kernel calling f, and a use of f on every line that opens a parameter list never
    # closed: the callees closure must find f's definitions without reading ahead of each use.
    head = (
        "#include <sycl/sycl.hpp>\nvoid run(sycl::queue& q) {\n"
        "  q.parallel_for(sycl::range<1>(8), [=](sycl::id<1> i) { f(i); });\n}\n"
    )
    return "k.cpp", head + _repeat("f(\n", size)


def pycuda_unclosed_assignments(size: int) -> tuple[str, str]:
    # A kernel's source assigned on every line, each opening a bracket it never closes: each
    # line is read for the one statement holding it, not for every assignment above it (a
    # thousand lines each: 0.01 MB/s until stop 47).
    head = "from pycuda.compiler import SourceModule\nmod = SourceModule(src)\n"
    return "k.py", head + _repeat('src = ("__global__ void k() {}" % {"a": 1,\n', size)


def pallas_called_defs(size: int) -> tuple[str, str]:
    # Defs of one name and a launch of that name on every third line: each name's defs are
    # claimed once, not once per launch naming them.
    head = "from jax.experimental import pallas as pl\n"
    unit = "def k(x_ref):\n    x_ref[0] = 1\nout = pl.pallas_call(k)(x)\n"
    return "k.py", head + _repeat(unit, size)


def unclosed_include_paths(size: int) -> tuple[str, str]:
    # One line of `#include <` never closed by a '>': each path is read a bounded way, not to
    # the end of the line (h41-random-i found 150 KB of them taking 1.7 s).
    return "k.cpp", _repeat("#include <a/volk.x ", size) + "\n"


def jinja_unclosed_tags(size: int) -> tuple[str, str]:
    # A Jinja template of CUDA (by its kernel) whose tags never close: the first runs to the
    # end of the file, once.
    head = "__global__ void k(float *u) { u[0] = 0; }\n"
    return "k.cu.j2", head + _repeat("{{ x\n{% if y\n{# z\n", size)


def jinja_branch_kernels(size: int) -> tuple[str, str]:
    # A kernel on every few lines whose `{% if %}` and `{% else %}` branches each open a brace:
    # every branch read as a #if branch, none closing the kernel on its own.
    unit = (
        "{%- if a %}\n__global__ void k{{ i }}({{ t }} *u) {\n"
        "{%- else %}\n{ {{ x }}\n{%- endif %}\n"
    )
    return "k.cu.j2", _repeat(unit, size)


def js_regex_after_tokens(size: int) -> tuple[str, str]:
    # A '/' after every kind of token that lets a regular expression literal open, some of
    # them closing, some not, with quotes and backticks inside.
    unit = (
        "a=/x`/;b(/[/]'/,c)/d/e:/f\"/g[/h/]!/i/&/j/|/k/?/l/{/m/}/n/;"
        "return/o/ typeof/p/ s => /q/ x = (/[`/ y / z\n  /r'/.test(t)\n"
    )
    return "k.js", _repeat(unit, size)


def js_regex_one_line(size: int) -> tuple[str, str]:
    # One line of character classes holding a '/' after a '(' each, so that every '/' may open
    # a literal that runs over the rest of the line: each is read once.
    return "k.js", "x=/" + _repeat("[(/][(/]", size) + "\n"


def notebook_many_cells(size: int) -> tuple[str, str]:
    # A notebook of small code cells, each a Triton kernel, written as nbformat writes them:
    # the walk and the line map run per source string in Python, and every cell's lines join
    # one Python file.
    source = ["import triton\n", "@triton.jit\n", "def k(x):\n", "    tl.load(x)\n"]
    cell = {"cell_type": "code", "metadata": {}, "outputs": [], "source": source}
    count = max(1, size // len(json.dumps(cell, indent=1)))
    return "k.ipynb", json.dumps({"cells": [cell] * count, "metadata": {}}, indent=1)


def notebook_one_line(size: int) -> tuple[str, str]:
    # A minified notebook whose one code cell is one string of many lines: every line of the
    # cell maps onto the notebook's single line.
    source = json.dumps(
        "import triton\n" + _repeat("@triton.jit\ndef k(x):\n    tl.store(x, 1)\n", size)
    )
    return (
        "k.ipynb",
        f'{{"cells": [{{"cell_type": "code", "source": {source}}}], "metadata": {{}}}}',
    )


def dotted_file_name(size: int) -> tuple[str, str]:
    # A file name of a hundred thousand dots (git stores any name a tree entry is given): the
    # extension is read from the name's end, not from each dotted suffix in turn.
    return ".x" * 100_000 + ".cu", _repeat("__global__ void k(float* p) { p[0] = 1; }\n", size)


def html_shader_elements(size: int) -> tuple[str, str]:
    # A page of thousands of shader elements, each a line (engine/html_scripts.py): read as a
    # file a stage, not a file an element (one each took 0.46 s for 570 KB).
    unit = "<script type='x-shader/x-vertex'>void main() {\n</script>\n"
    return "index.html", _repeat(unit, size)


def fortran_attribute_lists(size: int) -> tuple[str, str]:
    # One declaration line of device attributes without `::`: each `, device` was read to the
    # line's end looking for it (cuda.fortran-host, 5 s for 40 KB until stop 53).
    return "k.f90", "program p\nuse cudafor\nreal" + _repeat(", device", size) + "\nend\n"


def csharp_struct_heads(size: int) -> tuple[str, str]:
    # One line of struct heads without a base list, ending in ComputeSharp's interface: each
    # `struct` was read to the line's end for a colon (hlsl.computesharp-shader, 0.5 s for 45 KB).
    return "k.cs", "using X;\n" + _repeat("struct A ", size) + "IComputeShader\n"


INPUTS: dict[str, Maker] = {
    "long-macro": long_macro,
    "if-branches": if_branches,
    "unclosed-if-else": unclosed_if,
    "deep-braces": deep_braces,
    "unclosed-braces": unclosed_braces,
    "single-line-4mb": single_line,
    "single-line-words": single_line_words,
    "unterminated-string": unterminated_string,
    "unterminated-comment": unterminated_comment,
    "unterminated-quotes": unterminated_quotes,
    "keyword-density": keyword_density,
    "device-in-py-string": device_in_py_string,
    "device-in-cpp-raw-string": device_in_cpp_raw_string,
    "device-in-rust-string": device_in_rust_string,
    "many-device-macros": many_device_macros,
    "device-every-line": device_every_line,
    "device-every-line-no-end": device_every_line_no_end,
    "statement-no-end": statement_no_end,
    "rawkernel-tuple": rawkernel_tuple,
    "rawkernel-many": rawkernel_many,
    "rawkernel-names": rawkernel_names,
    "dockerfile": dockerfile,
    "python-nesting": python_nesting,
    "python-defs": python_defs,
    "stacked-decorators": stacked_decorators,
    "unclosed-functions-in-branches": unclosed_functions_in_branches,
    "cmake-args": cmake_args,
    "branches-in-one-function": branches_in_one_function,
    "nested-device-lists": nested_device_lists,
    "device-dispatch-chain": device_dispatch_chain,
    "kernel-heads-in-string": kernel_heads_in_string,
    "swift-metal-strings": swift_metal_strings,
    "js-wgsl-templates": js_wgsl_templates,
    "rust-cube-attributes": rust_cube_attributes,
    "rust-unclosed-device-fns": rust_unclosed_device_fns,
    "rust-ptx-strings": rust_ptx_strings,
    "opencl-file-unclosed": opencl_file_unclosed,
    "opencl-host-strings": opencl_host_strings,
    "cmake-languages-line": cmake_languages_line,
    "meson-add-languages-line": meson_add_languages_line,
    "vulkan-vendor-if-line": vulkan_vendor_if_line,
    "unclosed-import-lists": unclosed_import_lists,
    "sycl-unclosed-captures": sycl_unclosed_captures,
    "sycl-unclosed-launches": sycl_unclosed_launches,
    "sycl-launches-with-calls": sycl_launches_with_calls,
    "sycl-unclosed-bodies": sycl_unclosed_bodies,
    "sycl-callee-uses": sycl_callee_uses,
    "pallas-called-defs": pallas_called_defs,
    "pycuda-unclosed-assignments": pycuda_unclosed_assignments,
    "unclosed-include-paths": unclosed_include_paths,
    "jinja-unclosed-tags": jinja_unclosed_tags,
    "jinja-branch-kernels": jinja_branch_kernels,
    "js-regex-after-tokens": js_regex_after_tokens,
    "js-regex-one-line": js_regex_one_line,
    "notebook-many-cells": notebook_many_cells,
    "notebook-one-line": notebook_one_line,
    "dotted-file-name": dotted_file_name,
    "html-shader-elements": html_shader_elements,
    "fortran-attribute-lists": fortran_attribute_lists,
    "csharp-struct-heads": csharp_struct_heads,
}
#: Inputs measured at the 4 MiB pull-request file limit whatever --mb says.
_FULL_SIZE = {"single-line-4mb": 4 * 1024 * 1024}


def measure(name: str, size: int, repeat: int) -> tuple[int, float, float]:
    """Bytes, and the best wall and CPU seconds of ``repeat`` classifications."""
    path, text = INPUTS[name](_FULL_SIZE.get(name, size))
    data = text.encode()
    wall = cpu = float("inf")
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        report = classify(path, data)
        wall = min(wall, time.perf_counter() - t0)
        cpu = min(cpu, time.process_time() - c0)
        if report.skipped == "error":
            raise SystemExit(f"{name}: the engine gave up on the input")
    return len(data), wall, cpu


def real_code_rate(folders: list[Path], repeat: int) -> tuple[int, int, float]:
    """Files, bytes and CPU MB/s (best of ``repeat``) of classifying every counted file."""
    files = [
        (str(path), path.read_bytes())
        for folder in folders
        for path in sorted(folder.rglob("*"))
        if path.is_file() and by_path(str(path))[0] is not None
    ]
    nbytes = sum(len(data) for _, data in files)
    cpu = float("inf")
    for _ in range(repeat):
        c0 = time.process_time()
        for path, data in files:
            classify(path, data)
        cpu = min(cpu, time.process_time() - c0)
    return len(files), nbytes, nbytes / 1e6 / max(cpu, 1e-9)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=1.0, help="size of each input (MB)")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--floor", type=float, help="exit 1 when an input is below F MB/s")
    parser.add_argument("--only", nargs="*", choices=sorted(INPUTS), default=None)
    parser.add_argument("--reference", nargs="*", type=Path, default=[], metavar="DIR")
    parser.add_argument(
        "--floor-ratio", type=float, help="with --reference: exit 1 below R x real code"
    )
    args = parser.parse_args(argv)
    if args.floor_ratio is not None and not args.reference:
        parser.error("--floor-ratio needs --reference")
    size = int(args.mb * 1_000_000)
    slow: list[str] = []
    classify("warm.cu", b"__global__ void k() { threadIdx.x; }\n")  # lazy setup not timed
    real = None
    if args.reference:
        count, nbytes, real = real_code_rate(args.reference, args.repeat)
        print(f"real code: {count} files, {nbytes / 1e6:.1f} MB, {real:.1f} cpu MB/s")
    ratio = f" {'x real':>6}" if real else ""
    print(f"{'input':28} {'MB':>6} {'wall s':>7} {'cpu s':>7} {'MB/s':>6} {'cpu MB/s':>8}{ratio}")
    for name in args.only or INPUTS:
        nbytes, wall, cpu = measure(name, size, args.repeat)
        mb = nbytes / 1e6
        rate = mb / max(cpu, 1e-9)
        share = f" {rate / real:6.2f}" if real else ""
        print(
            f"{name:28} {mb:6.2f} {wall:7.3f} {cpu:7.3f} {mb / max(wall, 1e-9):6.1f} {rate:8.1f}"
            + share,
            flush=True,
        )
        below_floor = args.floor is not None and rate < args.floor
        below_share = real and args.floor_ratio is not None and rate < args.floor_ratio * real
        if below_floor or below_share:
            slow.append(name)
    if slow:
        print(f"too slow: {', '.join(slow)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
