"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h40-random-e).

The pool is ``/work/pool-h40.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 33-40. One could not be read: vllm-project/vllm-gguf-plugin (no snapshot). Fifteen
files of each of the seven others were sampled with ``random.seed("owner/name")`` over every
file lockin counts, and labelled before any fix, with the files lockin calls non-portable (up
to twenty) and GPU-looking files it calls portable (up to ten); three commits touching GPU
code each were judged against ``lockin diff``. Each snippet is a small rewrite, in our own
words, of a pattern found in the repository its test names; the expected layers are what a
porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- alexw0610/openglDungeon: an OpenGL game engine in Java, GLSL shaders as .vs and .fs -------

_VERTEX = b"""\
#version 450

layout (location=0) in vec3 vertexIn;
layout (location=1) in vec2 textureIn;
out vec2 textureUv;

layout (std140, column_major) uniform UBO {
    dmat4 viewProjection;
} ubo;

void main() {
    // the camera's matrix, then the texture coordinate as given
    gl_Position = vec4(ubo.viewProjection * dvec4(vertexIn, 1.0));
    textureUv = textureIn;
}
"""


def test_opengl_dungeon_vertex_shader_as_vs_is_glsl_kernel_code() -> None:
    # engine/src/main/resources/shader/shader.vs: a #version 450 vertex shader the renderer
    # loads by name. Before, no language owned .vs and the eight shaders (about 280 lines)
    # were not counted, so two of three commits editing them passed the gate.
    report = classify("engine/src/main/resources/shader/shader.vs", _VERTEX)
    assert report.language == "GLSL"
    assert _rules("engine/src/main/resources/shader/shader.vs", _VERTEX) == {"vulkan.shader-file"}
    assert _layers("engine/src/main/resources/shader/shader.vs", _VERTEX) == {"kernel": 11}


def test_opengl_dungeon_fragment_shader_without_a_version_line_is_glsl() -> None:
    # A fragment shader whose #version is prepended at run time still writes GLSL's outputs.
    source = b"""\
uniform sampler2D texture_sampler;
varying vec2 textureUv;

void main() {
    gl_FragColor = texture2D(texture_sampler, textureUv);
}
"""
    report = classify("shader/lightPolygonShader.fs", source)
    assert report.language == "GLSL"
    assert _layers("shader/lightPolygonShader.fs", source) == {"kernel": 5}


def test_fsharp_and_apps_script_files_stay_uncounted() -> None:
    # .fs is F#'s extension and .gs Google Apps Script's: without a #version line or GLSL's
    # output built-ins (here only in a string) the file is no shader.
    fsharp = b"""\
module Render
#if DEBUG
let version = 450
#endif
let draw () = printfn "gl_Position"
"""
    apps_script = b"""\
function onOpen() {
  var shader = "gl_Position = vec4(0.0);";
  SpreadsheetApp.getUi().alert(shader);
}
"""
    assert classify("src/Render.fs", fsharp).language is None
    assert classify("scripts/menu.gs", apps_script).language is None


def test_opengl_dungeon_render_service_host_calls_stay_portable() -> None:
    # engine/src/main/java/engine/service/RenderService.java: OpenGL through JOGL, which every
    # desktop vendor runs (as the OpenGL host code of earlier cases).
    source = b"""\
package engine.service;

import com.jogamp.opengl.GL4;

public class RenderService {
    public void begin(GL4 gl, int ubo) {
        gl.glEnable(gl.GL_BLEND);
        gl.glBindBuffer(gl.GL_UNIFORM_BUFFER, ubo);
    }
}
"""
    assert set(_layers("engine/src/main/java/engine/service/RenderService.java", source)) == {
        "portable"
    }
