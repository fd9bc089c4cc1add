"""Languages described by data (languages.yml `syntax`), documentation and data files
counted apart from code (`text`), and scripts placed by their `#!` line (`interpreters`).

The expected counts are scc's (4.1.0) for the same text, as bench/scc_agreement.py compares
them on whole repositories.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from bot.cli import main
from bot.engine import classify
from bot.engine.languages import LANGUAGES, by_path, may_hold_code
from bot.engine.model import Layer
from bot.engine.syntax import LanguageDataError, syntax_pattern
from bot.render.json_out import load_schema


def _code(path: str, source: str) -> int:
    report = classify(path, source.encode())
    assert report.skipped is None
    return report.code_lines


def test_a_lua_long_comment_is_a_block_and_a_dash_pair_in_a_string_is_code() -> None:
    source = """\
--[[ a block comment
spanning lines ]]
local s = "-- not a comment"  -- a trailing comment
-- a line comment

return s
"""
    assert _code("conf/init.lua", source) == 2


def test_perl_pod_and_hash_comments_are_not_code() -> None:
    source = """\
#!/usr/bin/perl
use strict;
=pod
Documentation, not code.
=cut
my $x = "# inside a string";
print $x;  # trailing
"""
    assert _code("tools/gen.pl", source) == 3


def test_batch_rem_and_double_colon_lines_are_comments() -> None:
    source = "@echo off\nREM build the wheel\n:: and test it\npython -m build\n"
    assert _code("build.bat", source) == 2


def test_futhark_a_portable_gpu_language_is_counted_as_portable_code() -> None:
    source = """\
-- | Sum the rows.
def main [n][m] (xss: [n][m]f32): [n]f32 =
  map (reduce (+) 0) xss
"""
    report = classify("src/sum.fut", source.encode())
    assert report.language == "Futhark"
    assert report.code_lines == 2
    assert report.layers[Layer.PORTABLE] == 2


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("docs/README.md", "Markdown"),
        ("vocab/merges.txt", "Plain Text"),
        ("configs/model.json", "JSON"),
        ("LICENSE", "License"),
        ("site/index.html", "HTML"),
    ],
)
def test_documentation_and_data_files_count_lines_but_no_code(path: str, language: str) -> None:
    # A README that shows a kernel is documentation: nothing in it is lock-in.
    source = "__global__ void k() { cudaMalloc(&p, 4); }\n\ntorch.cuda.synchronize()\n"
    report = classify(path, source.encode())
    assert report.language == language
    assert report.code_lines == 0
    assert report.text_lines == 2
    assert not report.findings
    assert sum(report.layers.values()) == 0
    assert report.line_rules == [None, None, None]


def test_html_comments_are_not_counted() -> None:
    source = '<!-- header\n  kept out -->\n<p class="x">hi</p>\n'
    assert classify("site/a.html", source.encode()).text_lines == 1


def test_requirements_and_cmake_lists_keep_their_own_languages_before_plain_text() -> None:
    assert by_path("requirements-dev.txt")[0] == LANGUAGES["Requirements"]
    assert by_path("src/CMakeLists.txt")[0] == LANGUAGES["CMake"]
    assert by_path("notes.txt")[0] == LANGUAGES["Plain Text"]


@pytest.mark.parametrize(
    ("first_line", "language"),
    [
        ("#!/usr/bin/env python3", "Python"),
        ("#!/usr/bin/env -S python3.11 -u", "Python"),
        ("#! /bin/bash", "Shell"),
        ("#!/usr/bin/perl -w", "Perl"),
    ],
)
def test_a_script_without_extension_is_read_by_its_interpreter(
    first_line: str, language: str
) -> None:
    report = classify("bin/ds_tool", f"{first_line}\nx = 1\n".encode())
    assert report.language == language


def test_a_python_script_without_extension_is_checked_by_the_python_rules() -> None:
    source = "#!/usr/bin/env python3\nimport torch\ntorch.cuda.synchronize()\n"
    report = classify("bin/launch", source.encode())
    assert report.language == "Python"
    assert report.non_portable_lines == 1


def test_an_unknown_interpreter_or_no_shebang_stays_uncounted() -> None:
    assert classify("bin/x", b"#!/bin/false\n").language is None
    assert classify("bin/y", b"x = 1\n").language is None


def test_syntax_entries_are_checked() -> None:
    with pytest.raises(LanguageDataError, match="unknown syntax keys"):
        syntax_pattern({"comments": ["#"]})
    with pytest.raises(LanguageDataError, match="pair"):
        syntax_pattern({"block": [["/*"]]})
    with pytest.raises(LanguageDataError, match="one character"):
        syntax_pattern({"quotes": ['"""']})
    with pytest.raises(LanguageDataError, match="verbatim"):
        syntax_pattern({"verbatim": [['@"', '""']]})
    with pytest.raises(LanguageDataError, match="heredoc"):
        syntax_pattern({"heredoc": ["<<", "<<<"]})


