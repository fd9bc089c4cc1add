"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h43-random-f).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 370-377, all eight with a snapshot and counted files, none skipped:
simon-schlepphorst/KokkosDslashWorkspace, ykafia/SdslSpirvBackend, trevnorris/toy_physics,
daxmawal/StarPU-Inference-Server, micmelesse/cublasgemm-benchmark, matter-labs/zksync,
CFDEMproject/LIGGGHTS-PUBLIC and gsimone/r3f-raymarching. Fifteen files of each repository were
sampled with ``random.Random("owner/name")`` over every file lockin counts, and labelled before
any fix, with the files lockin calls non-portable (up to 20, drawn the same way), GPU-looking
files it calls portable (up to 10) and the GPU-looking files it gives no language; three
commits touching GPU code were drawn with ``random.Random("owner/name:commits")``. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ykafia/SdslSpirvBackend: a SPIR-V back end for Stride's shading language ----------------


def test_stride_sdsl_shader_files_are_kernel_code() -> None:
    # TestStrideSpirv/Shaders/SDSL/*.sdsl: Stride shader classes (HLSL with streams and
    # mixins). Before, no language: never counted, and the two sampled commits that added
    # shader code to them passed the gate.
    source = b"""\
shader VertexStreams : BaseStreams
{
    stage stream float Depth;

    stage void VSMain()
    {
        float2 offset = float2(0, 1);
        streams.Depth = offset.y;
    }
};
"""
    report = classify("TestStrideSpirv/Shaders/SDSL/VertexStreams.sdsl", source)
    assert report.language == "SDSL"
    assert _layers("TestStrideSpirv/Shaders/SDSL/VertexStreams.sdsl", source) == {"kernel": 9}
    assert _rules("Effects/Lighting.xksl", source) == {"hlsl.shader-file"}
