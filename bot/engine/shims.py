"""CUDA code that AMD already builds: the files that reach a CUDA->HIP shim header.

Some projects compile one CUDA source for both vendors. A header included under a HIP
build flag defines the CUDA names (or the project's neutral ones) as their HIP twins:
ggml's ggml-cuda/vendors/hip.h (`#define cudaMalloc hipMalloc`), jaxlib's gpu/vendor.h
(`#define gpuMalloc hipMalloc`); or, written to HIP's API, one maps the HIP names back to CUDA's
for nvcc (gunrock's compat/runtime_api.h). One file cannot show it, so ``scan_c`` records what one
file says (is it a shim, what it includes) and ``reaching_shim`` walks a whole tree's
include graph. The census then counts those files' CUDA lines as running on AMD too.
"""

from __future__ import annotations

import posixpath
import re
import sys
from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import Protocol

from bot.engine.precompiled import fixed_regex

#: Aliases to HIP names a header needs before it counts as a shim: a HIP port defines a
#: handful of its own macros; a shim maps the runtime and library API (ggml: ~170).
MIN_ALIASES = 10
#: Ecosystems whose code such a shim carries to AMD.
SHIMMED_ECOSYSTEMS = frozenset({"cuda"})
SHIM_VENDORS = frozenset({"amd"})

# One alias a line (the whole line), to a HIP runtime or library name, from a name that is
# not HIP's own:
# `#define cudaStream_t hipStream_t`, `typedef hipStream_t gpuStream_t;`,
# `using cudaError_t = hipError_t;`, `namespace cub = hipcub;`. Or the other way round, a
# HIP name to a CUDA one: gunrock/gunrock writes HIP's API and maps it back to CUDA for nvcc
# (`#define hipMalloc cudaMalloc`, `typedef cudaStream_t hipStream_t;`), one source built by
# both vendors' compilers as a CUDA->HIP shim's includers are.
_HIP = r"(?:hip|HIP)\w*"
_CUDA = r"(?:cu|CU|nv)\w*"  # cuda*, CUDA*, cub*, CU*, nv*
_ALIAS = fixed_regex(
    rf"[ \t]*(?:\#[ \t]*define[ \t]+(?:(?!hip|HIP)\w+[ \t]+{_HIP}|{_HIP}[ \t]+{_CUDA})"
    rf"|typedef[ \t]+(?:(?:struct|enum)[ \t]+)?(?:{_HIP}[ \t]+\w+|{_CUDA}[ \t]+{_HIP})[ \t]*;"
    rf"|(?:using|namespace)[ \t]+"
    rf"(?:\w+[ \t]*=[ \t]*(?:::)?{_HIP}|{_HIP}[ \t]*=[ \t]*(?:::)?{_CUDA})[ \t]*;)[ \t]*"
)
# A preprocessor condition naming HIP's compiler (__HIPCC__, __HIP_PLATFORM_AMD__) or a
# project's HIP switch (ALPAKA_LANG_HIP, FUTHARK_HIP, USE_ROCM): the file is compiled by hipcc
# too. `#ifndef X_HIP` (an include guard) is no such condition.
_HIP_SWITCH = fixed_regex(
    r"\#[ \t]*(?:if|ifdef|elif)\b[^\n]*\b(?:__HIPCC__|__HIP__|__HIP_PLATFORM_(?:AMD|HCC)__"
    r"|__HIP_DEVICE_COMPILE__|\w*USE_(?:HIP|ROCM)\w*|\w+_HIP)\b"
)
# Not anchored at a line start: a pattern that starts with a literal is searched for it at C
# speed (a sixth of the anchored pattern's time); the line start is checked per match
# (``_line_starting``). An angle-bracket include is kept when it names a folder
# (`<gunrock/compat/runtime_api.h>`, a project's own header reached through -I); `<vector>`
# never names one of the tree's files. The folder is read up to its first slash: two runs
# that both take slashes made a 20 KB `#include <a/a/a/...` line with no `>` cost 2 s.
# Objective-C's `#import` is an include too: ggml's Metal host code (ggml-metal.m) imports
# the argument structs its shaders include, so those are no header spliced into device code.
_INCLUDE = fixed_regex(r'\#[ \t]*(?:include|import)[ \t]*(?:"([^"\n]+)"|<([^<>"\n/]+/[^<>"\n]+)>)')


