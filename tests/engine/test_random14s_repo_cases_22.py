"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h50-random-s).

The pool is ``/work/pool-h47.txt``, shuffled with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 518-524. All seven had snapshots and were read:
adventurerok/VoxelCaverns-4 (a Java voxel game on LWJGL/OpenGL with GLSL shaders),
gouqi666/DPO-deepspeed (DeepSpeed-Chat training scripts for SFT, reward model and DPO),
giuinktse7/vulkan-game-editor (a C++20 Qt/Vulkan map editor with GLSL shaders),
RemieJanssen/pycuda-tree-child (a PyCUDA kernel testing phylogenetic networks),
ROCm/aomp (AMD's OpenMP offload compiler: build scripts, OpenMP/HIP examples and smoke tests),
dfrostar/neuralmind (a Python code-context indexer with an ONNX embedder) and
MillionXie/2026OpticsMoE (PyTorch optical mixture-of-experts experiments). Three snapshots
lacked a few large data files (a dataset, game client data, vendor SDK binaries and
notebooks); the rest of each tree was checked out. Fifteen files of each repository (all
nine of pycuda-tree-child) were sampled with ``random.Random("owner/name")`` over every file
lockin counts and labelled before any fix, with the files lockin calls non-portable (up to
20) and GPU-looking files it calls portable (up to 10) checked apart, and three commits
touching GPU code (one where only one exists) judged against ``lockin diff``
(``random.Random("owner/name:commits")``). Each snippet is a small rewrite, in our own words,
of a pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ROCm/aomp: a Makefile building HIP through a Make variable ----------------------------------


def test_makefile_hipcc_variable_and_amd_runtime_link_are_vendor_path() -> None:
    # examples/hip/device_lib/Makefile and test/smoke/use_device_ptr/Makefile: the HIP compiler
    # is reached only through $(HIPCC), set in an included file, the link names AMD's HIP
    # runtime and the device-library folder is ROCm's amdgcn/bitcode. The OpenMP and host
    # compile lines around them stay portable.
    source = b"""\
include ../../common.mk

CLANG = $(LLVM_DIR)/bin/clang
DEVLIB_DIR = $(ROCM_DIR)/amdgcn/bitcode
LIBS = -L$(ROCM_DIR)/lib -lamdhip64

host.o: host.c
\t$(CLANG) -O2 -fopenmp -c $< -o $@

app: app.hip host.o
\tDEVICE_LIB_PATH=$(DEVLIB_DIR) $(HIPCC) -fgpu-rdc $^ $(LIBS) -o $@
"""
    assert _rules("examples/hip/sdl/Makefile", source) == {"build.hip-offload-arch"}
    assert _layers("examples/hip/sdl/Makefile", source) == {"vendor-path": 3, "portable": 5}


def test_makefile_names_that_only_contain_hip_pieces_stay_portable() -> None:
    # The negative of the case above: a chip compiler variable, RocksDB and another target's
    # bitcode folder are not AMD's toolchain.
    source = b"""\
CC = $(CHIPCC)
LDLIBS += -lrocksdb -lpthread
BC_DIR = $(SDK)/nvptx/bitcode
all: main.o
\t$(CC) -o app main.o $(LDLIBS)
"""
    assert _rules("tools/Makefile", source) == set()
    assert _layers("tools/Makefile", source) == {"portable": 5}


# -- ROCm/aomp: OpenMP target offload is portable; verdicts that were already right ----------


def test_openmp_target_region_in_c_is_portable() -> None:
    # examples/stress/many_regions/src/vsum_034.c: one `omp target teams` region per file.
    source = b"""\
void vadd_17(int n, const float *a, const float *b, float *c) {
#pragma omp target teams distribute parallel for map(to: a[0:n], b[0:n]) map(from: c[0:n])
  for (int i = 0; i < n; i++)
    c[i] = a[i] + b[i];
}
"""
    assert _rules("src/vadd_17.c", source) == set()
    assert _layers("src/vadd_17.c", source) == {"portable": 5}


# -- RemieJanssen/pycuda-tree-child: CUDA C in a SourceModule string ---------------------------


def test_pycuda_source_module_string_is_kernel_and_launch_is_vendor_path() -> None:
    # pycuda_test.py: a __global__ function handed to SourceModule as a triple-quoted string,
    # fetched with get_function and launched with drv.In/drv.Out buffers. The call's span (its
    # opening and closing lines with the five lines of CUDA C between) is the kernel.
    source = b'''\
import numpy as np
import pycuda.autoinit
import pycuda.driver as cuda_drv
from pycuda.compiler import SourceModule

module = SourceModule("""
__global__ void halve(float *out, const float *x)
{
  const int k = threadIdx.x;
  out[k] = 0.5f * x[k];
}
""")

halve = module.get_function("halve")
x = np.ones(128, dtype=np.float32)
out = np.empty_like(x)
halve(cuda_drv.Out(out), cuda_drv.In(x), block=(128, 1, 1), grid=(1, 1))
print(out.sum())
'''
    assert _rules("demo_halve.py", source) == {
        "pycuda.driver",
        "pycuda.host-api",
        "pycuda.source-module",
    }
    assert _layers("demo_halve.py", source) == {"kernel": 7, "vendor-path": 5, "portable": 4}


# -- giuinktse7/vulkan-game-editor: a Qt RHI fragment shader ------------------------------------


def test_qt_fragment_shader_code_lines_are_kernel_without_its_comments() -> None:
    # resources/shaders/shadow.frag: a GLSL 440 fragment shader compiled by Qt's qsb; the
    # commented-out lines inside main() are not counted.
    source = b"""\
#version 440

layout(location = 0) in vec2 qt_TexCoord0;
layout(location = 0) out vec4 fragColor;
layout(binding = 1) uniform sampler2D source;

void main()
{
    // vec4 base = vec4(0.0);
    vec4 c = texture(source, qt_TexCoord0);
    fragColor = vec4(c.rgb * 0.5, c.a);
}
"""
    assert _rules("resources/shaders/dim.frag", source) == {"vulkan.shader-file"}
    assert _layers("resources/shaders/dim.frag", source) == {"kernel": 9}


# -- gouqi666/DPO-deepspeed: launcher scripts ----------------------------------------------------


def test_deepspeed_launcher_is_portable_and_cuda_visible_devices_is_vendor_path() -> None:
    # training/step2_reward_model_finetuning/run_llama.sh beside training_scripts/single_gpu/
    # run_350m.sh: the deepspeed launcher runs on ROCm too; only the NVIDIA device mask is
    # vendor-specific.
    source = b"""\
#!/bin/bash
OUT=./output
mkdir -p $OUT
export CUDA_VISIBLE_DEVICES=0,1
deepspeed --num_gpus 2 main.py \\
   --model_name_or_path facebook/opt-125m \\
   --per_device_train_batch_size 4 \\
   --deepspeed --output_dir $OUT
"""
    assert _rules("scripts/run_rm.sh", source) == {"env.cuda-variables"}
    assert _layers("scripts/run_rm.sh", source) == {"vendor-path": 1, "portable": 6}
