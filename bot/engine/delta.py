"""The change between two versions of files, in code lines per layer.

Which lines changed comes from git's own line diff wherever one exists (a PR file's
``patch``, ``git diff -U0``); ``changed_lines`` is the fallback when only the two texts
are at hand. Which layer a changed line is in comes from the engine's FileReports: added
lines take the layer they have in the new version, removed lines the one they had in the
old version, and lines that are not code (blank, comment) are not counted.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from dataclasses import replace as dataclass_replace

from unidiff import PatchSet
from unidiff.errors import UnidiffParseError

from bot.engine import markers, notebooks
from bot.engine.languages import LANGUAGES
from bot.engine.lexer import lex
from bot.engine.model import (
    NON_PORTABLE,
    FileReport,
    Finding,
    Ignored,
    Layer,
    MarkerProblem,
    Rule,
    not_counted,
    zero_layers,
)


@dataclass(slots=True)
class FileDelta:
    """The change to one file between two versions, in code lines.

    A line is added when it is in the new version and not in the old, as git counts it (a
    modified line is one removed and one added); added lines take the layer they have in
    the new version, removed lines the layer they had in the old one.
    """

    path: str
    status: str  # "added" | "removed" | "modified" | "renamed"
    old_path: str | None = None
    added: dict[Layer, int] = field(default_factory=zero_layers)
    removed: dict[Layer, int] = field(default_factory=zero_layers)
    added_ecosystems: dict[str, int] = field(default_factory=dict)
    removed_ecosystems: dict[str, int] = field(default_factory=dict)
    # Added non-portable ranges in the new version, one per contiguous run of one rule.
    added_ranges: list[Finding] = field(default_factory=list)
    # Non-portable lines per rule id: those added and removed, and each whole version's. The
    # gate pairs a changed line with a removed one of its rule, sees an ecosystem new to the
    # file, and measures the file against a recorded baseline.
    added_rules: dict[str, int] = field(default_factory=dict)
    removed_rules: dict[str, int] = field(default_factory=dict)
    old_rules: dict[str, int] = field(default_factory=dict)
    new_rules: dict[str, int] = field(default_factory=dict)
    # Added non-portable lines that replace, in the same hunk, a removed line of the same
    # rule (an edit that keeps its rule): what not to point at as new lock-in.
    kept_lines: list[int] = field(default_factory=list)
    # Ecosystems whose added lines hold no code the removed ones did not (a reformat that
    # spreads the same code over more lines): known only when both texts were at hand.
    reflowed: list[str] = field(default_factory=list)
    # Per ecosystem: added vendor-path lines that are a line the old version held under the
    # same rule with another version number (CUDA 13.1 listed beside 13.0): one more version
    # of a dependency the file already had, known only when both texts were at hand.
    versioned: dict[str, int] = field(default_factory=dict)
    # The stripped text of the non-portable lines removed and added, per rule id (known when
    # the texts were at hand): the gate tells code moved between files from new code.
    removed_code: dict[str, list[str]] = field(default_factory=dict)
    added_code: dict[str, list[str]] = field(default_factory=dict)
    skipped: str | None = None  # "binary", "too-large", ...: not counted
    generated: bool = False  # either version looks machine-generated
    # Added lines inline markers took out (counted as portable in ``added``), one entry per
    # marker clipped to the added lines; and markers on added lines that ignored nothing.
    ignored: list[Ignored] = field(default_factory=list)
    marker_problems: list[MarkerProblem] = field(default_factory=list)

    @property
    def added_non_portable(self) -> int:
        return sum(self.added[layer] for layer in NON_PORTABLE)

    @property
    def removed_non_portable(self) -> int:
        return sum(self.removed[layer] for layer in NON_PORTABLE)


@dataclass(slots=True)
class ChangeDelta:
    """The change between two trees (a PR, or ``lockin diff BASE HEAD``)."""

    files: list[FileDelta]
    skipped_files: int = 0

    def not_counted(self) -> list[tuple[str, str]]:
        """(path, why) of the files the engine gave up on: a change it cannot judge."""
        return not_counted((f.path, f.skipped) for f in self.files)

    def added(self) -> dict[Layer, int]:
        return _sum_layers(f.added for f in self.files)

    def removed(self) -> dict[Layer, int]:
        return _sum_layers(f.removed for f in self.files)

    def ignored_lines(self) -> int:
        """Added lines inline markers took out of their layer."""
        return sum(i.lines for f in self.files for i in f.ignored)


def _sum_layers(parts) -> dict[Layer, int]:
    total = zero_layers()
    for part in parts:
        for layer, n in part.items():
            total[layer] += n
    return total


#: Lines added and removed: 1-based line numbers in the new and in the old version.
LineChanges = tuple[list[int], list[int]]

# GitHub's per-file `patch` starts at the first hunk; unidiff wants file headers.
_HEADERS = "--- a/file\n+++ b/file\n"


def _patch_lines(patched_file) -> LineChanges:
    added: list[int] = []
    removed: list[int] = []
    for hunk in patched_file:
        for line in hunk:
            if line.is_added:
                added.append(line.target_line_no)
            elif line.is_removed:
                removed.append(line.source_line_no)
    return added, removed


def changed_lines_from_patch(patch: str) -> LineChanges:
    """Added and removed line numbers of one file's unified diff.

    Accepts GitHub's ``patch`` field (hunks only) as well as a diff with file headers.
    Raises ``ValueError`` when the text is not a unified diff.
    """
    if not patch.strip():
        return [], []
    text = patch if patch.startswith(("--- ", "diff ")) else _HEADERS + patch
    try:
        patch_set = PatchSet(text)
    except UnidiffParseError as exc:
        raise ValueError(f"not a unified diff: {exc}") from None
    added: list[int] = []
    removed: list[int] = []
    for patched_file in patch_set:
        file_added, file_removed = _patch_lines(patched_file)
        added += file_added
        removed += file_removed
    return added, removed


def changed_lines_by_file(
    diff: str, old_prefix: str = "a/", new_prefix: str = "b/"
) -> dict[str, LineChanges]:
    """Per path: the lines of a multi-file git diff made with ``-U0``.

    Without context lines every hunk header states its lines exactly, so only headers are
    parsed (unidiff's metadata mode, several times faster and lighter on a diff of
    thousands of files). Keys are the new path (the old one for a deletion) without
    git's prefixes. Raises ``ValueError`` when the text is not a unified diff.
    """
    try:
        patch_set = PatchSet(diff, metadata_only=True)
    except UnidiffParseError as exc:
        raise ValueError(f"not a unified diff: {exc}") from None
    out: dict[str, LineChanges] = {}
    for patched_file in patch_set:
        # Not `is_removed_file`: unidiff also says so of a file emptied to zero lines.
        if patched_file.target_file == "/dev/null":
            path = unquote_path(patched_file.source_file).removeprefix(old_prefix)
        else:
            path = unquote_path(patched_file.target_file).removeprefix(new_prefix)
        added: list[int] = []
        removed: list[int] = []
        for hunk in patched_file:
            removed.extend(range(hunk.source_start, hunk.source_start + hunk.source_length))
            added.extend(range(hunk.target_start, hunk.target_start + hunk.target_length))
        out[path] = (added, removed)
    return out


_ESCAPES = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}
_QUOTED = re.compile(r"\\([0-7]{3}|.)")


def unquote_path(path: str) -> str:
    """A path as git wrote it in a diff header, C-quoted when it holds a tab, a newline,
    a quote or a backslash (or, without core.quotePath=false, any non-ASCII byte)."""
    if len(path) < 2 or not (path.startswith('"') and path.endswith('"')):
        return path
    out = bytearray()
    pos = 0
    body = path[1:-1]
    for match in _QUOTED.finditer(body):
        out += body[pos : match.start()].encode("utf-8", "surrogateescape")
        code = match.group(1)
        out.append(int(code, 8) if len(code) == 3 else _ESCAPES.get(code, ord(code[0])))
        pos = match.end()
    out += body[pos:].encode("utf-8", "surrogateescape")
    return out.decode("utf-8", "surrogateescape")


def _lines(text: str) -> list[str]:
    # Lines end at "\n" only, as git and the engine count them (not str.splitlines, which
    # also breaks at \r, form feeds and other separators).
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


_WORD_CHARS = re.compile(r"\w")
_WORDS = re.compile(r"\w+")

#: Lines x lines of the changed middle that difflib may match: its matching is cubic in the
#: worst case (2,000 repetitive lines: 25 s of CPU), and both texts come from a pull request.
MAX_DIFF_CELLS = 160_000


def changed_lines(old: str, new: str) -> LineChanges:
    """Added and removed lines between two texts, for when git's diff is not available.

    An approximation of git's diff. The common head and tail are set aside; a middle of
    at most MAX_DIFF_CELLS line pairs is matched by difflib, which finds a longest common
    subsequence like git's Myers diff does but may pair ambiguous lines (repeated braces,
    blank lines) differently, so single lines can be attributed to a neighbouring position.
    A larger middle is compared as multisets of lines, in linear time: a line is added when
    the new middle holds it more often than the old one (its last copies), removed in the
    opposite case, so counts of changed lines agree with a diff's on moves and edits alike.
    """
    old_lines, new_lines = _lines(old), _lines(new)
    head = 0
    limit = min(len(old_lines), len(new_lines))
    while head < limit and old_lines[head] == new_lines[head]:
        head += 1
    tail = 0
    while tail < limit - head and old_lines[-1 - tail] == new_lines[-1 - tail]:
        tail += 1
    old_mid = old_lines[head : len(old_lines) - tail]
    new_mid = new_lines[head : len(new_lines) - tail]
    if len(old_mid) * len(new_mid) > MAX_DIFF_CELLS:
        added, removed = _surplus(new_mid, old_mid), _surplus(old_mid, new_mid)
    else:
        added, removed = [], []
        matcher = difflib.SequenceMatcher(None, old_mid, new_mid, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag in ("replace", "delete"):
                removed.extend(range(i1, i2))
            if tag in ("replace", "insert"):
                added.extend(range(j1, j2))
    return [head + 1 + j for j in added], [head + 1 + i for i in removed]


def _surplus(lines: list[str], other: list[str]) -> list[int]:
    """Indexes of the copies of each line that ``lines`` holds beyond ``other``'s count."""
    spare = Counter(lines)
    spare.subtract(Counter(other))
    out: list[int] = []
    for index in range(len(lines) - 1, -1, -1):
        if spare[lines[index]] > 0:
            spare[lines[index]] -= 1
            out.append(index)
    return out[::-1]


