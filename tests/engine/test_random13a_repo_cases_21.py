"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h49-random-a).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 273-279. Two were skipped: idanez26-lang/VoxelForge-Engine
(275) had no snapshot to fetch, and jy1559/FeaturedMoE (278) was over the snapshot size limit
(1.1 GB). Read were dmrs07/voxelyn (a TypeScript voxel and pixel library with a Svelte editor
drawing through WebGL, GLSL held in template strings), mattfischer/raytrace (a C++ ray tracer
with an OpenCL renderer and .cl kernels), adamrobcarter/diffusion_toolbox (Python scripts
analysing particle diffusion, no GPU code), P-R-N-D/ENN-PyTorch (a PyTorch training framework
with CUDA/XPU/MPS branches, a Triton kernel, Transformer Engine, TensorRT export and
cuFINUFFT) and deric/clueminer (a Java clustering platform, no GPU code). Fifteen files of
each repository were sampled with ``random.Random("owner/name")`` over every file lockin counts
and labelled before any fix, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10) checked apart, files outside the sample that
hold kernel lines counted by hand (up to 5 a repository), and up to three commits touching GPU
code (``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is
a small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- P-R-N-D/ENN-PyTorch: cuFINUFFT imported inside the loss that plans a GPU NUFFT --------------


def test_cufinufft_import_is_vendor_library() -> None:
    # enn_torch/runtime/losses.py: the spectral loss imports cufinufft in the function that
    # builds the plan, and refuses tensors that are not on a CUDA device.
    source = b"""\
import torch

def spectral_plan(points, modes):
    try:
        import cufinufft
    except ImportError as err:
        raise RuntimeError("GPU NUFFT missing") from err
    if points.device.type != "cuda":
        raise RuntimeError("needs a CUDA tensor")
    return cufinufft.Plan(1, modes, dtype="complex64")
"""
    assert _rules("loss/spectral.py", source) == {
        "cuda-libs.python-extension",
        "torch.device-string",
    }
    assert _layers("loss/spectral.py", source) == {
        "vendor-library": 1,
        "vendor-path": 1,
        "portable": 7,
    }


def test_cpu_finufft_stays_portable() -> None:
    source = b"""\
import finufft

def spectrum(x, y, c):
    return finufft.nufft2d1(x, y, c, (32, 32))
"""
    assert _rules("loss/spectral.py", source) == set()
    assert _layers("loss/spectral.py", source) == {"portable": 3}


# -- P-R-N-D/ENN-PyTorch: the CUDA version kept in a run's metadata -------------------------------


def test_cuda_version_in_run_metadata_stays_portable() -> None:
    # enn_torch/runtime/workflows.py: each training record keeps the Python, torch and CUDA
    # versions; reading torch.version.cuda reports the build and picks no device.
    source = b"""\
import torch as _torch

def record_env(meta):
    meta.setdefault("torch", _torch.__version__)
    meta.setdefault(
        "cuda", getattr(getattr(_torch, "version", None), "cuda", None)
    )
    meta.setdefault("cuda", _torch.version.cuda)
    return meta
"""
    assert _rules("train/history.py", source) == set()
    assert _layers("train/history.py", source) == {"portable": 8}


def test_cuda_device_beside_a_version_still_counts() -> None:
    # The same call shape with a device index after "cuda" is a CUDA device, not a version.
    source = b"""\
import torch

def pick(idx):
    return torch.device("cuda", idx)
"""
    assert _rules("train/device.py", source) == {"torch.device-string"}
    assert _layers("train/device.py", source) == {"vendor-path": 1, "portable": 2}


# -- verdicts that were already right -------------------------------------------------------------


def test_transformer_engine_and_multi_vendor_sets() -> None:
    # enn_torch/core/system.py and precision.py: Transformer Engine is NVIDIA's library; a set
    # naming cuda, xpu and mps together chooses among vendors and stays portable.
    source = b"""\
def accelerated(dev):
    return dev.type in {"cuda", "xpu", "mps"}

def fp8_recipe():
    from transformer_engine.common.recipe import DelayedScaling
    return DelayedScaling()
"""
    assert _rules("core/precision.py", source) == {"cuda-libs.python-llm-kernels"}
    assert _layers("core/precision.py", source) == {"vendor-library": 1, "portable": 4}


def test_triton_body_without_decorator_is_kernel() -> None:
    # enn_torch/nn/kernels.py: the retention scan's body uses tl.program_id and tl.load and is
    # launched with a grid; every line of the def is device code.
    source = b"""\
import triton.language as tl

def _scan(V, OUT, L: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for t in range(0, L):
        acc = acc + tl.load(V + t * BLOCK + offs)
        tl.store(OUT + t * BLOCK + offs, acc)
"""
    assert _layers("nn/kernels.py", source)["kernel"] == 7


def test_opencl_kernel_file_is_all_kernel() -> None:
    # mattfischer/raytrace Math/Impl/Sampler/CLKernels.cl: plain C structs and functions in a
    # .cl file compiled by the OpenCL renderer; all of it is device code.
    source = b"""\
typedef struct {
    unsigned int width;
    int *primes;
} Sampler;

float Sampler_value(Sampler *s, unsigned int i)
{
    return (float)s->primes[i % s->width];
}
"""
    assert _layers("Math/CLKernels.cl", source) == {"kernel": 8}


def test_glsl_in_a_typescript_template_string_is_kernel() -> None:
    # dmrs07/voxelyn packages/voxelforge-editor/src/lib/render/voxel-mesh-renderer.ts: the
    # WebGL2 renderer holds its two shaders in template literals.
    source = b"""\
export function makeProgram(gl: WebGL2RenderingContext) {
  const vs = `#version 300 es
  in vec3 a_pos;
  uniform mat4 u_mvp;
  void main() {
    gl_Position = u_mvp * vec4(a_pos, 1.0);
  }
  `;
  return compile(gl, vs);
}
"""
    assert _layers("render/mesh.ts", source) == {"kernel": 7, "portable": 3}


def test_webgl_texture_upload_without_shaders_stays_portable() -> None:
    # dmrs07/voxelyn packages/voxelyn-core/src/adapters/webglTexture.ts: WebGL host calls run
    # on every vendor's GPU.
    source = b"""\
export function upload(gl: WebGLRenderingContext, pixels: Uint8Array, w: number, h: number) {
  const tex = gl.createTexture();
  gl.bindTexture(gl.TEXTURE_2D, tex);
  gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, w, h, 0, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
  return tex;
}
"""
    assert _rules("adapters/texture.ts", source) == set()
    assert _layers("adapters/texture.ts", source) == {"portable": 6}


# -- P-R-N-D/ENN-PyTorch: collective backends of several vendors named together ------------------


def test_collective_backends_of_several_vendors_stay_portable() -> None:
    # enn_torch/runtime/distributed.py: the timeout and device checks accept NCCL, Intel's
    # XCCL, Huawei's HCCL and AMD's RCCL alike, and a chain picks the backend per device.
    source = b"""\
def is_accelerator_backend(name):
    return any(b in name for b in ("nccl", "xccl", "hccl", "rccl"))

def backend_matches(backend, dev):
    if backend == "nccl":
        return dev == "gpu"
    elif backend == "xccl":
        return dev == "gpu"
    return backend in ("nccl", "xccl") and dev in ("cuda", "xpu")
"""
    assert _rules("dist/backends.py", source) == set()
    assert _layers("dist/backends.py", source) == {"portable": 8}


def test_nccl_with_a_cpu_fallback_still_counts() -> None:
    # gloo runs on the CPU: a choice between NCCL and gloo leaves NVIDIA the only GPU path.
    source = b"""\
import torch.distributed as dist

def start(use_gpu):
    dist.init_process_group("nccl" if use_gpu else "gloo")
    return dist.get_backend() in ("nccl", "gloo")
"""
    assert _rules("dist/start.py", source) == {"torch.device-string"}
    assert _layers("dist/start.py", source) == {"vendor-path": 2, "portable": 2}
