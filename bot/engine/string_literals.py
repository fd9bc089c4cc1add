"""String literals of a file: their bodies, the brackets around them, the literals naming
device kinds, those holding a keyword or assigned to a name, and a call's arguments."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from itertools import accumulate, compress, groupby, repeat, starmap
from typing import NamedTuple

from bot.engine.logical_lines import LogicalLines
from bot.engine.precompiled import fixed_regex
from bot.engine.source_text import Keywords, SourceText, Span, offsets

_OPENERS = "([{"
# An assignment (or a ``+=`` appending to it) up to its value: blanks, newlines and
# parentheses before it are skipped.
_ASSIGN = fixed_regex(r"^[ \t]*([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?\+?=[ \t\n(]*", re.M)
_CALL_TOKENS = fixed_regex(r"[()\[\]{}]")
_VALUE_TOKENS = fixed_regex(r"[()\[\]{},]")
#: What follows a list joined into one string (JavaScript, TypeScript).
_JOIN = ".join("
_BULK_SHARE = 4  # a rule reading 1/4 of the literals or more gets all bodies cut at once
_ARGUMENT_SCAN = 2000  # bracket tokens scanned for one call's arguments before giving up
#: Accelerator device kinds PyTorch and its out-of-tree backends name (``cpu`` and ``meta``
#: are not accelerators), ONNX Runtime's accelerator execution providers (``CPU`` is none),
#: the vendors' collective-communication backends of torch.distributed (``gloo`` runs on
#: the CPU) and serving engines' vendor names (``_PROVIDER_KIND``): a collection naming two
#: of them is dispatch code.
_DEVICE_KIND = fixed_regex(
    r"^(?:(cuda|hip|rocm|xpu|mps|hpu|npu|tpu|xla|mlu|musa|gaudi|sdaa|privateuseone)(?::\d+)?"
    r"|(cuda|tensorrt|nvtensorrtrtx|rocm|migraphx|openvino|coreml|dml|qnn|cann|webgpu)"
    r"executionprovider|(nccl|rccl|xccl|ccl|hccl|cncl|mccl|ascend|camb|maca))$"
)
#: Providers for the same vendor's GPUs are one kind: TensorRT's provider falls back on CUDA's
#: (``["TensorrtExecutionProvider", "CUDAExecutionProvider"]`` names NVIDIA alone). A
#: collective backend is the kind of the devices it runs on: ``("nccl", "xccl")`` names NVIDIA
#: and Intel (P-R-N-D/ENN-PyTorch's runtime/distributed.py, pool h47), ``"nccl"`` alone NVIDIA;
#: ``"ccl"`` is Intel's oneCCL under torch-ccl's name (``choices=['nccl', 'ccl', 'mpi']``).
_PROVIDER_KIND = {
    "tensorrt": "cuda",
    "nvtensorrtrtx": "cuda",
    "migraphx": "rocm",
    "nccl": "cuda",
    "rccl": "rocm",
    "xccl": "xpu",
    "ccl": "xpu",  # oneCCL's backend as torch-ccl registers it (DeepSpeedExamples, h50)
    "hccl": "npu",
    "cncl": "mlu",
    "mccl": "musa",
    # LMDeploy's device types for the vendors it serves beside "cuda" (opendatalab/MinerU's
    # `device_type not in ["cuda", "ascend", "maca", "camb"]`, lane h51-random-d): Huawei's
    # Ascend, Cambricon's MLU and MetaX's MACA, kinds as the devices they run on.
    "ascend": "npu",
    "camb": "mlu",
    "maca": "maca",
}


#: Characters looked back through for the ``{`` or ``,`` before a dict key: bounded, linear.
_KEY_REACH = 200
#: Characters a compiler option's literal may span (``option``): a flag, not a program.
_OPTION_REACH = 200
#: A keyword argument whose value names what a call compiles rather than holding its source:
#: CuPy's ``backend='nvrtc'``, ``path='k.cubin'``, ``name_expressions=['f']``, a kernel's
#: ``name=`` (``reference``), read in the characters before the literal on its line.
_REFERENCE_KEYWORD = fixed_regex(
    r"\b(backend|path|name|name_expressions)[ \t]*=[ \t]*[\[(]?[ \t]*$"
)
_REFERENCE_REACH = 40
#: A literal that is one file's name (``open('scale.cu')``): the source is read from there.
_FILE_NAME = fixed_regex(
    r"[\w./\\-]{1,160}\.(?:cu|cuh|ptx|cubin|fatbin|cl|metal|h|hpp|cpp|cc|c|txt)"
)
#: A literal that is one name of three characters or more (``RawKernel(code, 'scale')``): the
#: kernel's name, no statement of it (a one-letter ``map_expr='x'`` is one).
_ONE_NAME = fixed_regex(r"[A-Za-z_]\w{2,80}")
#: What ``reference`` tells of a literal: it names a file or back end, or the kernel.
REFERENCE, NAME = 1, 2


def past_blanks(masked: str, pos: int) -> int:
    """The first offset from ``pos`` on that holds no space or tab (``len(masked)`` at most):
    what follows a literal on its line."""
    while pos < len(masked) and masked[pos] in " \t":
        pos += 1
    return pos


def dict_key(masked: str, start: int, end: int) -> bool:
    """Whether the literal at ``start``..``end`` is a key of a dict display (``{"cuda":
    "13.0.88"}``, a line ``"cuda": True,`` of one): a table keyed by platform names, as a
    toolchain lock's versions, names no device (goldbar123467/openttd-cuda-rl's
    test_v1_dependency_cache.py, issue 27), and a mapping a ``%`` formats into a kernel's
    source names the values, not code. The value (``{"device": "cuda"}``) still counts; a
    ternary's branch (``c ? "a" : "b"``) has a ``?`` before it."""
    after = past_blanks(masked, end)
    if masked[after : after + 1] != ":":
        return False
    before = start - 1
    while before >= 0 and start - before < _KEY_REACH and masked[before] in " \t\r\n":
        before -= 1
    return before >= 0 and masked[before] in "{,"


