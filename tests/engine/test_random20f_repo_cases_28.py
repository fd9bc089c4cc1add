"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h56-random-f).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")`` before anyone read it, from its position 253 on, that hold a
GPU term by the written rule in ``/work/pool/h55_gpu_rule.py`` (a rule on the name's text
only, so some are no GPU code at all). This lane took positions 155-161 of the sub-pool.
Three were skipped: jcwu2024/ORCHIDEE-MAN-JAX (156), LeegwangYeol/metal_slug_web (158) and
21Z121Z1/MetalUniversal (159) had no snapshot to fetch. Read were sgrauerg6/cudaBeliefProp
(stereo belief propagation with CUDA, HIP, Metal and SIMD CPU back ends: .cu kernel files,
host wrappers, a Doxygen HTML tree that makes up most of its files), ROCm/cvs (AMD's cluster
validation suite: pytest suites and libraries that run rocm-smi, amd-smi, hipcc, RCCL and
TransferBench over SSH, a React monitor and its FastAPI back end), aloysius-aryaputera/
gpu_pathtracer (a CUDA path tracer and photon mapper: headers of __device__ classes and
__global__ kernels, a host main.cu with cudaMallocManaged, curand and thrust sorts) and
antelm-dev/shader-studio (a Shadertoy-style GLSL editor for the web and the desktop:
TypeScript on three.js, GLSL example shaders, a Shadertoy importer that assembles fragment
shaders from declaration tables). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix, with
the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable (up to
10) checked apart, files outside the sample that hold kernel lines counted by hand (up to 5 a
repository), and up to three commits touching GPU code (``random.Random("owner/name:commits")``)
judged against ``lockin diff``. Before any fix, one commit (ROCm/cvs's preflight checks, which
run ``amd-smi version`` from a shell script in a string) passed the gate it should fail, and
two of shader-studio's generator files held kernel lines lockin did not count (a table of
Shadertoy uniform declarations, one literal each). Each snippet is a small rewrite, in our own
words, of a pattern found in the repository its test names; the expected layers are what a
porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ROCm/cvs: amd-smi subcommands, hipcc detection, NCCL variables, RCCL views ------------


def test_amd_smi_version_in_a_shell_script_string_is_vendor_path() -> None:
    # cvs/lib/preflight/version_check.py (commit 25b61471, the gate's miss before the fix): a
    # preflight check runs a small shell script over SSH that asks amd-smi for the ROCm
    # version; amd-smi ships with ROCm only.
    source = b'''\
class RocmVersion:
    def run(self, nodes):
        script = """
        if command -v amd-smi >/dev/null 2>&1; then
            amd-smi version --json 2>/dev/null || echo none
        else
            echo none
        fi
        """
        return nodes.exec(script)
'''
    path = "suite/preflight/rocm_version.py"
    assert _rules(path, source) == {"hip.tool-call"}
    assert _layers(path, source) == {"vendor-path": 7, "portable": 3}


def test_amd_smi_subcommands_run_over_ssh_are_vendor_path() -> None:
    # cvs/tests/health/rvs_cvs.py, cvs/lib/verify_lib.py, host_configs_cvs.py (outside the
    # sample, fixed with the commit above): amd-smi's subcommands with sudo, a pipe or alone.
    source = b"""\
def gpu_facts(cluster):
    static = cluster.exec('sudo amd-smi static -a -g 0 --json', timeout=30)
    bdfs = cluster.exec('amd-smi list | grep BDF')
    version = cluster.exec('amd-smi version')
    return static, bdfs, version
"""
    path = "suite/health/gpu_facts.py"
    assert _rules(path, source) == {"hip.tool-call"}
    assert _layers(path, source) == {"vendor-path": 3, "portable": 2}


