"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h46-random-d).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 578-585: ken-okabe/wgsl-numerics, google/tensorstore, houseofbits/opengl-playground,
unnonouno/cudnnenv, AssetRipper/AssetRipper.Bindings.SpirVCross, cajun7/HalideTest,
stuartcarnie/SwiftSPIRV-Cross and rcnl-org/nmsm-core. All eight had a snapshot; none was
skipped. Fifteen files of each (all seven of cudnnenv) were sampled with
``random.Random("owner/name")`` over every file lockin counts, and labelled before any fix, with
the files lockin calls non-portable (up to 20) and up to ten GPU-looking files it calls portable;
three commits touching GPU code were drawn with ``random.Random("owner/name:commits")``. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- unnonouno/cudnnenv: a version manager that installs cuDNN releases ----------------------


def test_cudnnenv_python_strings_holding_the_cudnn_download_commands() -> None:
    # cudnnenv/__init__.py: per platform, a template of shell commands that fetches a cuDNN
    # archive from NVIDIA's download server, checks it and unpacks it; the tool formats it
    # for a release and runs it. Before, the whole file was portable.
    source = b"""\
import subprocess

fetch_base = '''
curl -o {name}.tgz https://developer.download.nvidia.com/compute/redist/cudnn/{ver}/{name}.tgz &&
echo "{digest}  {name}.tgz" | sha256sum -c --quiet - &&
tar -xzf {name}.tgz -C {{path}} &&
rm {name}.tgz
'''

codes = {"v7": fetch_base.format(name="cudnn-10.0-linux-x64-v7.4", ver="v7.4", digest="00ff")}


def download(ver, path):
    subprocess.check_call(codes[ver].format(path=path), shell=True)
"""
    assert _rules("cudnnenv/__init__.py", source) == {"deps.cuda-wheel-python"}
    assert _layers("cudnnenv/__init__.py", source) == {"vendor-path": 6, "portable": 4}


def test_cudnnenv_telling_the_user_where_the_library_went_is_portable() -> None:
    # cudnnenv/__init__.py after an install: messages naming the variables to set, and the
    # NVIDIA page to read. A person acts on them; the program fetches nothing.
    source = b"""\
def select(ver):
    print('Successfully installed %s' % ver)
    print('  LD_LIBRARY_PATH=~/.cudnn/active/cuda/lib64:$LD_LIBRARY_PATH')
    print('Download cuDNN by hand from https://developer.download.nvidia.com/compute/redist/cudnn/')
    HELP_URL = 'https://developer.nvidia.com/cudnn'
"""
    assert _layers("cudnnenv/__init__.py", source) == {"portable": 5}


def test_setup_script_fetching_the_nvcc_archive_from_the_compute_tree() -> None:
    # The bench corpus's flash-attention hopper/setup.py does the same for the toolkit: an
    # f-string URL of the nvcc redistributable it downloads before building (the file was
    # vendor-path already; these lines were portable).
    source = b"""\
def nvcc_url(system, arch, version):
    base = "https://developer.download.nvidia.com/compute/cuda/redist/cuda_nvcc"
    return f"{base}/{system}-{arch}/cuda_nvcc-{system}-{arch}-{version}-archive.tar.xz"
"""
    assert _rules("setup.py", source) == {"deps.cuda-wheel-python"}
    assert _layers("setup.py", source) == {"vendor-path": 1, "portable": 2}


def test_shell_script_fetching_a_cudnn_archive() -> None:
    # The shell twin: a Dockerfile step or CI script downloading cuDNN from the same tree.
    # Before, only a URL under compute/cuda counted, so the cuDNN download was portable.
    source = b"""\
#!/bin/sh
set -e
wget -q https://developer.download.nvidia.com/compute/cudnn/redist/cudnn/linux-x86_64/cudnn-linux-x86_64-9.1.0.70_cuda12-archive.tar.xz
tar -xf cudnn-linux-x86_64-9.1.0.70_cuda12-archive.tar.xz -C /opt
"""
    assert _rules("ci/install_cudnn.sh", source) == {"build.nvcc"}
    assert _layers("ci/install_cudnn.sh", source) == {"vendor-path": 1, "portable": 2}


# -- ken-okabe/wgsl-numerics: quad-float arithmetic in WGSL, tested in a browser ---------------


def test_wgsl_numerics_test_runner_holding_the_binding_header() -> None:
    # code/tests/framework/test-runner.test.ts: the bindings every kernel shares are a WGSL
    # template literal, prepended to the concatenated kernel files. Checked right before.
    source = b"""\
const header = `@group(0) @binding(0) var<storage, read> data_in: array<f32>;
@group(0) @binding(1) var<storage, read_write> data_out: vec4<f32>;
`;
const shader = header + bodies.join("\\n");
"""
    assert _rules("tests/runner.test.ts", source) == {"wgsl.source-string"}
    assert _layers("tests/runner.test.ts", source)["kernel"] == 3


# -- stuartcarnie/SwiftSPIRV-Cross: Swift wrappers of glslang, SPIRV-Tools and SPIRV-Cross -----


def test_swift_spirv_cross_metal_compiler_options_use_metal_types() -> None:
    # SPIRVCross/SPVMetalCompiler.swift: the MSL back end's options take Metal's own
    # MTLLanguageVersion, so the wrapper imports Metal. Checked right before.
    source = b"""\
import CSPIRVCross
import Metal

public struct MetalOptions {
    public var version: MTLLanguageVersion = .version2_0
    public var texelWidth: UInt32 = 4096
}
"""
    assert _rules("SPIRVCross/SPVMetalCompiler.swift", source) == {"metal.host-api"}
