"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h46-random-m).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 650-655: Drq13112/ROS2_YOLO_TensorRT, capagot/swpathtracer,
jonathan2222/HLSLVariantLSPBase, OpenAnimal/tree-free-nbody-engine, bjorgve/cublas and
shengyushen/cudnn-training. None was skipped. Fifteen files of each repository (all nine of
bjorgve/cublas) were sampled with ``random.Random("owner/name")`` over the files lockin counts,
sorted by path, and labelled before any fix, with the files lockin calls non-portable (up to
twenty) and GPU-looking files it calls portable (up to ten), and three commits each drawn with
``random.Random("owner/name:commits")``. Each snippet is a small rewrite, in our own words, of a
pattern found in the repository its test names; the expected layers are what a porting engineer
reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- Drq13112/ROS2_YOLO_TensorRT: ROS 2 nodes on TensorRT, build and install trees committed --


def test_ros_package_manifest_depending_on_cuda_and_tensorrt() -> None:
    # src/TensorRT-YOLO/package.xml: the segmentation node's manifest asks rosdep for CUDA and
    # TensorRT's development packages. Before, package.xml was read as XML text: no code line.
    source = b"""\
<?xml version="1.0"?>
<package format="3">
  <name>trt_segmenter</name>
  <version>0.0.1</version>
  <description>Segmentation node on TensorRT</description>
  <buildtool_depend>ament_cmake</buildtool_depend>
  <depend>rclcpp</depend>
  <depend>sensor_msgs</depend>
  <depend>cuda</depend>
  <depend>libnvinfer-dev</depend>
  <depend>libnvinfer-plugin-dev</depend>
  <depend>libnvonnxparser-dev</depend>
  <export>
    <build_type>ament_cmake</build_type>
  </export>
</package>
"""
    assert _rules("src/TensorRT-YOLO/package.xml", source) == {"deps.ros-cuda-package"}
    assert _layers("src/TensorRT-YOLO/package.xml", source) == {"vendor-path": 4, "portable": 12}


def test_ros_package_manifest_without_gpu_dependencies_is_portable() -> None:
    # src/seg_sub/package.xml: a subscriber node that only draws the masks it receives.
    source = b"""\
<package format="3">
  <name>mask_viewer</name>
  <description>Shows the masks the CUDA node publishes</description>
  <depend>rclcpp</depend>
  <depend>cv_bridge</depend>
  <exec_depend>onnxruntime</exec_depend>
</package>
"""
    assert _layers("src/seg_sub/package.xml", source) == {"portable": 7}


def test_nvcc_fatbin_stub_in_a_committed_build_tree() -> None:
    # build/*/CMakeFiles/3.22.1/CompilerIdCUDA/tmp/a_dlink.fatbin.c: nvcc's stub holding the
    # device link's fatbin in an asm block, declared once as its wrapper. Before, portable.
    source = b"""\
#ifndef __SKIP_INTERNAL_FATBINARY_HEADERS
#include "fatbinary_section.h"
#endif
#define __CUDAFATBINSECTION ".nvFatBinSegment"
asm(
".section .nv_fatbin, \\"a\\"\\n"
"fatbinData:\\n"
".quad 0x00100001ba55ed50,0x00000000000003a8\\n"
".text\\n");
extern const unsigned long long fatbinData[2];
static const __fatBinC_Wrapper_t __fatDeviceText __attribute__((aligned(8))) =
    { 0x466243b1, 2, fatbinData, (void**)__cudaPrelinkedFatbins };
"""
    path = "build/trt/CMakeFiles/3.22.1/CompilerIdCUDA/tmp/a_dlink.fatbin.c"
    assert "cuda.embedded-binary" in _rules(path, source)


def test_onnxruntime_cuda_provider_in_an_installed_header_stays_vendor_path() -> None:
    # install/yolocpp/.../det/YOLO7.hpp (checked right): the CUDA execution provider is asked
    # for by name and appended when the caller wants the GPU.
    source = b"""\
#include <onnxruntime_cxx_api.h>
#include <algorithm>
#include <string>
#include <vector>

inline void configure(Ort::SessionOptions &options, bool useGpu) {
    std::vector<std::string> providers = Ort::GetAvailableProviders();
    auto it = std::find(providers.begin(), providers.end(), "CUDAExecutionProvider");
    bool found = it != providers.end();
    OrtCUDAProviderOptions cudaOption;
    if (useGpu && found) {
        options.AppendExecutionProvider_CUDA(cudaOption);
    }
}
"""
    assert "onnxruntime.cuda-provider-api" in _rules("include/det/YOLO7.hpp", source)


# -- shengyushen/cudnn-training: cuDNN model-parallel training and its run scripts ------------


def test_run_script_launching_the_project_binary_is_portable() -> None:
    # runall_4gpu_nohint.sh (checked right): runs the project's own executable over a grid of
    # sizes; only the profiling wrapper (prof.sh) calls nvprof.
    source = b"""\
#!/bin/bash
for mb in 16 32 64
do
  ./cudnnModelParallel.exe resnet 100 ${mb} 224 0 1 0
done
"""
    assert _layers("runall_4gpu_nohint.sh", source) == {"portable": 4}
