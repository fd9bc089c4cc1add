"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h54-random-f).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 36-42. Three had no snapshot to fetch and were skipped:
maldonado-research/HDblast (36), brentbaum/ifs-active-inference (37) and CoffeeVampir3/
Mojo-Gemma4-CPU (41). Read were FidelBM/code_plagiarism (a source-code plagiarism detector:
a data set of student Java and C programs, and Jupyter notebooks training TF-IDF, Keras and
CodeBERTa/CodeGPT embedding models with torch on CUDA when present), cbaakman/occupy (a
JOGL/OpenGL 3 strategy game in Java, with four GLSL 150 shaders in .vsh/.fsh files and a
loading screen's shaders kept in Java string constants), Gunja007/ai-diffusion-dpg (a
Python micro-service framework for AI agents: FastAPI services, Helm charts, Dockerfiles
installing CPU-only torch, a React dev kit; no GPU code) and qsphan/mai (one README on
weight initialisation, no code file to sample). Fifteen files of each repository were sampled
with ``random.Random("owner/name")`` over every file lockin counts and labelled before any
fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it calls
portable (up to 10) checked apart, files outside the sample that hold kernel lines counted by
hand (up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Every verdict
agreed with the labels, so nothing here was a miss before: these tests keep the right
verdicts. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

import json

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- FidelBM/code_plagiarism: embedding notebooks that move the model to CUDA when present ---


def _notebook(cells: list[tuple[str, str, list[dict[str, object]]]]) -> bytes:
    """A minimal nbformat 4 notebook: (cell type, source, outputs) per cell."""
    return json.dumps(
        {
            "cells": [
                {
                    "cell_type": kind,
                    "metadata": {},
                    "source": source.splitlines(keepends=True),
                    **({"execution_count": 1, "outputs": outputs} if kind == "code" else {}),
                }
                for kind, source, outputs in cells
            ],
            "metadata": {"language_info": {"name": "python"}},
            "nbformat": 4,
            "nbformat_minor": 5,
        },
        indent=1,
    ).encode()


def test_notebook_device_pick_is_its_one_vendor_path_line() -> None:
    # 04-Entreamiento_embeddings.ipynb (and five notebooks like it): the CUDA-or-CPU device
    # line is the one vendor-path line; the encoder taking `device` as an argument, and
    # moving each batch to it, runs wherever that device is.
    source = _notebook(
        [
            ("markdown", "## Embeddings\n", []),
            (
                "code",
                "import torch\n"
                "device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
                "encoder.to(device)\n",
                [{"name": "stdout", "output_type": "stream", "text": ["Device: cuda\n"]}],
            ),
            (
                "code",
                "@torch.no_grad()\n"
                "def embed(batch, encoder, device='cpu'):\n"
                "    batch = {k: v.to(device) for k, v in batch.items()}\n"
                "    return encoder(**batch).last_hidden_state[:, 0, :]\n",
                [],
            ),
        ]
    )
    path = "05-embeddings.ipynb"
    assert _rules(path, source) == {"torch.device-string"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 6}


def test_notebook_whose_output_warns_about_gpu_support_stays_portable() -> None:
    # 07_Entrenamiento_TFIDF_MLP.ipynb: a Keras model on TF-IDF features; TensorFlow's
    # warning that it will not use CUDA on Windows is an output, not code.
    warning = (
        "WARNING:tensorflow:GPU support is not available on native Windows; even with "
        "CUDA and cuDNN installed the GPU will not be used.\n"
    )
    source = _notebook(
        [
            (
                "code",
                "from tensorflow import keras\n"
                "model = keras.Sequential([keras.layers.Dense(64, activation='relu')])\n",
                [{"name": "stderr", "output_type": "stream", "text": [warning]}],
            ),
        ]
    )
    path = "07_tfidf_mlp.ipynb"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 2}


# -- cbaakman/occupy: GLSL in .vsh/.fsh files and in Java constants, JOGL host code ----------


