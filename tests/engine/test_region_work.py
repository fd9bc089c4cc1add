"""Work region kinds do on the shapes the adversarial bench builds, counted, not timed: what
a kind skips must stay skipped (a regression shows as a count growing with the input)."""

from __future__ import annotations

import gc
import importlib
import re
from itertools import pairwise
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import (
    c_structure,
    classify,
    literals,
    logical_lines,
    preprocessor,
    regions,
    string_literals,
)
from bot.engine.c_structure import CStructure
from bot.engine.languages import by_path
from bot.engine.lexer import lex
from bot.engine.model import Layer
from bot.engine.regions import KINDS, Source
from bot.engine.registry import RULES_BY_LANGUAGE, SPECS


class CountingPattern:
    """A compiled pattern that counts the searches a kind makes with it."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.compiled = pattern
        self.pattern = pattern.pattern
        self.flags = pattern.flags
        self.groups = pattern.groups
        self.searches = 0

    def search(self, text: str, pos: int = 0, endpos: int = 2**63 - 1) -> re.Match[str] | None:
        self.searches += 1
        return self.compiled.search(text, pos, endpos)

    def match(self, text: str, pos: int = 0, endpos: int = 2**63 - 1) -> re.Match[str] | None:
        self.searches += 1
        return self.compiled.match(text, pos, endpos)

    def finditer(self, text: str, pos: int = 0, endpos: int = 2**63 - 1) -> Any:
        self.searches += 1
        return self.compiled.finditer(text, pos, endpos)


def _source(path: str, text: str) -> Source:
    language, _ = by_path(path)
    assert language is not None
    lexed = lex(text, language.family)
    occurrences = RULES_BY_LANGUAGE[language.name].keywords.occurrences(lexed.masked)
    return Source(lexed, language.family, occurrences)


def _spec(rule_id: str) -> Any:
    return next(spec for spec in SPECS if spec.rule.id == rule_id and spec.pattern is not None)


def _run(path: str, text: str, rule_id: str) -> tuple[list[tuple[int, int]], int]:
    """A rule's spans in ``text`` and the searches its pattern took to find them."""
    spec = _spec(rule_id)
    counting = CountingPattern(spec.pattern)
    # Searched as given: literals.skippable would swap in the pattern without its slow
    # alternatives, whose searches the wrapper does not see.
    literals._SLOW[id(counting)] = (cast(Any, counting), None)
    spans = list(KINDS[spec.kind](_source(path, text), cast(Any, counting), spec.keywords))
    return spans, counting.searches


def test_every_match_in_the_rules_examples_holds_one_of_its_anchors() -> None:
    checked = 0
    for spec in SPECS:
        pattern = spec.pattern
        anchors = literals.anchors(pattern) if pattern is not None else None
        if pattern is None or anchors is None:
            continue
        assert min(map(len, anchors)) >= 3
        for example in spec.positive:
            for m in pattern.finditer(example.code):
                checked += 1
                assert any(anchor in m.group() for anchor in anchors), (spec.rule.id, m.group())
    assert checked > 300  # the rules' examples, not a few


_ANCHORED = [
    (spec.pattern, anchors)
    for spec in SPECS
    if spec.pattern is not None and (anchors := literals.anchors(spec.pattern)) is not None
]
# Pieces of matches: every anchor, split in two too (a match must not be assembled from
# halves), and what stands around them in code.
_PIECES = sorted(
    {piece for _, anchors in _ANCHORED for a in anchors for piece in (a, a[:2], a[2:])}
    | {" ", "\n", "(", ")", ".", "->", "::", "_", "x", ";", "#", "<<<", '"', "'", "="}
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=30).map("".join))
def test_every_match_of_arbitrary_text_holds_one_of_its_anchors(text: str) -> None:
    for pattern, anchors in _ANCHORED:
        for m in pattern.finditer(text):
            if m.start() != m.end():
                assert any(anchor in m.group() for anchor in anchors), (pattern.pattern, m)


