"""Cases from a seventh audit: robotics and edge inference (issue 27).

NVIDIA-AI-IOT/torch2trt (PyTorch-to-TensorRT converters in Python, TensorRT plug-ins in C++),
NVIDIA-AI-IOT/CUDA-PointPillars (lidar pre- and post-processing kernels around a TensorRT
engine), dusty-nv/jetson-utils (image kernels and vector math for Jetson boards),
dusty-nv/jetson-inference (its Python examples), NVIDIA-AI-IOT/deepstream_python_apps
(video-analytics pipelines of DeepStream's GStreamer elements) and
NVIDIA-ISAAC-ROS/isaac_ros_image_pipeline (ROS 2 nodes on NVIDIA VPI, GXF and NITROS) and
IntelRealSense/librealsense (format converters with optional CUDA paths), and Tencent/TNN (an
edge inference engine with CUDA, OpenCL, Metal, TensorRT and OpenVINO back ends). Each snippet
is a small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine import RULES, classify
from tests.engine.test_ml_repo_cases import _layers

# -- NVIDIA-AI-IOT/torch2trt: a TensorRT network built from Python ------------------------------


def test_torch2trt_converters_reached_through_a_star_import_are_tensorrt() -> None:
    # torch2trt/converters/native_converters.py: `trt` comes from `from torch2trt.torch2trt
    # import *`, never from `import tensorrt`; every converter adds INetworkDefinition layers.
    # The file is TensorRT's from top to bottom; before, it counted as portable.
    source = b"""\
from torch2trt.torch2trt import *


@tensorrt_converter('torch.nn.functional.leaky_relu')
def convert_leaky_relu(ctx):
    x = get_arg(ctx, 'input', pos=0, default=None)
    slope = get_arg(ctx, 'negative_slope', pos=1, default=0.01)
    x_trt = add_missing_trt_tensors(ctx.network, [x])[0]
    layer = ctx.network.add_activation(x_trt, trt.ActivationType.LEAKY_RELU)
    layer.alpha = slope
    ctx.method_return._trt = layer.get_output(0)


@tensorrt_converter('torch.add')
def convert_add(ctx):
    a, b = ctx.method_args[:2]
    a_trt, b_trt = add_missing_trt_tensors(ctx.network, [a, b])
    layer = ctx.network.add_elementwise(a_trt, b_trt, trt.ElementWiseOperation.SUM)
    ctx.method_return._trt = layer.get_output(0)
"""
    path = "torch2trt/converters/native_converters.py"
    assert classify(path, source).ecosystems == {"cuda": 2}
    assert _layers(path, source) == {"vendor-library": 2, "portable": 13}


def test_onnx_graph_builder_with_the_same_method_names_stays_portable() -> None:
    # A graph builder of another project whose methods share TensorRT's names: no TensorRT in
    # the file, so nothing is NVIDIA's.
    source = b"""\
import onnx_graphsurgeon as gs


def build(graph, a, b):
    c = graph.add_constant(values=[1.0])
    return graph.add_elementwise(a, c)
"""
    assert _layers("tools/graph.py", source) == {"portable": 4}


def test_torch2trt_plugin_after_using_namespace_is_tensorrt() -> None:
    # torch2trt/plugins/group_norm.cpp: `using namespace nvinfer1;` then a bare IPluginV2
    # subclass and its creator. The header, the plug-in's base class and its creator are
    # TensorRT's; the ATen code inside the methods is not.
    source = b"""\
#include <NvInfer.h>
#include <ATen/ATen.h>

using namespace nvinfer1;

namespace torch2trt {

class GroupNormPlugin : public IPluginV2 {
 public:
  int getNbOutputs() const noexcept override { return 1; }
  at::Tensor run(const at::Tensor &x) { return at::group_norm(x, groups_); }

 private:
  int64_t groups_ = 1;
};

class GroupNormPluginCreator : public IPluginCreator {
 public:
  const char *getPluginName() const noexcept override { return "group_norm"; }
};

}  // namespace torch2trt
"""
    path = "torch2trt/plugins/group_norm.cpp"
    report = classify(path, source)
    assert report.ecosystems == {"cuda": 3}
    assert _layers(path, source)["vendor-library"] == 3


# -- NVIDIA-AI-IOT/CUDA-PointPillars and dusty-nv/jetson-utils: kernels beside host tables ------


def test_pointpillars_nms_kernel_and_device_helpers_are_kernel_code() -> None:
    # src/pointpillar/lidar-postprocess.cu: __device__ geometry helpers, the NMS kernel, and the
    # host function that launches it.
    source = b"""\
#include <cuda_runtime.h>

__device__ inline float cross(const float2 p1, const float2 p2, const float2 p0) {
  return (p1.x - p0.x) * (p2.y - p0.y) - (p2.x - p0.x) * (p1.y - p0.y);
}

