"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h53-random-l).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 1050-1056 and skipped none. Read were yyq19990828/onnxtools
(ONNX Runtime inference tools with Polygraphy's TensorRT examples and TensorRT engine
scripts), BurningWitness/vulkan (Haskell Vulkan bindings, their generator, an example
renderer and VulkanMemoryAllocator), parlance-zz/dualdiffusion (a PyTorch audio diffusion
model), MateuszZelent/fullmag (a Rust and CUDA micromagnetics solver with a Next.js front
end), AccelerateHS/accelerate-llvm (Accelerate's LLVM back ends for CPUs and, through the
cuda package, NVIDIA GPUs), in0brain/attention_k (PyTorch interpretability scripts) and
sunnyang1/Adaptive-Deep-Networks-... (PyTorch research code on adaptive attention). Three
snapshots lack their files of 4 MiB and more (fonts, PDFs, data sets), which were left out of
the clones. Fifteen files of each repository were sampled with ``random.Random("owner/name")``
over every file lockin counts and labelled before any fix, with the files lockin calls
non-portable (up to 20) and GPU-looking files it calls portable (up to 10) checked apart,
files outside the sample that hold kernel lines counted by hand (up to 5 a repository), and
up to three commits touching GPU code (``random.Random("owner/name:commits")``) judged
against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found
in the repository its test names; the expected layers are what a porting engineer reading
that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- yyq19990828/onnxtools: Polygraphy's TensorRT back end -----------------------------------


def test_polygraphy_tensorrt_runner_is_vendor_library() -> None:
    # docs/polygraphy使用指南/examples/api/06_immediate_eval_api/build_and_run.py (and
    # load_and_run.py beside it): an engine built and run through Polygraphy, tensorrt never
    # imported by name.
    source = b"""\
import numpy as np
from polygraphy.backend.trt import TrtRunner, engine_from_network, network_from_onnx_path


def main():
    builder, network, parser = network_from_onnx_path("model.onnx")
    engine = engine_from_network((builder, network))
    with TrtRunner(engine) as runner:
        result = runner.infer(feed_dict={"x": np.zeros((1, 3), np.float32)})
    print(result)
"""
    assert _rules("examples/trt_eval.py", source) == {"tensorrt.api"}
    assert _layers("examples/trt_eval.py", source) == {"vendor-library": 2, "portable": 6}


def test_polygraphy_onnxruntime_runner_stays_portable() -> None:
    # The same API over ONNX Runtime, the back end the repository's tools compare against.
    source = b"""\
from polygraphy.backend.onnxrt import OnnxrtRunner, SessionFromOnnx

with OnnxrtRunner(SessionFromOnnx("model.onnx")) as runner:
    outputs = runner.infer(feed_dict={"x": batch})
"""
    assert _rules("examples/ort_eval.py", source) == set()
    assert _layers("examples/ort_eval.py", source) == {"portable": 3}


def test_polygraphy_run_with_trt_flag_is_vendor_path() -> None:
    # tools/debug/01_debug_subonnx_fp16.sh: golden outputs from ONNX Runtime, then each
    # bisected model checked as an FP16 TensorRT engine.
    source = b"""\
#!/bin/bash
polygraphy run model.onnx --onnxrt --save-outputs golden.json
polygraphy debug reduce model.onnx -o reduced.onnx --check \\
    polygraphy run polygraphy_debug.onnx \\
        --trt \\
        --fp16 \\
        --load-outputs golden.json
"""
    assert _rules("tools/debug/fp16.sh", source) == {"build.nvcc"}
    assert _layers("tools/debug/fp16.sh", source) == {"vendor-path": 1, "portable": 5}


def test_onnxruntime_cuda_provider_stays_vendor_path() -> None:
    # onnxtools/infer_onnx/onnx_base.py (already right): the CUDA execution provider asked
    # first, the CPU one as fallback.
    source = b"""\
import onnxruntime as ort

providers = ["CUDAExecutionProvider", "CPUExecutionProvider"]
session = ort.InferenceSession("model.onnx", providers=providers)
"""
    assert _rules("infer/base.py", source) == {"onnxruntime.cuda-provider"}
    assert "vendor-path" in _layers("infer/base.py", source)


# -- BurningWitness/vulkan: Vulkan from Haskell -----------------------------------------------


def test_haskell_vulkan_host_code_is_vendor_path() -> None:
    # vulkan-example/src/Example.hs: the raw bindings imported, and a device created and torn
    # down through vk* calls and Vk* structs.
    source = b"""\
module Example where

import           Vulkan.Core_1_0
import           Control.Exception

withDevice :: VkPhysicalDevice -> (VkDevice -> IO a) -> IO a
withDevice phys =
  bracket (openDevice phys) (\\dev -> vkDestroyDevice dev nullPtr)

waitIdle :: VkDevice -> IO ()
waitIdle dev = do
  status <- vkDeviceWaitIdle dev
  when (status /= VK_SUCCESS) $ throwIO (userError "wait")
"""
    assert _rules("src/Example.hs", source) == {"vulkan.haskell-host"}
    assert _layers("src/Example.hs", source) == {"vendor-path": 6, "portable": 4}