def test_a_keyword_dense_window_without_the_patterns_anchors_is_not_searched() -> None:
    # Every line holds "cuda", so the file is one window, but none holds what a match of
    # PyTorch's C++ CUDA API needs ("at::cuda::", "is_cuda", ...): its pattern (which re tries
    # at every offset) never runs, however long the file.
    dense = "cudaMalloc(p); cudaFree(p);\n" * 2_000
    spans, searches = _run("k.cu", dense, "torch.cpp-cuda")
    assert (spans, searches) == ([], 0)
    # One anchor anywhere in the window and the window is searched, the match found.
    spans, searches = _run(
        "k.cu", dense + "auto s = at::cuda::getCurrentCUDAStream();\n", "torch.cpp-cuda"
    )
    assert spans == [(2_001, 2_001)]
    assert searches >= 1


def test_zero_width_assertions_do_not_split_a_needed_literal() -> None:
    # literal_first writes \bthreadIdx as t(?<!\wt)hreadIdx: the match still holds "threadIdx".
    assert literals.anchors(re.compile(r"t(?<!\wt)hreadIdx\.x")) == ("threadIdx.x",)
    assert literals.anchors(re.compile(r"(?:ab|cd)x")) is None  # too short to skip anything
    # A character class consumes one: the literals around it are not one run.
    assert literals.anchors(re.compile(r"torch[_-]xla\[tpu\]")) == ("xla[tpu]",)
    assert literals.anchors(re.compile(r"\w+(?:\.|->)is_cuda\(|at::cuda::")) == (
        "is_cuda(",
        "at::cuda::",
    )


@pytest.mark.parametrize("units", [1_000, 4_000])
def test_matches_after_a_statement_left_open_to_the_end_are_not_searched(units: int) -> None:
    # `wmma::` on every line of one statement that never ends: one span, and the pattern
    # searched a fixed number of times, not once per match.
    text = "wmma::fill_fragment(a, 0)\n" * units
    spans, searches = _run("k.cu", text, "cuda.arch-feature")
    assert spans == [(1, units)]
    assert searches <= 2