#: Words every alias holds (``_ALIAS``): a file with fewer than MIN_ALIASES of them is no shim.
HIP_WORDS = ("hip", "HIP")


def scan_c(text: str, masked: str, hip_words: int | None = None) -> tuple[bool, tuple[str, ...]]:
    """Whether a C-family file is a shim, and its quoted includes (and angle-bracket ones
    naming a folder) in order.

    Both are read from ``masked`` (so a commented-out line counts for nothing); include
    paths are taken from ``text`` at the same place, since masking may blank strings.
    Paths are interned: a census keeps them for every file, and most repeat.
    ``hip_words``: how many times ``HIP_WORDS`` occur in ``masked``, when the caller has
    counted them already.
    """
    if hip_words is None:
        hip_words = sum(map(masked.count, HIP_WORDS))
    # Every alias names HIP: most files are ruled out by counting, before any regex runs.
    shim = hip_words >= MIN_ALIASES and (
        len(list(islice(_aliases(masked), MIN_ALIASES))) >= MIN_ALIASES
    )
    includes: tuple[str, ...] = ()
    if "include" in masked or "import" in masked:
        includes = tuple(
            sys.intern(text[m.start(m.lastindex) : m.end(m.lastindex)].strip())
            for m in _line_starting(_INCLUDE, masked)
            if m.lastindex
        )
    return shim, includes


def switches_on_hip(masked: str) -> bool:
    """Whether a C-family file tests HIP's compiler macros or a project's HIP switch itself
    (alpaka's unifiedCudaHip headers, futhark's run-time system, GROMACS's shared CUDA/HIP
    headers): one source built by nvcc and by hipcc, with no shim header in between. Its CUDA
    code builds for AMD as the code of a shim's includers does."""
    return ("HIP" in masked or "ROCM" in masked) and any(_line_starting(_HIP_SWITCH, masked))


def _aliases(masked: str) -> Iterator[int]:
    """Where each line that is an alias (``_ALIAS``) starts, in order. Only lines holding a
    HIP word are read, each once: a pattern anchored at line starts is tried at every
    offset of the file (3 ms for 90 KB of C++, twenty times this)."""
    size = len(masked)
    # Where each word occurs next, found again only once passed: a word absent from the
    # rest of the file is not searched for on every line.
    ahead = [masked.find(word) for word in HIP_WORDS]
    while True:
        hit = min((at for at in ahead if at >= 0), default=-1)
        if hit < 0:
            return
        start = masked.rfind("\n", 0, hit) + 1
        end = masked.find("\n", hit)
        end = size if end < 0 else end
        if _ALIAS.fullmatch(masked, start, end):
            yield start
        ahead = [
            masked.find(word, end) if 0 <= at < end else at
            for word, at in zip(HIP_WORDS, ahead, strict=True)
        ]


def _line_starting(pattern: re.Pattern[str], masked: str) -> Iterator[re.Match[str]]:
    """The matches of ``pattern`` with only blanks before them on their line."""
    return (m for m in pattern.finditer(masked) if _at_line_start(masked, m.start()))


def _at_line_start(text: str, at: int) -> bool:
    """Only blanks stand between the start of ``at``'s line and ``at``."""
    return not text[text.rfind("\n", 0, at) + 1 : at].strip(" \t")


class IncludeFacts(Protocol):
    """What ``reaching_shim`` needs of a file (FileReport and FileSummary both have it)."""

    @property
    def path(self) -> str: ...
    @property
    def shim(self) -> bool: ...
    @property
    def includes(self) -> tuple[str, ...]: ...