def _count(
    report: FileReport,
    lines: Iterable[int],
    rules: Mapping[str, Rule],
    layers: dict[Layer, int],
    ecosystems: dict[str, int],
    by_rule: dict[str, int],
) -> None:
    line_rules = report.line_rules
    for number in lines:
        if not 0 < number <= len(line_rules):
            continue
        rule_id = line_rules[number - 1]
        if rule_id is None:
            continue
        rule = rules.get(rule_id) if rule_id else None
        if rule is None:
            layers[Layer.PORTABLE] += 1
            continue
        layers[rule.layer] += 1
        ecosystems[rule.ecosystem] = ecosystems.get(rule.ecosystem, 0) + 1
        if rule.layer != Layer.PORTABLE:
            by_rule[rule.id] = by_rule.get(rule.id, 0) + 1


def _rule_lines(report: FileReport, rules: Mapping[str, Rule]) -> dict[str, int]:
    """Non-portable lines per rule in the whole of one version."""
    counts = Counter(r for r in report.line_rules if r)
    return {
        rule_id: n
        for rule_id, n in counts.items()
        if rule_id in rules and rules[rule_id].layer != Layer.PORTABLE
    }


def _added_ranges(
    report: FileReport, added: Sequence[int], rules: Mapping[str, Rule]
) -> list[Finding]:
    """Contiguous runs of added non-portable lines owned by one rule.

    Added non-code lines (a comment inside a new kernel) do not break a run; a line that
    was not added, or belongs to another rule, does.
    """
    ranges: list[Finding] = []
    line_rules = report.line_rules
    current: str | None = None
    start = end = previous = 0
    for number in sorted(added):
        if not 0 < number <= len(line_rules):
            continue
        rule_id = line_rules[number - 1]
        if rule_id is None and current and number == previous + 1:
            previous = number  # a non-code line inside the run
            continue
        if current and (rule_id != current or number != previous + 1):
            ranges.append(_finding(rules[current], start, end))
            current = None
        if rule_id and rule_id in rules and rules[rule_id].layer != Layer.PORTABLE:
            if current is None:
                current, start = rule_id, number
            end = number
        previous = number
    if current:
        ranges.append(_finding(rules[current], start, end))
    return ranges


