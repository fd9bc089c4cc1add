"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h55-random-k).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")`` before anyone read it, from its position 253 on, that hold a
GPU term by the written rule in ``/work/pool/h55_gpu_rule.py`` (a rule on the name's text
only, so some are no GPU code at all). This lane took sub-pool positions 15-21. One was
skipped: zpengmei/rocm-libraries (15) had no snapshot to fetch. Read were javaee/metro-jax-ws
(the JAX-WS reference implementation: Java web services, SOAP tests, no GPU code),
aFuerst/PyCUDA-Raster (a QGIS plugin computing slope, aspect and hillshade of elevation
rasters with CUDA C kernels compiled by PyCUDA's SourceModule, in three copies of its
Python), szx/master_thesis_vulkan_engine (a master's thesis renderer in C on Vulkan: its own
wrappers of devices, buffers and render passes, GLSL shaders and a GLSL header generator),
SachCZ/raytracer (a C++ laser-plasma ray tracer on MFEM with its Doxygen HTML, no GPU code),
ciresnave/baracuda (Rust wrappers of the CUDA driver and runtime APIs and of NVIDIA's
libraries, with some 330 hand-written CUDA kernel files behind an op facade and a kernel
generator) and Dwarfius/VulkanRTSEngine (a C++ game engine with OpenGL and Vulkan back ends
whose GLSL shaders are kept as .txt files). Fifteen files of each repository were sampled
with ``random.Random("owner/name")`` over every file lockin counts and labelled before any
fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it calls
portable (up to 10) checked apart, files outside the sample that hold kernel lines counted
by hand (up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ciresnave/baracuda: the CUDA stack wrapped in crates of its own names ------------------


def test_smoke_test_on_the_driver_wrapper_crate_is_vendor_path() -> None:
    # crates/baracuda-kernels/tests/softmax_smoke.rs and five more sampled tests (portable
    # before): a context, device buffers and a stream made through baracuda-driver, the CUDA
    # driver API's wrapper, under generic names that say nothing of CUDA.
    source = b"""\
use baracuda_driver::{Context, Device, DeviceBuffer, Stream, init};
use baracuda_kernels::{SoftmaxDescriptor, SoftmaxPlan};

fn open() -> (Context, Stream) {
    init().expect("driver");
    let ctx = Context::new(&Device::get(0).expect("gpu")).expect("ctx");
    let stream = Stream::new(&ctx).expect("stream");
    (ctx, stream)
}

#[test]
fn rows_sum_to_one() {
    let (ctx, stream) = open();
    let x = DeviceBuffer::from_slice(&ctx, &[1.0f32, 2.0, 3.0]).expect("up");
    let plan = SoftmaxPlan::<f32>::new(SoftmaxDescriptor { rows: 1, cols: 3 });
    plan.run(&stream, &x).expect("run");
}
"""
    path = "crates/ops/tests/softmax_smoke.rs"
    assert _rules(path, source) == {"cuda.rust-bindings"}
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


def test_plan_taking_the_wrapper_crates_stream_is_vendor_path() -> None:
    # crates/baracuda-kernels/src/quantize/per_tensor.rs (portable before): a plan whose run
    # takes baracuda-driver's Stream and hands its raw handle to a CUDA kernel's entry point.
    # The CUTLASS wrapper's Result it imports calls no library.
    source = b"""\
use baracuda_cutlass::{Error, Result};
use baracuda_driver::Stream;

pub struct ScalePlan { n: i64 }

impl ScalePlan {
    pub fn run(&self, stream: &Stream, x: *const f32, y: *mut f32) -> Result<()> {
        if self.n == 0 { return Ok(()); }
        let code = unsafe { ops_sys::scale_f32_run(self.n, x, y, stream.as_raw()) };
        if code != 0 { return Err(Error::Launch(code)); }
        Ok(())
    }
}
"""
    path = "crates/ops/src/quantize/scale.rs"
    assert _rules(path, source) == {"cuda.rust-bindings"}
    assert _layers(path, source)["vendor-path"] == 1


def test_runtime_wrapper_over_the_sys_crate_is_vendor_path() -> None:
    # crates/baracuda-runtime/src/device.rs (sampled, already vendor-path by its snake_case
    # cuda_* lookups): the import of the runtime's sys crate is the runtime API too.
    source = b"""\
use baracuda_cuda_sys::runtime::{runtime, types::cudaDeviceAttr as Attr};

pub struct Device(pub(crate) i32);

impl Device {
    pub fn warp_size(&self) -> Result<i32> {
        let r = runtime()?;
        let get = r.cuda_device_get_attribute()?;
        let mut v = 0;
        check(unsafe { get(&mut v, Attr::WARP_SIZE, self.0) })?;
        Ok(v)
    }
}
"""
    path = "crates/runtime/src/device.rs"
    assert _rules(path, source) == {"cuda.rust-bindings"}
    assert _layers(path, source)["vendor-path"] == 2


def test_cv_cuda_example_through_its_wrapper_is_vendor_library() -> None:
    # examples/cvcuda_resize_pipeline.rs (portable before): NVIDIA's CV-CUDA operators
    # through baracuda-cvcuda, on a stream of baracuda-runtime.
    source = b"""\
use baracuda_cvcuda::*;
use baracuda_runtime::{Device, Stream};

fn main() {
    Device::from_ordinal(0).set_current().unwrap();
    let stream = Stream::new().unwrap();
    let src = Tensor::new(&[1, 720, 1280, 3], 2, 0).unwrap();
    let dst = Tensor::new(&[1, 256, 256, 3], 2, 0).unwrap();
    let op = Resize::new().unwrap();
    unsafe { op.submit(stream.as_raw(), &src, &dst, Interpolation::Linear).unwrap() };
    stream.synchronize().unwrap();
}
"""
    path = "examples/resize_frame.rs"
    assert _rules(path, source) == {"cuda-libs.rust-ffi", "cuda.rust-bindings"}
    assert set(_layers(path, source)) == {"vendor-library", "vendor-path", "portable"}


def test_cublas_wrapper_naming_the_sys_crates_types_is_vendor_library() -> None:
    # crates/baracuda-cublas/src/level1.rs (a GPU-looking file called portable before): the
    # BLAS-1 wrappers, typed by cuBLAS's handle and status from the sys crate.
    source = b"""\
use baracuda_cublas_sys::{cublas, cublasHandle_t, cublasStatus_t};

pub trait Level1: Sized {
    unsafe fn scal(h: cublasHandle_t, n: i32, a: &Self, x: *mut Self) -> cublasStatus_t;
}

impl Level1 for f32 {
    unsafe fn scal(h: cublasHandle_t, n: i32, a: &Self, x: *mut Self) -> cublasStatus_t {
        let f = cublas().unwrap().sscal().unwrap();
        f(h, n, a, x, 1)
    }
}
"""
    path = "crates/blas/src/level1.rs"
    assert _rules(path, source) == {"cuda-libs.rust-ffi"}
    assert set(_layers(path, source)) == {"vendor-library", "portable"}


def test_kernel_generator_fuzzer_naming_its_cuda_backend_is_portable() -> None:
    # crates/baracuda-kernelgen/src/fuzz.rs (sampled, already portable): random IR lowered
    # through the generator's Cuda, CpuC and Slang back ends and checked as text.
    source = b"""\
use crate::{CpuC, Cuda, OpDef, Slang, generate};

#[test]
fn every_backend_writes_its_output() {
    let op = OpDef::elementwise("neg", 1);
    for (name, src) in [
        ("cuda", generate(&op, &Cuda).source),
        ("cpu_c", generate(&op, &CpuC).source),
        ("slang", generate(&op, &Slang).source),
    ] {
        assert!(src.contains("out"), "{name} wrote no store");
    }
}
"""
    path = "crates/kernelgen/src/fuzz.rs"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_cu_file_of_macro_instantiations_stays_vendor_path() -> None:
    # crates/baracuda-kernels-sys/kernels/elementwise/repeat_backward_fp.cu (sampled, already
    # right): the kernel lives in the header; the unit only instantiates it per dtype.
    source = b"""\
// Backward of repeat: sums every repeated cell into its source.
#include "../include/ops_elementwise.cuh"

OPS_REPEAT_BACKWARD_INSTANTIATE(repeat_backward_f32, float)
OPS_REPEAT_BACKWARD_INSTANTIATE(repeat_backward_f16, __half)
OPS_REPEAT_BACKWARD_INSTANTIATE(repeat_backward_f64, double)
"""
    path = "kernels/elementwise/repeat_backward.cu"
    assert _layers(path, source) == {"vendor-path": 4}


def test_warp_reduction_header_is_kernel() -> None:
    # crates/baracuda-kernels-sys/kernels/include/baracuda_smem_reduce.cuh (extra kernel
    # file, hand 150, lockin 150): shuffle and shared-memory reductions as device functions.
    source = b"""\
#pragma once
#include <cuda_runtime.h>

namespace ops {

__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__device__ __forceinline__ float block_sum(float v, float* scratch) {
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warp_sum(v);
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    v = (threadIdx.x < blockDim.x / 32) ? scratch[lane] : 0.0f;
    return warp_sum(v);
}

}  // namespace ops
"""
    path = "kernels/include/ops_reduce.cuh"
    layers = _layers(path, source)
    assert layers["kernel"] == 12
    assert "vendor-path" in layers


# -- aFuerst/PyCUDA-Raster: CUDA C in Python strings, compiled by PyCUDA ---------------------


def test_pycuda_source_module_kernel_and_its_host_calls() -> None:
    # CUDARaster_guionly/gpuCalc.py (sampled, hand about 109, lockin 122, in range): the
    # kernel's text handed to SourceModule, its buffers moved with pycuda.driver.
    source = b'''\
import numpy as np
import pycuda.driver as cuda
from pycuda.compiler import SourceModule


def build():
    return SourceModule("""
    __global__ void scale(float *data, float *out, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) {
            out[i] = data[i] * 2.0f;
        }
    }
    """)


def run(host):
    dev = cuda.mem_alloc(host.nbytes)
    cuda.memcpy_htod(dev, host)
    build().get_function("scale")(dev, dev, np.int32(host.size), block=(256, 1, 1))
    cuda.memcpy_dtoh(host, dev)
'''
    path = "raster/gpuCalc.py"
    layers = _layers(path, source)
    assert 6 <= layers["kernel"] <= 9
    assert layers["vendor-path"] >= 4


def test_qgis_plugin_named_for_cuda_is_portable() -> None:
    # CUDARaster/cudaRaster.py (sampled, already portable): a QGIS plugin's menu, dialog and
    # translations; the word CUDA is only in its names and labels.
    source = b"""\
from qgis.PyQt.QtCore import QCoreApplication
from .cudaRaster_dialog import CUDARasterDialog


class CUDARaster:
    def __init__(self, iface):
        self.iface = iface
        self.dlg = CUDARasterDialog()
        self.menu = self.tr(u"&CUDA Raster")

    def tr(self, message):
        return QCoreApplication.translate("CUDARaster", message)
"""
    path = "CUDARaster/cudaRaster.py"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- szx/master_thesis_vulkan_engine: Vulkan in C behind the engine's own wrappers -----------


def test_vulkan_draw_recording_in_c_is_vendor_path() -> None:
    # src/vulkan/renderers/batch.c (sampled, already right): indirect draws recorded into a
    # VkCommandBuffer.
    source = b"""\
#include "batch.h"

void batch_record_draw(batch *b, VkCommandBuffer cmd) {
  assert(b->count > 0);
  vkCmdDrawIndexedIndirect(cmd, b->buffer, 0, b->count, sizeof(VkDrawIndexedIndirectCommand));
}

size_t batch_count(batch *b) { return b->count; }
"""
    path = "src/vulkan/renderers/batch.c"
    assert _rules(path, source) == {"vulkan.host-api"}
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


def test_engine_code_on_its_own_vulkan_wrappers_is_portable() -> None:
    # src/vulkan/objects/unified_constant_buffer.c (sampled, already portable): the engine's
    # own device and buffer types, named vkd and buffer_*, call no Vulkan function.
    source = b"""\
#include "unified_constant_buffer.h"

constant_buffer *constant_buffer_create(device *vkd, size_t count) {
  constant_buffer *cb = core_alloc(sizeof(constant_buffer));
  cb->buffer = buffer_create(vkd, buffer_type_uniform);
  cb->count = count;
  buffer_make_resident(cb->buffer);
  return cb;
}
"""
    path = "src/vulkan/objects/constant_buffer.c"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_vulkan_feature_enabled_in_device_creation_is_vendor_path() -> None:
    # Commit 2763dc2a2ab8 (gate failed, right): one line enabling a Vulkan 1.2 feature in the
    # struct handed to vkCreateDevice.
    source = b"""\
void create_logical_device(vulkan_device *vkd) {
  VkPhysicalDeviceVulkan12Features features12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
      .descriptorBindingPartiallyBound = VK_TRUE,
      .runtimeDescriptorArray = VK_TRUE,
  };
  vkd->features = features12;
}
"""
    path = "src/vulkan/objects/device.c"
    assert "vulkan.host-api" in _rules(path, source)
    assert _layers(path, source)["vendor-path"] >= 5


# -- Dwarfius/VulkanRTSEngine: GLSL shaders kept under .txt names ----------------------------


def test_glsl_fragment_shader_in_a_stage_named_txt_is_kernel() -> None:
    # assets/Engine/baseFrag.txt (one of 29 shaders given no language before): GLSL read by
    # the engine's shader loader, named for its stage.
    source = b"""\
#version 420
#include "Engine/Adapters/CameraAdapter.txt"

in vec3 normalOut;
in vec2 uvsOut;
uniform sampler2D tex;
layout(location = 0) out vec4 outColor;

void main()
{
    vec3 n = normalize(normalOut);
    outColor = texture(tex, uvsOut) * max(n.z, 0.1);
}
"""
    path = "assets/Engine/litFrag.txt"
    assert _rules(path, source) == {"vulkan.shader-file"}
    assert _layers(path, source) == {"kernel": 11}


def test_glsl_tessellation_stages_in_txt_files_are_kernel() -> None:
    # assets/TestTerrain/tessCtrl.txt and assets/Editor/IDTerrainPipelineEval.txt: the
    # terrain's tessellation control and evaluation stages.
    ctrl = b"""\
#version 420
layout(vertices = 4) out;
uniform float tessLevel;

void main()
{
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    gl_TessLevelOuter[0] = tessLevel;
}
"""
    assert _layers("assets/Terrain/tessCtrl.txt", ctrl) == {"kernel": 8}
    assert _layers("assets/Editor/TerrainPipelineEval.txt", ctrl) == {"kernel": 8}


def test_txt_named_like_a_stage_without_glsl_stays_text() -> None:
    # The heuristic's negative: a note whose name ends like a stage (convert.txt) and a
    # shader-named file that only quotes the directive in prose.
    note = b"""\
How to convert the old meshes:
run the importer, then pick version 2 of the format.
"""
    assert _layers("docs/convert.txt", note) == {}
    prose = b"""\
The shaders need OpenGL 4.2: every file starts with a version line.
See the loader for the include syntax.
"""
    assert _layers("assets/shader_notes.txt", prose) == {}
    # An included snippet without its own #version line is left as text (not counted).
    snippet = b"""\
layout (std140, binding = 5) uniform CameraAdapter
{
    mat4 ViewProj;
};
"""
    assert _layers("assets/Engine/Adapters/CameraVert.txt", snippet) == {}


def test_umbrella_crate_paths_name_the_wrapped_libraries() -> None:
    # crates/baracuda/examples/matmul_cublas.rs (a GPU-looking file called portable before):
    # the umbrella crate re-exports each wrapper as a module (baracuda::cublas::,
    # baracuda::driver::).
    source = b"""\
use baracuda::cublas::{Handle, Op, gemm};
use baracuda::driver::{Context, Device, DeviceBuffer};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    baracuda::driver::init()?;
    let ctx = Context::new(&Device::get(0)?)?;
    let a = DeviceBuffer::<f32>::zeros(&ctx, 16)?;
    let h = Handle::new()?;
    gemm(&h, Op::N, Op::N, 4, 4, 4, 1.0, &a, &a, 0.0, &a)?;
    Ok(())
}
"""
    path = "examples/matmul.rs"
    assert _rules(path, source) == {"cuda-libs.rust-ffi", "cuda.rust-bindings"}
    layers = _layers(path, source)
    assert layers["vendor-library"] == 1
    assert layers["vendor-path"] == 2
