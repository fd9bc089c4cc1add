"""Cases for two lexing misses the audits found (issue 27, lane h41-lexer).

Jinja templates of C++ and CUDA sources (GridTools/stencil_benchmarks' .j2 kernels,
flashinfer's csrc/*.jinja): the template's tags are read before the C tokens, as Jinja reads
them, so a `{{ ctype }}` in a kernel's parameter list no longer closes the declaration at its
brace, a `{# #}` licence is a comment, and `{% if %}` / `{% else %}` branches that each open
a brace are read as #if branches are. JavaScript regular expression literals holding a quote
or a backtick (radian628/raymarching-engine's minified bundle) no longer open a string that
runs on through the file. Each snippet is a small rewrite, in our own words, of a pattern found
in the repository its test names.
"""

from __future__ import annotations

import pytest

from bot.engine import classify
from bot.engine.lexer import FAMILIES, lex, templated
from tests.engine.test_ml_repo_cases import _layers, _rules

_JINJA_C = templated(FAMILIES["c"], "jinja")


def _masked(text: str) -> str:
    return lex(text, _JINJA_C).masked


# -- Jinja tags in the lexer ---------------------------------------------------------------------


def test_a_placeholder_is_masked_as_one_name_a_comment_as_blanks() -> None:
    text = "{# licence #}\nvoid k({{ ctype }} *u, {{ p }}Error_t e) { f(u); }\n"
    masked = _masked(text)
    assert masked.splitlines() == [
        " " * 13,
        "void k(" + "x" * 11 + " *u, " + "x" * 7 + "Error_t e) { f(u); }",
    ]
    assert lex(text, _JINJA_C).code == [False, True]


def test_a_statement_is_a_blank_code_line_and_a_branch_a_directive() -> None:
    text = "{%- for a in args %}\n{%- if a %}\n{% else %}\n{%endif%}\n"
    lexed = lex(text, _JINJA_C)
    assert lexed.code == [True, True, True, True]
    assert [line.rstrip() for line in lexed.lines] == ["", "#if", "#else", "#endif"]


def test_tags_in_c_strings_and_comments_stay_theirs() -> None:
    text = 'puts("{{ name }}"); // {% if a %}\n'
    lexed = lex(text, _JINJA_C)
    assert lexed.masked == lex(text, FAMILIES["c"]).masked
    assert lexed.strings == [(5, 17)]


def test_an_unclosed_tag_runs_to_the_end_of_the_text() -> None:
    assert _masked("int a;\n{{ x\nint b;\n") == "int a;\nxxxx\nxxxxxx\n"


def test_without_tags_a_family_is_itself() -> None:
    assert templated(FAMILIES["c"], None) is FAMILIES["c"]
    # C's own braces: `{{` opens no tag in a C file.
    assert _layers("k.cu", b"int a[2][2] = {{1, 2}, {3, 4}};\n") == {"portable": 1}


# -- GridTools/stencil_benchmarks: CUDA kernels rendered from .j2 templates ----------------------


def test_stencil_benchmarks_placeholder_in_kernel_parameters_keeps_its_body() -> None:
    # stencils/cuda_hip/templates/*.j2: the element type is a placeholder in every parameter.
    source = b"""\
__global__ void gpu_kernel({{ ctype }} *__restrict__ u,
                           const {{ ctype }} *__restrict__ v)
{
    {{ body }}
    copy_element(u, v);
}
"""
    assert _layers("templates/copy.j2", source) == {"kernel": 6}


def test_stencil_benchmarks_licence_in_a_jinja_comment_is_no_code() -> None:
    source = b"""\
{#
Stencil Benchmarks

Copyright (c) a research institute. All rights reserved.
#}
#include <cstdio>

__global__ void k(float *u) { u[threadIdx.x] = 0; }
"""
    report = classify("templates/base.j2", source)
    assert report.language == "CUDA"
    assert report.code_lines == 2


def test_stencil_benchmarks_block_tags_before_a_device_function_are_not_its_lines() -> None:
    # The child template fills the parent's `{% block gpu_kernel %}`: the tags above the first
    # device function are template code, not that function's head.
    source = b"""\
{% extends "base.j2" %}

{% block gpu_kernel %}
__device__ void sweep(const {{ ctype }} *c, {{ ctype }} *d) {
    d[threadIdx.x] = c[threadIdx.x];
}
{% endblock gpu_kernel %}
"""
    report = classify("templates/sweep.j2", source)
    assert report.code_lines == 6
    assert [(f.rule, f.start_line, f.end_line) for f in report.findings] == [
        ("cuda.device-function", 4, 6)
    ]


