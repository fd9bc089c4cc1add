"""Which added lines the gate counts: growth, not touch.

By default (``gate: growth``) a file's added lines count only as far as they grow the file's
non-portable code, per ecosystem and in the gated layers: lines added net of the lines of
the same ecosystem removed from the same file. An edited line that keeps its rule is one
removed and one added; it is reported as changed and counts for nothing. An ecosystem the
file did not hold before (HIP code in a CUDA file, CUDA in a new file) counts in full,
because nothing was removed there to net against. Lines another file of the change removed,
word for word, are code moved between files (a kernel split into several files, a folder
reorganised): they count in neither file. A file deleted and added again nearly unchanged
elsewhere, which rename detection did not pair (git's rename limit on a large change, or
edits past its similarity threshold), is judged as if it had been edited in place: when at
least half of the new file's gated lines are the old file's word for word, its other added
lines net against the old file's other removed lines, ecosystem by ecosystem. What is left
after that nets across the change: the lines of an ecosystem files of the change lost and
nothing took (files folded into one and rewritten, a folder reorganised with edits) offset
the growth other files are left with, so a change grows an ecosystem's lock-in only by what
it adds past what it removes. Lines that
only name source files (a CUDAExtension's or a CUDA target's source list) are no growth: the
lines of the files they name are counted in those files, and listing one more file in an
extension that already builds with nvcc adds no lock-in the file itself does not bring. A
portability header that defines the same neutral names for two or more vendors (``#define
gpuMalloc cudaMalloc`` under one ``#if`` branch, ``#define gpuMalloc hipMalloc`` under the
other) is no growth either: its aliases, vendor includes and switches are vendor-path lines
in the census, where a port to another vendor adds a branch, but the change that adds them
moves the code calling the neutral names off a single vendor. A vendor-path line that is
a line the file held with another version number (``cuda-version=13.1`` listed beside
``cuda-version=13.0``, the ``cu121`` wheel index beside ``cu118``) is one more
version of a dependency the file already had, and no growth. ``gate: strict`` counts every
added line, as a touch-based gate does.

A baseline (bot/policy/baseline.py) records a file's lines per ecosystem; only lines past
the recorded figure count, so a team can require the check on a codebase that already holds
lock-in nobody decided on.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from bot.engine import RULES
from bot.engine.delta import FileDelta
from bot.engine.model import Finding, Layer


@dataclass(frozen=True)
class EcosystemLines:
    """One ecosystem's gated lines in one file, and how many of them count."""

    ecosystem: str
    added: int  # gated lines added
    removed: int  # gated lines removed
    changed: int  # added lines paired with a removed line of the same rule
    counted: int  # lines the gate counts
    new: bool  # the file held no gated line of this ecosystem before (or did not exist)
    baseline: int | None = None  # lines the baseline records here; None: not recorded
    reflowed: bool = False  # the added lines hold no code the removed ones did not
    moved: int = 0  # added lines another file of the change removed word for word
    listed: int = 0  # added lines that only name source files (a build's source list)
    #: Added lines of a portability header: aliases defined for several vendors, and its
    #: vendor includes and switches.
    aliased: int = 0
    #: Added lines netted against the removed lines of the file this one moved from.
    rewritten: int = 0
    moved_from: str | None = None  # that file's path
    #: Added vendor-path lines that are a line the file held with another version number.
    versioned: int = 0
    #: Removed lines that net nothing here: no added line of this file and no move took
    #: them. They offset the growth other files of the change are left with (``net_across``).
    spare: int = 0
    #: Added lines netted against other files' spare removed lines.
    offset: int = 0

    @property
    def why(self) -> str:
        """Why ``counted`` lines count, or why none do: one clause for people."""
        name = self.ecosystem
        if self.new and self.counted:
            head = f"brings {name} into the file: {self.counted} new line{_s(self.counted)}"
            # What the other added lines were, so the figure can be checked against them.
            besides = [
                f"{self.moved} moved from other files" if self.moved else "",
                f"{self.offset} offset by {name} lines other files of the change lose"
                if self.offset
                else "",
            ]
            return f"{head} ({', '.join(b for b in besides if b)})" if any(besides) else head
        parts = [f"+{self.added} −{self.removed} {name}"]
        if self.changed:
            parts.append(f"{self.changed} changed keeping their rule")
        if self.moved:
            parts.append(f"{self.moved} moved from other files")
        if self.rewritten:
            parts.append(f"{self.rewritten} edited in the move from {self.moved_from}")
        if self.listed:
            parts.append(f"{self.listed} naming source files")
        if self.aliased:
            parts.append(f"{self.aliased} in a header aliasing several vendors")
        if self.versioned:
            parts.append(f"{self.versioned} another version of a dependency the file held")
        if self.offset:
            parts.append(f"{self.offset} offset by {name} lines other files of the change lose")
        if self.reflowed:
            parts.append("the same code reformatted")
        if self.baseline is not None:
            parts.append(f"baseline {self.baseline}")
        if not self.counted:
            return f"{', '.join(parts)}: no growth"
        return f"{', '.join(parts)}: {self.counted} line{_s(self.counted)} of growth"


