"""Cases for a lexing miss the audits found (issue 27, lane h41-lexer).

JavaScript regular expression literals holding a quote or a backtick (radian628/
raymarching-engine's minified bundle) no longer open a string that runs on through the file.
Each snippet is a small rewrite, in our own words, of a pattern found in the repository its
test names.
"""

from __future__ import annotations

import pytest

from bot.engine.lexer import FAMILIES, lex
from tests.engine.test_ml_repo_cases import _layers, _rules

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
