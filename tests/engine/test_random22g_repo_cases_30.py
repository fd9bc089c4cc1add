"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h57-rest-g).

The sub-pool is ``/work/pool-h58-rest.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold NO GPU term (the
complement of the rule in ``/work/pool/h55_gpu_rule.py``, written in
``/work/pool/h58_rest_rule.py``), so most are no GPU code at all. This lane took sub-pool
positions 49-56. Three had no snapshot to fetch and were skipped: mstits/
neural-entertainment-system (52), EmaNLJN/aprender-sistemas (53) and wtrdd1-hash/
Woldeok-Moneyverse-Migration (56). Read were cristianlukas/UNLZ_Llamacode (a Qt/QML desktop
launcher and agent front end for llama.cpp binaries, choosing CPU, CUDA, Vulkan or Metal
builds by name; no device code), zbarettnymbl/MLBMapping (a TypeScript web app mapping
BigQuery tables, with a bundled ag-grid; no GPU code), Molunerfinn/vue-koa-demo (a Vue and
Koa to-do demo with MySQL; no GPU code), MegatronX/KHMP_ED (an SFML game with vendored SFML,
zlib and FreeType trees, the SFML examples' GLSL shaders among them) and
kainlan/llama.cpp-intel-optimizations (a llama.cpp fork tuning the SYCL back end for Intel
GPUs: CUDA, SYCL, OpenCL, Vulkan and WGSL kernels, and many SYCL policy tests). Fifteen files
of each repository were sampled with ``random.Random("owner/name")`` over every file lockin
counts and labelled before any fix, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10) checked apart, files outside the sample that
hold kernel lines counted by hand (up to 5 a repository), and up to three commits touching GPU
code (``random.Random("owner/name:commits")``) judged against ``lockin diff``. No sampled file
was wrong. Among the GPU-looking files lockin called portable, the fork's
tests/test-sycl-soa.cpp creates ggml's SYCL back end (``ggml_backend_sycl_init(0)``), a
vendor choice no rule named; cuda.ggml-backend and sycl.ggml-backend now take an application's
call of ggml's CUDA or SYCL back-end functions and the include of their headers. The other
tests pin verdicts worth keeping. Each snippet is a small rewrite, in our own words, of a
pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- kainlan/llama.cpp-intel-optimizations: a llama.cpp fork for Intel GPUs ---------------------


def test_ggml_sycl_backend_init_in_a_test_is_vendor_path() -> None:
    # tests/test-sycl-soa.cpp (GPU-looking, portable before): the test builds the SYCL back
    # end beside the CPU one and compares their matrix products.
    source = b"""\
#include <vector>
#include "ggml-backend.h"
#include "ggml-sycl.h"

int main() {
    ggml_backend_t cpu = ggml_backend_cpu_init();
    ggml_backend_t gpu = ggml_backend_sycl_init(0);
    if (!gpu) {
        return 77;
    }
    ggml_backend_free(gpu);
    ggml_backend_free(cpu);
    return 0;
}
"""
    path = "tests/test-sycl-soa.cpp"
    assert "sycl.ggml-backend" in _rules(path, source)
    assert _layers(path, source) == {"vendor-path": 2, "portable": 11}


def test_ggml_cuda_backend_choice_in_an_embedder_is_vendor_path() -> None:
    # The same choice made for NVIDIA by an application embedding ggml (whisper.cpp and
    # llama.cpp users write it): the CUDA back end first, the CPU one as the fallback.
    source = b"""\
#include "ggml-cuda.h"

ggml_backend_t open_backend(bool use_gpu, int dev) {
    if (use_gpu && dev < ggml_backend_cuda_get_device_count()) {
        return ggml_backend_cuda_init(dev);
    }
    return ggml_backend_cpu_init();
}
"""
    path = "src/runner.cpp"
    assert "cuda.ggml-backend" in _rules(path, source)
    assert _layers(path, source) == {"vendor-path": 3, "portable": 4}


def test_ggml_backend_named_in_comments_only_stays_portable() -> None:
    # A CPU-only build that mentions the GPU calls in its comments and messages.
    source = b"""\
// Built without ggml_backend_cuda_init(): see ggml-cuda.h in a GPU build.
ggml_backend_t open_backend() {
    puts("ggml_backend_sycl_init(0) is not linked in");
    return ggml_backend_cpu_init();
}
"""
    path = "src/runner.cpp"
    assert not {"cuda.ggml-backend", "sycl.ggml-backend"} & _rules(path, source)
    assert _layers(path, source).keys() == {"portable"}


