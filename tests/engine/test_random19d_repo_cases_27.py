"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h55-random-d).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 218-224. Two were skipped: sonnx0868/Madeira-Build79-Direct-Source
(221) and rafaelbmocbel-eng/https-myhealthid (223) had no snapshot to fetch. Read were
Syclonce/RS-Klinik (a Laravel hospital management app in PHP and Blade, with AdminLTE's bundle
of jQuery plugins: CodeMirror, Chart.js, FullCalendar, Moment locales; no GPU code),
molML/JointMolecularModel (a PyTorch research code base of molecular autoencoders and MLPs:
a conda environment pinning cudatoolkit, experiment scripts picking ``'cuda'`` when
available and writing Slurm job scripts for a GPU partition, some hundred such job scripts),
andomonte/new-melo (a Next.js ERP and point of sale in TypeScript, with Portuguese
diagnostic scripts under docs/; no GPU code), samhol/SPHP-framework (a PHP framework of HTML
components and small apps, with a minified Foundation and Popper bundle; no GPU code in
the tree, an older commit removed pdf.js with its WebGL shaders) and neurallayer/roboquant (an
algorithmic trading framework in Kotlin with the Kotlin CLI wrapper script; no GPU code).
Fifteen files of each repository were sampled with ``random.Random("owner/name")`` over
every file lockin counts and labelled before any fix, with the files lockin calls
non-portable (up to 20) and GPU-looking files it calls portable (up to 10) checked apart,
files outside the sample that hold kernel lines counted by hand (none here), and up to three
commits touching GPU code (``random.Random("owner/name:commits")``) judged against ``lockin
diff``. Every verdict was right before any fix, so these cases pin right verdicts. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- molML/JointMolecularModel: a PyTorch research code base run on a Slurm cluster ---------


def test_conda_environment_pinning_cudatoolkit_is_vendor_path() -> None:
    # env.yml: the pytorch channel's torch and a cudatoolkit pin among pip packages; only the
    # toolkit pin is a CUDA choice.
    source = b"""\
name: molmodels
channels:
  - defaults
dependencies:
  - python=3.12
  - pytorch::pytorch==2.3.0
  - cudatoolkit==11.8
  - pip:
      - rdkit==2024.3.3
      - pandas==2.2.2
"""
    path = "env.yml"
    assert _rules(path, source) == {"deps.cuda-wheel"}
    assert _layers(path, source)["vendor-path"] == 1


def test_device_picked_into_a_config_dict_is_vendor_path() -> None:
    # experiments/4.4_jmm.py and its siblings: the device is chosen with a `'cuda' if
    # torch.cuda.is_available()` ternary and written into the loaded hyperparameters.
    source = b"""\
import torch
from models.config import read_config

def main(path):
    cfg = read_config(path)
    cfg['hyperparameters']['device'] = 'cuda' if torch.cuda.is_available() else 'cpu'
    return cfg
"""
    path = "experiments/4.4_train_joint.py"
    assert _rules(path, source) == {"torch.device-string"}
    assert _layers(path, source)["vendor-path"] == 1


def test_docstring_naming_cuda_as_a_device_choice_is_portable() -> None:
    # jcm/modules/mlp.py: the device is a constructor argument and 'cuda' only appears in
    # the docstring that lists the values it may take.
    source = b'''\
import torch
from torch import nn

class Ensemble(nn.Module):
    def __init__(self, width: int = 64, device: str = None) -> None:
        """An ensemble of small perceptrons.

        :param width: hidden width
        :param device: 'cpu' or 'cuda' (default=None)
        """
        super().__init__()
        self.device = device
        self.w = nn.Parameter(torch.empty(width, width, device=device))
'''
    path = "jcm/modules/ensemble.py"
    assert _rules(path, source) == set()
    assert "vendor-path" not in _layers(path, source)


def test_slurm_job_on_a_gpu_partition_is_portable() -> None:
    # experiments/jobs/*.sh (about a hundred of them, sampled and GPU-looking): a partition
    # named gpu and `--gpus-per-node` ask the scheduler for any accelerator; nothing in the
    # script names a vendor.
    source = b"""\
#!/bin/bash
#SBATCH --job-name=infer_target_42
#SBATCH -p gpu
#SBATCH -N 1
#SBATCH --ntasks=18
#SBATCH --gpus-per-node=1
#SBATCH --time=24:00:00

root="$HOME/projects/molmodels"
source $HOME/anaconda3/etc/profile.d/conda.sh
export PYTHONPATH="$PYTHONPATH:$root"
python -u "$root/experiments/infer.py" -dataset target_42 > "$root/logs/infer_42.log"
"""
    path = "experiments/jobs/infer_target_42.sh"
    assert _rules(path, source) == set()
    assert "vendor-path" not in _layers(path, source)


def test_python_writing_slurm_gpu_headers_is_portable() -> None:
    # experiments/4.2_ecfp_mlp.py (GPU-looking): a helper that writes the job scripts above,
    # line by line, with the partition and GPU count as defaults of its arguments.
    source = b"""\
def write_job(name: str, partition: str = 'gpu_a100', gpus_per_node: int = 1) -> list:
    lines = ['#!/bin/bash\\n']
    lines.append(f'#SBATCH --job-name={name}\\n')
    lines.append(f'#SBATCH -p {partition}\\n')
    lines.append(f'#SBATCH --gpus-per-node={gpus_per_node}\\n')
    return lines
"""
    path = "experiments/4.2_fingerprint_mlp.py"
    assert _rules(path, source) == set()
    assert "vendor-path" not in _layers(path, source)


