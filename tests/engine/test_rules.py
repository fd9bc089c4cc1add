"""Every registry row proves itself: its positive snippets yield a finding of that rule (with
the exact span when the row says so), its negative snippets do not."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.engine import ECOSYSTEMS, RULES, classify, literals, rule
from bot.engine.languages import by_path
from bot.engine.model import VENDORS, Layer
from bot.engine.registry import RULE_ID, SPECS, Example, RuleFileError, RuleSpec, load_specs

POSITIVE = [(s, ex) for s in SPECS for ex in s.positive]
NEGATIVE = [(s, ex) for s in SPECS for ex in s.negative]


def _ids(case: tuple[RuleSpec, Example]) -> str:
    return f"{case[0].rule.id}:{case[1].path}"


@pytest.mark.parametrize("case", POSITIVE, ids=[_ids(c) for c in POSITIVE])
def test_positive_example_yields_a_finding(case: tuple[RuleSpec, Example]) -> None:
    spec, example = case
    report = classify(example.path, example.code.encode())
    spans = [(f.start_line, f.end_line) for f in report.findings if f.rule == spec.rule.id]
    assert spans, f"no {spec.rule.id} finding in {report.findings}"
    if example.lines is not None:
        assert example.lines in spans
    assert report.layers[spec.rule.layer] >= 1
    assert report.ecosystems[spec.rule.ecosystem] >= 1


@pytest.mark.parametrize("case", NEGATIVE, ids=[_ids(c) for c in NEGATIVE])
def test_negative_example_yields_no_finding(case: tuple[RuleSpec, Example]) -> None:
    spec, example = case
    report = classify(example.path, example.code.encode())
    assert spec.rule.id not in {f.rule for f in report.findings}
    assert report.code_lines > 0, "a negative example must still be code the rule could see"


#: Rules searched over whole files by design. hlsl.shaderlab-program's region runs from a
#: ShaderLab program's opening line to its END line, which a window of keyword lines would
#: cut at the first; it reads only ShaderLab files, whose every one the file-level rule
#: read before. vulkan.glsl-tagged-string's match is a comment (`/* glsl */` before a
#: literal), which the keyword windows, read in the code with comments and literals masked,
#: never hold; it reads only JavaScript and TypeScript, one search of the text each. So does
#: wgsl.tagged-string, its `/* wgsl */` twin. cuda.mlir-nvvm-kernel's match is an MLIR
#: function or GPU module from its header to its closing brace, past any keyword window; it
#: reads only MLIR files its file-level condition finds NVVM in. vulkan.shaderlab-compiled-glsl
#: runs from a dumped program's stage guard to its closing quote, past any window too.
_WHOLE_FILE_SEARCH = frozenset(
    {
        "cuda.mlir-nvvm-kernel",
        "hlsl.shaderlab-program",
        "hlsl.tagged-raw-string",
        "slang.tagged-raw-string",
        "vulkan.glsl-tagged-string",
        "vulkan.glsl-tagged-raw-string",
        "vulkan.haskell-shader-quasiquote",
        "vulkan.shaderlab-compiled-glsl",
        "wgsl.tagged-string",
    }
)


@pytest.mark.parametrize("spec", SPECS, ids=[s.rule.id for s in SPECS])
def test_rule_row_is_complete(spec: RuleSpec) -> None:
    assert RULE_ID.match(spec.rule.id)
    assert spec.positive
    assert spec.negative
    assert spec.rule.summary
    assert "\n" not in spec.rule.summary
    # The rule's page: why the code would not move, and what it would move to.
    assert len(spec.rule.why) >= 40
    assert len(spec.rule.instead) >= 20
    assert spec.rule.why != spec.rule.instead
    assert spec.rule.ecosystem in ECOSYSTEMS
    assert spec.rule.layer is not Layer.PORTABLE
    assert spec.rule.vendors <= set(VENDORS)
    assert spec.languages
    # A rule without keywords would run its regex on every file of its languages: only a
    # file-level rule, or one whose regions span lines no keyword window holds.
    assert spec.keywords or spec.kind == "file" or spec.rule.id in _WHOLE_FILE_SEARCH
    for example in (*spec.positive, *spec.negative):
        lang, _ = by_path(example.path)
        assert lang is not None, f"{example.path}: no language"
    # A file-level condition (requires, unless) is searched over the whole of every file the
    # rule is a candidate in: without a literal every match needs, the literal prefilter
    # cannot pass a file over (a case-insensitive word list ran over every file naming "mps",
    # 0.6% of the bench corpus census).
    for name in ("requires", "unless"):
        condition = getattr(spec, name)
        if condition is not None and (spec.rule.id, name) not in _CONDITIONS_WITHOUT_NEED:
            assert literals.need(condition) is not None, f"{name}: no literal any match needs"


#: Conditions no literal prefilter can answer, read on few files: opencl.kernel-file's tells a
#: Common Lisp or data file apart, and reads only .cl files.
_CONDITIONS_WITHOUT_NEED = frozenset({("opencl.kernel-file", "unless")})


def test_registry_api() -> None:
    assert len(RULES) == len(SPECS) >= 40
    assert rule("cuda.kernel").layer is Layer.KERNEL
    assert rule("cuda.kernel").nvidia_only
    with pytest.raises(KeyError):
        rule("no.such-rule")
    used = {r.ecosystem for r in RULES.values()}
    assert used <= set(ECOSYSTEMS)
    for eco in ECOSYSTEMS.values():
        assert eco.title
        assert eco.vendors <= set(VENDORS)


def test_vendor_overrides_follow_the_taxonomy() -> None:
    assert ECOSYSTEMS["cuda"].vendors == {"nvidia"}
    assert ECOSYSTEMS["hip"].vendors == {"amd"}
    assert ECOSYSTEMS["triton"].vendors == {"nvidia", "amd", "intel"}
    assert ECOSYSTEMS["metal"].vendors == {"apple"}
    assert ECOSYSTEMS["pallas-tpu"].vendors == {"google"}
    assert rule("torch.cuda-call").vendors == {"nvidia", "amd"}
    assert rule("triton.gluon-nvidia").vendors == {"nvidia"}
    assert rule("sycl.esimd").vendors == {"intel"}


_ROW = """\
ecosystem: cuda
rules:
  - id: demo.rule
    layer: kernel
    summary: a demo rule
    languages: [cuda-capable]
    kind: line
    keywords: [__global__]
    pattern: '__global__'
    {extra}
    examples:
      positive:
        - path: k.cu
          lines: [1, 1]
          code: |
            __global__ void k() {{}}
      negative:
        - path: k.cu
          code: |
            int x;
