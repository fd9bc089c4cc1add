"""classify(path, bytes) -> FileReport: every code line of a file placed in one layer.

Detection runs on the masked code (comments removed, string literals masked) so a "cuda" in a
comment, docstring or log message counts for nothing; only string-literal kinds look inside
strings. When several rules claim a line the higher layer wins, then the longer region, except
that a region inside a same-layer one whose rule runs on strictly more vendors keeps its lines.
"""

from __future__ import annotations

import gc
import re
from bisect import bisect_left, bisect_right, insort
from collections.abc import Iterable
from heapq import heappop, heappush
from itertools import compress, groupby, starmap
from operator import itemgetter, sub

from bot.engine import literals, markers
from bot.engine.languages import Language, by_path, by_shebang, refine
from bot.engine.lexer import Lexed, lex
from bot.engine.model import FileReport, Finding, Layer, zero_layers
from bot.engine.regions import KINDS, SPECIFICITY, Source, file_region
from bot.engine.registry import RULES_BY_LANGUAGE, SPECS
from bot.engine.shims import scan_c, switches_on_hip

_SNIFF = 8192
# CUDA device code that a file switching on HIP builds for AMD too: kernel rules, but not
# those claiming a preprocessor branch (`#else` of a HIP switch, `#if __CUDA_ARCH__`), which
# only nvcc compiles.
_CUDA_DEVICE_CODE = frozenset(
    s.rule.id
    for s in SPECS
    if s.rule.ecosystem == "cuda"
    and s.rule.layer is Layer.KERNEL
    and not s.kind.startswith("preprocessor")
)
_MAX_UNDECODABLE = 0.3  # share of U+FFFD in the sniffed prefix above which bytes are binary
_GENERATED = re.compile(
    r"auto-?generated|automatically generated|generated (?:by|from|with)\b|do not edit"
    r"|@generated|this file (?:is|was) generated",
    re.I,
)
_GENERATED_HEAD = 2048
# The same, case-sensitive, for the lower-cased head: about ten times faster, and the same
# answer on ASCII (re.I also equates a few other letters with these, such as U+017F with s).
_GENERATED_LOWER = re.compile(_GENERATED.pattern)
# Claims covering more than this many times the file's lines in total are painted line by
# line once each instead of slice by slice (which would be quadratic in the worst case).
_OVERPAINT = 8
#: Whether a line is code -> its line_rules entry: portable, or each rule's own.
_PORTABLE_OR_BLANK: dict[bool, str | None] = {True: "", False: None}
_RULE_OR_BLANK: list[dict[bool, str | None]] = [{True: s.rule.id, False: None} for s in SPECS]
# A rule's line condition is searched on each of its spans' first lines at once, unless
# there is more than one span per 2**9 characters of text: then the text is first scanned
# for the condition's literals.
_SPANS_BEFORE_SCAN = 9
_NESTED_CHOICES = 32  # narrower claims tried per line, the strongest first
#: Spec index -> the specs of its layer whose rules run on strictly more vendors, and the
#: converse: those whose rules run on strictly fewer.
_WIDER: dict[int, frozenset[int]] = {
    i: frozenset(
        j
        for j, other in enumerate(SPECS)
        if other.rule.layer is spec.rule.layer and spec.rule.vendors < other.rule.vendors
    )
    for i, spec in enumerate(SPECS)
}
#: Spec index -> its layer's rank, and the ties it breaks (its kind's specificity, then the
#: rule listed first) packed in one integer below ``_TIE_LEVELS``, for ``_ranked``.
_RANKS: list[int] = [spec.rule.layer.rank for spec in SPECS]
_TIES: list[int] = [
    SPECIFICITY.get(spec.kind, 0) * len(SPECS) + len(SPECS) - 1 - i for i, spec in enumerate(SPECS)
]
_TIE_LEVELS = (max(SPECIFICITY.values(), default=0) + 1) * len(SPECS)
_WIDER_THAN: dict[int, frozenset[int]] = {
    j: frozenset(i for i, wider in _WIDER.items() if j in wider) for j in _WIDER
}
# Explicit template instantiations: the whole content of the small per-configuration files
# kernel libraries generate by the hundred (flash-attention's flash_fwd_hdim128_fp16_sm80.cu).
_INSTANTIATION = re.compile(
    r"^[ \t]*(?:extern[ \t]+)?template[ \t]*(?:<[ \t]*>|[ \t](?![ \t]*<))", re.M
)
_INSTANTIATION_MAX_LINES = 30
_INSTANTIATING_LANGUAGES = frozenset({"CUDA", "HIP", "C++"})
_DIRECTIVE = re.compile(r"^[ \t]*\#[^\n]*", re.M)
# Such a file holds nothing but namespaces, braces and body-less template statements once its
# directives are gone: a function body (tensorflow/custom-op's time_two_kernels.cu.cc, a
# kernel and its launcher before the instantiation) makes it hand-written code.
_BODILESS = re.compile(
    r"\s*(?:(?:namespace\b[\w:\s]*\{|using[ \t]+namespace\b[^;{}]*;|[};]"
    r"|(?:extern[ \t]+)?template\b[^;{}]*;)\s*)*"
)