def _runs(lines: Sequence[int]) -> list[tuple[int, int]]:
    """Sorted line numbers as maximal runs of consecutive lines: (first, count)."""
    runs: list[tuple[int, int]] = []
    for number in sorted(lines):
        if runs and number == runs[-1][0] + runs[-1][1]:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((number, 1))
    return runs


def hunks(added: Sequence[int], removed: Sequence[int]) -> list[tuple[list[int], list[int]]]:
    """The hunks of a ``-U0`` diff rebuilt from its line numbers: (removed, added) lines of
    each, one side empty for a pure insertion or deletion. A removed run and an added run
    are one hunk when the added lines start where the removed ones stood."""
    out: list[tuple[list[int], list[int]]] = []
    old_runs, new_runs = _runs(removed), _runs(added)
    i = j = offset = 0  # offset: new line number minus old, for unchanged lines
    while i < len(old_runs) or j < len(new_runs):
        old = old_runs[i] if i < len(old_runs) else None
        new = new_runs[j] if j < len(new_runs) else None
        if old and new and new[0] == old[0] + offset:
            out.append((list(range(old[0], sum(old))), list(range(new[0], sum(new)))))
            offset += new[1] - old[1]
            i, j = i + 1, j + 1
        elif old and (new is None or old[0] + offset < new[0]):
            out.append((list(range(old[0], sum(old))), []))
            offset -= old[1]
            i += 1
        else:
            assert new is not None
            out.append(([], list(range(new[0], sum(new)))))
            offset += new[1]
            j += 1
    return out


