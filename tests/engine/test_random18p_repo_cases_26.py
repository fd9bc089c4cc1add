"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h54-random-p).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 106-112. One was skipped: NiD133/
LLM-based-Agent-Test-Understandability-Improvement (111) had no snapshot to fetch. Read were
Joshuaalbert/jaxns (a nested-sampling library on JAX: Python, example notebooks whose saved
output holds JAX's back-end probing log, device meshes through ``jax.devices()``),
patriciogonzalezvivo/thebookofshaders (the Book of Shaders: GLSL fragment shaders per
chapter, PHP pages, a JavaScript editor holding GLSL in strings, a three.js page with
shader script elements, and openFrameworks, SFML and Processing hosts that load a shader),
mgijax/mgd_java_api (a mouse-genome database REST API in Java, no GPU code), TheCardGoat/
lorcana-simulator (a card game simulator in TypeScript; "Triton" is a character's name),
cupybara/java-langchains (LangChain-style chains in Java calling OpenAI over HTTP, no GPU
code) and mtmitchel/LibreOllama (a Tauri desktop app in TypeScript and Rust talking to
Ollama; the webview is started with GPU-enabling browser flags). Snapshots missing large
blobs (jaxns: one notebook; mgd_java_api: two; lorcana-simulator: eleven) were checked out
without them; the only counted file missing was jaxns's ``docs/examples/gpar.ipynb``, which
made one sampled commit's ``lockin diff`` fail as unreadable. Fifteen files of each
repository were sampled with ``random.Random("owner/name")`` over every file lockin counts
and labelled before any fix, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10) checked apart, files outside the sample that
hold kernel lines counted by hand (up to 5 a repository), and up to three commits touching
GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``. No
verdict was wrong on these repositories; the cases below pin the right ones most likely to
move. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that
file would say.
"""

from __future__ import annotations

import json

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- Joshuaalbert/jaxns: JAX on whatever back end is there -----------------------------------


def test_xla_flag_for_host_device_count_is_portable() -> None:
    # src/jaxns/tests/conftest.py, benchmarks/parallel_problems/main.py: XLA is told to split
    # the CPU into as many devices as there are cores, so sharded code can be tried anywhere.
    source = b"""\
import os

os.environ["XLA_FLAGS"] = f"--xla_force_host_platform_device_count={os.cpu_count()}"

import jax

def test_mesh_has_every_core():
    assert len(jax.devices()) == os.cpu_count()
"""
    assert _rules("tests/conftest.py", source) == set()
    assert _layers("tests/conftest.py", source) == {"portable": 5}


def test_device_mesh_over_jax_devices_is_portable() -> None:
    # src/jaxns/nested_samplers/sharded/sharded_static.py: a sampler shards its live points
    # over the devices it is given, all of them by default; no vendor is named.
    source = b"""\
import jax
from jax.sharding import Mesh, PartitionSpec

class ShardedSampler:
    def __init__(self, devices=None):
        self.devices = devices if devices is not None else jax.devices()
        self.mesh = Mesh(self.devices, axis_names=("shard",))

    def spec(self):
        return PartitionSpec("shard")
"""
    assert _rules("sampler/sharded.py", source) == set()
    assert _layers("sampler/sharded.py", source) == {"portable": 8}


def test_jax_gpu_platform_name_is_portable_but_cuda_is_vendor_path() -> None:
    # README.md's advice, run as code: `jax.devices("gpu")` is JAX's vendor-neutral platform
    # (a ROCm jaxlib answers it too); asking for the "cuda" platform by name is an edit.
    neutral = b"""\
import jax

devices = jax.devices("gpu")
run_sampler(devices=devices)
"""
    assert _rules("run.py", neutral) == set()
    assert _layers("run.py", neutral) == {"portable": 3}
    named = neutral.replace(b'"gpu"', b'"cuda"')
    assert _rules("run.py", named) == {"jax.cuda-platform"}
    assert _layers("run.py", named) == {"vendor-path": 1, "portable": 2}


def _notebook(cells: list[dict[str, object]]) -> bytes:
    return json.dumps(
        {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1
    ).encode()


def test_notebook_output_of_jax_backend_probing_is_portable() -> None:
    # docs/examples/*.ipynb: the saved stderr of the first cell is JAX's log of the back ends
    # it tried (CUDA, TPU) before falling back to the CPU; a log, not a call into a vendor.
    source = _notebook(
        [
            {
                "cell_type": "code",
                "execution_count": 1,
                "metadata": {},
                "outputs": [
                    {
                        "name": "stderr",
                        "output_type": "stream",
                        "text": [
                            "INFO:jax._src.xla_bridge:Unable to initialize backend 'cuda': \n",
                            "WARNING:jax._src.xla_bridge:An NVIDIA GPU may be present on"
                            " this machine, but a CUDA-enabled jaxlib is not installed."
                            " Falling back to cpu.\n",
                        ],
                    }
                ],
                "source": [
                    "import jax.numpy as jnp\n",
                    "from jaxns import Model, Prior\n",
                    "x = jnp.linspace(0.0, 1.0, 10)\n",
                ],
            }
        ]
    )
    assert _rules("docs/examples/demo.ipynb", source) == set()
    assert _layers("docs/examples/demo.ipynb", source) == {"portable": 3}


# -- patriciogonzalezvivo/thebookofshaders: GLSL and the hosts that run it --------------------


def test_glsl_chapter_shader_is_kernel_whole() -> None:
    # 10/matrix.frag, 09/dots2.frag, ...: a glslCanvas fragment shader, precision guarded for
    # GL ES, two uniforms, a hash and main(): every code line is shader code (hand = lockin).
    source = b"""\
// Title: grid of dots

#ifdef GL_ES
precision mediump float;
#endif

uniform vec2 u_resolution;
uniform float u_time;

float hash(vec2 p) {
    return fract(sin(dot(p, vec2(17.1, 91.7))) * 24634.6345);
}

void main() {
    vec2 st = gl_FragCoord.xy / u_resolution.xy;
    vec2 cell = floor(st * 8.0);
    float d = distance(fract(st * 8.0), vec2(0.5));
    float on = step(0.5, hash(cell + floor(u_time)));
    gl_FragColor = vec4(vec3(on * (1.0 - step(0.3, d))), 1.0);
}
"""
    assert _rules("09/dots.frag", source) == {"vulkan.shader-file"}
    assert _layers("09/dots.frag", source) == {"kernel": 15}


def test_glsl_shader_with_a_disabled_branch_stays_in_range() -> None:
    # 12/cell.frag (an extra kernel file: hand 55, lockin 52): an `#if 0` keeps a shortcut
    # the author turned off; its three lines are dead, the rest is kernel.
    source = b"""\
uniform vec2 u_resolution;

vec2 nearest(vec4 d) {
#if 0
    d.xy = min(d.xy, d.zw);
    d.x = min(d.x, d.y);
    return d.xx;
#else
    d.xy = (d.x < d.y) ? d.xy : d.yx;
    d.y = min(d.y, d.z);
    return sqrt(d.xy);
#endif
}

void main() {
    vec2 f = nearest(vec4(gl_FragCoord.xy / u_resolution.xy, 0.5, 0.5));
    gl_FragColor = vec4(f.y - f.x);
}
"""
    layers = _layers("12/cell.frag", source)
    assert _rules("12/cell.frag", source) == {"vulkan.shader-file"}
    assert layers.get("vendor-library", 0) == layers.get("vendor-path", 0) == 0
    assert 11 <= layers["kernel"] <= 14


def test_threejs_page_counts_only_its_shader_script_elements() -> None:
    # 04/three_js/index.html: vertex and fragment shaders in `x-shader/*` script elements
    # (kernel, 10 lines by hand as by lockin), then three.js setup that is portable.
    source = b"""\
<body>
  <div id="view"></div>
  <script src="three.min.js"></script>
  <script id="vs" type="x-shader/x-vertex">
    void main() {
      gl_Position = vec4(position, 1.0);
    }
  </script>
  <script id="fs" type="x-shader/x-fragment">
    uniform vec2 u_resolution;
    void main() {
      vec2 uv = gl_FragCoord.xy / u_resolution;
      gl_FragColor = vec4(uv, 0.5, 1.0);
    }
  </script>
  <script>
    var renderer = new THREE.WebGLRenderer();
    var material = new THREE.ShaderMaterial({
      vertexShader: document.getElementById("vs").textContent,
      fragmentShader: document.getElementById("fs").textContent
    });
    document.getElementById("view").appendChild(renderer.domElement);
  </script>
</body>
"""
    assert _rules("04/three_js/index.html", source) == {"vulkan.shader-file"}
    assert _layers("04/three_js/index.html", source)["kernel"] == 8


def test_glsl_in_a_backslash_continued_js_string_is_kernel() -> None:
    # src/main.js, graph.html: the function plotter's shader prologue is a JavaScript string
    # continued with a backslash at each line end; the page code around it is portable.
    source = b"""\
var prologue = "\\n\\
#ifdef GL_ES\\n\\
precision mediump float;\\n\\
#endif\\n\\
uniform vec2 u_resolution;\\n\\
float plot(vec2 st, float y) {\\n\\
    return smoothstep(y - 0.01, y, st.y) - smoothstep(y, y + 0.01, st.y);\\n\\
}\\n";

function makeEditor(id) {
    var el = document.getElementById(id);
    return new GlslEditor(el, { canvas_width: 400 });
}
"""
    assert _rules("src/plotter.js", source) == {"vulkan.glsl-string"}
    layers = _layers("src/plotter.js", source)
    assert 7 <= layers["kernel"] <= 8
    assert layers["portable"] >= 4


def test_sfml_host_loading_a_fragment_shader_is_portable() -> None:
    # 04/sfml/src/main.cpp: SFML compiles the chapter's shader and feeds it uniforms; the
    # host is portable, the .frag it loads is where the kernel lines are.
    source = b"""\
#include <SFML/Graphics.hpp>

int main() {
    sf::RenderWindow window(sf::VideoMode(640, 480), "demo");
    sf::RectangleShape quad(sf::Vector2f(640.f, 480.f));
    sf::Shader shader;
    if (!shader.loadFromFile("data/shader.frag", sf::Shader::Fragment)) return 1;
    sf::Clock clock;
    while (window.isOpen()) {
        shader.setUniform("u_time", clock.getElapsedTime().asSeconds());
        window.clear();
        window.draw(quad, &shader);
        window.display();
    }
}
"""
    assert _rules("04/sfml/src/main.cpp", source) == set()
    assert _layers("04/sfml/src/main.cpp", source) == {"portable": 14}


def test_processing_sketch_loading_a_shader_is_portable() -> None:
    # 04/processing/processing.pde: Processing's PShader set as the fill pipeline.
    source = b"""\
PShader fx;

void setup() {
  size(480, 320, P2D);
  fx = loadShader("shader.frag");
}

void draw() {
  fx.set("u_resolution", float(width), float(height));
  fx.set("u_time", millis() / 1000.0);
  shader(fx);
  rect(0, 0, width, height);
}
"""
    assert _rules("sketch/sketch.pde", source) == set()
    assert _layers("sketch/sketch.pde", source) == {"portable": 11}


def test_php_gallery_listing_shader_files_is_portable() -> None:
    # examples/index.php: a page that globs each chapter's .frag files into a gallery.
    source = b"""\
<?php
  $files = array_reverse(glob($dir . '*.frag'));
  $count = min(count($files), 3);
  echo '<div class="glslGallery" data="';
  for ($i = 0; $i < $count; $i++) {
    echo basename($files[$i], '.frag') . ',';
  }
  echo '"></div>';
?>
"""
    assert _rules("examples/index.php", source) == set()
    assert _layers("examples/index.php", source) == {"portable": 9}


# -- TheCardGoat/lorcana-simulator, mtmitchel/LibreOllama, the Java APIs: no GPU code --------


def test_card_named_triton_is_not_the_compiler() -> None:
    # packages/lorcana/lorcana-cards/src/cards/*/characters/*triton*.ts: a card definition
    # whose character is King Triton; the word is a name, not the GPU language.
    source = b"""\
import type { CharacterCard } from "@lorcana/types";

export const tritonSeaKing: CharacterCard = {
  id: "c01-160",
  name: "Triton",
  version: "The Sea King",
  cost: 7,
  abilities: [{ name: "Triton's Trident", text: "Banish a chosen character." }],
};
"""
    assert _rules("cards/160-triton.ts", source) == set()
    assert _layers("cards/160-triton.ts", source) == {"portable": 8}


def test_webview_flags_enabling_gpu_canvas_are_portable() -> None:
    # src-tauri/src/lib.rs: Windows' WebView2 is started with flags that let the canvas use
    # whatever GPU the machine has; no vendor is named or required.
    source = b"""\
pub fn run() {
    #[cfg(target_os = "windows")]
    std::env::set_var(
        "WEBVIEW2_ADDITIONAL_BROWSER_ARGUMENTS",
        "--ignore-gpu-blocklist --enable-webgl --enable-accelerated-2d-canvas",
    );
    tauri::Builder::default().run(tauri::generate_context!()).unwrap();
}
"""
    assert _rules("src-tauri/src/lib.rs", source) == set()
    assert _layers("src-tauri/src/lib.rs", source) == {"portable": 8}


def test_openai_chain_in_java_is_portable() -> None:
    # cupybara/java-langchains OpenAiChatCompletionsChain.java: a hosted model over HTTP.
    source = b"""\
public final class ChatChain {
    private final WebClient client = WebClient.create("https://api.openai.com/v1");

    public String answer(String prompt) {
        return client.post().uri("/chat/completions")
            .bodyValue(Map.of("model", "gpt-4o", "messages", List.of(prompt)))
            .retrieve().bodyToMono(String.class).block();
    }
}
"""
    assert _rules("src/main/java/ChatChain.java", source) == set()
    assert _layers("src/main/java/ChatChain.java", source) == {"portable": 8}