def test_stencil_benchmarks_branches_opening_a_brace_each_close_the_kernel() -> None:
    # stream/cuda_hip.j2: an unrolled loop or a plain block, each branch opening its brace,
    # closed once after the branches; the host function after the kernel stays portable.
    source = b"""\
__global__ void triad(float *a, const float *b) {
    {%- if unroll_factor > 1 %}
    for (int u = 0; u < {{ unroll_factor }}; ++u) {
    {%- else %}
    {
    {%- endif %}
        a[threadIdx.x] = b[threadIdx.x];
    }
}

int run_host(int n) {
    int total = 0;
    for (int i = 0; i < n; ++i) total += i;
    return total;
}
"""
    layers = _layers("stream/cuda_hip.j2", source)
    assert layers == {"kernel": 9, "portable": 5}


# -- flashinfer-ai/flashinfer: instantiation templates --------------------------------------------


def test_flashinfer_instantiation_template_in_a_loop_still_counts() -> None:
    # csrc/*_kernel_inst.jinja: explicit instantiations inside `{% for %}`, with the tags blanked
    # shaped like a generated instantiation stub; the template is the generator's hand-written
    # source, so it stays counted as before.
    source = b"""\
#include <flashinfer/gemm/group_gemm.cuh>

namespace flashinfer {
{% for tile in [64, 128] %}
template cudaError_t GroupGemm<{{ tile }}, {{ dtype }}>(void* ws, cudaStream_t stream);
{% endfor %}
};
"""
    report = classify("csrc/group_gemm_kernel_inst.jinja", source)
    assert not report.generated
    assert report.code_lines == 6
    assert report.non_portable_lines == 6


# -- JavaScript regular expression literals -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        ("s.replace(/`/g, 'a');", "s.replace(\x01\x01\x01g, \x01\x01\x01);"),
        ('x = /"/g;', "x = \x01\x01\x01g;"),
        ("return/[/']/.test(x)", "return\x01\x01\x01\x01\x01\x01.test(x)"),
        ("f(a, /a\\/'/)", "f(a, \x01\x01\x01\x01\x01\x01)"),
        ("ok = s => /'/.test(s)", "ok = s => \x01\x01\x01.test(s)"),
        ("if (a) {}/'/.test(b)", "if (a) {}\x01\x01\x01.test(b)"),
        ("  /'/.test(b)", "  \x01\x01\x01.test(b)"),
        # a division, not a literal: after a name, a number, `)` or `]`
        ("x = a / b / c;", "x = a / b / c;"),
        ("x = (a) / 2 / n[1] / 3;", "x = (a) / 2 / n[1] / 3;"),
        ("x = y.case / 2 / z;", "x = y.case / 2 / z;"),
        # a JSX element closed after an attribute's braces
        ("<A b={c}/> // it's", "<A b={c}/>        "),
        # no closing '/' on the line: no literal, the rest of the line code
        ("x = (/[`/ 'a'", "x = (/[`/ 'a'"),
    ],
)
def test_a_regex_literal_is_a_string_literal_where_javascript_allows_one(
    text: str, masked: str
) -> None:
    assert lex(text, FAMILIES["js"]).masked == masked


def test_raymarching_engine_glsl_after_a_regex_with_quotes_is_kernel_code() -> None:
    # client/dist/assets/index-*.js: a minified bundle escaping quotes with regex literals,
    # then the default shader source in a template literal.
    source = b"""\
const esc=t=>t.replace(/`/g,"").replace(/"/g,"'");
const state={shaderCode:`#version 300 es
precision highp float;
out vec4 fragColor;
uniform vec2 resolution;

void main() {
  vec2 uv = gl_FragCoord.xy / resolution;
  fragColor = vec4(uv, 0.0, 1.0);
}`};
// the editor
export function load(){return state}
"""
    assert "vulkan.glsl-string" in _rules("client/dist/assets/index.js", source)
    layers = _layers("client/dist/assets/index.js", source)
    # The shader's lines but its blank one; the escaping line, the blank and the export.
    assert layers == {"kernel": 8, "portable": 3}
