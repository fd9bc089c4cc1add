"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h55-random-o).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold a GPU term by the
written rule in ``/work/pool/h55_gpu_rule.py`` (a rule on the name's text only, so some hold
no GPU code at all). This lane took sub-pool positions 43-49. One was skipped:
Open-S2/s2maps-gpu (49) has a snapshot of 964 MB, over the 500 MB that can be fetched. Read
were paper-design/shaders (WebGL 2 shader components for the web: GLSL ES 3.0 fragment and
vertex shaders held in TypeScript template strings, the WebGL host that compiles them, React
wrappers and a Next.js docs site), triton-note/client (a fishing-report app in Dart for
Cordova, its package named triton_note; no GPU code), Kivy-CN/PyCUDA-CN (a Chinese
translation of PyCUDA's documentation: Markdown, the original reStructuredText with its
Sphinx conf.py, Makefile and upload script; no code that runs on a GPU),
NiclasHaderer/thoth-audiobook-server (an audiobook server in Kotlin with a JNI loader for
TagLib; no GPU code), rsarendus/eyebased-raytracer (a CPU ray tracer in Java whose
"shaders" are Java classes; no GPU code) and NiclasHaderer/luftschloss (a Node.js web server
framework in TypeScript; no GPU code). Fifteen files of each repository (all three of
PyCUDA-CN's files with code) were sampled with ``random.Random("owner/name")`` over every
file lockin counts and labelled before any fix, with the files lockin calls non-portable (up
to 20) and GPU-looking files it calls portable (up to 10) checked apart, files outside the
sample that hold kernel lines counted by hand (up to 5 a repository), and up to three
commits touching GPU words (``random.Random("owner/name:commits")``) judged against
``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- Kivy-CN/PyCUDA-CN: a binding's documentation, no code that runs on a GPU ----------------


def test_sphinx_conf_of_a_bindings_docs_is_portable() -> None:
    # doc_original/source/conf.py (a false positive of deps.cuda-wheel-python before: 3
    # lines): the docs' configuration reads the version from the package's own path and links
    # the project's home and PyPI pages; a path or a URL naming pycuda installs nothing.
    source = b"""\
project = "PyCUDA"
version_info = {}
with open("../../pycuda/__init__.py") as handle:
    exec(handle.read(), version_info)
version = ".".join(str(part) for part in version_info["VERSION"])

html_theme_options = {
    "extra_nav_links": {
        "Repository": "https://github.com/example-maintainer/pycuda",
        "Releases": "https://pypi.org/project/pycuda",
    }
}
"""
    path = "doc_original/source/conf.py"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_docs_upload_to_a_folder_named_after_the_binding_is_portable() -> None:
    # doc_original/upload-docs.sh (a false positive of deps.cuda-wheel before: 1 line): the
    # built HTML is copied to a remote folder whose last component is the binding's name.
    source = b"""\
#!/bin/sh
rsync -av --delete _build/html/* docs-server:public/pycuda
"""
    path = "doc_original/upload-docs.sh"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_installing_the_binding_by_name_stays_vendor_path() -> None:
    # The negatives' counterpart: pip installing PyCUDA, or a setup.py requiring it, pulls
    # the CUDA-only binding.
    shell = b"""\
python -m pip install --upgrade pip
python -m pip install numpy pycuda
"""
    assert _rules("tools/setup_gpu.sh", shell) == {"deps.cuda-wheel"}
    assert _layers("tools/setup_gpu.sh", shell)["vendor-path"] == 1
    setup = b"""\
from setuptools import setup

setup(name="gpu-notes", install_requires=["pycuda>=2024.1", "numpy"])
"""
    assert _rules("setup.py", setup) == {"deps.cuda-wheel-python"}
    assert _layers("setup.py", setup)["vendor-path"] == 1


# -- paper-design/shaders: GLSL in TypeScript strings, WebGL host and React wrappers ----------


def test_glsl_fragment_shader_in_a_typescript_template_is_kernel() -> None:
    # packages/shaders/src/shaders/*.ts (right before: neuro-noise.ts 51 kernel lines
    # against 50 counted by hand, pulsing-border.ts 175 against 175, and five more within two
    # lines): the fragment shader's source is a template string, its uniforms' types and the
    # parameters' interfaces TypeScript around it.
    source = b"""\
import { rotate2d } from '../shader-utils.js';

// language=GLSL
export const ringsFragmentShader: string = `#version 300 es
precision mediump float;

uniform float u_time;
uniform vec4 u_colorBack;
uniform vec4 u_colorFront;

in vec2 v_patternUV;
out vec4 fragColor;

${rotate2d}

void main() {
  vec2 uv = rotate(v_patternUV, .2 * u_time);
  float ring = .5 + .5 * sin(20. * length(uv) - u_time);
  vec4 color = mix(u_colorBack, u_colorFront, ring);
  fragColor = vec4(color.rgb * color.a, color.a);
}
`;

export interface RingsUniforms {
  u_colorBack: [number, number, number, number];
  u_colorFront: [number, number, number, number];
}

export interface RingsParams {
  colorBack?: string;
  colorFront?: string;
}
"""
    path = "packages/shaders/src/shaders/rings.ts"
    assert _rules(path, source) == {"vulkan.glsl-string"}
    layers = _layers(path, source)
    assert 14 <= layers["kernel"] <= 16
    assert layers["portable"] >= 9


def test_react_wrapper_passing_shader_props_is_portable() -> None:
    # packages/shaders-react/src/shaders/*.tsx and the docs' pages (GPU-looking, portable and
    # right): components that hand a fragment shader's name and uniforms to the mount.
    source = b"""\
'use client';
import { memo } from 'react';
import { ShaderMount, type ShaderComponentProps } from '../shader-mount.js';
import { ringsFragmentShader, type RingsParams } from '@paper-design/shaders';

export const Rings = memo(function RingsImpl(props: ShaderComponentProps & RingsParams) {
  const uniforms = { u_colorBack: props.colorBack, u_colorFront: props.colorFront };
  return <ShaderMount {...props} fragmentShader={ringsFragmentShader} uniforms={uniforms} />;
});
"""
    path = "packages/shaders-react/src/shaders/rings.tsx"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- Repositories without GPU code, named after a GPU word ----------------------------------


def test_cpu_ray_tracer_shader_classes_in_java_are_portable() -> None:
    # rsarendus/eyebased-raytracer (15 of 15 right): its shading pipelines are Java classes
    # that run on the CPU; "shader" names a class, not device code.
    source = b"""\
package org.example.raytracer.shading;

public final class MixingShader implements Shader {
    private Shader firstShader;
    private Shader secondShader;

    public void setFirstShader(Shader shader) {
        this.firstShader = shader;
    }

    @Override
    public Color shade(RayHit hit) {
        return firstShader.shade(hit).mix(secondShader.shade(hit), 0.5);
    }
}
"""
    path = "raytracer-shading/src/main/java/org/example/raytracer/shading/MixingShader.java"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_dart_app_package_named_triton_is_portable() -> None:
    # triton-note/client (15 of 15 right): a Dart app whose package is named triton_note;
    # the name is no Triton kernel.
    source = b"""\
library triton_note.service.catches;

import 'dart:async';
import 'package:triton_note/model/report.dart';

class Catches {
  static Future<List<Report>> near(double lat, double lng) async {
    final found = await Reports.query(lat, lng);
    return found.where((r) => r.fishes.isNotEmpty).toList();
  }
}
"""
    path = "dart/lib/service/catches.dart"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}