def test_messages_naming_amd_smi_are_portable() -> None:
    # cvs/lib/preflight/transferbench_smoke.py: error texts that open on the tool's name and
    # a hint naming its subcommand are prose, no command run.
    source = b"""\
def summarise(result):
    if not result["records"]:
        result["errors"].append("amd-smi fabric payload held no GPU records")
    result["hint"] = "compare amd-smi version across the nodes"
    return result
"""
    path = "suite/preflight/fabric_summary.py"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_hip_compiler_path_probe_is_vendor_path() -> None:
    # cvs/tests/health/install/install_transferbench.py (sampled, already right): the
    # installer looks for hipcc under the ROCm path to build TransferBench.
    source = b"""\
def find_compiler(nodes, rocm):
    found = nodes.exec(f"test -f {rocm}/bin/hipcc", detailed=True)
    for info in found.values():
        if info.get("exit_code") == 0:
            return f"{rocm}/bin/hipcc"
    return f"{rocm}/bin/amdclang++"
"""
    path = "suite/install/transfer_bench.py"
    assert _rules(path, source) == {"build.hipcc-python"}
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


def test_nccl_variables_put_in_a_container_env_are_vendor_path() -> None:
    # cvs/lib/inference/sglang/sglang_config_loader.py (sampled, already right): NCCL's
    # network variables copied from the config into the serving container's environment.
    source = b"""\
def server_env(cfg):
    env = {}
    def put(key, src):
        if cfg.get(src):
            env[key] = str(cfg[src])
    put("NCCL_IB_HCA", "nccl_ib_hca")
    put("NCCL_SOCKET_IFNAME", "nccl_socket_ifname")
    put("GLOO_SOCKET_IFNAME", "gloo_socket_ifname")
    return env
"""
    path = "suite/inference/serve_env.py"
    assert _rules(path, source) == {"env.cuda-variables-python"}
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


def test_hip_runtime_library_probe_is_vendor_path() -> None:
    # cvs/tests/health/transferbench_cvs.py (sampled, already right): the ROCm path is
    # accepted when libamdhip64.so is found under it.
    source = b"""\
def rocm_home(nodes, path):
    out = nodes.exec(f"ls {path}/lib/libamdhip64.so* 2>/dev/null | head -1")
    for text in out.values():
        if "libamdhip64.so" in text:
            return path
    return "/opt/rocm"
"""
    path = "suite/health/rocm_home.py"
    assert _rules(path, source) == {"hip.library-load-name"}
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


def test_rccl_topology_page_is_portable() -> None:
    # cvs/monitors/cluster-mon/frontend/src/pages/RCCLTopologyPage.tsx (sampled, already
    # right): a React page showing RCCL's peer counts from the monitor's API; no GPU code.
    source = b"""\
export function PeerMesh() {
  const [data, setData] = useState<Topology | null>(null)
  useEffect(() => { api.rcclStatus().then(setData) }, [])
  return (
    <div>
      <p>RCCL peer mesh</p>
      <p>{data?.summary?.total_gpus ?? 0} GPUs</p>
    </div>
  )
}
"""
    path = "frontend/src/pages/PeerMesh.tsx"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- antelm-dev/shader-studio: Shadertoy wrappers, GLSL fixtures, three.js uniforms ---------


def test_shadertoy_uniform_declaration_table_is_kernel() -> None:
    # libs/shared/src/glsl/shadertoy.ts and export.ts (extra kernel files, 1 kernel line each
    # before the fix, 9 and 12 by hand): the importer declares each Shadertoy input the
    # pasted source leaves out, from a table of one declaration a literal.
    source = b"""\
const INPUTS: readonly [string, string][] = [
  ['iResolution', 'uniform vec3 iResolution;'],
  ['iTime', 'uniform float iTime;'],
  ['iMouse', 'uniform vec4 iMouse;'],
  ['iChannel0', 'uniform sampler2D iChannel0;'],
];

export function header(source: string): string {
  const lines: string[] = ['precision highp float;'];
  for (const [name, decl] of INPUTS) {
    if (source.includes(name)) lines.push(decl);
  }
  return lines.join('\\n');
}
"""
    path = "libs/shared/src/glsl/toy.ts"
    assert _rules(path, source) == {"vulkan.shadertoy-uniform-string", "vulkan.glsl-string"}
    assert _layers(path, source) == {"kernel": 5, "portable": 8}