def test_glsl_vertex_shader_in_a_vsh_file_is_kernel() -> None:
    # src/main/resources/.../shader/infantry.vsh: a GLSL 150 vertex stage handing a block
    # of varyings on (hand count: every code line).
    source = b"""\
#version 150

in vec3 position;
in vec3 normal;

out Varyings {
  vec3 normal;
} outData;

uniform mat4 mvp;

void main() {
  gl_Position = mvp * vec4(position, 1.0);
  outData.normal = normal;
}
"""
    path = "src/main/resources/game/shader/unit.vsh"
    assert _rules(path, source) == {"vulkan.shader-file"}
    assert _layers(path, source) == {"kernel": 11}


def test_glsl_fragment_shader_in_a_fsh_file_is_kernel() -> None:
    # .../shader/sprite2d.fsh: one texture lookup.
    source = b"""\
#version 150

uniform sampler2D image;
in vec2 uv;
out vec4 colour;

void main() {
  colour = texture(image, uv);
}
"""
    path = "src/main/resources/game/shader/quad.fsh"
    assert _rules(path, source) == {"vulkan.shader-file"}
    assert _layers(path, source) == {"kernel": 7}


def test_glsl_in_concatenated_java_constants_is_kernel_and_the_class_portable() -> None:
    # src/main/java/.../scene/LoadScene.java (an extra kernel file: hand 7, lockin 7): a
    # loading screen's two shaders, each a chain of `+`-joined literals, then JOGL calls.
    source = b"""\
public class Splash {
    static final String VERT = "#version 150\\n" +
                               "uniform mat4 proj;\\n" +
                               "in vec2 corner;\\n" +
                               "void main() { gl_Position = proj * vec4(corner, 0.0, 1.0); }",
                        FRAG = "#version 150\\n" +
                               "out vec4 colour;\\n" +
                               "void main() { colour = vec4(0.2, 0.2, 0.2, 1.0); }";

    void draw(GL3 gl) {
        gl.glUseProgram(program);
        gl.glDrawArrays(GL3.GL_TRIANGLE_STRIP, 0, 4);
    }
}
"""
    path = "src/main/java/game/scene/Splash.java"
    assert _rules(path, source) == {"vulkan.glsl-string"}
    assert _layers(path, source) == {"kernel": 7, "portable": 6}


def test_jogl_shader_compiling_host_code_stays_portable() -> None:
    # .../resource/ShaderProgramResource.java and errors/ShaderCompileError.java: the host
    # side compiling and linking shaders through OpenGL, which every vendor's driver runs.
    source = b"""\
import com.jogamp.opengl.GL3;

public class Programs {
    static int compile(GL3 gl, int stage, String text) throws ShaderCompileError {
        int shader = gl.glCreateShader(stage);
        gl.glShaderSource(shader, 1, new String[] { text }, null);
        gl.glCompileShader(shader);
        int[] ok = new int[1];
        gl.glGetShaderiv(shader, GL3.GL_COMPILE_STATUS, ok, 0);
        if (ok[0] == 0) throw new ShaderCompileError("shader did not compile");
        return shader;
    }
}
"""
    path = "src/main/java/game/resource/Programs.java"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 12}


# -- Gunja007/ai-diffusion-dpg: images that install CPU-only torch ----------------------------


def test_dockerfile_installing_cpu_only_torch_stays_portable() -> None:
    # knowledge_engine/Dockerfile and its predecessors (commit 2fa13eb): the comment names
    # CUDA only to say the CPU wheel index keeps it out; pip's --index-url and
    # --extra-index-url both point at the CPU wheels.
    source = b"""\
FROM python:3.12-slim AS build
# The CPU wheel index comes first so the resolver never pulls the CUDA/GPU torch build.
RUN pip install --no-cache-dir "torch>=2.1" --index-url https://download.pytorch.org/whl/cpu
RUN pip install --extra-index-url https://download.pytorch.org/whl/cpu sentence-transformers
CMD ["python", "main.py"]
"""
    path = "services/search/Dockerfile"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 4}


def test_dockerfile_installing_cuda_torch_wheels_is_vendor_path() -> None:
    # The counterpart: the same line pointed at a CUDA wheel index picks NVIDIA's build.
    source = b"""\
FROM python:3.12-slim AS build
RUN pip install --no-cache-dir "torch>=2.1" --index-url https://download.pytorch.org/whl/cu121
CMD ["python", "main.py"]
"""
    path = "services/search/Dockerfile"
    assert _rules(path, source) == {"deps.cuda-wheel"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 2}
