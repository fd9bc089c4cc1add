"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h47-random-n).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone read
it; this lane took positions 105-112. One was skipped: yuweih205/pycuda_op has no snapshot
here. The seven read: wayne155/pytorch_timeseries (time-series models in PyTorch),
WaShindeiru/Molecular-Dynamics-Simulation (a CPU molecular-dynamics code in Rust),
thienhaicmu/tool-render-video (a video-clipping app: FastAPI, React, ffmpeg), proserve/
learning_pytorch (a Node.js back end beside a few PyTorch notebooks), triton-lang/triton-ascend
(Triton's compiler with a Huawei Ascend back end), easydiffusion/easydiffusion (a Stable
Diffusion UI) and askorama/onnx-go (ONNX models in Go). Fifteen files of each repository were
sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled before
any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it calls
portable (up to 10) checked apart, and three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- easydiffusion/easydiffusion: torch builds accepted by their local version tag -----------


def test_rocm_local_version_tag_in_python_string_is_vendor_path() -> None:
    # scripts/check_modules.py (commit be7adcc3, "Even older rocm versions"): the installer
    # accepts torch builds by tag, one f-string a line. The +cu tags were vendor-path already,
    # the +rocm ones portable, so the commit adding one passed the gate.
    source = b"""\
def with_gpu_builds(versions: tuple) -> tuple:
    accepted = versions
    accepted += tuple(f"{v}+cu121" for v in versions)
    accepted += tuple(f"{v}+rocm5.2" for v in versions)
    return accepted
"""
    assert _rules("scripts/check_modules.py", source) == {
        "deps.cuda-wheel-python",
        "deps.rocm-wheel-python",
    }
    assert _layers("scripts/check_modules.py", source) == {"vendor-path": 2, "portable": 3}


def test_rocm_pin_chosen_for_amd_cards_is_vendor_path() -> None:
    # scripts/check_modules.py (older revisions): the torch build to install is picked per
    # GPU; the AMD branch pins a ROCm wheel, the message naming ROCm stays portable.
    source = b"""\
def pick_torch(is_amd: bool) -> str:
    if is_amd:
        print("AMD card found: installing a ROCm build of torch")
        return "2.4.1+rocm6.1"
    return "2.4.1"
"""
    assert _rules("scripts/check_modules.py", source) == {"deps.rocm-wheel-python"}
    assert _layers("scripts/check_modules.py", source) == {"vendor-path": 1, "portable": 4}


def test_tensorrt_install_check_is_vendor_path() -> None:
    # ui/easydiffusion/task_manager.py: the TensorRT extra is enabled when its directory
    # exists; the rest of the device report travels (already right before this lane).
    source = b"""\
def describe_devices(root: str) -> dict:
    devices = {"all": list_devices()}
    devices["enable_trt"] = os.path.exists(os.path.join(root, "tensorrt"))
    return devices
"""
    assert _rules("ui/easydiffusion/task_manager.py", source) == {"deps.cuda-wheel-python"}
    assert _layers("ui/easydiffusion/task_manager.py", source) == {
        "vendor-path": 1,
        "portable": 3,
    }


def test_gpu_name_tested_for_nvidia_brands_in_javascript_is_vendor_path() -> None:
    # ui/media/js/parameters.js: the TensorRT installer is shown only when an active device's
    # name reads as NVIDIA's; the settings labels naming NVIDIA stay portable.
    source = b"""\
const TRT_LABEL = "NVIDIA TensorRT"
function showExtras(devices) {
    const nvidiaCards = Object.keys(devices.active).filter((id) => {
        const gpuName = devices.active[id].name.toLowerCase()
        return gpuName.includes("nvidia") || gpuName.includes("geforce") ||
            gpuName.includes("quadro")
    })
    if (nvidiaCards.length > 0) {
        document.querySelector("#extras").classList.remove("hidden")
    }
}
"""
    assert _rules("ui/media/js/parameters.js", source) == {"cuda.gpu-name-vendor-test"}
    assert _layers("ui/media/js/parameters.js", source) == {"vendor-path": 2, "portable": 9}


def test_vendor_names_listed_in_javascript_stay_portable() -> None:
    # The same file's settings table names the Vulkan platform and NVIDIA's product in labels
    # and option lists, which take no vendor's path.
    source = b"""\
const platforms = [
    { value: "auto", label: "Auto" },
    { value: "vulkan", label: "Vulkan (experimental)" },
]
const extras = { id: "nvidia_tensorrt", label: "NVIDIA TensorRT" }
if (searchBox.value.includes("nvidia")) highlight(extras)
"""
    assert not _rules("ui/media/js/parameters.js", source)


# -- triton-lang/triton-ascend: Triton's compiler, its kernels and its tests -----------------