def _kept(
    old: FileReport, new: FileReport, added: Sequence[int], removed: Sequence[int]
) -> list[int]:
    """Added lines that replace a removed line of the same rule in their hunk."""
    kept: list[int] = []
    for gone, came in hunks(added, removed):
        if not gone or not came:
            continue
        spare = Counter(_rule_at(old, n) for n in gone)
        for number in came:
            rule_id = _rule_at(new, number)
            if rule_id and spare[rule_id] > 0:
                spare[rule_id] -= 1
                kept.append(number)
    return kept


def _code(
    report: FileReport, text: str, numbers: Sequence[int], rules: Mapping[str, Rule]
) -> dict[str, list[str]]:
    """The stripped text of the non-portable lines among ``numbers``, per rule id."""
    code: dict[str, list[str]] = {}
    text_lines = _lines(text)
    # A notebook's line is JSON: compared by the code it holds (a kernel moved into a cell).
    read = notebooks.source_line if report.language == notebooks.LANGUAGE else str
    for number in numbers:
        rule_id = _rule_at(report, number)
        rule = rules.get(rule_id) if rule_id else None
        if rule is None or rule.layer == Layer.PORTABLE or number > len(text_lines):
            continue
        code.setdefault(rule.id, []).append(read(text_lines[number - 1]).strip())
    return code


def _reflowed(
    removed: Mapping[str, list[str]],
    added: Mapping[str, list[str]],
    rules: Mapping[str, Rule],
    judged: Iterable[str] | None = None,
) -> list[str]:
    """Ecosystems whose added non-portable lines hold no letter, digit or underscore beyond
    those of the removed ones: clang-format or ruff spreading the same code over more
    lines, adding trailing commas and parentheses, or reordering it, adds no lock-in; new
    code always brings names or numbers of its own. ``judged``: the ecosystems to judge
    (by default those ``added`` holds), one with no added line here holding nothing new."""
    code: list[dict[str, Counter[str]]] = [{}, {}]  # removed, added: ecosystem -> characters
    for side, by_rule in enumerate((removed, added)):
        for rule_id, lines in by_rule.items():
            chars = code[side].setdefault(rules[rule_id].ecosystem, Counter())
            for line in lines:
                chars.update(_WORD_CHARS.findall(line))
    lost, gained = code
    names = gained if judged is None else judged
    return sorted(
        name for name in names if not gained.get(name, Counter()) - lost.get(name, Counter())
    )


def _reworded(
    texts: tuple[str, str],
    added: Sequence[int],
    removed: Sequence[int],
    languages: tuple[str | None, str | None],
) -> tuple[set[int], set[int]]:
    """The removed and the added lines of the hunks that only reformat: the hunk's added
    lines hold, word for word and in order, the words its removed lines held, comments left
    out (a call that was commented out is new code). Which of a statement's lines the engine
    places in a vendor's layer may shift when black or clang-format rewraps it (``x = (``
    then ``cupy.f(a) or``, as ``x = cupy.f(`` then ``a) or``), so the hunk is compared whole,
    whatever layer each line is in."""
    sides = (_without_comments(texts[0], languages[0]), _without_comments(texts[1], languages[1]))
    gone: set[int] = set()
    came: set[int] = set()
    if sides[0] is None or sides[1] is None:
        return gone, came
    for old_lines, new_lines in hunks(added, removed):
        if not old_lines or not new_lines:
            continue
        words = [
            [w for n in numbers if n <= len(lines) for w in _WORDS.findall(lines[n - 1])]
            for numbers, lines in ((old_lines, sides[0]), (new_lines, sides[1]))
        ]
        if words[0] == words[1]:
            gone.update(old_lines)
            came.update(new_lines)
    return gone, came