__global__ void nms_cuda(const int n, const float thresh, const float *boxes, uint64_t *mask) {
  const int row = blockIdx.y, col = blockIdx.x;
  const int tid = threadIdx.x;
  __shared__ float block_boxes[64 * 7];
  if (tid < n) block_boxes[tid] = boxes[tid];
  __syncthreads();
  if (cross(make_float2(0, 0), make_float2(1, 1), make_float2(0, 1)) > thresh) mask[row] = col;
}

int nms_launch(unsigned int n, float *boxes, float thresh, uint64_t *mask, cudaStream_t stream) {
  dim3 blocks(n / 64 + 1, n / 64 + 1);
  nms_cuda<<<blocks, 64, 0, stream>>>(n, thresh, boxes, mask);
  return 0;
}
"""
    layers = _layers("src/pointpillar/lidar-postprocess.cu", source)
    assert layers["kernel"] == 11
    assert layers["vendor-path"] == 3  # the include, the stream-taking signature, the launch
    assert layers["portable"] == 3


def test_jetson_utils_colormap_table_is_host_data_beside_its_kernel() -> None:
    # cuda/cudaColormap.cu: a 1,500-line host table of palettes (copied to the GPU at run time)
    # and a short kernel. The table is plain C++ data; only the kernel is device code.
    rows = b"".join(b"  {%d.0f, 0.5f, 0.25f, 1.0f},\n" % i for i in range(40))
    source = (
        b'#include "cudaColormap.h"\n\n'
        b"static const float4 colormapPalettes[] = {\n" + rows + b"};\n\n"
        b"__global__ void gpuColormapPalette(float4* palette, float* input, float4* output,\n"
        b"                                   int width, int height) {\n"
        b"  const int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
        b"  const int y = blockIdx.y * blockDim.y + threadIdx.y;\n"
        b"  if (x >= width || y >= height) return;\n"
        b"  output[y * width + x] = palette[(int)input[y * width + x]];\n"
        b"}\n"
    )
    layers = _layers("cuda/cudaColormap.cu", source)
    assert layers["kernel"] == 7
    assert layers["portable"] == 43


# -- NVIDIA-AI-IOT/deepstream_python_apps and dusty-nv/jetson-inference: NVIDIA's SDKs ----------


def test_deepstream_app_pipeline_and_metadata_probe_are_nvidia_only() -> None:
    # apps/deepstream-test1/deepstream_test_1.py: a pipeline of DeepStream's elements (decoder,
    # muxer, inference, converter, on-screen display) and a probe reading its metadata through
    # pyds. Before, the file counted as portable: 6 lines of 12,500 in the repository.
    source = b"""\
import sys
import pyds
from gi.repository import Gst


def osd_probe(pad, info, u_data):
    batch_meta = pyds.gst_buffer_get_nvds_batch_meta(hash(info.get_buffer()))
    frame = batch_meta.frame_meta_list
    while frame is not None:
        frame_meta = pyds.NvDsFrameMeta.cast(frame.data)
        print(frame_meta.frame_num)
        frame = frame.next
    return Gst.PadProbeReturn.OK


def build(pipeline):
    source = Gst.ElementFactory.make("filesrc", "file-source")
    decoder = Gst.ElementFactory.make("nvv4l2decoder", "decoder")
    streammux = Gst.ElementFactory.make("nvstreammux", "muxer")
    pgie = Gst.ElementFactory.make("nvinfer", "primary-inference")
    nvosd = Gst.ElementFactory.make("nvdsosd", "osd")
    sink = Gst.ElementFactory.make("fakesink", "sink")
    for element in (source, decoder, streammux, pgie, nvosd, sink):
        pipeline.add(element)
"""
    path = "apps/deepstream-test1/deepstream_test_1.py"
    assert classify(path, source).ecosystems == {"cuda": 7}
    assert _layers(path, source) == {"vendor-library": 3, "vendor-path": 4, "portable": 13}


def test_gstreamer_pipeline_without_nvidia_elements_stays_portable() -> None:
    # The same pipeline on GStreamer's own elements: nothing here is NVIDIA's.
    source = b"""\
from gi.repository import Gst

pipeline = Gst.parse_launch("filesrc location=a.mp4 ! decodebin ! videoconvert ! autovideosink")
print("nvinfer would need DeepStream")
"""
    assert _layers("apps/play.py", source) == {"portable": 3}


def test_jetson_inference_python_example_depends_on_nvidia_libraries() -> None:
    # python/examples/detectnet.py: jetson_inference's detectNet runs a TensorRT engine and
    # jetson_utils' video I/O lives in CUDA memory; the imports make the script NVIDIA's.
    source = b"""\
import sys

from jetson_inference import detectNet
from jetson_utils import videoSource, videoOutput

net = detectNet("ssd-mobilenet-v2", sys.argv, 0.5)
camera = videoSource("csi://0")
display = videoOutput("display://0")
while display.IsStreaming():
    img = camera.Capture()
    detections = net.Detect(img)
    display.Render(img)