"""


def _load(tmp_path: Path, extra: str) -> tuple[RuleSpec, ...]:
    (tmp_path / "demo.yml").write_text(_ROW.format(extra=extra))
    return load_specs(tmp_path, dict(ECOSYSTEMS))


def test_a_well_formed_rule_file_loads(tmp_path: Path) -> None:
    (spec,) = _load(tmp_path, "unless: 'nothing'")
    assert spec.rule.id == "demo.rule"
    assert spec.unless is not None


def test_a_misspelt_key_is_rejected_naming_file_rule_and_key(tmp_path: Path) -> None:
    with pytest.raises(RuleFileError) as caught:
        _load(tmp_path, "unles: 'nothing'")
    message = str(caught.value)
    assert message.startswith("demo.yml: rule demo.rule: unknown key 'unles'")
    assert "did you mean 'unless'?" in message


def test_a_misspelt_key_in_an_example_is_rejected(tmp_path: Path) -> None:
    (tmp_path / "demo.yml").write_text(_ROW.format(extra="").replace("lines:", "line:"))
    with pytest.raises(RuleFileError, match=r"rule demo.rule: unknown key 'line'.* in examples"):
        load_specs(tmp_path, dict(ECOSYSTEMS))


def test_a_wrong_value_is_rejected(tmp_path: Path) -> None:
    (tmp_path / "demo.yml").write_text(_ROW.format(extra="").replace("kernel", "kernal"))
    with pytest.raises(RuleFileError, match=r"^demo.yml: rule demo.rule: layer must be one of"):
        load_specs(tmp_path, dict(ECOSYSTEMS))