@dataclass(frozen=True)
class FileLines:
    """A file's gated lines under the policy's counting."""

    path: str
    added: int  # gated lines added, every one
    removed: int
    changed: int  # added lines that replace a removed line of the same rule
    counted: int  # lines the gate counts
    ecosystems: tuple[EcosystemLines, ...]  # those with gated lines added or removed
    #: Added ranges (in the gated layers) of the ecosystems whose lines count, less the
    #: lines that replace one of their rule in the same hunk: where to point.
    ranges: tuple[Finding, ...]

    @property
    def why(self) -> str:
        """Which lines count and why, for the renderers."""
        return "; ".join(e.why for e in self.ecosystems if e.added)


@dataclass
class Moved:
    """One file's lines, per ecosystem, moved from or to other files of the change."""

    into: dict[str, int]  # added here, removed word for word from another file
    out: dict[str, int]  # removed here, added word for word to another file
    #: Of a new file that is a deleted one moved (``source``): the deleted file's removed
    #: lines, per ecosystem, that went to no file word for word; the rest of the added
    #: lines net against them, as an edit in place would.
    rewritten: dict[str, int] = field(default_factory=dict)
    source: str | None = None


def moved_lines(files: Sequence[FileDelta], layers: Iterable[Layer]) -> list[Moved]:
    """Per file of the change (in order): its gated lines moved between files. Each removed
    line pairs with at most one added line of its ecosystem in another file. An added file
    whose gated lines are at least half a deleted file's, word for word, is that file moved
    (the one that gave it most of them); the deleted file's lines that went nowhere word for
    word are its edits. Linear in the change's gated lines: no pair of files is compared."""
    gated = set(layers)
    # (ecosystem, text) -> index of a file that removed it -> how many times
    pool: dict[tuple[str, str], dict[int, int]] = {}
    # Per file: its removed gated lines per ecosystem, less its added ones (below).
    wanted: list[Counter[str]] = []
    for index, f in enumerate(files):
        lost: Counter[str] = Counter()
        for ecosystem, text in _gated_code(f.removed_code, gated):
            sources = pool.setdefault((ecosystem, text), {})
            sources[index] = sources.get(index, 0) + 1
            lost[ecosystem] -= 1
        wanted.append(lost)
    moved = [Moved({}, {}) for _ in files]
    given: list[dict[int, int]] = [{} for _ in files]  # per added file: source -> lines
    for index, f in enumerate(files):
        # Only lines the file gains net of its own removals look for a source: a line its
        # own edits already offset took another file's removal too, and that file then
        # counted growth (dflay/gpu f542df3: the same cudaMemcpy line fixed in add.cu and
        # removed from add_vectors.cu, both renamed, failed the gate for one line).
        added = list(_gated_code(f.added_code, gated))
        wanted[index].update(ecosystem for ecosystem, _ in added)
        for ecosystem, text in added:
            if wanted[index][ecosystem] <= 0:
                continue
            removers = pool.get((ecosystem, text), {})
            source = next((i for i, n in removers.items() if n and i != index), None)
            if source is None:
                continue
            removers[source] -= 1
            wanted[index][ecosystem] -= 1
            if not removers[source]:
                del removers[source]  # so the next lookup skips at most this file itself
            into, out = moved[index].into, moved[source].out
            into[ecosystem] = into.get(ecosystem, 0) + 1
            out[ecosystem] = out.get(ecosystem, 0) + 1
            given[index][source] = given[index].get(source, 0) + 1
    _pair_moved_files(files, gated, moved, given)
    return moved


