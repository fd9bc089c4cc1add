"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h54-random-m).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 85-91. Two were skipped: anshsrivastavaa/designsystembusyclaude
(89) and Rexlion777/SparseWorld-4D-Occupancy (90) had no snapshot to fetch. Read were
qualcomm/vllm-qaic (a vLLM platform plug-in for Qualcomm's Cloud AI accelerators: a worker and
model runner on torch_qaic and qaicrt, torch.ops.qaic operators, and NSP kernels in C++ for the
accelerator's Hexagon cores), Nico2398/BlastSimulator2026 (a mining game in TypeScript on
three.js, whose terrain, water, sky and vegetation shaders are GLSL template literals spliced in
with onBeforeCompile), jhipster/generator-jhipster (a Yeoman generator of Spring Boot and
Angular/React applications, no GPU code), NAGAGroup/CodeAccelerate-OpencodeConfig (opencode
agent plug-ins in TypeScript, no GPU code) and JonathanSalwan/Triton (a dynamic binary analysis
library in C++ with Python bindings: symbolic execution of x86, ARM and RISC-V code, no GPU
code). Fifteen files of each repository were sampled with ``random.Random("owner/name")`` over
every file lockin counts (all seven of CodeAccelerate-OpencodeConfig) and labelled before any
fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, files outside the sample that hold kernel lines counted by hand (up to
5 a repository), and up to three commits touching GPU code (``random.Random("owner/name:commits")``)
judged against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern
found in the repository its test names; the expected layers are what a porting engineer reading
that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- qualcomm/vllm-qaic: NSP kernels, torch_qaic and qaicrt --------------------------------


def test_qaic_nsp_kernel_file_is_kernel_whole() -> None:
    # csrc/reshape_and_cache/reshape_and_cache_load.cpp (sampled; hand 112 kernel lines, lockin
    # 0 before): a plain C++ helper copying a paged cache and the QAIC_KERNEL_API entry the
    # Cloud AI runtime calls per core and thread. The helper runs on the NSP too.
    source = b"""\
#include "QAicHexagonHVX.h"
#include <stdint.h>

static void gather_rows(float16 *dst, const float16 *src, const int64_t *slots, int32_t n) {
  for (int32_t i = 0; i < n; i++) {
    dst[i] = src[slots[i]];
  }
}

QAIC_KERNEL_API int32_t gather_entry(const AicJitEntryPointConfig *cfg,
                                     const AicJitPointerArray *args) {
  int32_t n = *(const int32_t *)args->pointers[3];
  int32_t per_core = (n + cfg->numCores - 1) / cfg->numCores;
  gather_rows((float16 *)args->pointers[0], (const float16 *)args->pointers[1],
              (const int64_t *)args->pointers[2], per_core);
  return JIT_DEV_STATUS_SUCCESS;
}
"""
    path = "csrc/gather/gather_load.cpp"
    assert _rules(path, source) == {"qaic.nsp-kernel"}
    assert _layers(path, source) == {"kernel": 15}


def test_qaic_kernel_header_of_hvx_helpers_is_kernel() -> None:
    # csrc/grouped_topk_router/grouped_topk_router_common.h: the helpers two entry files share,
    # HVX vectors through the QAicHexagon headers; the .cpp files only wrap them.
    source = b"""\
#pragma once
#include "QAicHexagonMath.h"
#include "hexagon_types.h"

inline HVX_Vector add_halves(HVX_Vector a, HVX_Vector b) {
  return Q6_Vhf_equals_Vqf16(Q6_Vqf16_vadd_VhfVhf(a, b));
}
"""
    path = "csrc/router/router_common.h"
    assert _rules(path, source) == {"qaic.nsp-kernel"}
    assert _layers(path, source) == {"kernel": 6}


def test_host_code_naming_qaic_kernels_in_a_comment_stays_portable() -> None:
    # A host file that only mentions the entry-point macro builds nothing for the NSP.
    source = b"""\
// kernels export QAIC_KERNEL_API entry points; this loader only opens the library
#include <dlfcn.h>

void *open_kernels(const char *path) { return dlopen(path, RTLD_NOW); }
"""
    path = "src/loader.cpp"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 2}


def test_torch_qaic_worker_calls_are_vendor_path() -> None:
    # vllm_qaic/worker/worker.py (GPU-looking, lockin portable before): the worker binds the
    # "qaic:N" device, empties torch.qaic's cache and reads the runtime through qaicrt. The
    # device_count() probe in the guard stays portable.
    source = b"""\
import torch


class CardWorker:
    def init_device(self, rank):
        if rank >= torch.qaic.device_count():
            raise RuntimeError("no such card")
        self.device = torch.device(f"qaic:{rank}")
        torch.qaic.empty_cache()

    def free_bytes(self):
        from qaicrt import Util as rt_util
        return rt_util().free()
"""
    path = "plugin/worker/card_worker.py"
    assert _rules(path, source) == {"qaic.device-string", "qaic.torch-plugin"}
    assert _layers(path, source) == {"vendor-path": 3, "portable": 7}


