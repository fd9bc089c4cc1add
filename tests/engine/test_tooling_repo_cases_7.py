"""Cases from a seventh audit: GPU tooling and infrastructure, GPU code in Go and Nim (issue 27).

Syllo/nvtop (a GPU monitor in C with one back end per vendor), XuehaiPan/nvitop (an NVML
monitor in Python), pytorch/kineto (PyTorch's profiler library on CUPTI, rocprofiler-sdk and
Intel PTI), NVIDIA/k8s-device-plugin (a Kubernetes device plug-in in Go on go-nvml),
gorgonia/cu (Go bindings of the CUDA driver, NVRTC, cuBLAS and cuDNN through cgo) and
mratsim/Arraymancer (a Nim tensor library with CUDA kernels in {.emit.} strings and an OpenCL
back end). Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

import re

from bot.engine import RULES, classify
from bot.engine.languages import LANGUAGES
from tests.engine.test_ml_repo_cases import _layers
from tests.policy.test_gate_growth import delta, judge

# -- Syllo/nvtop: one back end per vendor, each on that vendor's management interface -----------


def test_nvtop_nvidia_back_end_on_nvml_it_declares_itself_is_nvidia_library_code() -> None:
    # src/extract_gpuinfo_nvidia.c: no nvml.h; NVML's types and entry points are declared as
    # function pointers, filled by dlsym from libnvidia-ml.so, and called through them.
    source = b"""\
typedef struct nvmlDevice *nvmlDevice_t;
typedef int nvmlReturn_t;
static nvmlReturn_t (*nvmlInit)(void);
static nvmlReturn_t (*nvmlDeviceGetCount)(unsigned int *deviceCount);

static bool gpuinfo_nvidia_init(void) {
  void *lib = dlopen("libnvidia-ml.so.1", RTLD_LAZY);
  if (!lib)
    return false;
  nvmlInit = dlsym(lib, "nvmlInit_v2");
  nvmlDeviceGetCount = dlsym(lib, "nvmlDeviceGetCount_v2");
  return nvmlInit() == 0;
}

static unsigned count_devices(void) {
  unsigned count = 0;
  nvmlDeviceGetCount(&count);
  return count;
}
"""
    report = classify("src/extract_gpuinfo_nvidia.c", source)
    # The typedefs, the pointer declarations, the calls and the dlopen of libnvidia-ml by
    # name (cuda.library-load-name, round 8: the load fails off NVIDIA's driver); assigning
    # dlsym's answer to a pointer is not itself a call.
    assert report.ecosystems == {"cuda": 7}
    assert _layers("src/extract_gpuinfo_nvidia.c", source) == {"vendor-path": 7, "portable": 10}


def test_nvtop_generic_dispatcher_over_the_back_ends_stays_portable() -> None:
    # src/extract_gpuinfo.c: walks the registered vendors through a table of function
    # pointers; it names none of their interfaces.
    source = b"""\
struct gpu_vendor {
  bool (*init)(void);
  bool (*get_device_handles)(struct list_head *devices, unsigned *count);
  void (*refresh_dynamic_info)(struct gpu_info *info);
};

bool gpuinfo_init_info_extraction(struct list_head *vendors, unsigned *count) {
  struct gpu_vendor *vendor;
  list_for_each_entry(vendor, vendors, list) {
    if (vendor->init())
      vendor->get_device_handles(devices, count);
  }
  return true;
}
"""
    assert _layers("src/extract_gpuinfo.c", source) == {"portable": 13}


def test_nvtop_amdgpu_back_end_on_libdrm_is_amd_code() -> None:
    # src/extract_gpuinfo_amdgpu.c: libdrm_amdgpu's device and sensor queries.
    source = b"""\
