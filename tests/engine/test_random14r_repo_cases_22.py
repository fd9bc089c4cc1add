"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h50-random-r).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 511-517. Three were skipped: XiLab-Robotics/
Physics-Informed-Neural-Networks (512, its snapshot is 3.5 GB, over the 500 MiB limit),
moonishaider/hermes-ai-attention-system (513) and arthurdjn/pytorch-pointcloud (516), which
have no snapshot to fetch. Read were ssojeong/Molecular-Dynamics (PyTorch molecular dynamics
and learned integrators, two .pt data files absent from the snapshot), HabanaAI/
gaudi-pytorch-bridge (Intel Gaudi's PyTorch bridge: C++ over the SynapseAI C API, pytest
suites on the hpu device), PrismaticFlower/shaderpatch (a Direct3D 11 shader patch for a game,
HLSL shaders and .fx effects with C++ host code) and sPHENIX-Collaboration/coresoftware (a
particle-physics experiment's C++ and Fortran offline software, nothing of a GPU). Fifteen
files of each repository were sampled with ``random.Random("owner/name")`` over every file
lockin counts and labelled before any fix, with the files lockin calls non-portable (up to
20) and GPU-looking files it calls portable (up to 10) checked apart, files outside the
sample that hold kernel lines counted by hand (up to 5 a repository), and up to three
commits touching GPU code (``random.Random("owner/name:commits")``) judged against
``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- HabanaAI/gaudi-pytorch-bridge: Synapse loaded by name, and its wider C API --------------


def test_synapse_runtime_loaded_by_name_is_vendor_path() -> None:
    # pytorch_helpers/synapse_shim/synapse_api_shim.cpp: the bridge dlopen()s Habana's
    # runtime and fills a table of entry points, so no syn* call appears in the file.
    source = b"""\
#include <dlfcn.h>
#include "shim/api_table.h"

RuntimeLib::RuntimeLib() {
  handle_ = dlopen("libSynapse.so", RTLD_LOCAL | RTLD_NOW);
  if (handle_ == nullptr) abort();
}

void* RuntimeLib::Find(const char* name) const {
  return dlsym(handle_, name);
}
"""
    path = "helpers/shim/runtime_lib.cpp"
    assert _rules(path, source) == {"gaudi.library-load-name"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 8}


def test_synapse_name_mentioned_in_a_message_is_no_load() -> None:
    source = b"""\
#include <cstdio>
void hint() {
  std::puts("set LD_LIBRARY_PATH so that libSynapse.so is found");
}
"""
    assert _layers("helpers/hint.cpp", source) == {"portable": 4}


def test_synapse_node_section_and_profiler_api_is_vendor_path() -> None:
    # backend/kernel/control_edges_processing.cpp, backend/kernel/hpu_recipe_cache.cpp and
    # hpu_ops/backend/select_gen.cpp: Synapse node ids, strided-op parameters and the
    # driver-version query, none of which the older pattern named.
    source = b"""\
#include <vector>

void AddEdges(std::vector<synNodeId>& ids, Graph& g) {
  for (auto& n : g.nodes()) ids.push_back(n.id);
}

void Slice(Tensor& t) {
  synSliceParamsNDims params;
  params.axes[0] = 0;
}

std::string DriverVersion() {
  char buf[64];
  synDriverGetVersion(buf, sizeof(buf));
  return buf;
}
"""
    path = "backend/graph/edges.cpp"
    assert _rules(path, source) == {"gaudi.synapse-api"}
    assert _layers(path, source) == {"vendor-path": 3, "portable": 10}


def test_synth_names_that_begin_with_syn_stay_portable() -> None:
    source = b"""\
struct synNode { int id; };
static synNode* synNodes = nullptr;
static float synTraceLevel = 0.5f;
auto synParams = LoadSynthParams();
"""
    assert _layers("audio/voice.cpp", source) == {"portable": 4}


def test_bridge_internal_op_without_synapse_stays_portable() -> None:
    # habana_eager/ops/unique2.cpp: an op of the bridge written against its own classes;
    # the Synapse calls live elsewhere.
    source = b"""\
namespace bridge {
at::Tensor unique_eager(const at::Tensor& self) {
  auto op = EagerOp<at::Tensor>{"ns::unique_eager", {self}};
  op.SetOutputMetaFn(UniqueMeta);
  return op.call();
}
}
"""
    assert _layers("bridge/ops/unique.cpp", source) == {"portable": 7}


# -- ssojeong/Molecular-Dynamics: runs with every GPU hidden -----------------------------------


def test_runs_with_cuda_devices_set_empty_stay_portable() -> None:
    # code/ML/predicter/save_Cv_all.sh and code/MC/mc_run.sh: each run prefixed with an empty
    # CUDA_VISIBLE_DEVICES, so it runs on the CPU whatever the machine has.
    source = b"""\
#!/bin/bash
for n in 16 32 64; do
  CUDA_VISIBLE_DEVICES='' python estimate_heat.py $n 0.035 g
  CUDA_VISIBLE_DEVICES="" python estimate_heat.py $n 0.3 lg
done
"""
    assert _layers("predict/estimate_all.sh", source) == {"portable": 4}


def test_run_pinned_to_a_card_stays_vendor_path() -> None:
    source = b"""\
#!/bin/bash
CUDA_VISIBLE_DEVICES='1' python train.py cfg.dict
"""
    assert _rules("train.sh", source) == {"env.cuda-variables"}
    assert _layers("train.sh", source) == {"vendor-path": 1}


# -- verdicts that were already right --------------------------------------------------------


def test_checkpoint_loaded_onto_cuda_storage_is_vendor_path() -> None:
    # ssojeong/Molecular-Dynamics code/ML/predicter/rdf.py: checkpoints mapped onto CUDA
    # storage when a GPU is there.
    source = b"""\
import torch

def load(path):
    if torch.cuda.is_available():
        where = lambda storage, loc: storage.cuda()
    else:
        where = lambda storage, loc: storage
    return torch.load(path, map_location=where)
"""
    assert _layers("predict/load.py", source) == {"vendor-path": 1, "portable": 6}


def test_effect_file_is_hlsl_kernel_as_a_whole() -> None:
    # PrismaticFlower/shaderpatch assets/core/src/decal.fx: a vertex and a pixel shader.
    source = b"""\
Texture2D<float4> albedo : register(t0);
SamplerState linear_wrap : register(s0);

struct Vs_out
{
   float2 uv : TEXCOORD0;
   float4 pos : SV_Position;
};

float4 decal_ps(Vs_out input) : SV_Target0
{
   return albedo.Sample(linear_wrap, input.uv);
}
"""
    report = classify("shaders/decal.fx", source)
    assert report.language == "HLSL"
    assert _layers("shaders/decal.fx", source) == {"kernel": 11}


def test_direct3d11_host_code_stays_portable() -> None:
    # PrismaticFlower/shaderpatch src/effects/profiler.hpp: Direct3D 11 timestamp queries in
    # host C++; Direct3D 11 runs on every vendor's Windows driver.
    source = b"""\
#pragma once
#include <d3d11_4.h>

class Profiler {
public:
   explicit Profiler(ID3D11Device5& device);
   void begin(ID3D11DeviceContext4& dc) { dc.Begin(_disjoint.get()); }
private:
   Com_ptr<ID3D11Query> _disjoint;
};
"""
    assert _layers("src/effects/profiler.hpp", source) == {"portable": 9}


def test_tracker_named_for_gpu_without_gpu_code_stays_portable() -> None:
    # sPHENIX-Collaboration/coresoftware offline/packages/trackreco/GPUTPCTrackParam.h: a
    # track-fit class taken from a GPU tracker, kept as plain C++.
    source = b"""\
#ifndef TRACKPARAM_H
#define TRACKPARAM_H
class GPUTPCTrackParam
{
 public:
  float GetX() const { return fX; }
  void SetX(float v) { fX = v; }
 private:
  float fX = 0.f;
};
#endif
"""
    assert _layers("trackreco/GPUTPCTrackParam.h", source) == {"portable": 11}