def test_compiler_pass_with_its_own_static_atomic_add_is_portable() -> None:
    # lib/Conversion/TritonGPUToLLVM/HistogramOpToLLVM.cpp: a lowering defines a static
    # atomicAdd that emits an LLVM atomicrmw and calls it from a host helper; before, both
    # functions (43 lines) were CUDA device code.
    source = b"""\
static void atomicAdd(Value ptr, Value val, Location loc, Rewriter &rw) {
  rw.create<LLVM::AtomicRMWOp>(loc, LLVM::AtomicBinOp::add, ptr, val,
                               LLVM::AtomicOrdering::monotonic);
}

static SmallVector<Value> mergeIntoShared(Location loc, Rewriter &rw, Value base,
                                          ArrayRef<Value> partial, Value lane) {
  auto b = Builder(loc, rw);
  b.barrier();
  for (auto [i, v] : llvm::enumerate(partial)) {
    Value ptr = b.gep(base.getType(), i32_ty, base, b.add(lane, b.i32_val(i)));
    atomicAdd(ptr, v, loc, rw);
  }
  b.barrier();
  return {};
}
"""
    assert not _rules("lib/Conversion/TritonGPUToLLVM/HistogramOpToLLVM.cpp", source)


def test_cuda_file_with_marked_atomic_polyfill_keeps_its_device_body() -> None:
    # The other side of the static-atomicAdd exception: a CUDA double atomicAdd polyfill is
    # marked __device__, so helpers calling it stay device code.
    source = b"""\
static __inline__ __device__ double atomicAdd(double* a, double v) { return *a += v; }

DEVICE_FN void accumulate(double* sum, const double* x, int i) {
  atomicAdd(sum, x[threadIdx.x + i]);
}
"""
    assert "cuda.device-body" in _rules("src/accumulate.cu", source)
    assert _layers("src/accumulate.cu", source) == {"kernel": 4}


def test_backend_dispatch_of_tuning_flags_is_vendor_path() -> None:
    # python/triton_kernels/triton_kernels/matmul_ogs_details/opt_flags.py: per-vendor tile
    # heuristics sized from the CUDA device's SM count, chosen by the active back end.
    source = b"""\
def nvidia_flags(m, n, k):
    n_sms = torch.cuda.get_device_properties(0).multi_processor_count
    return {"block_m": 128 if m > n_sms else 64}


def make_flags(m, n, k):
    backend = triton.runtime.driver.active.get_current_target().backend
    if backend == "cuda":
        return nvidia_flags(m, n, k)
    return {"block_m": 64}
"""
    assert _rules("matmul_details/opt_flags.py", source) == {
        "torch.cuda-call",
        "torch.device-string",
    }
    assert _layers("matmul_details/opt_flags.py", source) == {"vendor-path": 2, "portable": 6}


def test_project_is_hip_helper_choosing_tile_sizes_stays_portable() -> None:
    # python/triton_kernels/triton_kernels/routing.py: the project's own is_hip() adds a
    # larger tile on AMD; the Triton kernels it launches live in another module.
    source = b"""\
from .target_info import is_hip


def tile_sizes():
    sizes = [16, 32, 64, 128]
    if is_hip():
        sizes.append(256)
    return sizes
"""
    assert not _rules("triton_kernels/routing.py", source)


def test_triton_kernel_source_written_to_disk_is_kernel_code() -> None:
    # python/test/unit/tools/test_aot.py: the ahead-of-time compiler test writes a Triton
    # kernel held in a string to kernel.py and compiles it.
    source = b'''\
KERNEL = """
import triton
import triton.language as tl

@triton.jit
def scale(X, Y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(Y + offs, tl.load(X + offs, mask=offs < n) * 2, mask=offs < n)
"""


def write_kernel(path):
    with open(path, "w") as f:
        f.write(KERNEL)
'''
    assert _rules("python/test/unit/tools/test_aot.py", source) == {"triton.generated-source"}
    assert _layers("python/test/unit/tools/test_aot.py", source)["kernel"] >= 5


# -- askorama/onnx-go and WaShindeiru/Molecular-Dynamics-Simulation: no GPU at all -----------


def test_go_operator_named_after_a_kernel_shape_stays_portable() -> None:
    # backend/testbackend/onnx/onnx_test_convtranspose_kernel_shape_test.go: a generated test
    # whose operator attribute is a convolution's kernel_shape.
    source = b"""\
package onnxtest

func TestConvTransposeKernelShape(t *testing.T) {
\tcase := NewTestConvTransposeKernelShape()
\tif len(case.Model.Graph.Input) != len(case.Input) {
\t\tt.Fatalf("model has %v inputs", len(case.Model.Graph.Input))
\t}
}
"""
    assert not _rules("backend/onnx_test_convtranspose_kernel_shape_test.go", source)


def test_rust_shared_box_container_stays_portable() -> None:
    # src/sim_core/world/boxed_world/box_task/force_task_box_container_test.rs: CPU cells of a
    # molecular-dynamics world shared between threads (into_shared), no GPU.
    source = b"""\
#[test]
fn forces_cross_box_boundaries() {
    let container = BoxContainer::new_local(config()).into_shared();
    let view = container.view_select_boxes(&[0, 1]);
    assert_eq!(view.len(), 2);
}
"""
    assert not _rules("src/world/box_container_test.rs", source)