"""
    path = "python/examples/detectnet.py"
    assert _layers(path, source) == {"vendor-library": 2, "portable": 8}


# -- NVIDIA-ISAAC-ROS/isaac_ros_image_pipeline: VPI, GXF and NITROS -----------------------------


def test_isaac_ros_vpi_stream_and_nitros_image_are_nvidia_libraries() -> None:
    # isaac_ros_gxf_extensions/.../VPIColorConvertImpl.cpp and the image_proc nodes: a VPI
    # stream and image wrapped around a GXF video buffer. Before, only the CUDA stream counted:
    # the VPI calls and the GXF types read as portable C++.
    source = b"""\
#include "gxf/multimedia/video.hpp"
#include "vpi/VPI.h"
#include "vpi/algo/ConvertImageFormat.h"

namespace nvidia {
namespace isaac {

gxf_result_t ColorConvert::tick(gxf::Handle<gxf::VideoBuffer> in) {
  VPIImage image = nullptr;
  VPIImageData data{};
  data.bufferType = VPI_IMAGE_BUFFER_CUDA_PITCH_LINEAR;
  vpiImageCreateWrapper(&data, nullptr, VPI_BACKEND_CUDA, &image);
  vpiSubmitConvertImageFormat(stream_, VPI_BACKEND_CUDA, image, out_, nullptr);
  vpiStreamSync(stream_);
  int frames = count_ + 1;
  count_ = frames;
  return GXF_SUCCESS;
}

}  // namespace isaac
}  // namespace nvidia
"""
    path = "gxf_isaac_tensorops/gxf/extensions/tensorops/core/VPIColorConvertImpl.cpp"
    layers = _layers(path, source)
    assert layers["vendor-library"] == 11
    assert layers["portable"] == 7


def test_a_project_variable_named_after_vpi_is_not_vpi() -> None:
    # isaac_ros_image_proc keeps a `vpiImageData` counter in a node that does not call VPI.
    source = b"""\
int vpiImageData = 0;
auto vpiImg = wrap(image);
"""
    assert _layers("src/node.cpp", source) == {"portable": 2}


# -- IntelRealSense/librealsense: a project's own CUDA switch ------------------------------------


def test_librealsense_converter_branch_under_its_cuda_switch_is_nvidia_path() -> None:
    # src/proc/depth-formats-converter.cpp: RS2_USE_CUDA picks the CUDA converter when a GPU is
    # there; the CPU loop after it is the portable path. CUDA's own switches (__CUDACC__,
    # USE_CUDA) counted, a project's PREFIX_USE_CUDA did not, while PREFIX_USE_HIP did.
    source = b"""\
#include "depth-formats-converter.h"
#ifdef RS2_USE_CUDA
#include "cuda/cuda-conversion.cuh"
#endif

void unpack_z16_y8(uint8_t *out, const uint16_t *in, int count) {
#ifdef RS2_USE_CUDA
  if (rsutils::rs2_is_gpu_available()) {
    rscuda::unpack_z16_y8_cuda(out, in, count);
    return;
  }
#endif
  for (int i = 0; i < count; ++i) out[i] = in[i] >> 2;
}
"""
    path = "src/proc/depth-formats-converter.cpp"
    assert classify(path, source).ecosystems == {"cuda": 9}
    assert _layers(path, source) == {"vendor-path": 9, "portable": 4}


def test_a_branch_for_cuda_or_hip_builds_is_no_cuda_only_path() -> None:
    # AMReX-Codes/amrex Src/Base/AMReX_GpuReduce.H: one branch serves both GPU vendors.
    source = b"""\
#if defined(AMREX_USE_SYCL)
int reduce_sycl(int x);
#elif defined(AMREX_USE_CUDA) || defined(AMREX_USE_HIP)
int reduce_cuda_or_hip(int x);
#endif
"""
    assert "cuda" not in classify("Src/Base/AMReX_GpuReduce.H", source).ecosystems


# -- Tencent/TNN: an OpenVINO back end beside the CUDA and TensorRT ones -------------------------


def test_tnn_openvino_layer_builder_is_intel_library_code() -> None:
    # source/tnn/network/openvino/layer_builder/*.cc: each layer rebuilt with OpenVINO's nGraph
    # API for Intel's runtime, as the TensorRT back end rebuilds it for NVIDIA's. Before, the
    # builders counted as portable C++ (the one miss in a random sample of 15 TNN files).
    source = b"""\
#include <ngraph/ngraph.hpp>
#include <ngraph/opsets/opset1.hpp>
#include <inference_engine.hpp>

namespace TNN_NS {

Status ReluOVLayerBuilder::Build() {
    auto input_node = GetInputNodes()[0];
    auto relu = std::make_shared<ngraph::op::Relu>(input_node->output(0));
    relu->set_friendly_name(param_->name);
    ngraph::NodeVector outputs = {relu};
    SetOutputNodes(outputs);
    return TNN_OK;
}

}  // namespace TNN_NS
"""
    path = "source/tnn/network/openvino/layer_builder/relu_layer_builder.cc"
    report = classify(path, source)
    assert report.ecosystems == {"openvino": 5}
    assert {RULES[f.rule].vendors for f in report.findings} == {frozenset({"intel"})}
    assert _layers(path, source) == {"vendor-library": 5, "portable": 8}