def _pair_moved_files(
    files: Sequence[FileDelta],
    gated: set[Layer],
    moved: list[Moved],
    given: list[dict[int, int]],
) -> None:
    """Pair each added file with the deleted file it is mostly made of (see moved_lines)."""
    taken: set[int] = set()
    for index, f in enumerate(files):
        if f.status != "added" or not given[index]:
            continue
        source, lines = max(given[index].items(), key=lambda item: (item[1], -item[0]))
        added = sum(ecosystem_lines(f.added_rules, gated).values())
        if source in taken or files[source].status != "removed" or 2 * lines < added:
            continue
        taken.add(source)
        left = ecosystem_lines(files[source].removed_rules, gated)
        for ecosystem, n in moved[source].out.items():
            left[ecosystem] = left.get(ecosystem, 0) - n
        moved[index].rewritten = {name: n for name, n in left.items() if n > 0}
        moved[index].source = files[source].path


#: Extensions of the files a build compiles: a source list names them.
_SOURCE_EXTENSIONS = frozenset(
    [
        "cu",
        "cuh",
        "cpp",
        "cc",
        "cxx",
        "c",
        "h",
        "hh",
        "hpp",
        "hxx",
        "inl",
        "hip",
        "cl",
        "metal",
        "m",
        "mm",
        "sycl",
    ]
)
_ITEMS = re.compile(r"[\s,]+")
_PATH = re.compile(r"[\w.$@{}+/-]+")


def _names_sources(layer: Layer, line: str) -> bool:
    """Whether a code line holds nothing but source file names, as a Python or CMake list's
    items do: quoted, or a path with a folder, with a compiled-source extension. Outside
    kernels code has this shape only in a build's source list (a bare ``p.h,`` is a member).
    Token by token, in linear time: the line is a pull request author's."""
    if layer == Layer.KERNEL:
        return False
    items = [item for item in _ITEMS.split(line.strip(" \t[](),")) if item]
    return bool(items) and all(_source_name(item) for item in items)


def _source_name(item: str) -> bool:
    if len(item) > 2 and item[0] == item[-1] and item[0] in "\"'":
        name = item[1:-1]
    elif "/" in item:
        name = item
    else:
        return False
    return (
        _PATH.fullmatch(name) is not None
        and name.rpartition(".")[2] in _SOURCE_EXTENSIONS
        and "." in name
    )


def _listing(code: Mapping[str, list[str]], layers: set[Layer]) -> dict[str, int]:
    """Per ecosystem: gated lines that only name source files."""
    out: dict[str, int] = {}
    for rule_id, lines in code.items():
        rule = RULES.get(rule_id)
        if rule is None or rule.layer not in layers:
            continue
        if n := sum(1 for line in lines if _names_sources(rule.layer, line)):
            out[rule.ecosystem] = out.get(rule.ecosystem, 0) + n
    return out


#: Neutral names a header must define for several vendors before its lines are a
#: portability layer (one pair is a coincidence, or a project's own two-vendor macro).
MIN_PAIRED_ALIASES = 2
_DEFINED = re.compile(r"\#[ \t]*define[ \t]+(\w+)|(?:using|namespace)[ \t]+(\w+)[ \t]*=")
_LAST_NAME = re.compile(r"(\w+)[ \t]*;$")
_DIRECTIVE = re.compile(r"\#[ \t]*(?:include|if|ifdef|ifndef|elif|else|endif)\b")


def _alias(line: str) -> str | None:
    """The name a code line defines as an alias: a macro, a ``using`` or namespace alias, a
    typedef. Anchored matches on one stripped line: linear in its length."""
    if match := _DEFINED.match(line):
        return match.group(1) or match.group(2)
    if line.startswith("typedef") and (match := _LAST_NAME.search(line)):
        return match.group(1)
    return None