class JoinedList(NamedTuple):
    """A list of literals joined into one string: the indexes of the first and last literal
    inside it, and its items' bodies joined by newlines."""

    first: int
    last: int
    body: str


class CutLiterals(NamedTuple):
    """A file's string literals as ``classify`` cut them to search them for keywords: each
    as written, them joined by newlines, the keywords searched for there and those found."""

    tokens: list[str]
    joined: str
    searched: frozenset[str]
    found: set[str]


class StringLiterals:
    """What region kinds read around a file's string literals, each found once."""

    __slots__ = (
        "_bodies",
        "_body",
        "_collections",
        "_device_kinds",
        "_found",
        "_holding_keyword",
        "_items_of",
        "_joined",
        "_joined_lists",
        "_joined_starts",
        "_joins",
        "_searched",
        "_string_starts",
        "_tokens",
        "lines",
        "text",
    )

    def __init__(
        self, text: SourceText, lines: LogicalLines, literals: CutLiterals | None = None
    ) -> None:
        """``literals``: the literals, when the caller has cut them and searched them for
        keywords already."""
        self.text = text
        self.lines = lines
        self._string_starts: list[int] | None = None
        self._collections: tuple[list[int], dict[int, int]] | None = None
        self._bodies: list[str] | None = None  # each literal's body
        self._body: dict[int, str] = {}  # literal -> its body, for those read one by one
        self._holding_keyword: dict[str, list[int]] = {}  # keyword -> literals holding it
        self._tokens: list[str] | None = None  # each literal as written
        self._joined: str | None = None  # the literals joined by newlines
        self._joined_starts: list[int] | None = None  # where each starts in ``_joined``
        self._items_of: dict[int, list[int]] | None = None  # ``_items``
        self._joins: bool | None = None  # the file holds ``].join(``, once looked for
        # Opener offset -> the joined list it opens, if any (``joined_list``).
        self._joined_lists: dict[int, JoinedList | None] = {}
        # The keywords searched for in the literals and those found: a keyword searched for
        # and not found is in no literal.
        self._searched: frozenset[str] = frozenset()
        self._found: set[str] = set()
        if literals is not None:
            self._tokens, self._joined, self._searched, self._found = literals
        self._device_kinds: tuple[list[int], list[str], list[int]] | None = None

    def string_starts(self) -> list[int]:
        if self._string_starts is None:
            self._string_starts = [s for s, _ in self.text.lexed.strings]
        return self._string_starts

    def body_reader(self, wanted: int) -> Callable[[int], str]:
        """``string_body`` by literal index, for ``wanted`` literals: a rule reads only the
        literals holding its keywords, mostly a few of a file's thousands, each cut on first
        use; when they are a good share of the file's, all are cut at once (``bodies``)."""
        if self._bodies is None and wanted * _BULK_SHARE < len(self.text.lexed.strings):
            return self._string_body
        return self.bodies().__getitem__

    def _string_body(self, index: int) -> str:
        """``string_body`` of literal ``index``, cut once (rules share literals)."""
        body = self._body.get(index)
        if body is None:
            start, end = self.text.lexed.strings[index]
            body = self._body[index] = string_body(self.text.lexed.text[start:end])
        return body

    def tokens(self) -> list[str]:
        """Every literal as written, cut once per file by ``map`` (no Python frame each)."""
        if self._tokens is None:
            text = self.text.lexed.text
            self._tokens = list(map(text.__getitem__, starmap(slice, self.text.lexed.strings)))
        return self._tokens

    def bodies(self) -> list[str]:
        """``string_body`` of every literal, cut once per file (``device_kinds`` reads them
        all) by ``map``, with no Python frame per literal but the cut itself."""
        if self._bodies is None:
            tokens = self.tokens()
            # Each distinct literal cut once: dispatch code repeats "cuda" thousands of times.
            body_of = {token: string_body(token) for token in set(tokens)}
            self._bodies = list(map(body_of.__getitem__, tokens))
        return self._bodies

    def device_kinds(self) -> tuple[list[int], list[str], list[int]]:
        """The string literals naming a device kind (``_DEVICE_KIND``), read once: their
        start offsets, their kinds and, for each, the number of the next one naming another
        kind (else their count), so whether a range names several kinds is two bisections."""
        if self._device_kinds is None:
            # Each distinct body matched once (dispatch code repeats a few kinds), then every
            # literal's kind ("" for none) looked up and picked out at C speed.
            read = list(map(str.lower, map(str.strip, self.bodies())))
            kind_of = {body: _device_kind(body) for body in set(read)}
            found = list(map(kind_of.__getitem__, read))
            positions = list(compress(self.string_starts(), found))
            kinds = list(filter(None, found))
            # Each literal of a run naming one kind gets the number ending the run: filled
            # a run at a time (a list naming one kind thousands of times is one run).
            other: list[int] = []
            for _, run in groupby(kinds):
                size = len(list(run))
                other += repeat(len(other) + size, size)
            self._device_kinds = positions, kinds, other
        return self._device_kinds

    def strings_holding(self, keywords: Keywords) -> list[int]:
        """Indexes of the string literals in which one of ``keywords`` occurs, in order."""
        if len(keywords) == 1:
            return self._holding(keywords[0])
        return sorted(set().union(*map(self._holding, keywords)))

    def _holding(self, keyword: str) -> list[int]:
        """Indexes of the literals holding ``keyword``, in order (rules share keywords).

        Searched in the file's literals joined by newlines (``_joined``), not in the file:
        a keyword common in code (``cuda`` in a CUDA or PyTorch file) then costs nothing
        where it stands outside a literal.
        """
        found = self._holding_keyword.get(keyword)
        if found is not None:
            return found
        # Most keywords asked for stand in no literal (10,356 of 11,276 over the bench
        # corpus, 20 MB of literals): the caller's search of the literals says so, else one
        # scan, where a count and a find took two.
        if keyword not in self._found and keyword in self._searched:
            found = self._holding_keyword[keyword] = []
            return found
        joined, starts = self._joined, self._joined_starts
        if joined is None:
            joined = self._joined = "\n".join(self.tokens())
        i = joined.find(keyword)
        if i < 0:
            found = self._holding_keyword[keyword] = []
            return found
        if starts is None:
            # Where each literal starts in the joined text: past the ones before and their
            # newlines (the last entry is one past the end).
            lengths = map(len, self.tokens())
            starts = self._joined_starts = [0, *accumulate(map((1).__add__, lengths))]
        if joined.count(keyword, i) * _BULK_SHARE > len(starts):
            # In a good share of the literals (``"cuda"`` in dispatch code): each literal
            # tested at C speed beats a search and a bisection a literal in Python.
            tokens = self.tokens()
            found = list(
                compress(range(len(tokens)), map(str.__contains__, tokens, repeat(keyword)))
            )
            self._holding_keyword[keyword] = found
            return found
        found = self._holding_keyword[keyword] = []
        while i >= 0:
            index = bisect_right(starts, i) - 1
            if i + len(keyword) < starts[index + 1]:  # within the literal, not its newline
                found.append(index)
                i = joined.find(keyword, starts[index + 1])
            else:
                i = joined.find(keyword, i + 1)
        return found

    def collections(self) -> tuple[list[int], dict[int, int]]:
        """Brackets around string literals, in one pass: for each string (by index) the
        offset of the innermost bracket open at its start (-1: none), and each opener's
        closing offset (unclosed openers have none). Mismatched closers are ignored."""
        if self._collections is None:
            starts = self.string_starts()
            enclosing = [-1] * len(starts)
            closing: dict[int, int] = {}
            stack: list[int] = []
            k = 0
            masked = self.text.masked
            for pos in offsets(masked, "()[]{}"):
                while k < len(starts) and starts[k] < pos:
                    enclosing[k] = stack[-1] if stack else -1
                    k += 1
                if masked[pos] in _OPENERS:
                    stack.append(pos)
                elif stack:
                    closing[stack.pop()] = pos
            for rest in range(k, len(starts)):
                enclosing[rest] = stack[-1] if stack else -1
            self._collections = enclosing, closing
        return self._collections

    def joined_list(self, index: int) -> JoinedList | None:
        """The list literal ``index`` is an item of, when the list is joined into one string
        (JavaScript's ``[...].join("\\n")``): a shader written a line per item, as three.js's
        older shader passes (vendored by many web projects) are, is one program. None for a
        literal of no such list. A file without ``].join(`` (found once by ``str.find``, most
        files) has none, and its brackets go unread."""
        if self._joins is None:
            self._joins = self.text.masked.find("]" + _JOIN) >= 0
        if not self._joins:
            return None
        enclosing, closing = self.collections()
        opener = enclosing[index]
        if opener < 0 or opener not in closing:
            return None
        if opener not in self._joined_lists:
            self._joined_lists[opener] = self._joined_at(opener, closing[opener], enclosing)
        return self._joined_lists[opener]

    def _items(self, enclosing: list[int]) -> dict[int, list[int]]:
        """Each bracket's own literals by its opener offset, grouped in one pass: nested
        joined lists read no literal twice."""
        if self._items_of is None:
            items: dict[int, list[int]] = {}
            for index, opener in enumerate(enclosing):
                items.setdefault(opener, []).append(index)
            self._items_of = items
        return self._items_of

    def _joined_at(self, opener: int, closer: int, enclosing: list[int]) -> JoinedList | None:
        masked = self.text.masked
        if masked[opener] != "[" or not masked.startswith(_JOIN, closer + 1):
            return None
        starts = self.string_starts()
        first = bisect_right(starts, opener)
        last = bisect_right(starts, closer) - 1
        # The items' own literals, a line each; a nested literal (``ShaderChunk["fog"]``)
        # names a piece of the program, not its text.
        items = self._items(enclosing)[opener]
        body = self.body_reader(len(items))
        return JoinedList(first, last, "\n".join(map(body, items)))

    def mapping_key(self, index: int) -> bool:
        """Whether literal ``index`` is a key of a mapping written in place (``dict_key``)."""
        return dict_key(self.text.masked, *self.text.lexed.strings[index])

    def empty(self, index: int) -> bool:
        """Whether literal ``index`` holds nothing (``preamble=""``): no line of code."""
        start, end = self.text.lexed.strings[index]
        return end - start <= 8 and not string_body(self.text.lexed.text[start:end])

    def option(self, index: int) -> bool:
        """Whether literal ``index`` is one compiler option on one line (``'-O3'``,
        ``'-I%s' % root``, ``"--use_fast_math"``): no kernel's source opens with a dash."""
        start, end = self.text.lexed.strings[index]
        if end - start > _OPTION_REACH:
            return False
        token = self.text.lexed.text[start:end]
        return token.lstrip("bBrRuUfF")[1:2] == "-" and "\n" not in token

    def reference(self, index: int) -> int:
        """Whether literal ``index``, on one line, names the program rather than holding it:
        ``REFERENCE`` for a file's name (``'kernels/scale.cu'``) or the value of ``backend=``,
        ``path=`` or ``name_expressions=`` (CuPy's ``RawModule(code=src, backend='nvrtc')``);
        ``NAME`` for one name (``'scale_kernel'``) or a ``name=`` value, the kernel's name beside
        its source; 0 for anything else."""
        start, end = self.text.lexed.strings[index]
        if end - start > _OPTION_REACH:
            return 0
        token = self.text.lexed.text[start:end]
        if "\n" in token:
            return 0
        body = string_body(token.lstrip("bBrRuUfF"))
        if _FILE_NAME.fullmatch(body):
            return REFERENCE
        masked = self.text.masked
        reach = max(0, start - _REFERENCE_REACH)
        line_start = masked.rfind("\n", reach, start) + 1 or reach
        keyword = _REFERENCE_KEYWORD.search(masked, line_start, start)
        if keyword is not None and keyword.group(1) != "name":
            return REFERENCE
        return NAME if keyword is not None or _ONE_NAME.fullmatch(body) else 0

    def assigned_strings(self, names: set[str]) -> list[Span]:
        """The lines of every statement assigning one of ``names`` a string literal
        (``SRC = r'''...'''``) or appending one to it (``SRC += f'''...'''``): code
        that builds a kernel's source piece by piece (rapidsai/cucim's regionprops kernels)
        hands it all to the call. So are the pieces named after one of them (``source_pre``,
        ``source_post`` for ``source``), which helper functions build and return for the
        caller to join. Other assignments cost a set lookup per underscore in their name."""
        starts = set(self.string_starts())
        masked = self.text.masked
        assigned: list[Span] = []
        covered = 0  # the last line of the statement last taken
        for m in _ASSIGN.finditer(masked):
            name = m.group(1)
            while name not in names and (cut := name.rfind("_")) > 0:
                name = name[:cut]
            if name not in names:
                continue
            value = m.end()
            # A string prefix (r, b, f, rb...) is code before the literal's first quote; a
            # bracket is not one: a list of strings (``input_names=["x", "signs"]``, a keyword
            # argument to a wrapper of the call) names the kernel's buffers, not its source.
            if value in starts or any(
                value + n in starts and masked[value : value + n].isalpha() for n in (1, 2)
            ):
                line = self.text.line_of(m.start())
                if line <= covered:
                    # Inside the statement taken before (its brackets still open): no
                    # statement of its own. Each line is read for one statement, not for
                    # every assignment above it that a bracket left open.
                    continue
                last = covered = self.lines.statement_last(line)
                first_literal = bisect_left(self.string_starts(), value)
                if self.empty(first_literal):  # a parameter's default, ``preamble=""``
                    continue
                assigned.append((line, self._before_mapping(first_literal, last)))
        return assigned

    def _before_mapping(self, first: int, last: int) -> int:
        """The statement's last line ``last``, or the line before a mapping written in it
        after its literals (``SRC = r"..." % {"name": name}``): the values formatted
        into the source are no part of it."""
        strings, text = self.text.lexed.strings, self.text
        stop = text.starts[last] if last < len(text.starts) else len(text.masked)
        index = first
        while index < len(strings) and strings[index][0] < stop:
            if self.mapping_key(index):
                return max(
                    text.line_of(strings[index - 1][1] - 1), text.line_of(strings[index][0]) - 1
                )
            index += 1
        return last

    def argument_end(self, pos: int, value: bool) -> int:
        """Offset closing the call whose arguments start at ``pos`` or, for ``value``, ending
        the one argument value starting there (``name=<value>``, up to its comma).

        Commas only end a value, so a call's arguments are read bracket by bracket: the
        regex skips its commas at C speed, and ``_ARGUMENT_SCAN`` bounds the brackets read.
        """
        masked = self.text.masked
        search = (_VALUE_TOKENS if value else _CALL_TOKENS).search  # one-character tokens
        depth = count = 0
        m = search(masked, pos)
        while m is not None:
            ch = m.group()
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
            if depth < 0 or (depth == 0 and ch == ",") or count > _ARGUMENT_SCAN:
                return m.start()
            count += 1
            m = search(masked, m.end())
        return len(masked)


def _device_kind(body: str) -> str:
    """The device kind a stripped, lower-cased literal body names (``cuda:0``,
    ``cudaexecutionprovider``), or ""."""
    kind = _DEVICE_KIND.match(body)
    if kind is None:
        return ""
    device, provider, collective = kind.groups()
    return device or _PROVIDER_KIND.get(provider or collective, provider)


def string_body(token: str) -> str:
    """The characters between a string literal's quotes, without raw fences or prefixes."""
    if token.startswith("<<"):  # a heredoc: the lines between its opening and closing lines
        return token[token.find("\n") + 1 : token.rfind("\n") + 1] if "\n" in token else ""
    if token.startswith('R"'):
        return token[token.find("(") + 1 : token.rfind(")")]
    if token[0] in "br":  # Rust byte and raw strings: b"..", r#".."#, br".."
        token = token.lstrip("br")
        fence = len(token) - len(token.lstrip("#"))
        closed = token.endswith('"' + "#" * fence)
        token = token[fence : len(token) - fence] if closed else token[fence:]
    quote = 3 if token[:3] in ('"""', "'''") else 1
    body = token[quote:]
    return body[:-quote] if body.endswith(token[:quote]) else body