def test_a_csharp_verbatim_string_runs_over_lines_and_doubles_its_quotes() -> None:
    # A GPU program held in a C# @"..." string (ILGPU's and ComputeSharp's hosts, Metal
    # sources compiled at run time): its lines are the string's, not code to lex.
    pattern = re.compile(LANGUAGES["C#"].family.tokens.pattern)
    source = 'var s = @"kernel void f() {\n  x = ""a"";\n}"; // done\nvar t = "u";\n'
    tokens = [(m.lastgroup, m.group()) for m in pattern.finditer(source)]
    assert tokens == [
        ("string", '@"kernel void f() {\n  x = ""a"";\n}"'),
        ("comment", "// done"),
        ("string", '"u"'),
    ]
    unclosed = [m.group() for m in pattern.finditer('s = @"open\nnever closed\n')]
    assert unclosed == ['@"open\nnever closed\n']


def test_a_ruby_heredoc_is_one_string_to_its_tag_line_or_the_end() -> None:
    # Ruby keeps shader sources in heredocs (kyubey1228/glslkit): the lines up to the one
    # holding only the tag are the string's, a `#version` among them no comment; a shift and
    # `class << self` open none.
    pattern = re.compile(LANGUAGES["Ruby"].family.tokens.pattern)
    source = "S = <<~'GLSL'.freeze\n  #version 300 es\n  GLSL\nx = a<<B # shift\nclass << self\n"
    tokens = [(m.lastgroup, m.group()) for m in pattern.finditer(source)]
    assert tokens == [
        ("string", "<<~'GLSL'.freeze\n  #version 300 es\n  GLSL"),
        ("comment", "# shift"),
    ]
    unclosed = [m.group() for m in pattern.finditer("s = <<EOS\nnever closed\nEOSX\n")]
    assert unclosed == ["<<EOS\nnever closed\nEOSX\n"]


def test_an_unclosed_comment_runs_to_the_end_and_an_unclosed_string_to_its_line() -> None:
    # Every token matches once started, so no input makes the lexer try again at each offset.
    pattern = re.compile(syntax_pattern({"line": ["//"], "block": [["/*", "*/"]], "quotes": ['"']}))
    tokens = [(m.lastgroup, m.group()) for m in pattern.finditer('s = "open\nx /* a\nb\n')]
    assert tokens == [("string", '"open'), ("comment", "/* a\nb\n")]


def test_every_language_described_by_data_compiles_to_a_lines_family() -> None:
    described = [lang for lang in LANGUAGES.values() if lang.family.name == lang.name]
    assert len(described) > 60
    assert {lang.family.nesting for lang in described} == {"lines"}


def _scan_json(root: Path) -> dict[str, object]:
    out, err = io.StringIO(), io.StringIO()
    assert main(["scan", str(root), "--format", "json"], out=out, err=err) == 0, err.getvalue()
    document: dict[str, object] = json.loads(out.getvalue())
    return document


def test_scan_lists_documentation_apart_and_keeps_the_share(tmp_path: Path) -> None:
    (tmp_path / "k.cu").write_text("__global__ void k(float* x) { x[threadIdx.x] = 0; }\n")
    (tmp_path / "run.py").write_text("print('hi')\n")
    before = _scan_json(tmp_path)
    (tmp_path / "README.md").write_text("# Kernels\n\n" + "A line of prose.\n" * 500)
    (tmp_path / "merges.txt").write_text("a b\n" * 2000)
    after = _scan_json(tmp_path)
    Draft202012Validator(load_schema("scan")).validate(after)
    # Two more files, and not one more code line, layer line or point of share.
    assert after["totals"] == {**before["totals"], "files": before["totals"]["files"] + 2}
    assert after["text"] == [
        {"language": "Plain Text", "files": 1, "lines": 2000},
        {"language": "Markdown", "files": 1, "lines": 501},
    ]
    readme = next(f for f in after["files"] if f["path"] == "README.md")
    assert (readme["code_lines"], readme["text_lines"]) == (0, 501)
    text_out = io.StringIO()
    assert main(["scan", str(tmp_path)], out=text_out, err=text_out) == 0
    assert (
        "Documentation and data, not code (lines): Plain Text 2,000 (1 file), Markdown 501 (1 file)"
    ) in text_out.getvalue()


def test_a_jinja_template_of_a_cuda_source_is_cuda_and_its_kernels_count() -> None:
    # flashinfer's csrc/*.jinja: kernel instantiations rendered to .cu files at JIT time.
    source = """\
#include <flashinfer/attention/decode.cuh>

template cudaError_t
BatchDecodeDispatched<{{ head_dim }}, {{ variant }}, Params>(Params p, cudaStream_t s);
"""
    report = classify("csrc/batch_decode_kernel_inst.jinja", source.encode())
    assert report.language == "CUDA"
    assert report.code_lines == 3
    assert report.non_portable_lines > 0