static void refresh(struct gpu_info_amdgpu *gpu) {
  uint32_t sclk = 0;
  if (!_amdgpu_query_sensor_info(gpu->amdgpu_device, AMDGPU_INFO_SENSOR_GFX_SCLK,
                                 sizeof(sclk), &sclk))
    gpu->base.dynamic_info.gpu_clock_speed = sclk;
  struct drm_amdgpu_info_device info;
  amdgpu_query_info(gpu->amdgpu_device, AMDGPU_INFO_DEV_INFO, sizeof(info), &info);
}
"""
    report = classify("src/extract_gpuinfo_amdgpu.c", source)
    # nvtop's own _amdgpu_query_sensor_info pointer is found by the AMDGPU_INFO_ request.
    assert report.ecosystems == {"hip": 4}
    assert _layers("src/extract_gpuinfo_amdgpu.c", source) == {"vendor-path": 4, "portable": 4}


def test_nvtop_i915_back_end_is_intel_code_and_ascend_back_end_is_huawei_code() -> None:
    # src/extract_gpuinfo_intel_i915.c asks the i915 driver for its memory regions;
    # src/extract_gpuinfo_ascend.c reads the NPUs through DCMI.
    intel = b"""\
static bool read_regions(int fd, struct drm_i915_query_memory_regions *regions) {
  struct drm_i915_query_item item = {.query_id = DRM_I915_QUERY_MEMORY_REGIONS};
  struct drm_i915_query query = {.num_items = 1, .items_ptr = (uintptr_t)&item};
  return ioctl(fd, DRM_IOCTL_I915_QUERY, &query) == 0;
}
"""
    report = classify("src/extract_gpuinfo_intel_i915.c", intel)
    assert report.ecosystems == {"sycl": 4}
    assert {RULES[f.rule].vendors for f in report.findings} == {frozenset({"intel"})}
    ascend = b"""\
static void refresh(struct gpu_info_ascend *gpu) {
  unsigned rate = 0;
  if (dcmi_get_device_utilization_rate(gpu->card_id, gpu->device_id, 2, &rate) == 0)
    gpu->base.dynamic_info.gpu_util_rate = rate;
}
"""
    assert classify("src/extract_gpuinfo_ascend.c", ascend).ecosystems == {"ascend": 2}


# -- XuehaiPan/nvitop: NVML from Python ----------------------------------------------------------


def test_nvitop_libnvml_wrapper_over_pynvml_is_nvidia_library_code() -> None:
    # nvitop/api/libnvml.py: pynvml's functions re-exported with nvitop's error handling.
    source = b"""\
import pynvml

NVMLError = pynvml.NVMLError


def nvmlQuery(func, *args, default=None):
    try:
        return func(*args)
    except NVMLError:
        return default


def device_count():
    pynvml.nvmlInit()
    return nvmlQuery(pynvml.nvmlDeviceGetCount, default=0)
"""
    assert classify("nvitop/api/libnvml.py", source).ecosystems == {"cuda": 6}


def test_nvitop_panel_drawing_through_its_device_objects_stays_portable() -> None:
    # nvitop/tui/screens/main/panels/process.py: formats what nvitop's Device objects return;
    # the NVML calls are behind them in nvitop/api.
    source = b"""\
class ProcessPanel:
    def rows(self, devices):
        for device in devices:
            for process in device.processes().values():
                yield (device.index, process.pid, process.gpu_memory_human())
"""
    assert _layers("nvitop/tui/screens/main/panels/process.py", source) == {"portable": 5}


# -- pytorch/kineto: one tracer back end per vendor ----------------------------------------------


def test_kineto_cupti_activity_api_is_nvidia_code() -> None:
    # libkineto/src/CuptiActivityApi.cpp: activity kinds enabled and buffers flushed.
    source = b"""\
#include <cupti.h>

