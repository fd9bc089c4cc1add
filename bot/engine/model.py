"""The engine's vocabulary: layers, rules, findings and the per-file report.

Everything here is plain data so that the CLI, the bot and the renderers share one shape.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple


class Layer(StrEnum):
    """Where a code line sits, ordered by what moving it off its vendor costs."""

    KERNEL = "kernel"  # hand-written device code: a rewrite
    VENDOR_LIBRARY = "vendor-library"  # calls into cuBLAS, cuDNN, NCCL...: a library mapping
    VENDOR_PATH = "vendor-path"  # device strings, runtime calls, build flags: an edit
    PORTABLE = "portable"  # framework-level or plain code: nothing

    @property
    def rank(self) -> int:
        """Higher wins when two rules claim the same line (a line counts in one layer)."""
        return _RANK[self]


_RANK = {Layer.PORTABLE: 0, Layer.VENDOR_PATH: 1, Layer.VENDOR_LIBRARY: 2, Layer.KERNEL: 3}

#: Layers whose lines are not portable, in report order.
NON_PORTABLE: tuple[Layer, ...] = (Layer.KERNEL, Layer.VENDOR_LIBRARY, Layer.VENDOR_PATH)
#: All layers in report order.
LAYERS: tuple[Layer, ...] = (*NON_PORTABLE, Layer.PORTABLE)

#: Vendors code can run on. "nvidia" is the incumbent the census measures lock-in against;
#: the next five make accelerators PyTorch or PaddlePaddle reach through their own plug-ins
#: (MUSA, MLU, Ascend NPU, Gaudi HPU, Kunlunxin XPU), Xilinx FPGAs through Vitis, and AWS its
#: Trainium and Inferentia chips through the Neuron SDK: code for them is lock-in too, though
#: no team plans a move onto them. Gaudi is Intel's and Xilinx is AMD's, but their code runs
#: on no Intel or AMD GPU: "intel" and "amd" stay the GPU targets.
#: Iluvatar CoreX's GPUs run CUDA-compatible software, but its IGIE compiler target and
#: ixformer kernels exist for those GPUs alone: "iluvatar". Tenstorrent's Tensix chips run
#: ttnn operators and torch-ttnn graphs built on tt-metal, no GPU code: "tenstorrent".
#: Graphcore's IPUs run Poplar programs, PopLibs operators and PopTorch models: "graphcore".
#: Broadcom's VideoCore GPUs (Raspberry Pi) run QPU assembly kernels: "broadcom".
#: Sophgo's TPUs (BM1684X, SG2260) run tpu_kernel.h firmware kernels and tpuDNN: "sophgo".
#: MetaX's GPUs (C500 series) run MACA: its mc* runtime, mcBLAS and mcDNN: "metax".
#: Tecorigin's SDAA accelerators run torch_sdaa's operators and TCCL: "tecorigin".
VENDORS: tuple[str, ...] = (
    "nvidia",
    "amd",
    "intel",
    "apple",
    "google",
    "moorethreads",
    "cambricon",
    "huawei",
    "habana",
    "kunlunxin",
    "xilinx",
    "aws",
    "iluvatar",
    "tenstorrent",
    "graphcore",
    "broadcom",
    "sophgo",
    "metax",
    "tecorigin",
)
#: Targets of the portability matrix: where a team might want to move to.
TARGETS: tuple[str, ...] = ("amd", "intel", "apple", "google")


@dataclass(frozen=True, slots=True)
class Rule:
    """One row of the rule registry (bot/engine/data/rules/*.yml)."""

    id: str  # stable, dotted: "cuda.kernel", "triton.jit"
    layer: Layer
    ecosystem: str  # "cuda", "hip", "triton", ...
    vendors: frozenset[str]  # vendors this code runs on today
    summary: str  # one line: why this does not travel
    why: str = ""  # long form: why code it matches would not move off its vendor
    instead: str = ""  # long form: the portable or other-vendor equivalent (and the tool)

    @property
    def nvidia_only(self) -> bool:
        return self.vendors == frozenset({"nvidia"})


class Finding(NamedTuple):
    """A region of a file claimed by one rule. Lines are 1-based and inclusive.

    A named tuple rather than a frozen slots dataclass: one ``tuple.__new__`` builds it,
    where the dataclass paid five ``object.__setattr__`` calls, at twice the cost. A file of
    thousands of alternating rules' runs (an adversarial input) builds one per run; a census
    unpickles every one its workers send back, at a fifth of the dataclass's cost.
    """

    rule: str
    layer: Layer
    ecosystem: str
    start_line: int
    end_line: int


@dataclass(frozen=True, slots=True)
class Ignored:
    """Lines an inline ``lockin: ignore[rule] reason`` marker took out of a rule's finding.

    They count as portable while markers are allowed, and are listed apart, never dropped.
    """

    rule: str
    layer: Layer
    ecosystem: str
    start_line: int
    end_line: int
    lines: int  # code lines of the rule the marker took out within [start_line, end_line]
    reason: str
    marker_line: int


@dataclass(frozen=True, slots=True)
class MarkerProblem:
    """A marker that ignores nothing: no reason, an unknown rule id, nothing of its rule on
    its line, or markers not allowed by the policy (then the lines it names still count)."""

    line: int  # the marker's line
    problem: str
    start_line: int = 0  # the lines it names, when it names any
    end_line: int = 0


@dataclass(slots=True)
class FileReport:
    """What the engine says about one file.

    ``line_rules[i]`` describes line ``i + 1``: ``None`` for a line that is not code
    (blank, comment), ``""`` for a portable code line, otherwise the id of the rule that
    owns the line. It is what diffs use to place added and removed lines in a layer.
    """

    path: str
    language: str | None
    code_lines: int
    layers: dict[Layer, int]
    ecosystems: dict[str, int]  # non-portable code lines per ecosystem
    findings: list[Finding]
    line_rules: list[str | None] = field(repr=False)
    skipped: str | None = None  # "binary", or "error" (a bug guard): nothing was counted
    generated: bool = False  # looks machine-generated (template instantiations, ...)
    # C family only: the file defines CUDA names as HIP names (a CUDA->HIP shim header), and
    # the paths of its quoted includes as written. A repository-level pass (engine/shims.py)
    # uses both to find the CUDA code that AMD builds through such a shim.
    shim: bool = False
    includes: tuple[str, ...] = ()
    # C family: (include, rule) of the includes whose directive sits inside one of its kernel
    # regions: a header spliced into device code (engine/shims.py spliced_headers).
    spliced: tuple[tuple[str, str], ...] = ()
    # C family, CUDA lines only: the file switches on HIP itself (#if __HIPCC__, #if
    # ALPAKA_LANG_CUDA || ALPAKA_LANG_HIP), so hipcc builds its CUDA code too, as if it
    # reached a shim (engine/shims.py switches_on_hip).
    hip_switch: bool = False
    # Inline markers (engine/markers.py): what they took out, and those that took nothing.
    ignored: list[Ignored] = field(default_factory=list)
    marker_problems: list[MarkerProblem] = field(default_factory=list)
    # Line -> the rule that owned it before a marker took it out (line_rules says "" there).
    ignored_lines: dict[int, str] = field(default_factory=dict, repr=False)
    # Documentation and data files (languages.yml `text`): their non-blank lines as scc counts
    # them; such a file has no code lines, so it never enters a layer or the share.
    text_lines: int = 0

    @property
    def non_portable_lines(self) -> int:
        return sum(self.layers[layer] for layer in NON_PORTABLE)


def zero_layers() -> dict[Layer, int]:
    return dict.fromkeys(LAYERS, 0)


#: How the reason a file was skipped begins when the engine gave up on it (its CPU-time
#: budget ran out): never a verdict, so a gate cannot pass over it.
NOT_COUNTED = "not counted: "


def not_counted(skips: Iterable[tuple[str, str | None]]) -> list[tuple[str, str]]:
    """(path, why) of the (path, skip reason) pairs whose reason is NOT_COUNTED's."""
    return [
        (path, why.removeprefix(NOT_COUNTED))
        for path, why in skips
        if why and why.startswith(NOT_COUNTED)
    ]