def test_a_jinja_template_of_a_page_stays_documentation() -> None:
    source = "{# the docs layout #}\n<html>{{ body }}</html>\n"
    report = classify("docs/_templates/layout.jinja", source.encode())
    assert (report.language, report.code_lines, report.text_lines) == ("Jinja", 0, 1)


@pytest.mark.parametrize(
    ("path", "read"),
    [
        ("csrc/k.cu", True),
        ("docs/guide.md", False),  # documentation: a pull request's check need not fetch it
        ("vocab/merges.txt", False),
        ("csrc/batch_decode_kernel_inst.jinja", True),  # a heuristic may make it CUDA
        ("bin/launch", True),  # no extension: its #! line may name Python
        ("weights/model.bin", False),
    ],
)
def test_what_a_pull_requests_check_reads(path: str, read: bool) -> None:
    assert may_hold_code(path) is read


# scc's own table, imported (data/languages-scc.yml, scripts/import_scc_languages.py).
_DATA = Path(__file__).resolve().parents[2] / "bot" / "engine" / "data"


def _rows(name: str) -> dict[str, dict[str, list[str]]]:
    rows: dict[str, dict[str, list[str]]] = yaml.safe_load((_DATA / name).read_text("utf-8"))[
        "languages"
    ]
    return rows


def test_the_imported_rows_name_nothing_the_hand_written_table_names() -> None:
    ours, imported = _rows("languages.yml"), _rows("languages-scc.yml")
    assert len(imported) > 150
    assert not ours.keys() & imported.keys()
    for key in ("extensions", "filenames"):
        mine = {e.lower() for row in ours.values() for e in row.get(key, ())}
        theirs = [e.lower() for row in imported.values() for e in row.get(key, ())]
        assert len(theirs) == len(set(theirs))  # each claimed once
        assert not mine & set(theirs)
    assert all(name in LANGUAGES for name in imported)


@pytest.mark.parametrize(
    ("path", "source", "language", "code"),
    [
        ("tools/build.tcl", "# configure\nset x 1\n\nputs $x\n", "TCL", 2),
        ("src/Main.elm", '{- a block\n   comment -}\nmain = text "hi" -- trailing\n', "Elm", 1),
        ("legacy/payroll.cob", "      * comment\n       IDENTIFICATION DIVISION.\n", "COBOL", 1),
        (
            "src/shader.wesl",
            "// a WGSL module\nfn main() {}\n",
            "WebGPU Enhanced Shading Language",
            1,
        ),
    ],
)
def test_a_language_only_scc_listed_is_counted_as_scc_counts_it(
    path: str, source: str, language: str, code: int
) -> None:
    report = classify(path, source.encode())
    assert report.language == language
    assert report.code_lines == code


def test_an_imported_documentation_language_counts_apart_from_code() -> None:
    report = classify("docs/notes.rtf", b"{\\rtf1\\ansi\n{\\b bold} text\n}\n")
    assert (report.language, report.code_lines, report.text_lines) == ("Rich Text Format", 0, 3)


@pytest.mark.parametrize("path", ["app/app.pro", "rtl/core.v", "build/x.d", "parse.y", "t/basic.t"])
def test_an_extension_trees_use_two_ways_stays_uncounted(path: str) -> None:
    assert by_path(path)[0] is None


def test_fixed_form_fortran_comments_go_by_column() -> None:
    source = """\
C     a comment line
c     another
*     and another
      program main
      call solve(x)
      common /blk/ a
     !  , b
      x = 'it''s ! not a comment'  ! but this is
! a bang comment

      end
"""
    # scc counts `call` and `common` as comments (any line whose first character is a c).
    assert _code("legacy/solver.f", source) == 6


def test_cuda_fortran_in_fixed_form_is_kernel_code() -> None:
    source = b"""\
      attributes(global) subroutine scale(a, s)
      real :: a(*), s
      a(threadIdx%x) = s * a(threadIdx%x)
      end subroutine
"""
    report = classify("legacy/scale.f", source)
    assert report.language == "Fortran (fixed form)"
    assert report.layers[Layer.KERNEL] == 4
    assert {f.rule for f in report.findings} == {"cuda.fortran-kernel"}


def test_free_form_fortran_in_a_dot_f_file_is_read_as_free_form() -> None:
    # cp2k keeps free-form sources in .F files: CONTAINS in column 1 is a statement there.
    source = b"""\
MODULE grid_api
   IMPLICIT NONE
CONTAINS
   SUBROUTINE collocate(a, &
                        b)
      CALL foo(a) ! trailing
   END SUBROUTINE
END MODULE
"""
    report = classify("src/grid/grid_api.F", source)
    assert (report.language, report.code_lines) == ("Fortran", 8)