def _aliasing(code: Mapping[str, list[str]], layers: set[Layer]) -> dict[str, int]:
    """Per ecosystem: added gated lines of a portability header, a file whose added lines
    define at least MIN_PAIRED_ALIASES names for two or more ecosystems each. Those aliases
    count, and the includes and ``#if`` switches of the ecosystems they pair."""
    lines: list[tuple[str, str | None, str]] = []  # ecosystem, alias, text
    defined: dict[str, set[str]] = {}  # alias -> ecosystems
    for rule_id, texts in code.items():
        rule = RULES.get(rule_id)
        if rule is None or rule.layer not in layers:
            continue
        for line in texts:
            name = _alias(line)
            lines.append((rule.ecosystem, name, line))
            if name is not None:
                defined.setdefault(name, set()).add(rule.ecosystem)
    paired = {name for name, ecosystems in defined.items() if len(ecosystems) > 1}
    if len(paired) < MIN_PAIRED_ALIASES:
        return {}
    vendors = {ecosystem for name in paired for ecosystem in defined[name]}
    out: dict[str, int] = {}
    for ecosystem, name, line in lines:
        if name in paired or (
            name is None and ecosystem in vendors and _DIRECTIVE.match(line) is not None
        ):
            out[ecosystem] = out.get(ecosystem, 0) + 1
    return out


def _gated_code(code: Mapping[str, list[str]], layers: set[Layer]) -> Iterable[tuple[str, str]]:
    for rule_id, lines in code.items():
        rule = RULES.get(rule_id)
        if rule is not None and rule.layer in layers:
            yield from (
                (rule.ecosystem, line) for line in lines if not _names_sources(rule.layer, line)
            )


def count_lines(
    f: FileDelta,
    layers: Iterable[Layer],
    *,
    strict: bool,
    baseline: Mapping[str, int] | None = None,
    moved: Moved | None = None,
) -> FileLines:
    """Count one file's gated lines; ``baseline`` is the file's recorded lines per
    ecosystem (None: the baseline does not list the file, or there is none); ``moved``
    its lines moved from and to the change's other files (``moved_lines``)."""
    gated = set(layers)
    added = _by_ecosystem(f.added_rules, gated)
    removed = _by_ecosystem(f.removed_rules, gated)
    before = _by_ecosystem(f.old_rules, gated)
    after = _by_ecosystem(f.new_rules, gated)
    listed = {} if strict else _listing(f.added_code, gated)
    aliasing = {} if strict else _aliasing(f.added_code, gated)
    ecosystems = []
    for name in sorted({*added, *removed}):
        a, r = sum(added.get(name, {}).values()), sum(removed.get(name, {}).values())
        changed = sum(
            min(n, removed.get(name, {}).get(rule, 0)) for rule, n in added.get(name, {}).items()
        )
        new = a > 0 and not sum(before.get(name, {}).values())
        into = moved.into.get(name, 0) if moved and not strict else 0
        out = moved.out.get(name, 0) if moved and not strict else 0
        named = listed.get(name, 0)
        aliased = aliasing.get(name, 0)
        versioned = 0 if strict else f.versioned.get(name, 0)
        # Removed lines that went to another file do not offset this file's new ones; added
        # file names are no growth (removed ones offset as any removed line: a source list
        # folded into one variable is no growth either).
        own = a - named - aliased - versioned - into
        counted = a if strict else max(0, own - max(0, r - out))
        # A moved file's edits: its added lines net against what the deleted file lost.
        rewritten = min(counted, moved.rewritten.get(name, 0)) if moved and not strict else 0
        counted -= rewritten
        # The same code over more lines, if any of the removed lines stayed this file's:
        # those another file took word for word (a copy of the file before its edit) were
        # moved there and reflow into nothing here.
        reflowed = not strict and name in f.reflowed and r > out
        if reflowed:
            counted = 0
        spare = 0 if strict or reflowed else max(0, r - out - max(0, own))
        recorded = None
        if baseline is not None:
            recorded = baseline.get(name, 0)
            past = sum(after.get(name, {}).values()) - recorded
            counted = max(0, min(counted, past))
        ecosystems.append(
            EcosystemLines(
                name,
                a,
                r,
                changed,
                counted,
                new,
                baseline=recorded,
                reflowed=reflowed,
                moved=into,
                listed=named,
                aliased=aliased,
                rewritten=rewritten,
                moved_from=moved.source if rewritten and moved else None,
                versioned=versioned,
                spare=spare,
            )
        )
    counting = {e.ecosystem for e in ecosystems if e.counted}
    kept = set(f.kept_lines)
    pointed = [r for r in f.added_ranges if r.layer in gated and r.ecosystem in counting]
    return FileLines(
        path=f.path,
        added=sum(e.added for e in ecosystems),
        removed=sum(e.removed for e in ecosystems),
        changed=sum(e.changed for e in ecosystems),
        counted=sum(e.counted for e in ecosystems),
        ecosystems=tuple(ecosystems),
        ranges=tuple(part for r in pointed for part in _without(r, kept)),
    )