#: A rule's claim on a region of a file, the lines one match of its pattern owns: the rule's
#: index in ``SPECS``, the region's first line (1-based) and last line (inclusive). A plain
#: tuple: a NamedTuple is built by a Python-level __new__, six times slower, once per claim.
Claim = tuple[int, int, int]
_SPEC = itemgetter(0)  # a claim's spec, for map()


def _looks_binary(data: bytes) -> bool:
    """NUL bytes in the first 8 KiB, or mostly bytes that are not UTF-8 there."""
    head = data[:_SNIFF]
    if b"\0" in head:
        return True
    if head.isascii():
        return False
    text = head.decode("utf-8", errors="replace")
    return text.count("\ufffd") > _MAX_UNDECODABLE * max(len(text), 1)


#: Bytes of a file's start that :func:`binary_from_head` needs.
HEAD_BYTES = _SNIFF


def binary_from_head(path: str, head: bytes) -> FileReport | None:
    """The report ``classify`` gives a file whose first ``HEAD_BYTES`` are ``head``, when
    those alone decide it: one that no name or ``#!`` line places and that looks binary
    (an image, a checkpoint, an archive), whatever follows; None when the rest matters.

    Lets a reader leave the bulk of such files unread: on the bench corpus they are three
    quarters of the bytes and none of the code.
    """
    # The path last: most heads are text, and classify looks the path up again anyway.
    if head.startswith(b"#!") or not _looks_binary(head) or by_path(path)[0] is not None:
        return None
    return _report(path, None, 0, "binary")