def test_user_uniform_label_and_input_names_stay_portable() -> None:
    # libs/shared/src/glsl/export.ts: the type names and labels around the table; a lone
    # declaration of the user's own uniform is a label, and a name is only a name.
    source = b"""\
export function glslType(kind: string): string {
  return kind === 'color' ? 'vec3' : 'float';
}
const hint = 'uniform vec3 tint;';
const inputs = ['iTime', 'iResolution', 'iMouse'];
"""
    path = "libs/shared/src/glsl/types.ts"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_one_line_shader_fixture_in_a_spec_is_kernel() -> None:
    # libs/backend/src/storage/shader-storage.spec.ts (sampled, already right): the test
    # stores a whole fragment shader, one line, and reads it back.
    source = b"""\
import { describe, expect, it } from 'vitest';

const FRAG = 'void main() { gl_FragColor = vec4(0.5); }';

describe('store', () => {
  it('keeps the fragment', async () => {
    await store.save('demo', { fragment: FRAG });
    expect((await store.load('demo')).fragment).toBe(FRAG);
  });
});
"""
    path = "libs/backend/src/storage/store.spec.ts"
    assert _rules(path, source) == {"vulkan.glsl-string"}
    assert _layers(path, source) == {"kernel": 1, "portable": 7}


def test_three_uniform_registry_is_portable() -> None:
    # apps/web/src/app/rendering/engine/uniform-registry.ts (sampled, already right): the
    # engine writes iTime and the controls' values into three.js uniform maps: host code.
    source = b"""\
export class Uniforms {
  private maps: Record<string, { value: unknown }>[] = [];
  register(map: Record<string, { value: unknown }>): void {
    this.maps.push(map);
  }
  setTime(seconds: number): void {
    for (const map of this.maps) {
      if (map.iTime) map.iTime.value = seconds;
    }
  }
}
"""
    path = "apps/web/src/app/rendering/uniforms.ts"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_example_vertex_shader_file_is_kernel_whole() -> None:
    # examples/shaders/*/vertex.glsl (extra kernel files, already right): a five-line
    # three.js vertex shader passing the UV on.
    source = b"""\
varying vec2 vUv;

void main() {
  vUv = uv;
  gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0);
}
"""
    path = "examples/shaders/ripple/vertex.glsl"
    assert _layers(path, source) == {"kernel": 5}


# -- sgrauerg6/cudaBeliefProp: CUDA kernel files, a Metal kernel, GCD CPU code, Doxygen ----


def test_cuda_filter_kernels_count_their_bodies_and_includes_apart() -> None:
    # src/beliefprop/BpCUDA/KernelFilterCUDA.cu (extra kernel file, 36 kernel lines by hand
    # and by lockin): __global__ image kernels in a namespace, the CUDA headers included.
    source = b"""\
#include <cuda_runtime.h>
#include <cuda.h>
#include "shared/filters.h"

namespace stereo_cuda {

__global__ void toFloat(const unsigned int* in, float* out, unsigned int w, unsigned int h)
{
  const unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    out[y * w + x] = (float)in[y * w + x];
  }
}

};
"""
    path = "src/stereo/cuda/FilterKernels.cu"
    layers = _layers(path, source)
    assert layers["kernel"] == 8
    assert layers["vendor-path"] == 2


def test_metal_compute_kernel_file_is_kernel() -> None:
    # src/AppleMetal/compute.metal (extra kernel file, already right): one element-wise
    # kernel over device buffers.
    source = b"""\
#include <metal_stdlib>
using namespace metal;

kernel void mul_arrays(device const float* a,
                       device const float* b,
                       device float* out,
                       uint i [[thread_position_in_grid]])
{
    out[i] = a[i] * b[i];
}
"""
    path = "src/metal/mul.metal"
    assert _layers(path, source) == {"kernel": 9}


