"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h50-random-t).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 525-531. Two had no snapshot and were skipped:
xiaoyannzbbb/procmesh and KongAAAAAAJ/Diffusion-metadrive. Five were read:
cfobel/pycuda_helpers (PyCUDA helpers: device-side C++ headers, a Jinja-templated .cu file
and a test with its kernel in a SourceModule string), rafelafrance/LabelLlama (herbarium
label parsing through local LLM servers; no GPU code of its own),
AgustinJimenez/llama_cpp_rs_chat (a Rust and React chat app over llama.cpp with a CUDA
feature and nvidia-smi probes; its snapshot lacks blobs of 4 MiB and more, so only the files
it holds were checked out), ROCm/MIOpenGEMM (AMD's OpenCL GEMM kernel generator and tuner)
and ZenoNex/Gyroidic-Sparse-Covariance-Flux-Reasoner (a PyTorch research model with
`'cuda' if torch.cuda.is_available()` device choices).
Fifteen files of each repository were sampled with ``random.Random("owner/name")`` over every
file lockin counts and labelled before any fix, with the files lockin calls non-portable (up
to 20) and GPU-looking files it calls portable (up to 10) checked apart, up to five further
files lockin gives kernel lines counted by hand, and three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``.
Each snippet is a small rewrite, in our own words, of a pattern found in the repository its
test names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ROCm/MIOpenGEMM: its own headers are no ROCm include ----------------------------------


def test_miopengemm_own_header_includes_are_portable() -> None:
    # miopengemm/src/solution.cpp, hint.hpp, derivedparams.hpp: the library's sources include
    # its own headers; `miopen` in hip.include's list made each of them vendor-path.
    source = b"""\
#include <string>
#include <vector>
#include <miopengemm/error.hpp>
#include <miopengemm/solution.hpp>

namespace gemmgen
{
std::string Plan::key() const { return shape.key() + "/" + params.key(); }
}
"""
    assert _rules("src/plan.cpp", source) == set()
    assert _layers("src/plan.cpp", source) == {"portable": 8}


def test_miopen_include_stays_rocm() -> None:
    # The same rule still reads MIOpen itself (the ROCm DNN library) as a ROCm include.
    source = b"""\
#include <miopen/miopen.h>
int make_handle(miopenHandle_t* h) { return miopenCreate(h) == miopenStatusSuccess; }
"""
    assert _rules("src/dnn.cpp", source) & {"hip.include", "hip.library"}
    assert set(_layers("src/dnn.cpp", source)) - {"portable"}


def test_opencl_kernel_written_into_a_stream_is_kernel() -> None:
    # miopengemm/src/bylinegenerator.cpp: get_kernelstring() writes `__kernel void`, the
    # name, the arguments and the body into a stringstream a statement at a time; a helper
    # writes the work-item coordinates (get_group_id, get_local_id). Before, only the two
    # literals naming an OpenCL built-in counted; now every statement writing into that
    # stream does, the log line excepted.
    source = b"""\
std::string ScaleGen::kernel_text()
{
  std::stringstream ss;
  ss << "#define N " << n << "\\n";
  ss << "__attribute__((reqd_work_group_size(64,1,1)))\\n";
  ss << "__kernel void " << name << "(__global float* y, const float a)\\n";
  ss << "{\\n";
  ss << "uint gid = get_group_id(0) * 64 + get_local_id(0);\\n";
  ss << "if (gid < N) { y[gid] *= a; }\\n";
  ss << "}\\n";
  std::clog << "built " << name << std::endl;
  return ss.str();
}
"""
    assert _rules("src/scalegen.cpp", source) == {
        "opencl.source-string",
        "opencl.streamed-source",
    }
    assert _layers("src/scalegen.cpp", source) == {"kernel": 7, "portable": 6}


def test_generator_without_opencl_words_stays_portable() -> None:
    # The generator's pieces with no OpenCL word (a loop body, a definition) are read only
    # in a function writing one: a helper holding none stays portable (an open limit).
    source = b"""\
void ScaleGen::write_loop(std::stringstream& ss)
{
  ss << "for (uint i = 0; i < WORK; ++i){\\n";
  ss << "  y[i] *= a;\\n}\\n";
}
"""
    assert _rules("src/scalegen.cpp", source) == set()


def test_opencl_kernel_file_from_generator_is_kernel() -> None:
    # demokernels/.../c_beta.cl: a generated OpenCL kernel kept as a file: all kernel.
    source = b"""\
#define TINT unsigned
__attribute__((reqd_work_group_size(256,1,1)))
__kernel void scale_c(__global float* c, const float beta)
{
  TINT i = get_global_id(0);
  c[i] *= beta;
}
"""
    assert _layers("k/c_beta.cl", source) == {"kernel": 7}


# -- cfobel/pycuda_helpers ------------------------------------------------------------------


def test_sourcemodule_option_literal_is_no_kernel() -> None:
    # pycuda_helpers/shared_storage/cuda_common.py: SourceModule compiles a Jinja template
    # rendered from a .cu file (counted there); the only literal in the call is the include
    # flag `'-I%s' % root`, which counted as a kernel line.
    source = b"""\
import pycuda.autoinit
from pycuda.compiler import SourceModule

def load(env, name, params, root):
    text = env.get_template(name).render(params)
    mod = SourceModule(text, no_extern_c=True,
                       options=['-I%s' % root, '-O3'])
    return mod
"""
    assert "pycuda.source-module" not in _rules("helpers/common.py", source)
    # The imports and the compile call with its nvcc options (lane h55-random-n).
    assert _layers("helpers/common.py", source) == {"vendor-path": 4, "portable": 3}


def test_sourcemodule_literal_source_still_kernel() -> None:
    # tests/test_struct_container.py: the kernel held in the call's literal stays kernel,
    # its option strings beside it notwithstanding.
    source = b"""\
from pycuda.compiler import SourceModule
mod = SourceModule(r'''
extern "C" __global__ void bump(int* x) {
    if (threadIdx.x == 0) { x[0] += 1; }
}
''', options=['-lineinfo'], no_extern_c=True)
"""
    assert "pycuda.source-module" in _rules("t.py", source)
    assert _layers("t.py", source)["kernel"] == 5


def test_pycuda_launch_through_a_sibling_module_is_vendor_path() -> None:
    # pycuda_helpers/shared_storage/cuda.py: `cuda` comes from a sibling module that imported
    # pycuda.driver; the launch passes cuda.InOut/cuda.Out handlers with block= and grid=.
    source = b"""\
import numpy as np
from .common import build_kernel, cuda

def fill(n):
    k = build_kernel('fill.cu', 'fill_ids')
    out = np.empty(n, dtype=np.int32)
    count = np.zeros(1, dtype=np.uint32)
    k(cuda.InOut(count), cuda.Out(out),
      block=(128, 1, 1), grid=((n + 127) // 128, 1))
    return count[0], out
"""
    assert _rules("helpers/fill.py", source) == {"pycuda.host-api"}
    assert _layers("helpers/fill.py", source) == {"vendor-path": 2, "portable": 7}


def test_device_member_header_is_kernel() -> None:
    # pycuda_include/SharedStorage.hpp: __device__ members using atomicAdd and blockIdx.
    source = b"""\
template <class T>
class Slots {
public:
    unsigned* next_;
    T* data_;
    __device__ T& push(T const& v) {
        unsigned i = atomicAdd(next_, 1);
        data_[i] = v;
        return data_[i];
    }
};
"""
    assert "cuda.device-function" in _rules("include/Slots.hpp", source)
    assert _layers("include/Slots.hpp", source)["kernel"] == 5


# -- pinned verdicts that were already right ------------------------------------------------


def test_nvidia_smi_probe_in_rust_is_vendor_path() -> None:
    # AgustinJimenez/llama_cpp_rs_chat crates/llama-chat-engine/src/vram_calculator.rs: free
    # VRAM read through nvidia-smi's query flags.
    source = b"""\
pub fn free_vram_mb() -> Option<u64> {
    let out = std::process::Command::new("nvidia-smi")
        .args(["--query-gpu=memory.free", "--format=csv,noheader,nounits"])
        .output()
        .ok()?;
    String::from_utf8_lossy(&out.stdout).trim().parse().ok()
}
"""
    assert "cuda.tool-call" in _rules("src/vram.rs", source)
    assert "vendor-path" in _layers("src/vram.rs", source)


def test_log_text_naming_cuda_is_portable() -> None:
    # crates/llama-chat-engine/src/token_loop.rs: messages and reasons naming a CUDA stall.
    source = b"""\
fn on_timeout(reason: &mut String) {
    eprintln!("[SAMPLE] CUDA sync stalled, stopping generation");
    *reason = "cuda_deadlock".to_string();
}
"""
    assert _layers("src/token_loop.rs", source) == {"portable": 4}


def test_torch_cuda_fallback_device_is_vendor_path() -> None:
    # ZenoNex/Gyroidic-Sparse-Covariance-Flux-Reasoner src/models/gyroid_reasoner.py.
    source = b"""\
import torch

class Reasoner(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
"""
    assert "torch.device-string" in _rules("src/models/reasoner.py", source)


def test_pycuda_copy_helpers_are_vendor_path() -> None:
    # cfobel/pycuda_helpers pycuda_helpers/struct_container.py: arrays of structs copied with
    # pycuda.driver's to_device and from_device_like; only the imports counted before.
    source = b"""\
import numpy as np
import pycuda.driver as cuda

def upload(rows):
    table = np.array([r.as_array() for r in rows])
    return cuda.to_device(table)

def download(ptr, like):
    return cuda.from_device_like(ptr, like)
"""
    assert _layers("helpers/structs.py", source) == {"vendor-path": 3, "portable": 4}