def _decode(data: bytes) -> str | None:
    """Text of ``data`` with LF line ends and no BOM, or None when it looks binary."""
    if data.find(b"\0", 0, _SNIFF) >= 0:
        return None
    # UTF-8, then the BOM dropped: what "utf-8-sig" does, without its Python-level codec.
    try:
        text = data.decode()
    except UnicodeDecodeError:
        if _looks_binary(data):
            return None
        text = data.decode(errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    # CRLF becomes LF (the line count git sees); a lone CR stays inside its line.
    return text.replace("\r\n", "\n") if "\r" in text else text


def _report(path: str, language: str | None, nlines: int, skipped: str | None) -> FileReport:
    return FileReport(path, language, 0, zero_layers(), {}, [], [None] * nlines, skipped)


def _line_count(data: bytes) -> int:
    return data.count(b"\n") + (0 if not data or data.endswith(b"\n") else 1)


def _generated(lang: Language, text: str, masked: str, code_lines: int) -> bool:
    head = text[:_GENERATED_HEAD].lower()
    if ("generated" in head or "do not edit" in head) and (
        _GENERATED_LOWER.search(head) or (not head.isascii() and _GENERATED.search(head))
    ):
        return True
    return (
        lang.name in _INSTANTIATING_LANGUAGES
        and code_lines <= _INSTANTIATION_MAX_LINES
        and literals.search(_INSTANTIATION, masked)
        and _BODILESS.fullmatch(_DIRECTIVE.sub("", masked)) is not None
    )


def _found(
    pattern: re.Pattern[str],
    masked: str,
    searched: dict[re.Pattern[str], bool],
    present: dict[str, bool],
) -> bool:
    """Whether ``pattern`` occurs in ``masked``, searched once per file: rules of one
    ecosystem share their file-level conditions (patterns of one source compare equal), and
    different conditions the literals they need (``present``)."""
    found = searched.get(pattern)
    if found is None:
        found = searched[pattern] = literals.search(pattern, masked, present)
    return found


def _claims(lang: Language, lexed: Lexed) -> list[Claim]:
    """Every region any applicable rule claims, by rule then line."""
    masked = lexed.masked
    rules = RULES_BY_LANGUAGE[lang.name]
    in_code = rules.keywords.occurrences(masked)
    # String kinds only ever find their keywords inside a literal: search the literals, one
    # a line (keywords hold no newline), not the whole text.
    in_literals: set[str] = set()
    literal_texts: tuple[list[str], str] | None = None  # handed on to the string kinds
    if lexed.strings and rules.string_keywords.keywords:
        # Cut by map, with no Python frame per literal (a file may hold thousands).
        tokens = list(map(lexed.text.__getitem__, starmap(slice, lexed.strings)))
        literal_texts = tokens, "\n".join(tokens)
        in_literals = rules.string_keywords.found(literal_texts[1])
    claimed: dict[int, dict[tuple[int, int], None]] = {}  # spec index -> its regions' spans
    src: Source | None = None
    searched: dict[re.Pattern[str], bool] = {}
    present: dict[str, bool] = {}
    for index in rules.candidates(in_code, in_literals):
        spec = SPECS[index]
        if spec.requires is not None and not _found(spec.requires, masked, searched, present):
            continue
        if spec.unless is not None and _found(spec.unless, masked, searched, present):
            continue
        if src is None:
            src = Source(lexed, lang.family, in_code, present, literal_texts)
        spans = (
            file_region(src, None, spec.keywords)
            if spec.pattern is None  # only file-level rules go without (the registry checks)
            else KINDS[spec.kind](src, spec.pattern, spec.keywords)
        )
        # Drained at C speed (a kind may yield a span per match), deduplicated in the order
        # found: kinds mostly yield spans in file order, so sorting them below is near-linear.
        found = dict.fromkeys(spans)
        # A file lacking what the line condition needs (``<<<``, ``dim3``) keeps every span:
        # looked for in the whole text only when the spans are many, as a few lines are
        # searched sooner than a file is scanned for each literal.
        unless_line = spec.unless_line
        if (
            found
            and unless_line is not None
            and (
                len(found) <= len(lexed.text) >> _SPANS_BEFORE_SCAN
                or literals.may_match(unless_line, lexed.text)
            )
        ):
            found = _not_on_lines(found, unless_line, lexed, src)
        if found:
            claimed[index] = found
    return [
        (index, first, last) for index in sorted(claimed) for first, last in sorted(claimed[index])
    ]


def _not_on_lines(
    found: dict[tuple[int, int], None], unless: re.Pattern[str], lexed: Lexed, src: Source
) -> dict[tuple[int, int], None]:
    """The spans whose first line, as written, does not match ``unless``."""
    text, starts = lexed.text, src.starts
    kept: dict[tuple[int, int], None] = {}
    for span in found:
        start = starts[span[0] - 1] if 0 < span[0] <= len(starts) else 0
        end = text.find("\n", start)
        if not unless.search(text, start, end if end >= 0 else len(text)):
            kept[span] = None
    return kept


def classify(path: str, data: bytes) -> FileReport:
    """Place each code line of ``path`` in a layer. Never raises: odd input is reported.

    The cycle collector is paused meanwhile. Classifying a file builds many containers that
    live until it ends (matches, spans, a directive's branches) and holds no reference
    cycles, yet CPython's collector would traverse them again and again as they pile up: a
    quarter to a third of the time on a file with a directive on every other line. Cycles
    created meanwhile, if any, are collected once it runs again.
    """
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        return _classify(path, data)
    except Exception:  # the engine must not take a census down; the report says it gave up
        return _report(path, None, 0, "error")
    finally:
        if paused:
            gc.enable()


def _classify(path: str, data: bytes) -> FileReport:
    named, ext = by_path(path)
    if named is None:
        named = by_shebang(data)
    if named is None:  # not counted: only say whether it is binary, and its lines
        if _looks_binary(data):
            return _report(path, None, 0, "binary")
        return _report(path, None, _line_count(data), None)
    text = _decode(data)
    if text is None:
        return _report(path, None, 0, "binary")
    if named.text:
        # A template that generates code is that code (flashinfer's CUDA kernels in .jinja).
        named = refine(named, ext, path, text)
    if named.text:  # documentation or data: its lines counted apart, no rule reads it
        lines: list[str | None] = [None] * _line_count(data)
        counted = sum(lex(text, named.family).code)
        return FileReport(path, named.name, 0, zero_layers(), {}, [], lines, text_lines=counted)
    lexed = lex(text, named.family)
    lang = refine(named, ext, path, lexed.masked)  # heuristics only refine the path's choice
    if lang.family is not named.family:
        lexed = lex(text, lang.family)
    code = lexed.code
    code_lines = code.count(True)  # sum() has no fast path for bools
    claims = _claims(lang, lexed)
    layers = zero_layers()
    ecosystems: dict[str, int] = {}
    findings: list[Finding] = []
    if not claims:
        layers[Layer.PORTABLE] = code_lines
        line_rules: list[str | None] = list(map(_PORTABLE_OR_BLANK.__getitem__, code))
    else:
        line_rules = _resolve(claims, code, layers, ecosystems, findings)
    shim, includes = scan_c(lexed.text, lexed.masked) if lang.family.name == "c" else (False, ())
    report = FileReport(
        path=path,
        language=lang.name,
        code_lines=code_lines,
        layers=layers,
        ecosystems=ecosystems,
        findings=findings,
        line_rules=line_rules,
        generated=_generated(lang, text, lexed.masked, code_lines),
        shim=shim,
        includes=includes,
        hip_switch=lang.family.name == "c"
        and not _CUDA_DEVICE_CODE.isdisjoint(line_rules)
        and switches_on_hip(lexed.masked),
    )
    if markers.WORD in text:
        regions = [(SPECS[spec].rule.id, first, last) for spec, first, last in claims]
        markers.apply(report, lexed, regions)
    return report


def _resolve(
    claims: list[Claim],
    code: list[bool],
    layers: dict[Layer, int],
    ecosystems: dict[str, int],
    findings: list[Finding],
) -> list[str | None]:
    """Give each line to one claim and tally the result.

    The higher layer wins, then the longer (enclosing) region, then the more specific kind,
    then the rule listed first; claims are painted weakest first so the winner paints last.
    A region inside a same-layer region whose rule runs on strictly more vendors then takes
    its lines (``_repaint_narrower``).
    """
    n = len(code)
    ranked = _ranked(claims, n)
    # The claim (position in ranked) that won each line, then its spec: -1 (no claim) picks
    # the -1 appended. One painting serves both, at C speed from the first.
    holder = _paint(range(len(ranked)), ranked, n)
    specs = list(map(_SPEC, ranked))
    specs.append(-1)
    # Only code lines count and only they form findings: a finding is a run of code lines
    # owned by one rule (non-code lines do not break it). Picked out at C speed, and a rule's
    # ids written over its finding in one slice: nothing in Python runs once per line. Every
    # line's owner is written out only when narrower claims take some lines (seldom).
    repainted = _repaint_narrower(ranked, holder)
    if repainted:
        owner = list(map(specs.__getitem__, holder))
        for line, spec in repainted.items():
            owner[line] = spec
        owners = list(compress(owner, code))
    else:
        owners = list(map(specs.__getitem__, compress(holder, code)))
    numbers = list(compress(range(1, n + 1), code))
    line_rules = list(map(_PORTABLE_OR_BLANK.__getitem__, code))
    counts: dict[int, int] = {}  # spec index -> its code lines, in the order met
    at = 0
    for index, run in groupby(owners):
        size = len(list(run))
        if index >= 0:
            first, last = numbers[at], numbers[at + size - 1]
            counts[index] = counts.get(index, 0) + size
            rule = SPECS[index].rule
            findings.append(Finding(rule.id, rule.layer, rule.ecosystem, first, last))
            if last - first < size:  # every line of the run is code (most): no map needed
                line_rules[first - 1 : last] = [rule.id] * size
            else:
                line_rules[first - 1 : last] = map(
                    _RULE_OR_BLANK[index].__getitem__, code[first - 1 : last]
                )
        at += size
    for index, count in counts.items():
        rule = SPECS[index].rule
        layers[rule.layer] += count
        ecosystems[rule.ecosystem] = ecosystems.get(rule.ecosystem, 0) + count
    layers[Layer.PORTABLE] += len(numbers) - sum(counts.values())
    return line_rules


def _paint(labels: Iterable[int], claims: list[Claim], n: int) -> list[int]:
    """Each of ``n`` lines labelled with the label (one per claim, from ``labels``) of the
    last claim over it (-1: none)."""
    painted = [-1] * n
    # Each claim as the slice [start, end) of line indexes it covers in the file.
    starts = [first - 1 if first > 1 else 0 for _, first, _ in claims]
    ends = [last if last < n else n for _, _, last in claims]
    labelled = zip(labels, starts, ends, strict=True)
    # (An empty claim counts zero or less here: the sum only picks how to paint.)
    if sum(map(sub, ends, starts)) > _OVERPAINT * n:
        return _paint_once(list(labelled), painted)
    for label, start, end in labelled:
        if start < end:
            painted[start:end] = [label] * (end - start)
    return painted


def _paint_once(labelled: list[tuple[int, int, int]], painted: list[int]) -> list[int]:
    """``_paint`` for claims that overlap a lot (thousands of regions running to the end of
    the file): the strongest claim first, each line painted once, skipping painted runs
    through a next-unpainted-line forest with path halving. Linear in lines plus claims."""
    n = len(painted)
    after = list(range(n + 1))  # after[i]: an index <= the first unpainted line >= i
    left = n  # lines not painted yet: once none, the weaker claims left paint nothing
    for label, start, end in reversed(labelled):
        # An unpainted line is its own entry: only a painted one calls ``_unpainted``.
        i = start if start >= end or after[start] == start else _unpainted(after, start)
        while i < end:
            painted[i] = label
            after[i] = i + 1
            i += 1
            left -= 1
            if after[i] != i:
                i = _unpainted(after, i)
        if not left:
            break
    return painted


def _unpainted(after: list[int], i: int) -> int:
    """The first unpainted line at or after ``i`` in ``_paint_once``'s forest, halving the
    paths walked."""
    while after[i] != i:
        after[i] = after[after[i]]
        i = after[i]
    return i


def _repaint_narrower(ranked: list[Claim], holder: list[int]) -> dict[int, int]:
    """The lines (0-based) whose winner (``holder``: its position in ``ranked``) hands them on
    to a narrower claim nested in it -> that claim's spec.

    The narrower rule says more about those lines: the `#ifdef COOPMAT2` branch of a Vulkan
    shader that runs everywhere runs on NVIDIA only. Among several such claims the usual
    order picks one, and the descent repeats inside it (vendor sets shrink, so it ends).
    """
    repainted: dict[int, int] = {}
    specs = set(map(_SPEC, ranked))
    if len(specs) < 2:
        return repainted
    wider_of = {index: wider for index in specs if (wider := _WIDER[index] & specs)}
    if not wider_of:
        return repainted
    outer = set().union(*wider_of.values())
    # Per spec with narrower ones in the file: those (a descent stops at a spec without).
    narrower_of = {index: fewer for index in specs if (fewer := _WIDER_THAN[index] & specs)}
    # Per wider spec: its region starts in order and the furthest line reached so far, so
    # "some region of this spec encloses [first, last]" is one bisection.
    starts: dict[int, list[int]] = {}
    reach: dict[int, list[int]] = {}
    for index, first, last in sorted((c for c in ranked if c[0] in outer), key=itemgetter(1)):
        starts.setdefault(index, []).append(first)
        ends = reach.setdefault(index, [])
        ends.append(max(last, ends[-1]) if ends else last)
    # Per spec with wider ones: their (starts, reach) pairs, tried in a plain loop (a
    # generator per claim for ``any`` cost more than the bisections).
    enclosing = {
        index: [(starts[other], reach[other]) for other in wider]
        for index, wider in wider_of.items()
    }
    nested: list[int] = []
    for pos, (index, first, last) in enumerate(ranked):
        pairs = enclosing.get(index)
        if pairs is not None:
            for firsts, furthest in pairs:
                at = bisect_right(firsts, first)
                if at and furthest[at - 1] >= last:
                    nested.append(pos)
                    break
    if not nested:
        return repainted
    n = len(holder)
    # One sweep down the lines the nested claims cover: the claims covering the current line
    # are kept sorted (weakest first), those ended dropped through a heap of their ends, and
    # only the strongest _NESTED_CHOICES are tried per line, so thousands of nested claims
    # (an unclosed function per line) cost linear time.
    by_start = sorted(nested, key=lambda pos: ranked[pos][1])
    firsts = [ranked[pos][1] for pos in by_start]
    runs = _union(firsts, [ranked[pos][2] for pos in by_start])
    firsts.append(n + 1)  # past every line swept: ends the loop adding claims
    active: list[int] = []
    closing: list[tuple[int, int]] = []
    k = 0
    for first, last in runs:
        for line in range(max(first, 1), min(last, n) + 1):
            while firsts[k] <= line:
                pos = by_start[k]
                insort(active, pos)
                heappush(closing, (ranked[pos][2], pos))
                k += 1
            while closing and closing[0][0] < line:
                del active[bisect_left(active, heappop(closing)[1])]
            held = winner = holder[line - 1]
            spec, first_held, last_held = ranked[winner]
            narrower = narrower_of.get(spec)
            if narrower is None:  # no claim here may take the line from its holder
                continue
            cover = active[: -_NESTED_CHOICES - 1 : -1]  # ranked weakest first: strongest here
            while narrower is not None:
                # The strongest claim of ``cover`` inside ``winner``, of its layer, whose rule
                # runs on strictly fewer vendors (inlined: this runs per claim per line).
                for p in cover:
                    inner, first_inner, last_inner = ranked[p]
                    if inner in narrower and first_held <= first_inner and last_inner <= last_held:
                        winner = p
                        spec, first_held, last_held = inner, first_inner, last_inner
                        narrower = narrower_of.get(spec)
                        break
                else:
                    break
            if winner != held:
                repainted[line - 1] = spec
    return repainted


def _union(firsts: list[int], lasts: list[int]) -> list[tuple[int, int]]:
    """The disjoint runs of lines that spans ``firsts[i]``-``lasts[i]`` (sorted by first
    line) cover together."""
    runs: list[tuple[int, int]] = []
    if not firsts:
        return runs
    run_first, run_last = firsts[0], lasts[0]
    for first, last in zip(firsts[1:], lasts[1:], strict=True):
        if first > run_last + 1:
            runs.append((run_first, run_last))
            run_first = first
            run_last = last
        elif last > run_last:
            run_last = last
    runs.append((run_first, run_last))
    return runs


def _ranked(claims: list[Claim], n: int) -> list[Claim]:
    """``claims`` weakest first: by layer rank, region length (lines up to ``n``), the kind's
    specificity, then the rule listed first. Stable: equal claims keep the input's order.

    The four keys are packed into one integer per claim by a comprehension: a key function
    called per claim costs more than the sort itself on files with many thousands.
    """
    if not claims:
        return []
    lengths = [(last if last < n else n) - first for _, first, last in claims]
    low = min(lengths)
    width = max(lengths) - low + 1
    rank, ties, levels = _RANKS, _TIES, _TIE_LEVELS
    keys = [
        (rank[index] * width + length - low) * levels + ties[index]
        for (index, _, _), length in zip(claims, lengths, strict=True)
    ]
    return list(map(claims.__getitem__, sorted(range(len(claims)), key=keys.__getitem__)))