def test_cuda_transposed_convolution_kernel_and_launch() -> None:
    # ggml/src/ggml-cuda/conv2d-transpose.cu (sampled, right before): a __global__ kernel,
    # then the host op reading the stream and launching it with <<<>>>.
    source = b"""\
#include "common.cuh"

static __global__ void scatter_add(const float * x, float * y, int n, int stride) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    float acc = 0.0f;
    for (int k = 0; k < stride; ++k) {
        acc += x[i * stride + k];
    }
    y[i] = acc;
}

void op_scatter_add(ggml_backend_cuda_context & ctx, ggml_tensor * dst) {
    cudaStream_t st = ctx.stream();
    const int n = (int) ggml_nelements(dst);
    scatter_add<<<(n + 255) / 256, 256, 0, st>>>((const float *) dst->src[0]->data,
                                                 (float *) dst->data, n, 4);
}
"""
    layers = _layers("ggml/src/ggml-cuda/scatter-add.cu", source)
    assert layers.keys() == {"kernel", "vendor-path", "portable"}
    assert 10 <= layers["kernel"] <= 12


def test_cuda_op_header_with_declarations_only_is_portable() -> None:
    # ggml/src/ggml-cuda/pool2d.cuh (sampled, right before): a block size and the host op's
    # declaration; no device code and no runtime call.
    source = b"""\
#include "common.cuh"

#define POOL_BLOCK 256

void op_pool(ggml_backend_cuda_context & ctx, ggml_tensor * dst);
"""
    assert _layers("ggml/src/ggml-cuda/pool.cuh", source).keys() == {"portable"}


def test_sycl_prefix_sum_kernel_is_kernel_with_a_host_launch() -> None:
    # ggml/src/ggml-sycl/cumsum.cpp (sampled, right before): a sub-group scan called from a
    # parallel_for lambda; the submit, local accessor and queue lines are host code.
    source = b"""\
#include <sycl/sycl.hpp>

static float group_scan(float v, const sycl::nd_item<1> & it) {
    return sycl::inclusive_scan_over_group(it.get_sub_group(), v, sycl::plus<float>());
}

void prefix_sum(sycl::queue * q, const float * x, float * y, int n) {
    q->submit([&](sycl::handler & cgh) {
        cgh.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
            const int i = it.get_global_id(0);
            y[i] = group_scan(i < n ? x[i] : 0.0f, it);
        });
    });
}
"""
    layers = _layers("ggml/src/ggml-sycl/prefix.cpp", source)
    assert "kernel" in layers
    assert "sycl.kernel" in _rules("ggml/src/ggml-sycl/prefix.cpp", source)


def test_sycl_policy_fixture_naming_the_namespace_is_portable() -> None:
    # tests/sycl-alloc-policy-fixtures/*/...cpp (sampled, right before): a fixture of the
    # project's own ggml_sycl namespace, plain C++ with no SYCL or Level Zero call.
    source = b"""\
namespace ggml_sycl {
struct handle { void * ptr; };
bool release(handle &);
}

void drop(std::shared_ptr<ggml_sycl::handle> & owner) {
    if (owner && owner->ptr) {
        ggml_sycl::release(*owner);
        owner.reset();
    }
}
"""
    assert _layers("tests/fixtures/bad_owner.cpp", source).keys() == {"portable"}


def test_wgsl_compute_shader_is_kernel() -> None:
    # ggml/src/ggml-webgpu/wgsl-shaders/im2col.wgsl (sampled, right before): every line of a
    # WGSL compute shader is device code.
    source = b"""\
@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i >= arrayLength(&dst)) {
        return;
    }
    dst[i] = src[i] * 2.0;
}
"""
    assert _layers("ggml/src/ggml-webgpu/wgsl-shaders/twice.wgsl", source) == {"kernel": 10}


def test_vtune_log_checker_script_is_portable() -> None:
    # scripts/check-sycl-vtune-source-lines.py (a sampled commit, passing before and right):
    # a profiler log parser with GPU words in its regular expressions only.
    source = b"""\
import re

NO_TRACE = re.compile(r"no GPU-side trace.{0,80}collected", re.IGNORECASE)


def classify(log: str) -> str:
    if NO_TRACE.search(log):
        return "vtune_no_gpu_side_trace"
    return "ok"
"""
    assert _layers("scripts/check-vtune-lines.py", source).keys() == {"portable"}