def test_hsc_vulkan_binding_module_is_counted_as_vendor_path() -> None:
    # vulkan-raw/src-gen/Vulkan/Types/Enum/VkAttachmentLoadOp.hsc: hsc2hs source (no language
    # before, so 2,500 such modules went uncounted) that includes the C header and defines
    # the API's constants as pattern synonyms.
    source = b"""\
{-# LANGUAGE PatternSynonyms #-}

#include <vulkan/vulkan.h>

module Vulkan.Types.Enum.VkFrontFace where

type VkFrontFace = #{type int}

pattern VK_FRONT_FACE_CLOCKWISE :: (Eq a, Num a) => a
pattern VK_FRONT_FACE_CLOCKWISE = 1
"""
    assert _rules("src-gen/Vulkan/Types/Enum/VkFrontFace.hsc", source) == {"vulkan.haskell-host"}
    # The LANGUAGE pragma is a {- -} comment to the lexer: every code line is the API's.
    assert _layers("src-gen/Vulkan/Types/Enum/VkFrontFace.hsc", source) == {"vendor-path": 5}


def test_hsc_binding_of_another_c_library_stays_portable() -> None:
    # An hsc2hs binding of a C library that is no GPU API counts, and stays portable.
    source = b"""\
#include <zlib.h>

module Codec.Zlib.Raw where

type ZStream = #{type int}
"""
    assert _rules("src/Codec/Zlib/Raw.hsc", source) == set()
    assert _layers("src/Codec/Zlib/Raw.hsc", source) == {"portable": 3}


def test_haskell_vulkan_binding_generator_stays_portable() -> None:
    # genvulkan/src/Autogen/Packager.hs: the generator that writes the bindings out of vk.xml
    # names commands in strings and imports none of them.
    source = b"""\
module Autogen.Names where

import qualified Data.Text as T

-- | vkCreateInstance and the rest are written into Vulkan.Core_1_0 by the packager.
isCommand :: T.Text -> Bool
isCommand name = "vk" `T.isPrefixOf` name && name /= "VkResult"
"""
    assert _rules("src/Autogen/Names.hs", source) == set()
    assert _layers("src/Autogen/Names.hs", source) == {"portable": 4}


def test_ci_installing_lunarg_vulkan_sdk_is_vendor_path() -> None:
    # .circleci/config.yml: LunarG's apt source added, then the SDK installed as a package.
    source = b"""\
jobs:
  linux:
    steps:
      - run:
          name: Install Vulkan
          command: |
            sudo apt-get update
            sudo NEEDRESTART_MODE=a apt-get install -y vulkan-sdk
      - run: cabal build all
"""
    assert _rules(".circleci/config.yml", source) == {"build.vulkan"}
    assert _layers(".circleci/config.yml", source) == {"vendor-path": 1, "portable": 8}


def test_ci_installing_vulkan_loader_package_stays_portable() -> None:
    # The arm64 job of the same file installs only the loader's development package.
    source = b"""\
jobs:
  arm64:
    steps:
      - run: sudo apt-get install -y libgl-dev libvulkan-dev xorg-dev
"""
    assert _rules(".circleci/config.yml", source) == set()


# -- AccelerateHS/accelerate-llvm: the PTX back end's cuda package ----------------------------


def test_haskell_cuda_driver_stream_stays_vendor_path() -> None:
    # accelerate-llvm-ptx/src/Data/Array/Accelerate/LLVM/PTX/Execute/Stream.hs (already
    # right): streams made and destroyed through Foreign.CUDA.Driver.
    source = b"""\
module Stream where

import qualified Foreign.CUDA.Driver.Stream as Stream

create :: IO Stream.Stream
create = Stream.create []
"""
    assert _rules("src/Stream.hs", source) == {"cuda.haskell-host"}
    assert "vendor-path" in _layers("src/Stream.hs", source)


# -- MateuszZelent/fullmag: a CUDA kernel's lines ---------------------------------------------


def test_extern_c_cuda_kernel_lines_are_counted_whole() -> None:
    # native/backends/fdm/src/demag_boundary_fp64.cu (already right): an extern "C" kernel,
    # its qualifiers on a line above its name, inside the file's CUDA guard.
    source = b"""\
#include <cstdint>

#ifdef HAS_CUDA

extern "C" __global__ void
add_correction_kernel(
    double *__restrict__ hx,
    const double *__restrict__ mx,
    uint32_t n)
{
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    // scale the source by the local factor
    hx[t] += 0.5 * mx[t];
}

#endif
"""
    layers = _layers("src/correction.cu", source)
    assert layers["kernel"] == 10