def _without_comments(text: str, language: str | None) -> list[str] | None:
    """The lines of ``text`` with its comments (and docstrings) blanked and its string
    literals kept, a raw kernel's text among them; None for a language the engine does not
    lex line by line (a notebook's lines are JSON)."""
    lang = LANGUAGES.get(language or "")
    if lang is None or language == notebooks.LANGUAGE:
        return None
    lexed = lex(text, lang.family)
    pieces: list[str] = []
    at = 0
    for start, end in lexed.strings:
        pieces += (lexed.masked[at:start], text[start:end])
        at = end
    pieces.append(lexed.masked[at:])
    return _lines("".join(pieces))


def _rule_at(report: FileReport, number: int) -> str | None:
    return report.line_rules[number - 1] if 0 < number <= len(report.line_rules) else None


def _finding(rule: Rule, start: int, end: int) -> Finding:
    return Finding(rule.id, rule.layer, rule.ecosystem, start, end)


def file_delta(
    path: str,
    old: FileReport | None,
    new: FileReport | None,
    added: Sequence[int],
    removed: Sequence[int],
    *,
    status: str,
    old_path: str | None = None,
    include_generated: bool = True,
    rules: Mapping[str, Rule] | None = None,
    markers_allowed: bool = True,
    texts: tuple[str, str] | None = None,
) -> FileDelta:
    """The change to one file.

    ``old``/``new`` are the engine's reports of the two versions (``None`` when the file
    does not exist on that side); ``added``/``removed`` are the changed line numbers (from
    a patch, ``git diff`` or ``changed_lines``). A side the engine skipped (binary, too
    large) makes the whole file skipped: it is reported, not counted; so does a
    generated file (template instantiations...) when ``include_generated`` is false.
    Lines inline markers took out count as portable and are listed in ``ignored``; with
    ``markers_allowed=False`` they count in their layer and the markers are problems.
    ``texts`` (old, new; "" for a side not at hand), when given, tell a reformat from new
    code (``reflowed``) and keep the changed non-portable lines' text (``added_code``,
    ``removed_code``) by which the gate tells code moved between files from new code.
    """
    if rules is None:
        from bot.engine import RULES  # late, as in Census: the registry loads its rule files

        rules = RULES
    delta = FileDelta(path=path, status=status, old_path=old_path)
    sides = [r for r in (new, old) if r is not None]
    skipped = next((r.skipped for r in sides if r.skipped), None)
    if not skipped and not include_generated and any(r.generated for r in sides):
        skipped = "generated"
    if skipped:
        delta.skipped = skipped
        return delta
    if new is not None:
        delta.ignored, delta.marker_problems = _markers_on(new, added, markers_allowed)
        if not markers_allowed:
            new = dataclass_replace(new, line_rules=markers.restored(new))
        _count(new, added, rules, delta.added, delta.added_ecosystems, delta.added_rules)
        delta.added_ranges = _added_ranges(new, added, rules)
        delta.new_rules = _rule_lines(new, rules)
    if old is not None:
        if not markers_allowed:
            old = dataclass_replace(old, line_rules=markers.restored(old))
        _count(old, removed, rules, delta.removed, delta.removed_ecosystems, delta.removed_rules)
        delta.old_rules = _rule_lines(old, rules)
    if texts is not None:
        if old is not None and texts[0]:
            delta.removed_code = _code(old, texts[0], removed, rules)
        if new is not None and texts[1]:
            delta.added_code = _code(new, texts[1], added, rules)
    if old is not None and new is not None and delta.added_rules and delta.removed_rules:
        delta.kept_lines = _kept(old, new, added, removed)
        if texts is not None and texts[0] and texts[1]:
            delta.reflowed = _reflowed(delta.removed_code, delta.added_code, rules)
            gone, came = _reworded(texts, added, removed, (old.language, new.language))
            if came:
                # Lines of reformatted hunks add nothing: the rest is judged on its own.
                rest = [n for n in added if n not in came]
                judged = {rules[rule_id].ecosystem for rule_id in delta.added_code}
                delta.reflowed = sorted(
                    {
                        *delta.reflowed,
                        *_reflowed(
                            _code(old, texts[0], [n for n in removed if n not in gone], rules),
                            _code(new, texts[1], rest, rules),
                            rules,
                            judged,
                        ),
                    }
                )
    if old is not None and new is not None and texts is not None and texts[0] and texts[1]:
        delta.versioned = _versioned(old, new, texts, added, delta.kept_lines, rules)
    return delta


