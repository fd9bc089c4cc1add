"""The census of a tree: FileReports aggregated into the figures the product reports.

A census keeps one small ``FileSummary`` per path (counts per layer, ecosystem and rule,
and the findings; never ``line_rules``), and running totals beside them, so that
``Census.replace`` can swap one file after a push in time proportional to that file's
summary, and the result equals a census built from scratch.

Figures derived from the totals (the portability matrix, the share that could not move
off NVIDIA, the alternative ecosystems) are computed on demand from per-rule line counts
and the rule registry, so they never drift from the totals. Two things depend on the tree
rather than on single files (engine/shims.py): which files reach a CUDA->HIP shim header,
recomputed on demand after a change and only when the tree holds a shim at all; and which
headers are spliced into device code (included only inside kernel bodies), whose lines
``settle`` counts as that code after a batch of changes, and only when some file includes a
header so. The per-file gate (a pull request's check, ``lockin diff``) reads neither.
"""

from __future__ import annotations

import heapq
import posixpath
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from operator import attrgetter
from typing import Any

from bot.engine.model import (
    LAYERS,
    NON_PORTABLE,
    TARGETS,
    FileReport,
    Finding,
    Ignored,
    Layer,
    MarkerProblem,
    Rule,
    not_counted,
)
from bot.engine.shims import SHIM_VENDORS, SHIMMED_ECOSYSTEMS, reaching_shim, spliced_headers

#: Layers that count as "could not move off NVIDIA tomorrow" when their rule runs there alone.
LOCKED_LAYERS: tuple[Layer, ...] = (Layer.KERNEL, Layer.VENDOR_PATH)
_NVIDIA_ONLY = frozenset({"nvidia"})


@dataclass(frozen=True, slots=True)
class FileSummary:
    """What a census keeps of one file: counts and findings, no per-line data."""

    path: str
    language: str | None
    code_lines: int
    layers: Mapping[Layer, int]
    ecosystems: Mapping[str, int]
    rule_lines: Mapping[str, int]  # non-portable code lines per rule id
    findings: tuple[Finding, ...]
    skipped: str | None = None
    generated: bool = False
    shim: bool = False
    includes: tuple[str, ...] = ()
    hip_switch: bool = False  # its CUDA code builds for AMD through its own HIP switches
    ignored: tuple[Ignored, ...] = ()  # what inline markers took out (counted as portable)
    marker_problems: tuple[MarkerProblem, ...] = ()
    text_lines: int = 0  # documentation and data: lines counted apart from code
    # Includes inside its kernel regions, with the region's rule (engine/shims.py), and the
    # file's lines: what ``Census.settle`` needs to count a header spliced into device code.
    spliced: tuple[tuple[str, str], ...] = ()
    line_count: int = 0

    def __reduce__(self) -> tuple[type[FileSummary], tuple[Any, ...]]:
        # Pickled as the tuple of its fields, rebuilt by __init__: the census's worker
        # processes send one summary per file, and unpickling them is the parent's work.
        # The fields are read by one attrgetter, at C speed: a quarter of the workers'
        # pickling was a generator's getattr calls.
        return FileSummary, _summary_fields(self)

    @classmethod
    def of(cls, report: FileReport) -> FileSummary:
        # Findings are the runs of line_rules' rule ids: a file without any (most) has no
        # rule's line to count, and skips a pass over its lines.
        rule_lines = Counter(filter(None, report.line_rules)) if report.findings else {}
        return cls(
            path=report.path,
            language=report.language,
            code_lines=report.code_lines,
            layers=dict(report.layers),
            ecosystems=dict(report.ecosystems),
            rule_lines=dict(rule_lines),
            findings=tuple(report.findings),
            skipped=report.skipped,
            generated=report.generated,
            shim=report.shim,
            includes=report.includes,
            hip_switch=report.hip_switch,
            ignored=tuple(report.ignored),
            marker_problems=tuple(report.marker_problems),
            text_lines=report.text_lines,
            spliced=report.spliced,
            line_count=len(report.line_rules),
        )

    def spliced_into(self, rule: Rule) -> FileSummary:
        """The file counted as device code of ``rule``: every code line is that region's,
        the header being compiled only inside it."""
        code = self.code_lines
        layers = dict.fromkeys(self.layers, 0) | {Layer.KERNEL: code}
        finding = Finding(rule.id, Layer.KERNEL, rule.ecosystem, 1, max(self.line_count, 1))
        return replace(
            self,
            layers=layers,
            ecosystems={rule.ecosystem: code},
            rule_lines={rule.id: code},
            findings=(finding,),
            ignored=(),
        )

    def without_markers(self) -> FileSummary:
        """The file counted as if its markers were absent (markers not allowed): their lines
        back in their layers and findings, each such marker listed as a problem."""
        if not self.ignored:
            return self
        from bot.engine.markers import not_allowed  # late: it loads the rule registry

        layers, ecosystems = Counter(self.layers), Counter(self.ecosystems)
        rule_lines = Counter(self.rule_lines)
        for i in self.ignored:
            layers[i.layer] += i.lines
            layers[Layer.PORTABLE] -= i.lines
            ecosystems[i.ecosystem] += i.lines
            rule_lines[i.rule] += i.lines
        back = [
            Finding(i.rule, i.layer, i.ecosystem, i.start_line, i.end_line) for i in self.ignored
        ]
        return replace(
            self,
            layers=dict(layers),
            ecosystems=dict(ecosystems),
            rule_lines=dict(rule_lines),
            findings=tuple(sorted((*self.findings, *back), key=lambda f: f.start_line)),
            ignored=(),
            marker_problems=(*self.marker_problems, *not_allowed(list(self.ignored))),
        )

    @property
    def non_portable_lines(self) -> int:
        return sum(self.layers.get(layer, 0) for layer in NON_PORTABLE)


