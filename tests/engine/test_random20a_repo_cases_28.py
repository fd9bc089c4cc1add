"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h56-random-a).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold a GPU term by the written
rule in ``/work/pool/h55_gpu_rule.py`` (the name's text only, so some are no GPU code at all).
This lane took sub-pool positions 120-126. One was skipped: Schryzon/mpyCUDA (124) had no
snapshot to fetch. Read were 4PUBjeC2gaE7/PyCuda (exercises after a PyCUDA book: CUDA C in
SourceModule and ElementwiseKernel strings, gpuarray host code, a device query, and a Windows
virtualenv committed in a folder named CUDA), dris1153/shaderpath (a Next.js course site
teaching WebGL and three.js shaders: GLSL .vert/.frag files beside TypeScript demos and
exercise files whose starter and solution shaders sit in template strings),
HomerJax/SKV-Strich-App (a Next.js and Supabase club app wrapped with Capacitor for Android and
iOS, no GPU code), BykadorovR/Raytracer (a C++ Vulkan renderer: GLSL shader stages, Vulkan
host code, a Python script calling the Vulkan SDK's glslc),
JohnBaracuda/com.baracuda.runtime-monitoring (a Unity package in C# showing runtime values
on screen, its name holding "cuda" by chance; it reads the graphics device's name through
Unity's SystemInfo) and Jaxton07/OpenJax (a Rust AI-assistant runtime with a TypeScript web
UI, no GPU code). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix, with
the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable (up to
10) checked apart, files outside the sample that hold kernel lines counted by hand (up to 5 a
repository), and up to three commits touching GPU code (``random.Random("owner/name:commits")``)
judged against ``lockin diff``. Two files were wrong before: PyCuda's Elementwise.py and
mandelbrot.py import PyCUDA's ElementwiseKernel under a short name and hand their CUDA C to
that name, which no rule's pattern spells; the call-argument-string kind now follows an
import alias of a rule's keyword. The other tests pin verdicts worth keeping. Each snippet is
a small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- 4PUBjeC2gaE7/PyCuda: PyCUDA exercises --------------------------------------------------


def test_pycuda_elementwise_kernel_under_an_alias_is_kernel() -> None:
    # Elementwise.py (sampled, vendor-path only before): ElementwiseKernel imported as a short
    # name, its argument list and its CUDA C statement handed to the alias.
    source = b"""\
import numpy as np
import pycuda.autoinit
from pycuda import gpuarray
from pycuda.elementwise import ElementwiseKernel as EK

affine = EK(
    "float *src, float *dst",
    "dst[i] = 4 * src[i] - 1;",
    "affine")

def run(values):
    d_in = gpuarray.to_gpu(values)
    d_out = gpuarray.empty_like(d_in)
    affine(d_in, d_out)
    return d_out.get()
"""
    path = "Elementwise.py"
    assert "cupy.raw-kernel" in _rules(path, source)
    layers = _layers(path, source)
    assert layers["kernel"] == 3
    assert "vendor-path" in layers


def test_pycuda_complex_elementwise_body_under_an_alias_is_kernel() -> None:
    # mandelbrot.py (sampled, vendor-path only before): a multi-line CUDA C body on
    # pycuda::complex values, handed to the aliased builder after the host function using it.
    source = b'''\
import numpy as np
import pycuda.autoinit
from pycuda import gpuarray
from pycuda.elementwise import ElementwiseKernel as EK

def escape_map(grid, limit):
    d_grid = gpuarray.to_gpu(grid)
    d_out = gpuarray.empty(grid.shape, dtype=np.float32)
    escape(d_grid, d_out, np.int32(limit))
    return d_out.get()

escape = EK(
    "pycuda::complex<float> *pts, float *out, int limit",
    """
    out[i] = 1;
    pycuda::complex<float> p = pts[i];
    pycuda::complex<float> w(0, 0);
    for (int n = 0; n < limit; n++) {
        w = w * w + p;
        if (abs(w) > 2.0f) { out[i] = 0; break; }
    }
    """,
    "escape_kernel")
'''
    path = "mandelbrot.py"
    assert "cupy.raw-kernel" in _rules(path, source)
    layers = _layers(path, source)
    assert 9 <= layers["kernel"] <= 12
    assert "vendor-path" in layers


def test_pycuda_source_module_under_an_alias_is_kernel_but_a_read_file_is_not() -> None:
    # The same miss spelt with SourceModule (`SourceModule as SM` is common in PyCUDA code):
    # the literal handed to the alias is the kernel, a file read at run time is counted there.
    source = b'''\
import pycuda.autoinit
from pycuda.compiler import SourceModule as SM

mod = SM("""
__global__ void clear(float *v) { v[threadIdx.x] = 0.0f; }
""")
other = SM(open("other.cu").read())
'''
    path = "alias_module.py"
    assert "pycuda.source-module" in _rules(path, source)
    assert _layers(path, source)["kernel"] == 3


def test_pyopencl_elementwise_kernel_under_an_alias_is_opencl_kernel() -> None:
    # The alias followed for PyOpenCL's builder of the same name: OpenCL C, not CuPy's.
    source = b"""\
import pyopencl as cl
from pyopencl.elementwise import ElementwiseKernel as CLK

ctx = cl.create_some_context()
halve = CLK(ctx, "float *a", "a[i] = a[i] / 2", "halve")
"""
    path = "cl_ops.py"
    rules = _rules(path, source)
    assert "opencl.pyopencl-kernel" in rules
    assert "cupy.raw-kernel" not in rules
    assert "kernel" in _layers(path, source)


def test_alias_called_on_a_rendered_template_holds_no_kernel_line() -> None:
    # The alias followed only where the call is handed the source: a template rendered from a
    # file (counted in that file) leaves the call's line to the host code.
    source = b"""\
import pycuda.autoinit
from pycuda.compiler import SourceModule as SM

def build(env, name, size):
    text = env.get_template(name).render(size=size)
    return SM(text, no_extern_c=True)
"""
    path = "build_kernels.py"
    assert "kernel" not in _layers(path, source)


def test_pycuda_game_of_life_source_module_with_macros_is_kernel() -> None:
    # LifeOf_syncThreads.py (sampled, already right): #define index macros, a __device__
    # helper and a __global__ kernel in one SourceModule literal; the host code around it
    # launches with block/grid shapes.
    source = b'''\
import numpy as np
import pycuda.autoinit
from pycuda import gpuarray
from pycuda.compiler import SourceModule

mod = SourceModule("""
#define COL ( threadIdx.x + blockIdx.x * blockDim.x )
#define ROW ( threadIdx.y + blockIdx.y * blockDim.y )
#define SPAN ( blockDim.x * gridDim.x )

__device__ int alive(int *cells, int c, int r)
{
    return cells[((c + SPAN) % SPAN) + ((r + SPAN) % SPAN) * SPAN];
}

__global__ void step(int *cells)
{
    __shared__ int tile[256];
    tile[threadIdx.x] = alive(cells, COL, ROW);
    __syncthreads();
    cells[COL + ROW * SPAN] = tile[threadIdx.x];
}
""")

step = mod.get_function("step")
board = gpuarray.to_gpu(np.zeros((16, 16), dtype=np.int32))
step(board, grid=(1, 1, 1), block=(16, 16, 1))
'''
    path = "LifeOf_syncThreads.py"
    assert "pycuda.source-module" in _rules(path, source)
    layers = _layers(path, source)
    assert 15 <= layers["kernel"] <= 18
    assert "vendor-path" in layers


def test_pycuda_device_query_is_vendor_path_only() -> None:
    # deviceQuery.py (sampled, already right): the driver lists devices and their compute
    # capability; no device code.
    source = b"""\
import pycuda.driver as drv

drv.init()
for n in range(drv.Device.count()):
    dev = drv.Device(n)
    major, minor = dev.compute_capability()
    print(dev.name(), major, minor, dev.total_memory() // 2**20)
"""
    path = "deviceQuery.py"
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


def test_windows_virtualenv_activate_script_in_a_cuda_folder_is_portable() -> None:
    # CUDA/Scripts/activate.bat (sampled, already right): the venv is named CUDA; the script
    # only sets the prompt and PATH.
    source = b"""\
@echo off
set VIRTUAL_ENV=C:\\work\\gpu\\CUDA
if defined _OLD_VIRTUAL_PROMPT set PROMPT=%_OLD_VIRTUAL_PROMPT%
set _OLD_VIRTUAL_PROMPT=%PROMPT%
set PROMPT=(CUDA) %PROMPT%
set PATH=%VIRTUAL_ENV%\\Scripts;%PATH%
"""
    path = "CUDA/Scripts/activate.bat"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- dris1153/shaderpath: a WebGL and three.js shader course --------------------------------


def test_webgl_fragment_shader_file_is_kernel() -> None:
    # content/lessons/.../ao-approx.frag (sampled, already right): a three.js post pass in
    # GLSL ES; every code line is shader code.
    source = b"""\
// darken a texel against its neighbours
uniform sampler2D tDiffuse;
uniform vec2 uStep;
varying vec2 vUv;

void main() {
  vec3 c = texture2D(tDiffuse, vUv).rgb;
  vec3 n = texture2D(tDiffuse, vUv + vec2(uStep.x, 0.0)).rgb;
  gl_FragColor = vec4(mix(c, n, 0.5), 1.0);
}
"""
    path = "content/lessons/10-post/edge/ao.frag"
    assert _layers(path, source) == {"kernel": 8}


def test_exercise_file_with_glsl_starter_and_solution_strings_is_kernel() -> None:
    # content/lessons/.../exercises.ts (extra kernel file, already right): an exercise object
    # whose starterCode and solutionCode are fragment shaders in template strings; the prose
    # around them stays portable.
    source = b"""\
export const exercises = [
  {
    id: "fade-by-distance",
    prompt: { en: `Fade the colour with the distance to the centre.` },
    starterCode: `void main() {
  vec2 uv = gl_FragCoord.xy / uResolution;
  float d = length(uv - 0.5);
  // TODO: fade by d
  fragColor = vec4(vec3(1.0), 1.0);
}`,
    solutionCode: `void main() {
  vec2 uv = gl_FragCoord.xy / uResolution;
  float d = length(uv - 0.5);
  fragColor = vec4(vec3(1.0 - d), 1.0);
}`,
  },
];
"""
    path = "content/lessons/08-raymarching/fog/exercises.ts"
    assert "vulkan.glsl-string" in _rules(path, source)
    layers = _layers(path, source)
    assert layers["kernel"] == 10
    assert layers["portable"] > 0


def test_react_demo_importing_shader_files_is_portable() -> None:
    # content/lessons/.../demo.tsx (sampled, already right): the shaders are imported from
    # .frag/.vert files counted there; the component only wires uniforms.
    source = b"""\
import { useRef } from "react";
import { useFrame } from "@react-three/fiber";
import fragmentShader from "./noise.frag";
import vertexShader from "./noise.vert";

export function NoiseDemo() {
  const mat = useRef(null);
  useFrame((state) => {
    if (mat.current) mat.current.uniforms.uTime.value = state.clock.elapsedTime;
  });
  return (
    <mesh>
      <planeGeometry args={[2, 2]} />
      <shaderMaterial ref={mat} vertexShader={vertexShader} fragmentShader={fragmentShader}
        uniforms={{ uTime: { value: 0 } }} />
    </mesh>
  );
}
"""
    path = "content/lessons/07-procedural/noise/demo.tsx"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- BykadorovR/Raytracer: a Vulkan renderer in C++ -----------------------------------------


def test_vulkan_command_buffer_header_is_vendor_path() -> None:
    # include/Vulkan/Command.h (sampled, already right): a wrapper class holding and handing
    # out VkCommandBuffer handles.
    source = b"""\
#pragma once
#include <memory>
#include <vector>
#include "Vulkan/Device.h"

class Commands {
 private:
  std::vector<VkCommandBuffer> _handles;
  bool _recording = false;

 public:
  void begin();
  void end();
  std::vector<VkCommandBuffer>& handles();
};
"""
    path = "include/Vulkan/Command.h"
    assert "vulkan.host-api" in _rules(path, source)
    assert _layers(path, source)["vendor-path"] == 2


def test_renderer_class_header_on_engine_types_only_is_portable() -> None:
    # include/Graphic/Blur.h (sampled, already right): pipelines and descriptor sets behind
    # the engine's own classes; no Vulkan name in the header.
    source = b"""\
#pragma once
#include "Graphic/Texture.h"
#include "Vulkan/Pipeline.h"

class Blur {
 protected:
  std::shared_ptr<PipelineCompute> _vertical, _horizontal;
  std::vector<float> _weights;
  int _radius = 3;

 public:
  virtual void draw(bool horizontal, std::shared_ptr<CommandBuffer> commands) = 0;
  virtual ~Blur() = default;
};
"""
    path = "include/Graphic/Blur.h"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_shader_build_script_calling_the_vulkan_sdk_glslc_is_vendor_path() -> None:
    # compile.py (in sampled commit 5cd0da3c, already right): walks the shader folder and
    # runs the Vulkan SDK's glslc on each stage; the path to the compiler is the lock-in.
    source = b"""\
import os
import subprocess

glslc = "C:/SDKs/VulkanSDK/Bin/glslc"
for name in os.listdir("shaders"):
    stem, ext = os.path.splitext(name)
    if ext in (".vert", ".frag", ".comp"):
        subprocess.call(f"{glslc} -c shaders/{name} -o shaders/{stem}_{ext[1:]}.spv")
"""
    path = "compile.py"
    assert "build.vulkan-python" in _rules(path, source)
    assert _layers(path, source)["vendor-path"] == 1


# -- JohnBaracuda/com.baracuda.runtime-monitoring, HomerJax/SKV-Strich-App, Jaxton07/OpenJax --


def test_unity_system_info_graphics_device_readout_is_portable() -> None:
    # Runtime/Scripts/Modules/SystemMonitor.cs (GPU-looking, already right): Unity's
    # SystemInfo reports the graphics device's name and memory on any vendor.
    source = b"""\
using UnityEngine;

public class HardwareReadout : MonoBehaviour
{
    [Tag("GPU")] private string _deviceName;
    [Tag("GPU")] private string _deviceMemory;

    private void Awake()
    {
        _deviceName = SystemInfo.graphicsDeviceName;
        _deviceMemory = SystemInfo.graphicsMemorySize + " MB";
    }
}
"""
    path = "Runtime/Scripts/Modules/HardwareReadout.cs"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_capacitor_push_registration_component_is_portable() -> None:
    # components/native/NativePushRegistration.tsx (sampled, already right): Firebase push
    # tokens on a Capacitor app; nothing of a GPU.
    source = b"""\
"use client";
import { useEffect } from "react";
import { FirebaseMessaging } from "@capacitor-firebase/messaging";

export function PushRegistration({ userId }: { userId: string }) {
  useEffect(() => {
    FirebaseMessaging.requestPermissions().then(async () => {
      const { token } = await FirebaseMessaging.getToken();
      await fetch("/api/push", { method: "POST", body: JSON.stringify({ userId, token }) });
    });
  }, [userId]);
  return null;
}
"""
    path = "components/native/PushRegistration.tsx"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_rust_system_load_probe_is_portable() -> None:
    # openjax-core/src/tools/system/system_load.rs (sampled, already right): load averages and
    # memory read from the operating system for an agent's tool.
    source = b"""\
use std::fs;

pub struct Load {
    pub one: f64,
    pub five: f64,
}

pub fn read_load() -> Option<Load> {
    let text = fs::read_to_string("/proc/loadavg").ok()?;
    let mut parts = text.split_whitespace();
    let one = parts.next()?.parse().ok()?;
    let five = parts.next()?.parse().ok()?;
    Some(Load { one, five })
}
"""
    path = "openjax-core/src/tools/system/system_load.rs"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}
