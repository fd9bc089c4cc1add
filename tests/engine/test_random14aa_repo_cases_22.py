"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h50-random-aa).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 574-580. Two were skipped: ba-rem26007/gemma4-legacy-replay
(574) had no snapshot to fetch, and bdqnghi/tbcnn.tensorflow (578) was over the snapshot size
limit (532 MB). Read were apachecn/pytorch-doc-zh (Chinese translation of the PyTorch docs:
four counted files, Markdown is not counted), vengi-voxel/vengi (a C++ voxel editor with an
OpenGL/Vulkan renderer, GLSL shaders and vendored SDL3 GPU back ends), QCFD-Lab/qlbm (quantum
lattice Boltzmann circuits in Qiskit, one NVIDIA base image), jackruder/diffusion-driven-state-
space-models (PyTorch research code with CUDA device strings and SLURM GPU requests) and
qinx18/compiler-guided-triton-gen (a pipeline prompting an LLM to write Triton kernels, with
slides and prompt builders quoting Triton code). Fifteen files of each repository were sampled
with ``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable (up
to 10) checked apart, files outside the sample that hold kernel lines counted by hand (up to 5
a repository), and up to three commits touching GPU code (``random.Random("owner/name:commits")``)
judged against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern
found in the repository its test names; the expected layers are what a porting engineer reading
that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- qinx18/compiler-guided-triton-gen: a slide builder quoting one generated kernel ------------


def test_kernel_shown_on_a_slide_counts_its_literal_not_the_slide() -> None:
    # presentation/create_slides.py: a slide function lays out text boxes and puts a Triton
    # kernel, held in one triple-quoted literal, into a code box. The literal is the kernel; the
    # seventy lines laying out the slide were counted as kernel before.
    source = b'''\
def slide_gemm(deck):
    page = deck.new_slide("Generated kernel")
    page.text("C loop on the left, Triton on the right", size=12)
    page.text("C original", size=10)
    code = """@triton.jit
def gemm(a, b, c, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    acc = tl.load(a + row * n + cols)
    tl.store(c + row * n + cols, acc)"""
    page.code(code, size=9)
    page.text("2.1x faster than the C loop", size=10)
    page.text("one program per row", size=10)
    return page
'''
    assert _rules("presentation/make_slides.py", source) == {"triton.generated-source"}
    assert _layers("presentation/make_slides.py", source) == {"kernel": 6, "portable": 8}


def test_prompt_literal_counts_from_its_first_triton_line() -> None:
    # presentation/create_slides.py: a code box shows the analysis an LLM prompt carried, a
    # paragraph of prose and then two Triton lines; the prose above them is no kernel.
    source = b'''\
def slide_prompt(deck):
    page = deck.new_slide("Injected analysis")
    prompt = """\\
## REDUCTION FOUND
Variable: total (sum)
  Accumulate across the block.

Load then reduce:
  vals = tl.load(x_ptr + offs, mask=m)
  total = tl.sum(vals, axis=0)"""
    page.code(prompt, size=8)
    return page
'''
    assert _rules("presentation/make_slides.py", source) == {"triton.generated-source"}
    assert _layers("presentation/make_slides.py", source) == {"kernel": 2, "portable": 10}


def test_prose_naming_triton_ops_on_a_slide_is_portable() -> None:
    # presentation/create_slides.py: tables of prompt rules that name tl.arange, tl.dot() and
    # tl.constexpr in sentences; no call with an argument, no annotation, no kernel.
    source = b"""\
def slide_rules(deck):
    page = deck.new_slide("What the prompt says")
    rows = [
        ("7", "Triton rules", "constexpr block sizes, tl.arange outside loops, masked loads"),
        ("8", "Matmul", "Require tl.dot() and a tiled 2D grid"),
        ("9", "Ablation", "same retries, tl.constexpr -- only the analysis differs"),
    ]
    page.table(rows)
    return page
"""
    assert _rules("presentation/make_slides.py", source) == set()
    assert _layers("presentation/make_slides.py", source) == {"portable": 9}


def test_generator_writing_a_kernel_line_by_line_keeps_its_function() -> None:
    # analysis/legacy/compute_indirect_addressing.py: the prompt builder appends a kernel one
    # line at a time; the function stays the counted unit (already right before this lane).
    source = b"""\
def gather_hint(lines):
    lines.append("@triton.jit")
    lines.append("def gather(x_ptr, idx_ptr, out_ptr, BLOCK: tl.constexpr):")
    lines.append("    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)")
    lines.append("    idx = tl.load(idx_ptr + offs)")
    lines.append("    tl.store(out_ptr + offs, tl.load(x_ptr + idx))")
    return lines
"""
    assert _rules("analysis/hints.py", source) == {"triton.generated-source"}
    assert _layers("analysis/hints.py", source) == {"kernel": 7}


def test_nvc_offload_compiler_path_is_vendor_path() -> None:
    # pipeline/c_reference/app_omp_gpu_bench.py: an OpenMP offload benchmark built with the
    # NVIDIA HPC SDK's nvc (already right before this lane).
    source = b"""\
import subprocess

NVC = "/opt/nvidia/hpc_sdk/Linux_x86_64/24.1/compilers/bin/nvc"

def build(src, out):
    subprocess.run([NVC, "-mp=gpu", "-O3", src, "-o", out], check=True)
"""
    layers = _layers("bench/build_offload.py", source)
    assert layers.get("vendor-path", 0) >= 1
    assert "kernel" not in layers


# -- jackruder/diffusion-driven-state-space-models: CUDA device choice (already right) ---------


def test_cuda_device_choice_is_one_vendor_path_line() -> None:
    # src/ddssm/evaluate.py: the device is CUDA when present, else the CPU.
    source = b"""\
import torch

def pick():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return device
"""
    assert _rules("src/evaluate.py", source) == {"torch.device-string"}
    assert _layers("src/evaluate.py", source) == {"vendor-path": 1, "portable": 3}


def test_slurm_gpu_count_without_a_model_is_portable() -> None:
    # tests/test_launch.py: a job asks for a partition named gpu and one GPU, no vendor named.
    source = b"""\
def job():
    return dict(partition="gpu", gpus=1, workers_per_gpu=8, cpus=16)
"""
    assert _rules("tests/test_jobs.py", source) == set()
    assert _layers("tests/test_jobs.py", source) == {"portable": 2}
