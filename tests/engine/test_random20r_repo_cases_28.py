"""Cases from repositories drawn at random from a GPU-named sub-pool (issue 27, lane h56-random-r).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on that hold a GPU term by the written
rule in ``/work/pool/h55_gpu_rule.py`` (a rule on the name's text only, so some are not GPU
code). This lane took sub-pool positions 239-245. One was skipped: tfalders/rocm-libraries (240)
had no snapshot to fetch. Read were flycat0101/gpu-viv6-andy (NXP's Vivante GPU driver stack
for i.MX: HAL, GLSL/OpenCL/Vulkan compilers with an LLVM/clang copy, Vulkan and OpenVX drivers,
and thousands of QNX/Android test build files and OpenCL unit tests with kernels in C strings),
bzhng-development/summary-of-some-paper-in-cuda (an LLM pipeline in Python that summarises ML
papers into MkDocs pages, no GPU code), DeegayuA/LogPup (a Next.js/TypeScript meeting and work
log app, no GPU code), ruucm/shadergradient (a three.js/React gradient package with GLSL shader
files, a Figma plugin and e-mail previews), Bboy9090/Legends-of-Kai-Jax-The-memory-Hero (a
three.js fighting game in TypeScript with two ShaderMaterial GLSL strings) and
CodeByNuX/pyCudaWatch (a pynvml collector, FastAPI dashboard and CUDA base image). Fifteen files
of each repository (all seven of pyCudaWatch) were sampled with ``random.Random("owner/name")``
over every file lockin counts and labelled before any fix, with the files lockin calls
non-portable (up to 20) and GPU-looking files it calls portable (up to 10) checked apart, files
outside the sample that hold kernel lines counted by hand (up to 5 a repository), and up to
three commits touching GPU code (``random.Random("owner/name:commits")``) judged against
``lockin diff``. Every verdict read was right before any fix, so the tests below pin verdicts
worth keeping. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules


def test_nvml_poller_writing_sqlite_is_vendor_path() -> None:
    # CodeByNuX/pyCudaWatch collector/collector.py (sampled, already right): a cron job reads
    # utilisation and memory through pynvml and stores them; NVML is NVIDIA's, another vendor
    # needs its own management library, so the calls are vendor-path and the SQL portable.
    source = b"""\
import sqlite3
import pynvml

def sample(db):
    pynvml.nvmlInit()
    dev = pynvml.nvmlDeviceGetHandleByIndex(0)
    load = pynvml.nvmlDeviceGetUtilizationRates(dev)
    memory = pynvml.nvmlDeviceGetMemoryInfo(dev)
    with sqlite3.connect(db) as conn:
        conn.execute("INSERT INTO samples VALUES (?, ?)", (load.gpu, memory.used))
"""
    path = "collector/gpu_poll.py"
    assert _rules(path, source) == {"cuda.nvml"}
    assert _layers(path, source) == {"vendor-path": 5, "portable": 4}


def test_nvml_wheel_in_requirements_is_vendor_path() -> None:
    # CodeByNuX/pyCudaWatch requirements.txt (sampled, already right): the NVML binding wheel
    # next to a web stack; only its line ties the app to NVIDIA.
    source = b"""\
fastapi
uvicorn
nvidia-ml-py3
"""
    path = "requirements.txt"
    assert _rules(path, source) == {"deps.cuda-wheel"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 2}


def test_cuda_runtime_base_image_is_vendor_path() -> None:
    # CodeByNuX/pyCudaWatch Dockerfile (sampled, already right): the image starts from the
    # CUDA runtime base; the rest installs and starts a Python app.
    source = b"""\
FROM nvidia/cuda:12.2.0-runtime-ubuntu22.04
WORKDIR /srv
COPY . /srv
RUN pip3 install -r requirements.txt
CMD ["python3", "main.py"]
"""
    path = "Dockerfile"
    assert _rules(path, source) == {"image.nvidia-base"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 4}


def test_compose_nvidia_runtime_and_gpu_reservation_are_vendor_path() -> None:
    # CodeByNuX/pyCudaWatch docker-compose.yml (sampled, already right): the service asks for
    # the nvidia runtime and reserves a GPU device.
    source = b"""\
services:
  watcher:
    build: .
    runtime: nvidia
    deploy:
      resources:
        reservations:
          devices:
            - capabilities: [gpu]
"""
    path = "compose.yml"
    assert _rules(path, source) == {"k8s.nvidia-gpu"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 7}


def test_dashboard_api_reading_gpu_columns_is_portable() -> None:
    # CodeByNuX/pyCudaWatch api/main.py (GPU-looking, already right): an HTTP endpoint that
    # reads rows named gpu_util from SQLite touches no device.
    source = b"""\
import sqlite3
from fastapi import FastAPI
app = FastAPI()
STATS = "gpu_stats.db"

@app.get("/latest")
def latest():
    rows = sqlite3.connect(STATS).execute("SELECT gpu_util, mem_used FROM samples").fetchall()
    return [{"gpu_util": r[0], "mem_used": r[1]} for r in rows]