#: A summary's fields as a tuple, in the order __init__ takes them.
_summary_fields = attrgetter(*(f.name for f in fields(FileSummary)))


@dataclass(slots=True)
class Totals:
    """Running sums over a set of files; ``add``/``remove`` are exact inverses."""

    files: int = 0
    code_lines: int = 0
    layers: Counter[Layer] = field(default_factory=Counter)
    ecosystems: Counter[str] = field(default_factory=Counter)
    rule_lines: Counter[str] = field(default_factory=Counter)

    def add(self, summary: FileSummary, sign: int = 1) -> None:
        self.files += sign
        self.code_lines += sign * summary.code_lines
        # Keyed by layer, ecosystem or rule id: only the counts matter here.
        pairs: tuple[tuple[Counter[Any], Mapping[Any, int]], ...] = (
            (self.layers, summary.layers),
            (self.ecosystems, summary.ecosystems),
            (self.rule_lines, summary.rule_lines),
        )
        for counter, part in pairs:
            for key, n in part.items():
                counter[key] += sign * n
                if not counter[key]:
                    del counter[key]

    def layer_counts(self) -> dict[Layer, int]:
        """All four layers, zeros included, in report order."""
        return {layer: self.layers.get(layer, 0) for layer in LAYERS}

    @property
    def non_portable_lines(self) -> int:
        return sum(self.layers.get(layer, 0) for layer in NON_PORTABLE)


@dataclass(frozen=True, slots=True)
class Alternative:
    """An ecosystem already present that runs somewhere other than NVIDIA alone."""

    ecosystem: str
    lines: int
    vendors: frozenset[str]


def _is_alternative(rule: Rule) -> bool:
    # Code that does not need NVIDIA at all (HIP, Metal, TPU) or runs on three or more
    # vendors (Triton, SYCL, OpenCL, Vulkan, WGSL). torch.cuda-style paths that ROCm
    # builds also reach are two-vendor and not an alternative to anything.
    return "nvidia" not in rule.vendors or len(rule.vendors) >= 3


