"""An HTML page's script elements read as the files they stand for (engine/html_scripts.py):
a WebGL demo's shaders and a WebGPU sample's WGSL count as kernel code on the page lines that
hold them; the rest of the page stays documentation, counted apart."""

from __future__ import annotations

import pytest

from bot.engine import classify
from bot.engine.model import Layer

WEBGL = b"""\
<!DOCTYPE html>
<html>
<head>
<title>A red triangle</title>
<script id="vertex" type="x-shader/x-vertex">
attribute vec3 position;
void main() {
  gl_Position = vec4(position, 1.0);
}
</script>
<script id="fragment" type="x-shader/x-fragment">
precision mediump float;
void main() {
  gl_FragColor = vec4(1.0, 0.0, 0.0, 1.0);
}
</script>
<script src="gl-matrix.js"></script>
<script>
const gl = document.querySelector("canvas").getContext("webgl");
const shader = gl.createShader(gl.VERTEX_SHADER);
gl.shaderSource(shader, document.getElementById("vertex").text);
</script>
</head>
<body><canvas></canvas></body>
</html>
"""


def test_a_webgl_pages_shader_elements_are_kernel_code_on_their_lines() -> None:
    report = classify("demo/index.html", WEBGL)
    assert report.language == "HTML"
    kernel = [n for n, rule in enumerate(report.line_rules, 1) if rule == "vulkan.shader-file"]
    assert kernel == [6, 7, 8, 9, 12, 13, 14, 15]
    assert report.layers[Layer.KERNEL] == 8
    assert report.layers[Layer.PORTABLE] == 3  # the page's own JavaScript
    assert report.code_lines == 11
    # The other lines are the page's documentation: together as many as the page read whole.
    without = classify("demo/index.html", WEBGL.replace(b"script", b"noscript"))
    assert without.code_lines == 0
    assert report.code_lines + report.text_lines == without.text_lines


def test_a_webgpu_samples_inline_module_counts_its_wgsl() -> None:
    page = b"""\
<html><body><canvas></canvas>
<script type="module">
const adapter = await navigator.gpu.requestAdapter();
const device = await adapter.requestDevice();
const module = device.createShaderModule({ code: `
  @compute @workgroup_size(64)
  fn main(@builtin(global_invocation_id) id: vec3u) {
    data[id.x] = data[id.x] * 2.0;
  }
` });
</script>
</body></html>
"""
    report = classify("samples/compute/index.html", page)
    # The module's lines, counted as the same code in a .js file is, two lines further down.
    script = b"\n".join(page.split(b"\n")[2:10]) + b"\n"
    alone = classify("samples/compute/main.js", script)
    assert alone.layers[Layer.KERNEL] > 0
    assert report.line_rules[2:10] == alone.line_rules
    assert report.layers == alone.layers
    assert report.ecosystems == {"wgsl": alone.layers[Layer.KERNEL]}


def test_a_wgsl_element_is_wgsl() -> None:
    page = b"""\
<script type="text/wgsl" id="shader">
@fragment
fn main() -> @location(0) vec4f {
  return vec4f(1.0, 0.0, 0.0, 1.0);
}
</script>
"""
    report = classify("index.html", page)
    assert report.ecosystems == {"wgsl": 4}
    assert report.layers[Layer.KERNEL] == 4


@pytest.mark.parametrize(
    "element",
    [
        b'<script type="text/template"><div>void main() {\n gl_Position = x;\n}</div></script>',
        b'<script type="application/json">{"shader": "void main() {}"}</script>',
        b'<script type="importmap">{"imports": {"three": "./three.module.js"}}</script>',
        b'<script src="app.js"></script>',
        b"<!-- <script>gl.drawArrays(gl.TRIANGLES, 0, 3);</script> -->\n<p>not run</p>",
    ],
)
def test_elements_holding_no_code_leave_the_page_documentation(element: bytes) -> None:
    page = b"<html><body>\n" + element + b"\n</body></html>\n"
    report = classify("index.html", page)
    if b"<!--" in element:
        # A commented-out element is still read (browsers would not run it), but holds
        # nothing non-portable: the verdict is what matters.
        assert report.non_portable_lines == 0
    else:
        assert report.code_lines == 0
        assert report.text_lines > 0


def test_a_page_without_scripts_is_counted_as_before() -> None:
    page = b"<html>\n<body>\n<p>Kernels are in csrc/.</p>\n\n</body>\n</html>\n"
    report = classify("docs/index.html", page)
    assert (report.language, report.code_lines, report.text_lines) == ("HTML", 0, 5)
    assert report.findings == []


def test_an_unclosed_script_runs_to_the_end_of_the_page() -> None:
    page = b'<script type="x-shader/x-fragment">\nprecision highp float;\nvoid main() {\n'
    page += b"  gl_FragColor = vec4(1.0);\n}\n"
    report = classify("broken.htm", page)
    assert report.layers[Layer.KERNEL] == 4