"""
    path = "api/server.py"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 8}


def test_three_js_vertex_shader_file_is_kernel() -> None:
    # ruucm/shadergradient packages/shadergradient/src/shaders/positionMix/sphere/vertex.glsl
    # (sampled, already right; 154 lines counted by hand, 154 by lockin): a GLSL vertex shader
    # for a three.js mesh, every code line device code.
    source = b"""\
uniform float uTime;
uniform float uAmp;
varying vec3 vPos;

void main() {
  vec3 p = position;
  p.z += sin(p.x * 3.0 + uTime) * uAmp;
  vPos = p;
  gl_Position = projectionMatrix * modelViewMatrix * vec4(p, 1.0);
}
"""
    path = "src/shaders/wave/vertex.glsl"
    assert _rules(path, source) == {"vulkan.shader-file"}
    assert _layers(path, source) == {"kernel": 9}


def test_shader_material_template_strings_are_kernel() -> None:
    # Bboy9090/Legends-of-Kai-Jax-The-memory-Hero client/src/components/game/materials/
    # ToonMaterial.tsx (extra kernel file, in range: 46 by hand, 50 by lockin): GLSL in
    # template strings of a THREE.ShaderMaterial; the TypeScript around them stays portable.
    source = b"""\
import * as THREE from 'three'

export function outline(color: string): THREE.ShaderMaterial {
  return new THREE.ShaderMaterial({
    uniforms: { tint: { value: new THREE.Color(color) } },
    side: THREE.BackSide,
    vertexShader: `
      void main() {
        vec3 grown = position + normal * 0.02;
        gl_Position = projectionMatrix * modelViewMatrix * vec4(grown, 1.0);
      }
    `,
    fragmentShader: `
      uniform vec3 tint;
      void main() {
        gl_FragColor = vec4(tint, 1.0);
      }
    `,
  })
}
"""
    path = "src/materials/Outline.tsx"
    assert _rules(path, source) == {"vulkan.glsl-string"}
    assert _layers(path, source) == {"kernel": 12, "portable": 7}


def test_opencl_kernel_in_c_string_with_cl_hpp_host() -> None:
    # flycat0101/gpu-viv6-andy test/test/cl11/UnitTest/test_vivante/unions/*.cpp (extra kernel
    # files, in range: 27-29 by hand, 25-27 by lockin): an OpenCL C kernel kept as a C string
    # literal and built through the cl.hpp bindings.
    source = b"""\
#include <CL/cl.hpp>
#include <vector>

static const char* kernel_scale_union =
"union Box { float4 f; uint4 u; };\\n"
"__kernel void scale(__global const union Box* in, __global union Box* out)\\n"
"{\\n"
"    int i = get_global_id(0);\\n"
"    out[i].f = in[i].f * 2.0f;\\n"
"}\\n";

int run(cl::Context& ctx, cl::Device& dev) {
    cl_int err;
    cl::Program::Sources src(1, std::make_pair(kernel_scale_union, 0));
    cl::Program program(ctx, src);
    program.build(std::vector<cl::Device>{dev});
    cl::Kernel k(program, "scale", &err);
    return err;
}
"""
    path = "tests/cl/unions/scale_union.cpp"
    assert _rules(path, source) == {"opencl.host-api", "opencl.source-string"}
    assert _layers(path, source) == {"kernel": 6, "vendor-path": 6, "portable": 5}


def test_figma_plugin_number_inputs_are_portable() -> None:
    # ruucm/shadergradient packages/ui/src/components/FigmaPlugin/DoubleNumberInput.tsx
    # (sampled, already right): a React form control in a shader-gradient project.
    source = b"""\
import React from 'react'

type Props = { a: number; b: number; onChange: (a: number, b: number) => void }

export function DoubleInput({ a, b, onChange }: Props) {
  return (
    <div className="flex gap-2">
      <input type="number" value={a} onChange={(e) => onChange(Number(e.target.value), b)} />
      <input type="number" value={b} onChange={(e) => onChange(a, Number(e.target.value))} />
    </div>
  )
}
"""
    path = "src/components/DoubleInput.tsx"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 10}


def test_x_dri_header_in_a_gpu_driver_tree_is_portable() -> None:
    # flycat0101/gpu-viv6-andy driver/driver/X/DRI_1.10.4/src/dri.h (sampled, already right):
    # the X server's DRI interface declarations; no vendor's device code or runtime calls.
    source = b"""\
#ifndef DRI_SCREEN_H
#define DRI_SCREEN_H
#include "xf86drm.h"
typedef struct _DRIInfo {
    char *drmDriverName;
    int ddxDriverMajorVersion;
    void *frameBufferPhysicalAddress;
    int frameBufferSize;
} DRIInfoRec, *DRIInfoPtr;
extern Bool DRIScreenInit(ScreenPtr pScreen, DRIInfoPtr pDRIInfo, int *pDRMFD);
#endif
"""
    path = "driver/X/dri/dri_screen.h"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 11}


def test_gemini_readiness_check_is_portable() -> None:
    # DeegayuA/LogPup src/features/gemini/readiness.test.ts (sampled, already right): checks for
    # an LLM API key; nothing about a GPU.
    source = b"""\
export function geminiReady(env: Record<string, string | undefined>): boolean {
  return Boolean(env.GEMINI_API_KEY) && env.GEMINI_MODEL !== ''
}
"""
    path = "src/features/gemini/readiness.ts"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 3}