class Census:
    """Aggregate of FileReports keyed by path.

    ``rules`` resolves rule ids to their layer and vendors (the engine's registry by
    default). Generated files are kept and listed either way; with
    ``include_generated=False`` they stay out of the main totals and appear only in
    ``generated``. With ``markers_allowed=False`` inline ignore markers take nothing out:
    files count as if the markers were absent, and each marker is listed as a problem.
    """

    def __init__(
        self,
        reports: Iterable[FileReport | FileSummary] = (),
        *,
        rules: Mapping[str, Rule] | None = None,
        include_generated: bool = True,
        markers_allowed: bool = True,
    ) -> None:
        if rules is None:
            # Late: loading the registry parses every rule file, which callers that pass
            # their own rules (tests, tools) need not pay for.
            from bot.engine import RULES

            rules = RULES
        self.rules: Mapping[str, Rule] = rules
        self.include_generated = include_generated
        self.markers_allowed = markers_allowed
        self._files: dict[str, FileSummary] = {}
        self.totals = Totals()
        self.generated = Totals()
        self.skipped: Counter[str] = Counter()
        self._shims: set[str] = set()  # paths of shim headers
        # Paths of files including a header inside a kernel region, and the engine's own
        # summary of each header ``settle`` counts as spliced into device code.
        self._splicing: set[str] = set()
        self._spliced_raw: dict[str, FileSummary] = {}
        self._hip_switched: set[str] = set()  # files whose own HIP switches carry them to AMD
        # Per rule: lines of counted files that reach a shim; None until asked after a change.
        self._shimmed_lines: Counter[str] | None = None
        # Counted files by path, and those with non-portable lines with their count: a
        # report asks for them several times (files, top files, top folders); None until
        # asked after a change.
        self._counted_files: list[FileSummary] | None = None
        self._non_portable_files: list[tuple[FileSummary, int]] | None = None
        for report in reports:
            self.replace(report.path, report)
        self.settle()

    # -- updating ---------------------------------------------------------------

    def replace(self, path: str, report: FileReport | FileSummary | None) -> None:
        """Put ``report`` at ``path`` (``None`` removes the file). Cost: one file. After a
        batch of replacements, ``settle`` counts the headers spliced into device code."""
        self._spliced_raw.pop(path, None)
        self._put(path, report)

    def settle(self) -> None:
        """Count each header included only inside kernel regions (a device function's body)
        as that region's device code, and give back their own counts to those no longer so.
        Cost: nothing unless some file includes a header inside a kernel region."""
        if not self._splicing and not self._spliced_raw:
            return
        files = [s for s in self._files.values() if not s.skipped]
        headers = spliced_headers(files) if self._splicing else {}
        for path in [p for p in self._spliced_raw if p not in headers]:
            self._put(path, self._spliced_raw.pop(path))
        for path, rule_id in headers.items():
            rule = self.rules.get(rule_id)
            if rule is None:
                continue
            raw = self._spliced_raw.get(path, self._files[path])
            counted = raw.spliced_into(rule)
            if counted != self._files[path]:
                self._put(path, counted)
            self._spliced_raw[path] = raw

    def _put(self, path: str, report: FileReport | FileSummary | None) -> None:
        old = self._files.pop(path, None)
        if old is not None:
            self._account(old, -1)
        # Any file can add or cut a path to a shim: recounted when next asked, if there is one.
        self._shims.discard(path)
        self._hip_switched.discard(path)
        self._splicing.discard(path)
        self._shimmed_lines = None
        self._counted_files = self._non_portable_files = None
        if report is None:
            return
        summary = report if isinstance(report, FileSummary) else FileSummary.of(report)
        if not self.markers_allowed:
            summary = summary.without_markers()
        if summary.path != path:
            raise ValueError(f"report for {summary.path!r} given for path {path!r}")
        self._files[path] = summary
        self._account(summary, 1)
        if summary.shim and not summary.skipped:
            self._shims.add(path)
        if summary.hip_switch and not summary.skipped:
            self._hip_switched.add(path)
        if summary.spliced and not summary.skipped:
            self._splicing.add(path)

    def _account(self, summary: FileSummary, sign: int) -> None:
        if summary.skipped:
            self.skipped[summary.skipped] += sign
            if not self.skipped[summary.skipped]:
                del self.skipped[summary.skipped]
            return
        if summary.generated:
            self.generated.add(summary, sign)
            if not self.include_generated:
                return
        self.totals.add(summary, sign)

    def copy(self) -> Census:
        """An independent census with the same files (summaries are immutable and shared)."""
        twin = Census(
            rules=self.rules,
            include_generated=self.include_generated,
            markers_allowed=self.markers_allowed,
        )
        twin._files = dict(self._files)
        for mine, theirs in ((self.totals, twin.totals), (self.generated, twin.generated)):
            theirs.files, theirs.code_lines = mine.files, mine.code_lines
            theirs.layers, theirs.ecosystems = Counter(mine.layers), Counter(mine.ecosystems)
            theirs.rule_lines = Counter(mine.rule_lines)
        twin.skipped = Counter(self.skipped)
        twin._shims = set(self._shims)
        twin._hip_switched = set(self._hip_switched)
        twin._splicing = set(self._splicing)
        twin._spliced_raw = dict(self._spliced_raw)
        return twin

    def without_markers(self) -> Census:
        """This census counted as if inline markers were absent (policy: not-allowed)."""
        if not self.markers_allowed:
            return self
        return Census(
            # The engine's own summaries: the new census settles the spliced headers again.
            (self._spliced_raw.get(path, summary) for path, summary in self._files.items()),
            rules=self.rules,
            include_generated=self.include_generated,
            markers_allowed=False,
        )

    # -- reading ----------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._files)

    def __contains__(self, path: object) -> bool:
        return path in self._files

    def get(self, path: str) -> FileSummary | None:
        return self._files.get(path)

    def files(self) -> list[FileSummary]:
        """Counted files (not skipped; generated ones only when included), by path."""
        if self._counted_files is None:
            counted = (s for s in self._files.values() if self._counted(s))
            self._counted_files = sorted(counted, key=lambda s: s.path)
        return list(self._counted_files)

    def _counted(self, summary: FileSummary) -> bool:
        return not summary.skipped and (self.include_generated or not summary.generated)

    def not_counted(self) -> list[tuple[str, str]]:
        """(path, why) of the files the engine gave up on (their CPU-time budget ran
        out), by path: what the census leaves out without a verdict."""
        return not_counted(sorted((s.path, s.skipped) for s in self._files.values()))

    def generated_files(self) -> list[FileSummary]:
        return sorted((s for s in self._files.values() if s.generated), key=lambda s: s.path)

    def reaching_shim(self) -> frozenset[str]:
        """Paths of the files whose CUDA code AMD builds too: those that include a CUDA->HIP
        shim header, directly or not, and those that switch on HIP themselves."""
        if not self._shims:
            return frozenset(self._hip_switched)
        reached = reaching_shim(s for s in self._files.values() if not s.skipped)
        return reached | self._hip_switched

    def hip_switched(self) -> list[str]:
        """Paths of the files with CUDA code that switch on HIP themselves (no shim)."""
        return sorted(self._hip_switched)

    def _shimmed(self) -> Counter[str]:
        if self._shimmed_lines is None:
            lines: Counter[str] = Counter()
            for path in self.reaching_shim():
                summary = self._files[path]
                if self._counted(summary):
                    lines.update(summary.rule_lines)
            self._shimmed_lines = lines
        return self._shimmed_lines

    def shim_headers(self) -> list[str]:
        """Paths of the CUDA->HIP shim headers in the tree."""
        return sorted(self._shims)

    def carried_by_shims(self) -> int:
        """Kernel and vendor-path CUDA lines left out of ``locked_to_nvidia`` because their
        file reaches a shim, or switches on HIP itself, and so also builds for AMD."""
        if not self._shims and not self._hip_switched:
            return 0
        return sum(
            n
            for rule_id, n in self._shimmed().items()
            if (rule := self.rules.get(rule_id))
            and rule.ecosystem in SHIMMED_ECOSYSTEMS
            and rule.nvidia_only
            and rule.layer in LOCKED_LAYERS
        )

    def _rule_vendors(self) -> Iterable[tuple[Rule, frozenset[str], int]]:
        """(rule, vendors its lines run on, lines) over the totals: a CUDA rule's lines in
        files that reach a shim run on AMD as well."""
        shimmed = self._shimmed() if self._shims or self._hip_switched else Counter()
        for rule_id, n in self.totals.rule_lines.items():
            rule = self.rules.get(rule_id)
            if rule is None:
                continue
            carried = shimmed.get(rule_id, 0) if rule.ecosystem in SHIMMED_ECOSYSTEMS else 0
            if carried:
                yield rule, rule.vendors | SHIM_VENDORS, carried
            if n > carried:
                yield rule, rule.vendors, n - carried

    def locked_to_nvidia(self) -> int:
        """Kernel and vendor-path lines that run on NVIDIA alone."""
        return sum(
            n
            for rule, vendors, n in self._rule_vendors()
            if vendors == _NVIDIA_ONLY and rule.layer in LOCKED_LAYERS
        )

    def nvidia_share(self) -> float:
        """Share of all code lines that could not move off NVIDIA tomorrow (0.0 to 1.0)."""
        code = self.totals.code_lines
        return self.locked_to_nvidia() / code if code else 0.0

    def matrix(self) -> dict[str, dict[Layer, int]]:
        """Per target vendor: non-portable lines per layer whose rule does not run there.

        ``kernel`` lines need a rewrite, ``vendor-library`` lines a library mapping,
        ``vendor-path`` lines an edit.
        """
        out = {target: dict.fromkeys(NON_PORTABLE, 0) for target in TARGETS}
        for rule, vendors, n in self._rule_vendors():
            if rule.layer not in NON_PORTABLE:
                continue
            for target in TARGETS:
                if target not in vendors:
                    out[target][rule.layer] += n
        return out

    def alternatives(self) -> list[Alternative]:
        """Ecosystems present whose code already runs beyond NVIDIA, largest first."""
        lines: Counter[str] = Counter()
        vendors: dict[str, frozenset[str]] = {}
        for rule_id, n in self.totals.rule_lines.items():
            rule = self.rules.get(rule_id)
            if rule is None or not _is_alternative(rule):
                continue
            lines[rule.ecosystem] += n
            vendors[rule.ecosystem] = vendors.get(rule.ecosystem, frozenset()) | rule.vendors
        ranked = sorted(lines.items(), key=lambda item: (-item[1], item[0]))
        return [Alternative(eco, n, vendors[eco]) for eco, n in ranked]

    def _non_portable(self) -> list[tuple[FileSummary, int]]:
        """Counted files with non-portable lines, by path, each with those lines (a sum
        worth computing once per file)."""
        if self._non_portable_files is None:
            self._non_portable_files = [
                (s, lines) for s in self.files() if (lines := s.non_portable_lines)
            ]
        return self._non_portable_files

    def top_files(self, n: int = 10) -> list[FileSummary]:
        """Files with the most non-portable lines (ties by path), zero-line files left out."""
        # nsmallest is sorted(...)[:n], stable: ties keep the files' order, by path.
        ranked = heapq.nsmallest(n, self._non_portable(), key=lambda item: -item[1])
        return [summary for summary, _ in ranked]

    def top_directories(self, n: int = 10) -> list[tuple[str, int]]:
        """Directories by the non-portable lines of the files directly inside them."""
        per_dir: Counter[str] = Counter()
        for summary, lines in self._non_portable():
            per_dir[posixpath.dirname(summary.path) or "."] += lines
        return heapq.nsmallest(n, per_dir.items(), key=lambda item: (-item[1], item[0]))