# -- MegatronX/KHMP_ED: an SFML game with vendored libraries -----------------------------------


def test_glsl_fragment_blur_shader_is_kernel() -> None:
    # extlib/src/SFML-2.3.2/examples/shader/resources/blur.frag (an extra kernel file, in range):
    # a legacy GLSL fragment shader, every code line counted.
    source = b"""\
uniform sampler2D tex;
uniform float radius;

void main()
{
    vec2 dx = vec2(radius, 0.0);
    vec4 c = texture2D(tex, gl_TexCoord[0].xy) * 2.0
           + texture2D(tex, gl_TexCoord[0].xy - dx)
           + texture2D(tex, gl_TexCoord[0].xy + dx);
    gl_FragColor = gl_Color * (c / 4.0);
}
"""
    assert _layers("examples/shader/resources/soft.frag", source) == {"kernel": 10}


def test_sfml_shader_host_example_is_portable() -> None:
    # extlib/src/SFML-2.3.2-windows-vc14-32-bit/.../examples/shader/Shader.cpp (sampled, right
    # before): SFML's sf::Shader loads and binds GLSL through OpenGL, a portable API.
    source = b"""\
#include <SFML/Graphics.hpp>

class Blur {
public:
    bool load() {
        if (!sf::Shader::isAvailable())
            return false;
        return m_shader.loadFromFile("resources/blur.frag", sf::Shader::Fragment);
    }
    void update(float x) { m_shader.setParameter("radius", x * 0.01f); }
private:
    sf::Shader m_shader;
};
"""
    assert _layers("examples/shader/Shader.cpp", source).keys() == {"portable"}


# -- cristianlukas/UNLZ_Llamacode: a Qt launcher for llama.cpp builds --------------------------


def test_qml_backend_picker_listing_cuda_is_portable() -> None:
    # build_tests_mgpu/qml/.../BinariesPage.qml (sampled, right before): a combo box listing
    # the llama.cpp builds by back-end name; a label, not device code.
    source = b"""\
import QtQuick
import QtQuick.Controls

ComboBox {
    id: backendCombo
    model: ["cpu", "cuda", "vulkan", "metal"]
    onActivated: App.setBackend(model[currentIndex])
}
"""
    assert _layers("qml/pages/BinariesPage.qml", source).keys() == {"portable"}


def test_tuner_gating_a_flag_on_the_cuda_build_name_is_portable() -> None:
    # src/core/tuner/TunerEngine.cpp (commit 682ca6333a0e, passing before and right): the
    # launcher offers --split-mode only for a build it knows by the name "cuda" on two GPUs.
    source = b"""\
bool TunerEngine::canSplit(int gpus, const QString &backend, const QStringList &flags)
{
    if (gpus < 2 || backend.compare(QStringLiteral("cuda"), Qt::CaseInsensitive) != 0)
        return false;
    return flags.contains(QStringLiteral("--split-mode"));
}
"""
    assert _layers("src/core/tuner/TunerEngine.cpp", source).keys() == {"portable"}


# -- zbarettnymbl/MLBMapping and Molunerfinn/vue-koa-demo: web apps ---------------------------


def test_bigquery_table_view_component_is_portable() -> None:
    # client/src/components/bigquery/BigQueryTableView.tsx (sampled, right before).
    source = b"""\
import { useMemo } from "react";

export function TableView({ rows }: { rows: string[][] }) {
  const head = useMemo(() => rows[0] ?? [], [rows]);
  return <table><thead><tr>{head.map((h) => <th key={h}>{h}</th>)}</tr></thead></table>;
}
"""
    assert _layers("client/src/components/TableView.tsx", source).keys() == {"portable"}


def test_mysql_dockerfile_is_portable() -> None:
    # mysql.dockerfile (sampled, right before): a MySQL image seeded with SQL files.
    source = b"""\
FROM mysql:5.7
ENV MYSQL_DATABASE=todolist
COPY sql/ /docker-entrypoint-initdb.d/
EXPOSE 3306
"""
    assert _layers("mysql.dockerfile", source).keys() == {"portable"}
