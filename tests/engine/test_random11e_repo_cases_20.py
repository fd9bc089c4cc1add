"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h48-random-e).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone read
it; this lane took positions 189-195. paiml/aprender (190) had no snapshot and was skipped; the
others were read: Stars1233/aerial-cuda-accelerated-ran (NVIDIA Aerial: cuPHY, cuMAC and their
MATLAB reference models), ntminer/NtMiner (a .NET mining-rig manager binding NVML, NVAPI and
AMD's ADL), MooreThreads/tensorflow_musa_extension (TensorFlow's plug-in for Moore Threads
GPUs), onnx/onnx-mlir (an ONNX compiler with an IBM Z NNPA back end), Latias94/llm_dart (a Dart
LLM client) and tensorflow/agents (TF-Agents, with TPU strategies). Fifteen files of each
repository were sampled with ``random.Random("owner/name")`` over every file lockin counts and
labelled before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking
files it calls portable (up to 10) checked apart, and three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ntminer/NtMiner: NVIDIA's NVAPI and AMD's ADL bound from C# ------------------------------


def test_dotnet_nvapi_binding_is_vendor_path() -> None:
    # src/NTMinerGpus/Gpus/Nvapi/NvapiNativeMethods.cs: the one export, nvapi_QueryInterface,
    # resolves delegates that take NVAPI's physical-GPU handle.
    source = b"""\
namespace Rig.Gpus.Nvapi {
    public static class NvapiEntry {
        private delegate IntPtr QueryDelegate(uint id);
        internal delegate int EnumGpusDelegate([Out] NvPhysicalGpuHandle[] gpus, out int count);
        private static QueryDelegate nvapi_QueryInterface { get; set; }
        internal static EnumGpusDelegate EnumGpus { get; private set; }
    }
}
"""
    assert _rules("src/Gpus/Nvapi/NvapiEntry.cs", source) == {"cuda.nvapi"}
    assert _layers("src/Gpus/Nvapi/NvapiEntry.cs", source) == {"vendor-path": 2, "portable": 6}


def test_dotnet_adl_binding_is_vendor_path() -> None:
    # src/NTMinerGpus/Gpus/Adl/AdlNativeMethods.cs: delegates named for ADL's entry points,
    # bound by name to atiadlxx.dll, reading AMD's Overdrive fan and temperature figures.
    source = b"""\
namespace Rig.Gpus.Adl {
    public static class AdlEntry {
        internal delegate int ADL2_Main_Control_CreateDelegate(AllocCb cb, int n, out IntPtr c);
        internal delegate int ADL_Overdrive5_Temperature_GetDelegate(int a, ref ADLTemperature t);
        internal static int Count(int n) { return n; }
    }
}
"""
    assert _rules("src/Gpus/Adl/AdlEntry.cs", source) == {"hip.smi"}
    assert _layers("src/Gpus/Adl/AdlEntry.cs", source) == {"vendor-path": 2, "portable": 5}


def test_gpu_profile_interface_stays_portable() -> None:
    # src/NTMinerDataSchemas/JsonDb/IGpuProfilesJsonDb.cs: a rig's GPU list and overclock
    # profiles as data; no vendor library is called.
    source = b"""\
namespace Rig.JsonDb {
    public interface IGpuProfileStore {
        GpuKind Kind { get; }
        GpuEntry[] Gpus { get; }
        List<ClockProfile> Profiles { get; }
    }
}
"""
    assert _rules("src/JsonDb/IGpuProfileStore.cs", source) == set()
    assert _layers("src/JsonDb/IGpuProfileStore.cs", source) == {"portable": 7}


# -- Stars1233/aerial-cuda-accelerated-ran: an hpccm recipe installing cuDNN -------------------


def test_hpccm_recipe_installing_cudnn_is_vendor_path() -> None:
    # pyaerial/container/pyaerial_recipe.py: hpccm's packages(ospackages=[...]) installs
    # cuDNN's meta-package, cudnn<major>-cuda-<major>, into the release image.
    source = b"""\
Stage0 += baseimage(image=BASE_IMAGE, _distro='ubuntu22', _arch=arch)
Stage0 += user(user='root')
Stage0 += packages(ospackages=[
    'cudnn9-cuda-12',
])
Stage0 += environment(variables={"VIRTUAL_ENV": "/opt/venv"})
"""
    assert _rules("container/recipe.py", source) == {"deps.cuda-system-package-python"}
    assert _layers("container/recipe.py", source) == {"vendor-path": 1, "portable": 5}