void CuptiActivityApi::enableActivities(const std::set<ActivityType>& types) {
  for (const auto& type : types) {
    if (type == ActivityType::CONCURRENT_KERNEL) {
      CUPTI_CALL(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
    }
  }
  CUPTI_CALL(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
}
"""
    report = classify("libkineto/src/CuptiActivityApi.cpp", source)
    assert report.ecosystems == {"cuda": 3}


def test_kineto_settings_named_after_cupti_are_not_cupti() -> None:
    # libkineto/include/Config.h: the profiler's own settings and kineto's CUPTI_CALL macro.
    source = b"""\
class Config {
 public:
  int64_t cuptiDeviceBufferSize() const {
    return cuptiDeviceBufferSize_;
  }
 private:
  int64_t cuptiDeviceBufferSize_;
};
"""
    assert _layers("libkineto/include/Config.h", source) == {"portable": 8}


def test_kineto_rocprofiler_and_intel_pti_back_ends_are_amd_and_intel_code() -> None:
    # libkineto/src/RocprofLogger.cpp and libkineto/src/plugin/xpupti/XpuptiActivityApi.cpp.
    rocm = b"""\
void RocprofLogger::startLogging() {
  rocprofiler_start_context(context_);
}
"""
    assert classify("libkineto/src/RocprofLogger.cpp", rocm).ecosystems == {"hip": 1}
    intel = b"""\
void XpuptiActivityApi::enableActivities() {
  XPUPTI_CALL(ptiViewEnable(PTI_VIEW_DEVICE_GPU_KERNEL));
  XPUPTI_CALL(ptiViewEnable(PTI_VIEW_DEVICE_GPU_MEM_COPY));
}
"""
    report = classify("libkineto/src/plugin/xpupti/XpuptiActivityApi.cpp", intel)
    assert report.ecosystems == {"sycl": 2}
    assert {RULES[f.rule].vendors for f in report.findings} == {frozenset({"intel"})}


# -- NVIDIA/k8s-device-plugin: go-nvml and cgo ---------------------------------------------------


HEALTH_BEFORE = """\
package rm

func (r *nvmlResourceManager) checkHealth(stop <-chan interface{}, devices Devices) error {
	<-stop
	return nil
}
"""

HEALTH_AFTER = """\
package rm

func (r *nvmlResourceManager) checkHealth(stop <-chan interface{}, devices Devices) error {
	ret := r.nvml.Init()
	if ret != nvml.SUCCESS {
		return fmt.Errorf("failed to initialize NVML: %v", ret)
	}
	eventSet, ret := r.nvml.EventSetCreate()
	if ret != nvml.SUCCESS {
		return fmt.Errorf("failed to create event set: %v", ret)
	}
	defer eventSet.Free()
	<-stop
	return nil
}
"""


def test_device_plugin_health_check_on_go_nvml_is_nvidia_library_code() -> None:
    # internal/rm/health.go: go-nvml's package constants and the Interface's calls.
    report = classify("internal/rm/health.go", HEALTH_AFTER.encode())
    # An `if` testing an NVML result is one line: the body it opens is matched line by line.
    assert report.ecosystems == {"cuda": 4}
    assert _layers("internal/rm/health.go", HEALTH_AFTER.encode()) == {
        "vendor-path": 4,
        "portable": 10,
    }


def test_a_commit_adding_nvml_event_checks_fails_the_gate() -> None:
    # The commit that gave the health check its XID event set: new NVIDIA-only lines.
    verdict = judge(delta("internal/rm/health.go", HEALTH_BEFORE, HEALTH_AFTER))
    assert verdict.conclusion == "failure"


def test_a_commit_on_the_config_flags_passes_the_gate() -> None:
    # api/config/v1/flags.go: a new command-line flag; no GPU interface touched.
    before = 'package v1\n\nvar flags = []string{"mig-strategy"}\n'
    after = 'package v1\n\nvar flags = []string{"mig-strategy", "fail-on-init-error"}\n'
    verdict = judge(delta("api/config/v1/flags.go", before, after))
    assert verdict.conclusion == "success"


def test_device_plugin_test_mocks_named_after_nvml_stay_portable() -> None:
    # cmd/gpu-feature-discovery/main_test.go: the project's own mock, named nvmlMock.
    source = b"""\
func TestRunOneshot(t *testing.T) {
	nvmlMock := NewTestNvmlMock()
	conf := Config{manager: nvmlMock}
	run(conf)
}
"""
    assert _layers("cmd/gpu-feature-discovery/main_test.go", source) == {"portable": 5}


def test_device_plugin_cgo_call_of_cuinit_is_cuda_driver_code() -> None:
    # internal/cuda/cuda.go: cuInit and cuDeviceGetAttribute reached through cgo.
    source = b"""\
package cuda

import "C"

func cuInit(flags uint32) Result {
	return Result(C.cuInit(C.uint(flags)))
}
"""
    assert classify("internal/cuda/cuda.go", source).ecosystems == {"cuda": 1}


# -- gorgonia/cu: the CUDA driver, cuBLAS and cuDNN from Go ---------------------------------------


def test_gorgonia_cu_driver_bindings_are_cuda_driver_code() -> None:
    # memory.go and stream.go: C.cu* calls and C.CU* handle types.
    source = b"""\
func MemAlloc(bytesize int64) (DevicePtr, error) {
	var d C.CUdeviceptr
	if err := result(C.cuMemAlloc(&d, C.size_t(bytesize))); err != nil {
		return 0, err
	}
	return DevicePtr(d), nil
}
"""
    assert _layers("memory.go", source) == {"vendor-path": 2, "portable": 5}


def test_gorgonia_cublas_and_cudnn_bindings_are_nvidia_library_code() -> None:
    # blas/implementation.go and dnn/handle.go.
    source = b"""\
func NewContext() (*Context, error) {
	var handle C.cudnnHandle_t
	if err := result(C.cudnnCreate(&handle)); err != nil {
		return nil, err
	}
	return &Context{internal: handle}, nil
}
"""
    assert _layers("dnn/handle.go", source) == {"vendor-library": 2, "portable": 5}


def test_gorgonia_cpu_stub_calling_c_malloc_stays_portable() -> None:
    # fake.go: the CPU build's allocator is C's malloc.
    source = b"""\
func fakeAlloc(n int64) unsafe.Pointer {
	return C.malloc(C.size_t(n))
}
"""
    assert _layers("fake.go", source) == {"portable": 3}


# -- mratsim/Arraymancer: CUDA and OpenCL from Nim ---------------------------------------------


def test_nim_triple_quoted_strings_and_block_comments_are_tokens() -> None:
    # A Nim long string runs to the next triple quote, with no escapes; #[ ]# and ##[ ]## are
    # block comments.
    pattern = re.compile(LANGUAGES["Nim"].family.tokens.pattern)
    source = 'let k = """a "b"\nc\\""" # done\n#[ x\ny ]#\nlet s = "u"\n'
    tokens = [(m.lastgroup, m.group()) for m in pattern.finditer(source)]
    assert tokens == [
        ("string", '"""a "b"\nc\\"""'),
        ("comment", "# done"),
        ("comment", "#[ x\ny ]#"),
        ("string", '"u"'),
    ]


def test_arraymancer_global_kernel_in_an_emit_is_cuda_kernel_code() -> None:
    # src/arraymancer/tensor/private/incl_higher_order_cuda.nim: the grid-stride kernel that
    # applies a functor, pasted into the C++ Nim generates.
    source = b"""\
# Apply a functor over two tensors
{.emit:[\"\"\"
  template<typename T, typename Op>
  __global__ void cuda_apply2(const int len, T * __restrict__ dst, Op f,
                              const T * __restrict__ src){
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < len;
         i += blockDim.x * gridDim.x) {
      f(&dst[i], &src[i]);
    }
  }
\"\"\"].}
"""
    path = "src/arraymancer/tensor/private/incl_higher_order_cuda.nim"
    assert classify(path, source).ecosystems == {"cuda": 10}
    assert _layers(path, source) == {"kernel": 10}


def test_arraymancer_nim_on_nimcuda_and_cublas_is_nvidia_code() -> None:
    # src/arraymancer/tensor/backend/cuda.nim and cublas.nim.
    source = b"""\
import nimcuda/cuda12_5/[check, cuda_runtime_api, cublas_api]

proc cudaMalloc*[T](size: Natural): ptr UncheckedArray[T] =
  check cudaMalloc(cast[ptr pointer](addr result), csize_t(size * sizeof(T)))

proc cublas_axpy*(n: int, alpha: float32, x, y: ptr float32) =
  check cublasSaxpy(defaultHandle, n.cint, unsafeAddr alpha, x, 1, y, 1)
"""
    path = "src/arraymancer/tensor/backend/cuda.nim"
    assert _layers(path, source) == {"vendor-library": 1, "vendor-path": 2, "portable": 2}


def test_arraymancer_opencl_back_end_imports_are_opencl_host_code() -> None:
    # src/arraymancer/tensor/backend/opencl_global_state.nim and operators_blas_l1_opencl.nim.
    source = b"""\
import nimcl, opencl, clblast

let (clDevice0*, clContext0*, clQueue0*) = singleDeviceDefaults()
"""
    path = "src/arraymancer/tensor/backend/opencl_global_state.nim"
    assert _layers(path, source) == {"vendor-path": 1, "portable": 1}
    portable = b"""\
import ./backend/opencl_backend, ./private/p_kernels_interface_opencl

proc `+`*[T: SomeFloat](a, b: ClTensor[T]): ClTensor[T] = elementwise(a, b)
"""
    assert _layers("src/arraymancer/tensor/operators_broadcasted_opencl.nim", portable) == {
        "portable": 2
    }


# -- zml/zml: zml-smi, a monitor in Zig over NVML and AMD SMI -------------------------------------


def test_zml_smi_zig_back_ends_on_nvml_and_amd_smi_are_vendor_code() -> None:
    # bin/zml-smi/platforms/nvml/nvml.zig and amdsmi/amdsmi.zig: the C libraries imported
    # with @cImport, their handles kept as c.* types and their entry points called.
    nvidia = b"""\
pub const Handle = c.nvmlDevice_t;

pub fn count(self: *Nvml) !u32 {
    var n: c_uint = 0;
    try check(self.nvmlDeviceGetCount_v2(&n));
    return n;
}
"""
    assert classify("bin/zml-smi/platforms/nvml/nvml.zig", nvidia).ecosystems == {"cuda": 2}
    amd = b"""\
pub const Handle = c.amdsmi_processor_handle;

pub fn init(self: *AmdSmi) !void {
    try check(self.amdsmi_init(c.AMDSMI_INIT_AMD_GPUS));
}
"""
    assert classify("bin/zml-smi/platforms/amdsmi/amdsmi.zig", amd).ecosystems == {"hip": 2}
    portable = b"""\
pub fn render(w: anytype, m: Metrics) !void {
    try w.print("gpu_utilization {d}\\n", .{m.utilization});
}
"""
    assert _layers("bin/zml-smi/prometheus/exposition.zig", portable) == {"portable": 3}


# -- NVIDIA/dcgm-exporter: DCGM from Go ---------------------------------------------------------


def test_dcgm_exporter_go_dcgm_calls_are_nvidia_code() -> None:
    # internal/pkg/dcgmprovider/dcgm.go: go-dcgm's groups and field watches.
    source = b"""\
func (d dcgmProvider) WatchFields(name string, fields []dcgm.Short) (dcgm.FieldHandle, error) {
	group, err := dcgm.FieldGroupCreate(name, fields)
	return group, err
}

func (d dcgmProvider) Name() string {
	return "dcgm"
}
"""
    report = classify("internal/pkg/dcgmprovider/dcgm.go", source)
    # A signature naming go-dcgm's types is one line, not the function it opens; the method
    # that only returns a name stays portable.
    assert report.ecosystems == {"cuda": 2}
    assert _layers("internal/pkg/dcgmprovider/dcgm.go", source) == {
        "vendor-path": 2,
        "portable": 5,
    }


def test_dcgm_exporter_metric_names_in_strings_are_not_dcgm_calls() -> None:
    # internal/pkg/transformation/const.go: the exporter's own metric names, as strings.
    source = b"""\
const (
	gpuUtilMetric = "DCGM_FI_DEV_GPU_UTIL"
	fbUsedMetric  = "DCGM_FI_DEV_FB_USED"
)
"""
    assert _layers("internal/pkg/transformation/const.go", source) == {"portable": 4}