def net_across(files: Sequence[FileLines]) -> list[FileLines]:
    """The change's files with the growth left in them netted, per ecosystem, against the
    removed lines of that ecosystem no file used: those a file lost and neither its own added
    lines nor a move took (a file split and rewritten, three benchmarks folded into one, a
    folder reorganised with edits: odin-vk-guide bbc466b5 rewrote its Vulkan engine into a new
    folder, 133 lines added and 196 removed, and failed for the 133). A change that adds no
    gated lines of an ecosystem past those it removes grows no lock-in there, whichever files
    hold them; past that figure the new lines count. The lines a deleted file's rewrite
    already netted (``rewritten``) are not offered twice. In file order, linear."""
    pool: Counter[str] = Counter()
    for file in files:
        for e in file.ecosystems:
            pool[e.ecosystem] += e.spare - e.rewritten
    out: list[FileLines] = []
    for file in files:
        if not any(e.counted and pool[e.ecosystem] > 0 for e in file.ecosystems):
            out.append(file)
            continue
        ecosystems = []
        for e in file.ecosystems:
            take = min(e.counted, max(0, pool[e.ecosystem]))
            pool[e.ecosystem] -= take
            ecosystems.append(replace(e, counted=e.counted - take, offset=take) if take else e)
        counting = {e.ecosystem for e in ecosystems if e.counted}
        out.append(
            replace(
                file,
                counted=sum(e.counted for e in ecosystems),
                ecosystems=tuple(ecosystems),
                ranges=tuple(r for r in file.ranges if r.ecosystem in counting),
            )
        )
    return out


def _without(finding: Finding, kept: set[int]) -> list[Finding]:
    """The parts of a range that are not edits keeping their rule."""
    if not kept:
        return [finding]
    parts: list[Finding] = []
    start = None
    for number in range(finding.start_line, finding.end_line + 2):
        inside = number <= finding.end_line and number not in kept
        if inside and start is None:
            start = number
        elif not inside and start is not None:
            parts.append(finding._replace(start_line=start, end_line=number - 1))
            start = None
    return parts


def ecosystem_lines(rule_lines: Mapping[str, int], layers: Iterable[Layer]) -> dict[str, int]:
    """Lines per ecosystem of a per-rule count, in the given layers."""
    return {
        name: sum(rules.values()) for name, rules in _by_ecosystem(rule_lines, set(layers)).items()
    }


def nvidia_only_lines(rule_lines: Mapping[str, int], layers: Iterable[Layer]) -> int:
    """Lines of a per-rule count, in the given layers, of rules that run on NVIDIA alone."""
    gated = set(layers)
    return sum(
        n
        for rule_id, n in rule_lines.items()
        if (rule := RULES.get(rule_id)) is not None and rule.layer in gated and rule.nvidia_only
    )


def _by_ecosystem(rule_lines: Mapping[str, int], layers: set[Layer]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for rule_id, n in rule_lines.items():
        rule = RULES.get(rule_id)
        if rule is not None and rule.layer in layers and n:
            out.setdefault(rule.ecosystem, {})[rule_id] = n
    return out


def _s(n: int) -> str:
    return "" if n == 1 else "s"