def test_grand_central_dispatch_cpu_loop_is_portable() -> None:
    # src/benchmarks/benchmarksOptCPU/KernelBnchmrksOptCPU.h (commit ccfdc46a, already
    # right): the CPU back end splits rows over Apple's Grand Central Dispatch or OpenMP;
    # "kernel" in the file's name is the project's word for a CPU routine.
    source = b"""\
template <typename T>
void addRows(unsigned int w, unsigned int h, const T* a, const T* b, T* out)
{
#if defined(__APPLE__)
  dispatch_queue_t q = dispatch_get_global_queue(DISPATCH_QUEUE_PRIORITY_DEFAULT, 0);
  dispatch_apply(h, q, ^(size_t y) {
#else
  #pragma omp parallel for
  for (unsigned int y = 0; y < h; y++) {
#endif
    for (unsigned int x = 0; x < w; x++) {
      out[y * w + x] = a[y * w + x] + b[y * w + x];
    }
  }
#if defined(__APPLE__)
  );
#endif
}
"""
    path = "src/benchmarks/cpu/AddRowsCPU.h"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_doxygen_directory_index_script_is_portable() -> None:
    # Documentation/html/dir_*.js (sampled, already right): Doxygen's navigation data naming
    # the CUDA directories; generated documentation, no code of the program's.
    source = b"""\
var dir_0a1b2c =
[
    [ "BpOptimizeCPU", "dir_1a2b.html", "dir_1a2b" ],
    [ "BpOptimizeCUDA", "dir_3c4d.html", "dir_3c4d" ],
    [ "BpRunProcessing", "dir_5e6f.html", "dir_5e6f" ]
];
"""
    path = "Documentation/html/dir_0a1b2c.js"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- aloysius-aryaputera/gpu_pathtracer: __device__ classes, curand, thrust in main.cu ------


def test_host_device_class_counts_methods_not_fields() -> None:
    # src/model/vector_and_matrix/mat3.h, object.h (sampled, already right): the methods are
    # __host__ __device__ and count as kernel; the data members, guards and a plain inline
    # operator stay portable; curand's header is the vendor's library.
    source = b"""\
#ifndef MAT_H
#define MAT_H
#include <curand_kernel.h>

class Mat {
  public:
    __host__ __device__ Mat();
    float cell[9];
};

__host__ __device__ Mat::Mat() {
  for (int i = 0; i < 9; i++) cell[i] = 0.0f;
}

inline float trace(const Mat &m) { return m.cell[0] + m.cell[4] + m.cell[8]; }
#endif
"""
    path = "src/model/mat.h"
    layers = _layers(path, source)
    assert layers["kernel"] == 4
    assert layers["vendor-library"] == 1
    assert layers["portable"] == 8


def test_host_image_writer_beside_a_clear_kernel_counts_the_kernel_only() -> None:
    # src/util/image_util.h (sampled, already right, 8 kernel lines of 69): __host__ PPM
    # writers are CPU code; only the __global__ clearing kernel is device code.
    source = b"""\
#include <fstream>

__global__ void clear(float *img, int w, int h);

__host__ void save(const float* img, int w, int h, const char* name) {
  std::ofstream ofs(name);
  ofs << "P2\\n" << w << " " << h << "\\n255\\n";
  for (int i = 0; i < w * h; i++) ofs << (int)(255 * img[i]) << " ";
}

__global__ void clear(float *img, int w, int h) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < w * h) img[i] = 0.0f;
}
"""
    path = "src/util/image_io.h"
    layers = _layers(path, source)
    assert layers["kernel"] == 5
    assert "vendor-path" not in layers


def test_device_lambda_for_a_thrust_sort_is_kernel_in_host_main() -> None:
    # src/main.cu (extra kernel file, 8 kernel lines by hand and by lockin): a __device__
    # lambda ordering points by Morton code for thrust::sort; the host code around it is
    # CUDA runtime calls.
    source = b"""\
#include <thrust/sort.h>

void order(Point** pts, int n) {
  auto by_code = [] __device__ (Point* a, Point* b) {
    return a->code < b->code;
  };
  thrust::sort(thrust::device, pts, pts + n, by_code);
  cudaDeviceSynchronize();
}
"""
    path = "src/order.cu"
    layers = _layers(path, source)
    assert layers["kernel"] == 3
    assert "vendor-library" in layers