def test_torch_ops_qaic_operator_call_is_vendor_path() -> None:
    # vllm_qaic/ops/activation.py (GPU-looking, lockin portable before): the layer's forward
    # hands the tensor to the plug-in's NSP operator.
    source = b"""\
import torch


class CardSwiGLU(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.ops.qaic.swiglu(x)
"""
    path = "plugin/ops/act.py"
    assert _rules(path, source) == {"qaic.torch-plugin"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 3}


def test_example_choosing_qaic_pooling_device_is_vendor_path() -> None:
    # examples/qaic_embed.py (sampled; vendor-path by hand, portable before): one run pools on
    # the host, the other on the card; only the card's device string is lock-in.
    source = b"""\
from vllm import LLM

host = LLM(model="m", override_qaic_config={"pooling_device": "cpu"})
card = LLM(model="m", override_qaic_config={"pooling_device": "qaic"})
"""
    path = "examples/embed_on_card.py"
    assert _rules(path, source) == {"qaic.device-string"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 2}


def test_attention_backend_in_plain_torch_stays_portable() -> None:
    # vllm_qaic/attention/backends/qaic_attn.py (sampled, portable): a backend adapted from
    # vLLM's CPU one, torch tensors on whatever device the query lives on.
    source = b"""\
import torch


class CardAttention:
    def mask(self, q: torch.Tensor, lq: int, lk: int) -> torch.Tensor:
        return torch.ones(lq, lk, device=q.device, dtype=torch.bool).tril(lk - lq)
"""
    path = "plugin/attention/backends/card_attn.py"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 4}


def test_probe_of_the_qaic_plugin_stays_portable() -> None:
    source = b"""\
import torch

HAS_CARD = hasattr(torch, "qaic") and torch.qaic.is_available()
print("qaic devices were found" if HAS_CARD else "none")
"""
    path = "plugin/probe.py"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 3}


# -- Nico2398/BlastSimulator2026: three.js chunks spliced with onBeforeCompile ---------------


def test_scalar_begin_vertex_chunk_under_instancing_define_is_kernel() -> None:
    # src/renderer/ambient/VegetationSway.ts (an extra kernel file: hand 11, lockin 5 before):
    # the vertex patch declares its uniforms in one literal, counted, and bends the instance in
    # another that opens on three.js's USE_INSTANCING define and holds scalar GLSL only.
    source = b"""\
const WIND_INPUTS = `
uniform float uClock;
uniform vec2 uGust;
`;

const WIND_BEND = `
#ifdef USE_INSTANCING
  float baseX = instanceMatrix[3].x;
#else
  float baseX = 0.0;
#endif
float lean = sin(uClock * 1.3 + baseX) * 0.25;
transformed.x += lean;
`;

export function addWind(material: any): void {
  material.onBeforeCompile = (shader: any) => {
    shader.vertexShader = shader.vertexShader
      .replace('#include <common>', `#include <common>\\n${WIND_INPUTS}`)
      .replace('#include <begin_vertex>', `#include <begin_vertex>\\n${WIND_BEND}`);
  };
}
"""
    path = "src/render/WindSway.ts"
    assert _rules(path, source) == {"vulkan.glsl-string"}
    assert _layers(path, source) == {"kernel": 13, "portable": 7}


def test_searching_for_the_instancing_define_stays_portable() -> None:
    # The define named alone, as the text a patch replaces, holds no shader line.
    source = b"""\
export function stripInstancing(shader: { vertexShader: string }): void {
  shader.vertexShader = shader.vertexShader.replace('#ifdef USE_INSTANCING', '#if 0');
}
"""
    path = "src/render/strip.ts"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 3}


def test_tagged_glsl_post_pass_stays_kernel() -> None:
    # src/renderer/post/AerialPerspectivePass.ts (an extra kernel file, in range before): a
    # /* glsl */ fragment shader of a post-processing pass.
    source = b"""\
const HAZE_FRAGMENT = /* glsl */`
uniform sampler2D tDiffuse;
uniform float uDensity;
varying vec2 vUv;
void main() {
  vec4 c = texture2D(tDiffuse, vUv);
  gl_FragColor = vec4(mix(c.rgb, vec3(0.7), uDensity), c.a);
}
`;

export const hazePass = { fragmentShader: HAZE_FRAGMENT };
"""
    path = "src/render/post/HazePass.ts"
    assert _rules(path, source) == {"vulkan.glsl-string"}
    assert _layers(path, source) == {"kernel": 9, "portable": 1}


# -- JonathanSalwan/Triton: a binary analysis library named like the GPU language ------------


def test_triton_binary_analysis_bindings_stay_portable() -> None:
    # src/testers/unittests/test_semantics.py (sampled, portable): the `triton` module here is
    # the symbolic-execution library, not OpenAI's kernel language.
    source = b"""\
from triton import ARCH, TritonContext, Instruction


def emulate(code: bytes) -> int:
    ctx = TritonContext(ARCH.X86_64)
    inst = Instruction(0x1000, code)
    ctx.processing(inst)
    return ctx.getConcreteRegisterValue(ctx.registers.rax)
"""
    path = "src/testers/unittests/test_emulate.py"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 6}