class Includes:
    """The repository path an ``#include "name"`` names, among ``paths``: relative to the
    including file's folder, else to the nearest folder above it that has it (projects
    pass their source root with -I: ggml's src/, jax's root), else under the root's
    ``include/`` (gunrock's examples include ``<gunrock/...>`` from include/gunrock/).

    Answers are kept per folder and name: the files of a folder mostly include the same
    headers, and a name the tree does not hold (``"cuda_runtime.h"``) would otherwise be
    looked for in every folder above each file that includes it.
    """

    def __init__(self, paths: set[str] | frozenset[str]) -> None:
        self.paths = paths
        self._found: dict[tuple[str, str], str | None] = {}

    def target(self, including: str, include: str) -> str | None:
        folder = posixpath.dirname(including)
        walked: list[tuple[str, str]] = []  # each folder walked defers to the one above
        while True:
            key = (folder, include)
            if key in self._found:
                found = self._found[key]
                break
            walked.append(key)
            candidate = posixpath.normpath(posixpath.join(folder, include))
            if candidate in self.paths:
                found = candidate
                break
            if not folder:
                found = posixpath.normpath(posixpath.join("include", include))
                if found not in self.paths:
                    found = None
                break
            folder = posixpath.dirname(folder)
        self._found.update(dict.fromkeys(walked, found))
        return found


def reaching_shim(files: Iterable[IncludeFacts]) -> frozenset[str]:
    """Paths of the files that include a shim header, directly or through other headers
    (the shims themselves included). Cycles in the include graph are walked once.

    The walk goes from the shims up to their includers, and resolves only the includes that
    can name a file already reached: one whose last component is that file's name. A tree's
    other includes (system and library headers, most of its own) are never resolved; resolving
    them all was most of the time a census took to report on a tree with a shim.
    """
    files = list(files)
    shims = [f.path for f in files if f.shim]
    if not shims:
        return frozenset()
    includes = Includes({f.path for f in files})
    # (includer, include) by the name of the file the include can resolve to.
    by_name: defaultdict[str, list[tuple[str, str]]] = defaultdict(list)
    for f in files:
        for include in f.includes:
            name = include.rpartition("/")[2]
            if name in ("", ".", ".."):  # "dir/", "dir/..": only resolving says which file
                target = includes.target(f.path, include)
                if target is None:
                    continue
                name = target.rpartition("/")[2]
            by_name[name].append((f.path, include))
    reached = set(shims)
    todo = list(shims)
    while todo:
        child = todo.pop()
        for parent, include in by_name.get(child.rpartition("/")[2], ()):
            if parent not in reached and includes.target(parent, include) == child:
                reached.add(parent)
                todo.append(parent)
    return frozenset(reached)


# -- Headers spliced into device code ---------------------------------------------------------
#
# Generated integral codes include headers inside a device function's body (merzlab/QUICK's
# gpu_eri_assembler_*.h open `__device__ ... ERint_vertical_sp(...) {` and include 98
# src/gpu/iclass/*.h, 303,684 lines of recurrences, within it). Such a header holds no device
# mark of its own: one file cannot show it. ``spliced_includes`` records, per file, the
# includes whose directive sits inside one of its kernel regions; ``spliced_headers`` finds,
# over a tree, the headers every inclusion of which is such a one.