def test_hyperparameter_file_with_automatic_device_is_portable() -> None:
    # experiments/hyperparams/*_default.yml: `device: 'auto'` is resolved in Python (the
    # vendor-path line is there), the YAML names no vendor.
    source = b"""\
training_config:
  experiment_name: 'pretrain_default'
  batch_size: 256
hyperparameters:
  device: 'auto'
  lr: 0.0003
  rnn_type: 'lstm'
"""
    path = "experiments/hyperparams/rnn_default.yml"
    assert _rules(path, source) == set()
    assert "vendor-path" not in _layers(path, source)


# -- Syclonce/RS-Klinik: a Laravel app with AdminLTE's jQuery plugins ------------------------


def test_codemirror_glsl_mode_keyword_lists_are_portable() -> None:
    # public/plugins/codemirror/mode/clike/clike.js: the editor's x-shader mode lists GLSL
    # built-ins as words to colour; no shader is compiled or run.
    source = b"""\
define(["x-shader/x-vertex", "x-shader/x-fragment"], {
  name: "clike",
  keywords: words("sampler1D sampler2D samplerCube uniform varying attribute " +
                  "vec2 vec3 vec4 mat2 mat3 mat4 precision highp mediump lowp"),
  builtin: words("gl_FragColor gl_Position gl_PointSize gl_FragCoord " +
                 "gl_FrontFacing gl_FragData gl_FragDepth"),
  modeProps: {fold: ["brace", "include"]}
});
"""
    path = "public/plugins/codemirror/mode/clike/clike.js"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_html_hint_media_feature_names_are_portable() -> None:
    # public/plugins/codemirror/addon/hint/html-hint.js: media query features such as
    # device-width are CSS, not a compute device.
    source = b"""\
var media = ["all", "screen", "print", "speech", "3d-glasses",
             "device-aspect-ratio: X/Y", "device-height: [X]", "device-width: [X]",
             "orientation:portrait", "orientation:landscape"];
"""
    path = "public/plugins/codemirror/addon/hint/html-hint.js"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- samhol/SPHP-framework: a PHP framework with a minified front-end bundle -----------------


def test_minified_popper_gpu_acceleration_option_is_portable() -> None:
    # sphp/client/js/all.js (GPU-looking): Popper's `gpuAcceleration` option picks CSS
    # transforms over top/left offsets; it is layout code.
    source = (
        b"function computeStyles(e){var t=e.state,o=e.options,g=o.gpuAcceleration,"
        b"a=void 0===g||g,r=o.adaptive;return{placement:t.placement,popper:t.elements.popper,"
        b"gpuAcceleration:a,adaptive:void 0===r||r}}\n"
    )
    path = "sphp/client/js/all.js"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_pdf_viewer_webgl_mask_shader_in_a_js_string_is_kernel() -> None:
    # sphp/viewerjs/pdf.js (removed by commit 8d6edefb; lockin diff counted 54 kernel lines
    # removed, 50 by hand): pdf.js composes soft masks with a WebGL fragment shader held in a
    # backslash-continued string; the shader body is kernel, the canvas set-up is not.
    source = b"""\
var maskFragmentShader = '\\
  precision mediump float;                          \\
  uniform sampler2D u_image;                        \\
  uniform sampler2D u_mask;                         \\
  varying vec2 v_texCoord;                          \\
  void main() {                                     \\
    vec4 color = texture2D(u_image, v_texCoord);    \\
    vec4 mask = texture2D(u_mask, v_texCoord);      \\
    color.a *= mask.a;                              \\
    gl_FragColor = color;                           \\
  }                                                 ';

function initGL() {
  var canvas = document.createElement('canvas');
  return canvas.getContext('webgl');
}
"""
    path = "sphp/viewerjs/pdf.js"
    assert _rules(path, source) == {"vulkan.glsl-string"}
    layers = _layers(path, source)
    assert 8 <= layers["kernel"] <= 11
    assert layers["portable"] >= 3


# -- andomonte/new-melo and neurallayer/roboquant: words that only look like GPU names -------


def test_portuguese_hipotese_and_hipercard_are_not_hip() -> None:
    # docs/scripts/analise-xml-real.js and src/pages/api/conciliacao-cartao/conciliar.ts
    # (GPU-looking): "HIPOTESE" in log lines and the card brand Hipercard.
    source = """\
const bandeiras = ['VISA', 'MASTERCARD', 'ELO', 'HIPERCARD'];
console.log('HIPÓTESE 1: formatação do XML');
const emissor = { '0062': 'Hipercard/Bradesco' };
""".encode()
    path = "docs/scripts/analise-xml.js"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_kotlin_hipparchus_imports_and_uname_kernel_name_are_portable() -> None:
    # roboquant/src/.../metrics/*.kt import Hipparchus statistics; the `kotlin` wrapper script
    # reads the OS kernel name with uname (both GPU-looking).
    kotlin = b"""\
package org.example.metrics

import org.hipparchus.stat.descriptive.moment.StandardDeviation

fun volatility(xs: DoubleArray): Double = StandardDeviation().evaluate(xs)
"""
    assert _rules("src/org/example/metrics/Vol.kt", kotlin) == set()
    shell = b"""\
#!/usr/bin/env bash
kernelName=$(uname -s)
case "$kernelName" in
  Darwin* ) cache="$HOME/Library/Caches/cli" ;;
  Linux* ) cache="$HOME/.cache/cli" ;;
  *) echo "Unsupported platform $kernelName"; exit 1 ;;
esac
"""
    assert _rules("kotlin", shell) == set()
    assert set(_layers("kotlin", shell)) == {"portable"}