def test_ldpc_launch_switch_is_vendor_path() -> None:
    # cuPHY/src/cuphy/error_correction/attic/ldpc2_reg_address_BG1_Z240.cu: a host function
    # picking a kernel template instance per parity-node count on a CUDA stream.
    source = b"""\
status_t decode_bg1_z96(const config& cfg, const params& p, const dim3& grid, cudaStream_t strm)
{
    status_t s = STATUS_NOT_SUPPORTED;
    typedef __half2 T;
    switch(cfg.rows)
    {
    case 4: s = launch_rows<T, 4>(p, grid, strm); break;
    case 5: s = launch_rows<T, 5>(p, grid, strm); break;
    default: break;
    }
    return s;
}
"""
    assert _rules("src/ldpc/decode_bg1_z96.cu", source) == {"cuda.runtime", "cuda.fp-types"}
    assert _layers("src/ldpc/decode_bg1_z96.cu", source) == {"vendor-path": 3, "portable": 9}


def test_timer_kernel_and_launcher_are_counted_apart() -> None:
    # cuPHY/examples/cupti_example/test_kernel.cu: a device helper reading %globaltimer, a
    # kernel spinning on it and a one-line launcher.
    source = b"""\
__device__ __forceinline__ unsigned long long now_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
    return t;
}

__global__ void spin(int delay_ns)
{
    unsigned long long stop = now_ns() + delay_ns;
    while (now_ns() < stop);
}

void launch_spin(cudaStream_t& stream, int delay_ns)
{
    spin<<<1, 1, 0, stream>>>(delay_ns);
}
"""
    layers = _layers("examples/timer/spin.cu", source)
    assert layers["kernel"] == 11
    assert set(layers) == {"kernel", "vendor-path", "portable"}


def test_matlab_reference_model_of_a_kernel_stays_portable() -> None:
    # 5GModel/nr_matlab/pucch/pucchF0_rx_kernel.m: the MATLAB model a CUDA kernel is checked
    # against; "kernel" in its name, nothing of a GPU in it.
    source = b"""\
function y = pucch_rx_kernel(x, seq)
% correlate the received symbols with the base sequence
y = zeros(size(x));
for k = 1:numel(x)
    y(k) = x(k) * conj(seq(k));
end
end
"""
    assert _rules("nr_matlab/pucch/pucch_rx_kernel.m", source) == set()
    assert _layers("nr_matlab/pucch/pucch_rx_kernel.m", source) == {"portable": 6}


# -- MooreThreads/tensorflow_musa_extension: the TensorFlow plug-in's Python package -----------


def test_tensorflow_musa_import_is_vendor_path() -> None:
    # test/ops/python_api_op_test.py: the plug-in's Python package and its fused ops, which
    # only the MUSA device registers.
    source = b"""\
import tensorflow as tf
import tensorflow_musa
from tensorflow_musa import ops

class FusedApiTest(tf.test.TestCase):
    def test_gelu(self):
        self.assertIn("ops", tensorflow_musa.__all__)
"""
    assert _rules("test/ops/fused_api_test.py", source) == {"musa.torch-plugin"}
    assert _layers("test/ops/fused_api_test.py", source) == {"vendor-path": 3, "portable": 3}


def test_musa_op_test_through_a_helper_stays_portable() -> None:
    # test/ops/log1p_op_test.py: the comparison with the CPU runs in the shared test case;
    # the test itself names no device.
    source = b"""\
import numpy as np
import tensorflow as tf
from musa_test_utils import MUSATestCase

class Log1pTest(MUSATestCase):
    def test_float(self):
        x = tf.constant(np.random.uniform(0, 3, size=[4, 4]).astype(np.float32))
        self._compare_cpu_musa_results(tf.math.log1p, [x], tf.float32)
"""
    assert _rules("test/ops/log1p_test.py", source) == set()
    assert _layers("test/ops/log1p_test.py", source) == {"portable": 7}


def test_musa_kernel_registration_line_is_vendor_path() -> None:
    # musa_ext/kernels/array/musa_tensorlist_reserve_op.cc: a host-only op registered for the
    # MUSA device type.
    source = b"""\
class ReserveOp : public OpKernel {
 public:
  explicit ReserveOp(OpKernelConstruction* c) : OpKernel(c) {}
  void Compute(OpKernelContext* c) override { c->set_output(0, c->input(0)); }
};
REGISTER_KERNEL_BUILDER(Name("TensorListReserve")
                            .Device("MUSA")
                            .HostMemory("num_elements"),
                        ReserveOp);
"""
    assert _rules("kernels/reserve_op.cc", source) == {"musa.tf-kernel-registration"}
    assert _layers("kernels/reserve_op.cc", source)["vendor-path"] == 1


# -- tensorflow/agents: a TPU strategy chosen by flag -----------------------------------------


def test_tpu_strategy_selection_is_vendor_path() -> None:
    # tf_agents/train/utils/strategy_utils.py: a TPU resolver and strategy when a TPU address
    # is given, the default strategy otherwise.
    source = b"""\
def make_strategy(tpu, use_gpu):
    if tpu:
        resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu=tpu)
        tf.tpu.experimental.initialize_tpu_system(resolver)
        return tf.distribute.TPUStrategy(resolver)
    return tf.distribute.get_strategy()
"""
    assert _rules("train/strategy.py", source) == {"tpu.tensorflow-api"}
    assert _layers("train/strategy.py", source) == {"vendor-path": 3, "portable": 3}