def _counting(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[int]:
    """Count the calls to ``module.name`` (a plain function the code looks up each time)."""
    calls = [0]
    original = getattr(module, name)

    def counted(*args: Any) -> Any:
        calls[0] += 1
        return original(*args)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_a_line_of_nested_device_lists_is_judged_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # ``x = ['cuda', ['cuda', ...]]`` on one line: every literal would claim that line; once
    # it is claimed, the other literals' collections are not read.
    judged = _counting(monkeypatch, regions, "_names_several_kinds")
    for half in (1_000, 4_000):
        # (The file names another kind too: else no collection is read at all.)
        text = "x = " + "['cuda', " * half + "]" * half + "\nkinds = ('cuda', 'xpu')\n"
        spans, _ = _run("k.py", text, "torch.device-string")
        assert spans == [(1, 1)]
    # Two a file (the nested line once, the tuple), whatever the number of literals.
    assert judged[0] == 4


def test_brackets_go_unread_when_the_file_names_one_device_kind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A collection naming one kind is no dispatch code: with one kind in the whole file, no
    # literal's collection, chain or function is read.
    read = _counting(monkeypatch, string_literals.StringLiterals, "collections")
    text = "x = ['cuda', 'cpu']\nif d == 'cuda':\n    return 'cuda'\n"
    assert _run("k.py", text, "torch.device-string")[0] == [(1, 1), (2, 2), (3, 3)]
    assert read[0] == 0
    spans, _ = _run("k.py", text + "y = ('cuda', 'xpu')\n", "torch.device-string")
    assert spans == [(1, 1), (2, 2), (3, 3)]
    assert read[0] == 1


def test_repeated_literals_are_cut_and_matched_once_each(monkeypatch: pytest.MonkeyPatch) -> None:
    cut = _counting(monkeypatch, string_literals, "string_body")
    matched = _counting(monkeypatch, string_literals, "_device_kind")
    text = "".join(f"if d == 'cuda':\n    x = 'a{i % 3}'\n" for i in range(3_000))
    literals_ = _source("k.py", text).strings
    kinds = literals_.device_kinds()
    assert (cut[0], matched[0]) == (4, 4)  # 'cuda', 'a0', 'a1', 'a2'
    assert kinds[1] == ["cuda"] * 3_000
    assert kinds[2] == [3_000] * 3_000  # no literal after any of them names another kind


def test_device_kinds_match_their_definition_on_a_mix() -> None:
    bodies = ["cuda", "CUDA:1", " xpu ", "cpu", "cuda:x", "mps", "mps", "hip", "rocm:0", "cuda"]
    text = "".join(f"x = {body!r}\n" for body in bodies)
    positions, kinds, other = _source("k.py", text).strings.device_kinds()
    expected = ["cuda", "cuda", "xpu", "mps", "mps", "hip", "rocm", "cuda"]
    assert kinds == expected
    assert len(positions) == len(expected)
    # other[k]: the first literal after k naming another kind (else their count).
    assert other == [
        next((j for j in range(k + 1, len(expected)) if expected[j] != expected[k]), len(expected))
        for k in range(len(expected))
    ]


@pytest.mark.parametrize("share", [0, 1, 2, 10])
def test_literals_holding_a_keyword_whatever_its_share(share: int) -> None:
    # Found by a search per occurrence when rare, by testing every literal when common.
    items = [("'cuda'" if i % 10 < share else "'cpu'") for i in range(400)] + ['"cu\\nda"']
    text = "x = [" + ", ".join(items) + "]\n"
    literals_ = _source("k.py", text).strings
    tokens = literals_.tokens()
    assert literals_.strings_holding(("cuda",)) == [i for i, t in enumerate(tokens) if "cuda" in t]


@pytest.mark.parametrize("units", [1_000, 4_000])
def test_many_small_windows_without_the_patterns_anchors_are_not_searched(units: int) -> None:
    # "CUDA" on every third line: thousands of one-line windows, none holding what PyTorch's
    # C++ CUDA API needs. Where the anchors stand is found once; no window is searched.
    text = "#ifdef USE_CUDA\n  p[i] = 0;\n#endif\n" * units
    assert _run("k.cc", text, "torch.cpp-cuda") == ([], 0)
    spans, searches = _run("k.cc", text + "#ifdef USE_CUDA\nat::cuda::sync();\n", "torch.cpp-cuda")
    assert spans == [(3 * units + 2, 3 * units + 2)]
    assert searches <= 2


@pytest.mark.parametrize("defs", [20, 80])
def test_stacked_decorators_are_passed_without_a_regex_each(
    defs: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    counting = CountingPattern(regions.PY_DEF)
    monkeypatch.setattr(regions, "PY_DEF", counting)
    text = "import triton\n" + ("@triton.jit\n" * 50 + "def k(x):\n    pass\n") * defs
    spans, _ = _run("k.py", text, "triton.jit")
    assert spans == [(2 + 52 * i, 2 + 52 * i + 51) for i in range(defs)]
    assert counting.searches == defs  # each def line matched once, no decorator line


_BLOCKS = (
    "import triton\n"
    "@triton.jit\n"
    "def k(x,\n"
    "y):\n"  # a continuation line at column 0 closes nothing
    "    s = '''\n"
    "text'''\n"  # nor does a string's line
    "    def inner():\n"
    "        # a comment at any depth\n"
    "\n"
    "        return 1\n"
    "    return inner\n"
    "class C:\n"
    "    @triton.jit\n"
    "    def m(self): pass\n"
    "    def n(self):\n"
    "      \tpass\n"  # mixed blanks: lstrip's indentation
    "function f(x)\n"
    "    x\n"
    "end\n"
    "def last(): pass"
)


@pytest.mark.parametrize("deep", [0, 2, 32])
def test_a_defs_block_end_alone_is_the_one_every_block_gives(
    deep: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Measured for one def (``_python_def``), a block ends where ``blocks`` ends it, on
    # every line, with the deeper defs' regex (any indentation, filtered) too.
    monkeypatch.setattr(logical_lines, "_DEEP", deep)
    logical_lines._dedented.cache_clear()
    for path in ("k.py", "k.jl"):
        ends = _source(path, _BLOCKS).lines.blocks()[0]
        lines = _source(path, _BLOCKS).lines
        for line in range(1, lines.text.nlines + 1):
            lines._walked = 0
            assert lines.block_end(line) == ends.get(line, line), (path, line)
    logical_lines._dedented.cache_clear()


@pytest.mark.parametrize("depth", [200, 800])
def test_nested_decorated_defs_walk_a_file_at_most_once(depth: int) -> None:
    # Each def's body holds the next: measured one by one they would walk a quadratic
    # number of lines; past a file's worth ``blocks`` measures them all at once.
    text = "".join(" " * i + "@triton.jit\n" + " " * i + "def k():\n" for i in range(depth))
    src = _source("k.py", "import triton\n" + text + " " * depth + "pass\n")
    spec = _spec("triton.jit")
    spans = list(KINDS[spec.kind](src, spec.pattern, spec.keywords))
    assert spans == [(2 + 2 * i, 2 * depth + 2) for i in range(depth)]
    assert src.lines._walked <= 2 * src.nlines + 2


def test_a_statement_start_is_measured_once_for_every_kind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    measured = _counting(monkeypatch, CStructure, "c_statement_start")
    units = 2_000
    src = _source("k.cu", "threadIdx.x + blockIdx.x; cudaMalloc(p);\n" * units)
    for rule_id in ("cuda.device-builtin", "cuda.device-body"):
        spec = _spec(rule_id)
        spans = list(KINDS[spec.kind](src, spec.pattern, spec.keywords))
        assert spans == [(line, line) for line in range(1, units + 1)]
    assert measured[0] == units


def test_a_match_in_a_long_macro_belongs_to_it_up_to_its_line_cap() -> None:
    text = "#define BODY \\\n" + "  threadIdx.x; \\\n" * 700 + "\n"
    src = _source("k.cu", text)
    cap = preprocessor._MACRO_LINES
    # starts[i] opens line i + 1: the directive keeps lines 1 to cap + 1.
    assert src.pp.directive_span(src.starts[cap] + 2) == (1, cap + 1)
    assert src.pp.directive_span(src.starts[cap + 1] + 2) is None  # the line after it
    assert src.pp.directive_span(len(text) - 3) is None


def test_spans_are_checked_against_a_line_condition_only_when_the_file_may_match_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # cuda.device-builtin leaves out lines launching or sizing a grid (``<<<``, ``dim3``): a
    # file holding neither keeps every span without reading each span's line.
    module = importlib.import_module("bot.engine.classify")
    checked = _counting(monkeypatch, module, "_not_on_lines")
    body = "__global__ void k(int* p) {\n  p[threadIdx.x] = 0;\n}\n" * 50
    report = module.classify("k.cu", body.encode())
    assert checked[0] == 0
    assert report.layers["kernel"] == 150
    launch = "void run() {\n  dim3 grid(blockDim.x);\n}\n"
    report = module.classify("k.cu", (body + launch).encode())
    assert checked[0] == 1
    assert report.line_rules[151] != "cuda.device-builtin"  # the dim3 line left out


def test_claims_weaker_than_one_over_every_line_look_for_no_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Unclosed functions, one a line, each claimed to the end of the file: the first claim
    # (the longest, so the strongest) paints every line, and the weaker ones are not walked.
    module = importlib.import_module("bot.engine.classify")
    walked = _counting(monkeypatch, module, "_unpainted")
    for count in (2_000, 8_000):
        claims = [(0, line, count) for line in range(1, count + 1)]
        ranked = module._ranked(claims, count)
        assert module._paint(range(len(ranked)), ranked, count) == [len(ranked) - 1] * count
    assert walked[0] == 0
    # A weaker claim reaching past the strongest one's lines still paints them.
    claims = [(0, 1, 3_000), *((0, line, 3_500) for line in range(3_001, 3_500))]
    ranked = module._ranked(claims, 4_000)
    painted = module._paint(range(len(ranked)), ranked, 4_000)
    assert painted[:3_500].count(-1) == 0
    assert painted[3_500:] == [-1] * 500
    assert walked[0] > 0


def test_a_file_rule_without_keywords_is_only_asked_whether_it_matches() -> None:
    # hip.instantiation-unit has no keywords: its pattern of ``^`` alternatives would be tried
    # at every offset of every HIP file. A file lacking what each alternative needs ("template",
    # "(" and ")", "#include") is not searched at all.
    plain = "int x = 1;\n" * 2_000
    assert _run("k.hip", plain, "hip.instantiation-unit") == ([], 0)
    # Otherwise the pattern itself is tried once, at the text's start; the line starts after
    # it are found by the pattern's newline form (``literals.search``), which finds the
    # instantiation on the last line.
    units = plain + "template void scale<float>(float*, int);\n"
    assert _run("k.hip", units, "hip.instantiation-unit") == ([(1, 2_001)], 1)


class _RecordingPattern(CountingPattern):
    """A pattern that records the [pos, endpos) of each ``finditer`` made with it."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        super().__init__(pattern)
        self.windows: list[tuple[int, int]] = []

    def finditer(self, text: str, pos: int = 0, endpos: int = 2**63 - 1) -> Any:
        self.windows.append((pos, endpos))
        return super().finditer(text, pos, endpos)


@pytest.mark.parametrize("licence_lines", [0, 20])
def test_a_generated_mark_is_searched_from_the_line_of_its_first_word(
    licence_lines: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every mark holds "generated" or "do not edit" on one line: the offsets of a licence
    # header above that line are not tried, however long it is.
    module = importlib.import_module("bot.engine.classify")
    recording = _RecordingPattern(module._GENERATED_LOWER)
    monkeypatch.setattr(module, "_GENERATED_LOWER", recording)
    licence = "// Licensed under the Apache License, Version 2.0\n" * licence_lines
    head = f"{licence}// This file is auto-generated. DO NOT EDIT.\n"
    report = module.classify("k.cu", f"{head}template void f<1>(int);\n".encode())
    assert report.generated is True
    assert [pos for pos, _ in recording.windows] == [len(licence)]
    # Neither word in the header: nothing is tried.
    recording.windows.clear()
    report = module.classify("k.cu", f"{licence}int f();\nint g();\n// generated\n".encode())
    assert report.generated is False
    assert [end - pos for pos, end in recording.windows] in ([], [0])


class _ReadCounting(str):
    """Text that counts the characters its backward searches may read."""

    read = 0

    def rfind(self, sub: str, start: Any = None, end: Any = None) -> int:
        lo = 0 if start is None else start
        hi = len(self) if end is None else end
        _ReadCounting.read += max(hi - lo, 0)
        return super().rfind(sub, lo, hi)


@pytest.mark.parametrize("units", [5_000, 20_000])
def test_a_line_of_many_conditionals_is_read_once(units: int) -> None:
    # `#if` after code on a line opens no directive, and only the line's first '#' may: each
    # is checked reading back no further than the '#' before it, not to the line's start.
    _ReadCounting.read = 0
    text = _ReadCounting("x #if A" * units + "\n#if B\n #  endif\n")
    starts, _, words = preprocessor.conditionals(text)
    line = len("x #if A") * units + 1
    assert (starts, words) == ([line, line + 6], ["if", "endif"])
    assert _ReadCounting.read <= len(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("aZ_9 \t\n])(:<>*éßİ²٠ǅ"), max_size=12))
def test_the_name_before_a_parameter_list_is_the_last_word(text: str) -> None:
    # The ASCII shortcut (strip the word characters) reads what \w reads, and other text
    # goes to the regex: the word before the blanks ending ``text``, "" after a ``]``.
    stripped = text.rstrip(" \t\n")
    word = re.search(r"\w+\Z", stripped)
    expected = "" if stripped.endswith("]") else (word.group() if word else None)
    assert c_structure._name_before(text) == expected


@pytest.mark.parametrize(
    ("path", "code"),
    [
        # Directives, braces and a function body: every C structure is built.
        (
            "k.cu",
            "#if X\n#define HD __device__\n#endif\n__global__ void k(float* p) {\n"
            "  p[threadIdx.x] = 0;\n}\n",
        ),
        # Logical lines, def blocks and string literals.
        ("m.py", 'import torch\n@triton.jit\ndef f(x):\n    return x.to("cuda")\n'),
    ],
)
def test_classifying_a_file_leaves_nothing_to_the_cycle_collector(path: str, code: str) -> None:
    # A file's lines, masked text and structures are freed when classify returns: garbage
    # in cycles would live on until the collector next ran, and then cost a traversal.
    report = classify(path, code.encode())
    assert report.findings
    gc.collect()
    classify(path, code.encode())
    assert gc.collect() == 0


def test_a_lambda_header_that_never_closes_reads_no_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    # sycl-unclosed-launches: a parameter list opened on every line and never closed. Each
    # match's walk would read its step budget of brackets, one regex search each.
    counting = CountingPattern(regions._LAMBDA_STOPS)
    monkeypatch.setattr(regions, "_LAMBDA_STOPS", counting)
    units = 500
    text = "#include <sycl/sycl.hpp>\n" + "h.parallel_for([=](sycl::id<1> i\n" * units
    assert classify("k.cpp", text.encode()).layers[Layer.KERNEL] == 0
    assert counting.searches <= 4 * units  # the capture lists' two stops, per rule


@settings(max_examples=400, deadline=None)
@given(
    st.text(alphabet=st.sampled_from("()[]{};,= a\n"), max_size=80),
    st.integers(0, 80),
    st.integers(0, 90),
)
def test_the_lambda_walk_answers_as_without_its_look_ahead(
    text: str, start: int, size: int
) -> None:
    src = _source("k.cpp", text)
    start = min(start, len(text))
    stop = min(len(text), start + size)
    openers: list[str | None] = [None]
    if start < len(text) and text[start] in "([":
        openers.append(text[start])
    for opener in openers:
        expected = regions._walk_brackets(src, start, stop, opener)
        assert regions._read_brackets(src, start, stop, opener) == expected


_PIECES = ["DEV", "DEVX", "_DEV", "DEV_", "#", " ", "\n", "é", "²", "(", "x", "DEV2"]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(_PIECES), max_size=40),
    st.sets(st.sampled_from(["DEV", "DEVX", "x", "DEV2", "é", "a-b"]), min_size=1, max_size=4),
    st.sets(st.integers(0, 60), max_size=5),
)
def test_uses_of_a_few_names_are_the_uses_a_pass_over_every_word_finds(
    pieces: list[str], names: set[str], skip: set[int]
) -> None:
    # Few names are each found with str.find; past regions._FIND_EACH, a pass over the
    # file's words finds them (names no text holds push a set past it): the same uses.
    masked = "".join(pieces)
    absent = {f"QQ{i}" for i in range(regions._FIND_EACH + 1)}
    words = list(regions._uses(masked, names | absent, skip))
    assert list(regions._uses(masked, names, skip)) == words


@pytest.mark.parametrize("launches", [1, 3])
def test_a_name_launched_again_claims_its_defs_once(launches: int) -> None:
    # pallas-called-defs in the adversarial bench: every def of a name is claimed at its first
    # launch, and the launches after it read no def again (they cost the product before).
    unit = "def k(x_ref):\n    x_ref[0] = 1\n" + "out = pl.pallas_call(k)(x)\n" * launches
    text = "from jax.experimental import pallas as pl\n" + unit * 50
    spans, searches = _run("k.py", text, "pallas.called-kernel")
    step = 2 + launches
    assert spans == [(2 + i * step, 3 + i * step) for i in range(50)]
    assert searches <= 2 * 50 * launches  # a few per launch line, none per def


def test_names_bound_before_launches_are_read_once() -> None:
    # Launches of many names, each bound to one name bound to many others: each binding is
    # followed once a file (the names read before answer nothing new), not once a launch.
    launches = 400
    text = (
        "from jax.experimental import pallas as pl\n"
        + "".join(f"a{i} = x\nout = pl.pallas_call(a{i})(y)\n" for i in range(launches))
        + "".join(f"x = t{i}\n" for i in range(launches))
        + "def t7(r):\n    r[0] = 1\n"
    )
    src = _source("k.py", text)

    class CountingBindings(dict[str, list[str]]):
        reads = 0

        def get(self, key: Any, default: Any = None) -> Any:
            CountingBindings.reads += 1
            return super().get(key, default)

    bound = CountingBindings({f"a{i}": ["x"] for i in range(launches)})
    bound["x"] = [f"t{i}" for i in range(launches)]
    expanded: set[str] = set()
    for i in range(launches):
        found = regions._bound_defs(f"a{i}", frozenset({"t7"}), bound, expanded)
        assert found == (["t7"] if i == 0 else [])
    assert CountingBindings.reads <= 2 * launches + 1  # each a_i, x, and each t_i once
    spans, _ = _run("k.py", text, "pallas.called-kernel")
    assert spans == [(src.nlines - 1, src.nlines)]


def test_literals_after_lone_prefixes_are_read_once() -> None:
    # A run of lone prefixes joined to one another (`"void main() {\n" +` on every line):
    # each asked whether the literals after it hold GLSL read the 200 after it, 10 s for
    # 1 MB. Each literal is now searched once for the file, whichever prefix asks.
    literals = 2000
    text = "class T {\n" + '"void main() {\\n" +\n' * literals + '"";\n}\n'
    src = _source("T.java", text)
    wanted = CountingPattern(_spec("vulkan.glsl-string").lone_continues)
    src.lone_continues = cast(Any, wanted)
    assert not any(regions._goes_on(src, index) for index in range(literals))
    assert wanted.searches <= literals + 1


def test_an_assignment_inside_an_open_statement_is_read_with_it() -> None:
    # pycuda-unclosed-assignments in the adversarial bench: each line assigns the source and
    # opens a bracket it never closes. Each line belongs to the statement opened above it
    # (statement_last reads up to 1,000 lines on): one span per such statement, where one per
    # line, each read a thousand lines on, took 66 s for 1 MB.
    lines = 5000
    text = "mod = SourceModule(src)\n" + 'src = ("__global__ void k() {}" % {"a": 1,\n' * lines
    spans = _source("k.py", text).strings.assigned_strings({"src"})
    assert spans[0][0] == 2
    assert len(spans) <= lines // 1000 + 1
    assert all(a[1] < b[0] for a, b in pairwise(spans))


def test_a_keyword_the_literals_search_did_not_find_is_looked_for_in_no_literal() -> None:
    # classify hands the string kinds what its search of the joined literals looked for and
    # found: a keyword looked for and not found holds no literal, unscanned (most keywords a
    # string kind asks for); any other is looked for, as without that search.
    text = 'a = "cuda:0"\nb = f("xpu", "hip")\nc = "mps" + "cudaMalloc"\n'
    language, _ = by_path("k.py")
    assert language is not None
    lexed = lex(text, language.family)
    occurrences = RULES_BY_LANGUAGE[language.name].keywords.occurrences(lexed.masked)
    tokens = [text[start:end] for start, end in lexed.strings]
    joined = "\n".join(tokens)
    searched = frozenset({"cuda", "xpu", "rocm", "metal"})
    found = {keyword for keyword in searched if keyword in joined}
    cut = string_literals.CutLiterals(tokens, joined, searched, found)
    searched_first = Source(lexed, language.family, occurrences, literals=cut).strings
    alone = _source("k.py", text).strings
    for keywords in [("cuda",), ("rocm",), ("xpu", "metal"), ("hip",), ("mps", "rocm"), ("x",)]:
        assert searched_first.strings_holding(keywords) == alone.strings_holding(keywords)
    # Taken at its word: "hip" said missing is not looked for.
    missing = cut._replace(searched=searched | {"hip"})
    trusted = Source(lexed, language.family, occurrences, literals=missing).strings
    assert trusted.strings_holding(("hip",)) == []
    assert alone.strings_holding(("hip",)) == [2]


def test_device_strings_cut_only_the_literals_they_read(monkeypatch: pytest.MonkeyPatch) -> None:
    # One device kind in a file of many other literals: the literal holding it is cut, and
    # no other (``device_kinds``, which cuts them all, is read only for a literal that
    # passes the other checks).
    cut = _counting(monkeypatch, string_literals, "string_body")
    text = "".join(f"x{i} = 'a{i}'\n" for i in range(400)) + "d = t['cuda']\n"
    spans, _ = _run("k.py", text, "torch.device-string")
    assert spans == []
    assert cut[0] == 1