# A version number: dotted digits (12.1, 13.0.2), or the digits of a CUDA or ROCm wheel tag
# (cu121, rocm6.2). Dotted digits inside a word or a longer dotted run are not one.
_VERSION = re.compile(
    r"(?<![\w.])\d+(?:\.\d+)+(?![\w.])|(?<=\bcu)\d{2,3}\b|(?<=\brocm)\d+(?:\.\d+)*"
)


def adds_a_version(patch: str) -> bool:
    """Whether a unified diff adds a line holding a version number: the old version is then
    needed to tell one more version of a dependency the file held from a new one."""
    return any(
        line.startswith("+") and not line.startswith("+++") and _VERSION.search(line)
        for line in patch.splitlines()
    )


def _versioned(
    old: FileReport,
    new: FileReport,
    texts: tuple[str, str],
    added: Sequence[int],
    kept: Sequence[int],
    rules: Mapping[str, Rule],
) -> dict[str, int]:
    """Per ecosystem: added vendor-path lines (not edits keeping their rule) that hold a
    version number and are, with their version numbers masked, a line the old version held
    under the same rule: a dependency matrix gaining CUDA 13.1 beside 13.0, a requirements
    file gaining the cu121 wheel index beside cu118. The file depended on that vendor
    before; one more version of the same dependency adds no lock-in. Kernel lines are never
    versions of each other."""
    candidates: list[tuple[Rule, str]] = []
    new_lines = _lines(texts[1])
    skip = set(kept)
    for number in added:
        rule_id = _rule_at(new, number)
        rule = rules.get(rule_id) if rule_id else None
        if rule is None or rule.layer != Layer.VENDOR_PATH or number in skip:
            continue
        line = new_lines[number - 1].strip() if number <= len(new_lines) else ""
        masked, versions = _VERSION.subn("#", line)
        if versions:
            candidates.append((rule, masked))
    if not candidates:
        return {}
    held: set[tuple[str, str]] = set()
    for number, line in enumerate(_lines(texts[0]), 1):
        held_rule = rules.get(_rule_at(old, number) or "")
        if held_rule is not None and held_rule.layer == Layer.VENDOR_PATH:
            masked, versions = _VERSION.subn("#", line.strip())
            if versions:
                held.add((held_rule.id, masked))
    versioned: Counter[str] = Counter(
        rule.ecosystem for rule, masked in candidates if (rule.id, masked) in held
    )
    return dict(versioned)


def _markers_on(
    report: FileReport, added: Sequence[int], allowed: bool
) -> tuple[list[Ignored], list[MarkerProblem]]:
    """What the markers of ``report`` did to the added lines, and the markers on them that
    did nothing (with markers not allowed: every marker that would have taken lines out)."""
    if not report.ignored and not report.marker_problems:
        return [], []
    new_lines = set(added)
    ignored = []
    for i in report.ignored:
        taken = [
            n
            for n in range(i.start_line, i.end_line + 1)
            if n in new_lines and report.ignored_lines.get(n) == i.rule
        ]
        if taken:
            ignored.append(
                dataclass_replace(i, start_line=taken[0], end_line=taken[-1], lines=len(taken))
            )
    problems = [
        p
        for p in report.marker_problems
        if p.line in new_lines or any(n in new_lines for n in range(p.start_line, p.end_line + 1))
    ]
    if not allowed:
        return [], problems + markers.not_allowed(ignored)
    return ignored, problems


def change_delta(files: Iterable[FileDelta]) -> ChangeDelta:
    """All files of a change, in path order, with the count of skipped ones."""
    ordered = sorted(files, key=lambda f: f.path)
    return ChangeDelta(files=ordered, skipped_files=sum(1 for f in ordered if f.skipped))


def ecosystem_totals(change: ChangeDelta) -> tuple[dict[str, int], dict[str, int]]:
    """Non-portable lines added and removed per ecosystem over all files of a change."""
    added: Counter[str] = Counter()
    removed: Counter[str] = Counter()
    for f in change.files:
        added.update(f.added_ecosystems)
        removed.update(f.removed_ecosystems)
    return dict(added), dict(removed)