def spliced_includes(
    text: str, masked: str, starts: list[int], regions: list[tuple[int, int, str]]
) -> tuple[tuple[str, str], ...]:
    """(include as written, rule) of each include whose directive lies strictly inside one of
    ``regions`` (first line, last line, rule id; 1-based, disjoint, as findings are), in
    order. One bisection an include, whatever the number of regions."""
    regions = sorted(regions)
    firsts = [first for first, _, _ in regions]
    # Only the text the regions cover is read: a kernel file's includes mostly open it.
    low = starts[regions[0][0] - 1] if regions[0][0] <= len(starts) else len(masked)
    last = max(last for _, last, _ in regions)
    high = starts[last] if last < len(starts) else len(masked)
    if masked.find("include", low, high) < 0 and masked.find("import", low, high) < 0:
        return ()
    found: list[tuple[str, str]] = []
    for m in _INCLUDE.finditer(masked, low, high):
        if not m.lastindex or not _at_line_start(masked, m.start()):
            continue
        line = bisect_right(starts, m.start())
        at = bisect_left(firsts, line) - 1  # the last region opening above the line
        if at >= 0 and line <= regions[at][1]:
            name = text[m.start(m.lastindex) : m.end(m.lastindex)].strip()
            found.append((sys.intern(name), regions[at][2]))
    return tuple(found)


class SplicedFacts(IncludeFacts, Protocol):
    """What ``spliced_headers`` needs of a file besides its includes."""

    @property
    def spliced(self) -> tuple[tuple[str, str], ...]: ...


def _basename(path: str) -> str:
    """``posixpath.basename`` of a ``str`` path, at half its cost (1.4 -> 0.7 ms over the
    bench corpus's paths)."""
    return path.rpartition("/")[2]


def _includes_simd(f: IncludeFacts) -> bool:
    return any(include.startswith("simd/") for include in f.includes)


def _sole(paths: Iterable[str], key: Callable[[str], str]) -> dict[str, str | None]:
    """Each key -> the one path that has it, or None where two or more paths share it."""
    sole: dict[str, str | None] = {}
    for path in paths:
        k = key(path)
        sole[k] = None if k in sole else path
    return sole


def spliced_headers(files: Iterable[SplicedFacts]) -> dict[str, str]:
    """Path -> rule of each file of the tree that is included only inside kernel regions (by
    the rule of the first such region, in path order), never by a directive outside one."""
    files = sorted(files, key=lambda f: f.path)
    paths = [f.path for f in files]
    includes = Includes(set(paths))
    # A bare name the include path finds in a folder of its own (QUICK builds with
    # -I src/gpu/iclass): the one file of the tree with that name, if only one has it.
    named = _sole(paths, _basename)
    # Windows toolchains (MSVC, DXC for Direct3D) open includes whatever their case: a shader's
    # `#include "Raytracing/Include/SHARC/SharcCommon.h"` finds include/SHaRC/SharcCommon.h
    # (jiayev/CreationEngineRaytracing). Tried only once the exact walk found nothing, over
    # the tree's paths folded to lower case (a folded path two files share names neither).
    folded_paths = _sole(paths, str.lower)
    folded = Includes(set(folded_paths))

    def target(including: str, include: str) -> str | None:
        found = includes.target(including, include)
        if found is None:
            low = folded.target(including.lower(), include.lower())
            found = folded_paths.get(low) if low is not None else None
        return found if found is not None or "/" in include else named.get(include)

    spliced: dict[str, str] = {}
    for f in files:
        for include, rule in f.spliced:
            found = target(f.path, include)
            if found is not None and found != f.path:
                spliced.setdefault(found, rule)
    # A header including Apple's simd types is written for the host as well: Metal's
    # ShaderTypes.h, which Swift reads through a bridging-header setting, no include. Looked
    # for among the headers found above only: over every file of the bench corpus it was a
    # sixth of a census's settling (1 ms), which finds none in most trees.
    if spliced:
        by_path = {f.path: f for f in files}
        for path in [p for p in spliced if _includes_simd(by_path[p])]:
            del spliced[path]
    if not spliced:
        return spliced
    for f in files:
        inside = Counter(include for include, _ in f.spliced)
        for include in f.includes:
            if inside[include]:
                inside[include] -= 1
            elif (found := target(f.path, include)) in spliced:
                del spliced[found]
    return spliced
