"""A Jupyter notebook's code cells as the source files they stand for, each line placed where
it is in the notebook's JSON.

A notebook is JSON: its code sits in the ``source`` of its code cells, beside markdown cells,
outputs (images as base64, tracebacks) and metadata, none of which is code. ``read`` walks
the notebook with the standard library's decoder, keeping where each source string starts,
and returns the code cells as a few virtual files: the cells in the kernel's language
(``metadata.kernelspec.language``, else ``language_info.name``, else Python) joined in order,
so an ``import triton`` in the first cell informs a kernel in the fifth; and each cell a cell
magic names the language of (``%%writefile kernel.cu``, ``%%cuda``) on its own. Each virtual
line maps back to the notebook line that holds it: nbformat 4 writes one source line per JSON
line, so a notebook's code lines are its code cells' code lines; a source given as one string
puts all its lines on one JSON line, which then counts once (in the highest layer of its lines).
nbformat 3 notebooks (cells in ``worksheets``, a code cell's source in ``input``) are read too.

Hostile input: the decoder is C code, linear in the bytes; values the walk does not need
(outputs, metadata) are decoded whole and dropped; truncation or anything that is not a
notebook raises ``ValueError``, and nesting deeper than the interpreter's recursion limit
``RecursionError`` (classify reports either as a malformed notebook).
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.engine.precompiled import fixed_regex

#: The language languages.yml names for ``.ipynb``: classify reads such files here.
LANGUAGE = "Jupyter"

_WS = fixed_regex(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()
# The extension a kernel language's code would have as a file, for the language table.
_KERNEL_EXTENSIONS = {
    "python": ".py",
    "python3": ".py",
    "ipython": ".py",
    "julia": ".jl",
    "r": ".r",
    "c++": ".cpp",
    "c++11": ".cpp",
    "c++14": ".cpp",
    "c++17": ".cpp",
    "c++20": ".cpp",
    "cpp": ".cpp",
    "c": ".c",
    "cuda": ".cu",
    "rust": ".rs",
    "go": ".go",
    "scala": ".scala",
    "java": ".java",
    "javascript": ".js",
    "typescript": ".ts",
    "bash": ".sh",
    "sh": ".sh",
    "fortran": ".f90",
    "mojo": ".mojo",
    # VS Code's language ids, which it writes in a cell's metadata (vscode.languageId).
    "cuda-cpp": ".cu",
    "shellscript": ".sh",
}
# Cell magics that name their cell's language: nvcc4jupyter's %%cuda (and the older %%cu),
# IPython's shell and script magics, Cython's. %%writefile names it by the file's extension.
_MAGIC_EXTENSIONS = {
    "cuda": ".cu",
    "cu": ".cu",
    "nvcc": ".cu",
    "cython": ".pyx",
    "bash": ".sh",
    "sh": ".sh",
    "javascript": ".js",
    "js": ".js",
    "perl": ".pl",
    "ruby": ".rb",
}
# Cell magics that run the rest of the cell in the kernel's own language.
_KERNEL_MAGICS = frozenset(
    {"time", "timeit", "capture", "prun", "debug", "memit", "mprun", "px", "autoreload"}
)
_CELL_MAGIC = fixed_regex(r"[ \t]*%%([\w-]+)[ \t]*([^\n]*)")
# IPython's shell escape: a line of a Python cell run by the shell (`!nvcc -arch=sm_80 k.cu`).
# `files = !ls` (the output assigned) stays Python's: only a line opening with the `!`.
# The %env line magic (and %set_env) sets the kernel's environment as a shell assignment does
# (`%env CUDA_VISIBLE_DEVICES=0` picks the GPU in dpaiton/DeepSparseCoding's notebooks): its
# argument is read as that assignment, so the shell's environment rules see it.
_SHELL_ESCAPE = fixed_regex(r"[ \t]*(?:!(?!=)|%(?:set_)?env[ \t]+)")


@dataclass(slots=True)
class VirtualFile:
    """Code cells read as one file: its path (for the language table), its text, and the
    notebook line (1-based) of each of its lines."""

    path: str
    parts: list[str] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(self.parts)


def read(path: str, text: str) -> list[VirtualFile]:
    """The code cells of the notebook ``text`` (named ``path``), as virtual files in order of
    first appearance. Raises ``ValueError`` when ``text`` is no JSON object of cells."""
    metadata, cells = _walk(text)
    kernel = _kernel_extension(metadata)
    stem = path.rsplit(".", 1)[0] if "." in path.rsplit("/", 1)[-1] else path
    files: dict[str, VirtualFile] = {}
    newlines = _LineNumbers(text)
    for cell_type, sources, cell_metadata in cells:
        if cell_type != "code" or not sources:
            continue
        parts, lines = _cell_lines([(s, newlines.line(at)) for s, at in sources])
        if not parts:
            continue
        # A cell may say its own language (VS Code's vscode.languageId: a CUDA cell in a
        # Python notebook): its code is that language's, not the kernel's.
        language = _cell_extension(cell_metadata) or kernel
        target = language and stem + language
        magic = _CELL_MAGIC.match(parts[0])
        if magic is not None:
            target = _magic_target(path, stem, language, magic.group(1), magic.group(2))
            parts[0] = "\n"  # the magic is Jupyter's, not the cell language's: a blank line
        if not target:
            continue
        if target.endswith(".py"):
            _move_shell_escapes(files, stem + ".sh", parts, lines)
        file = files.setdefault(target, VirtualFile(target))
        file.parts.extend(parts)
        file.lines.extend(lines)
    return list(files.values())


def _move_shell_escapes(
    files: dict[str, VirtualFile], shell: str, parts: list[str], lines: list[int]
) -> None:
    """Moves a Python cell's shell escapes (``!nvcc ...``) and %env assignments to the
    notebook's shell file, each left a blank line where it was: the shell runs them, as it
    runs a %%bash cell."""
    for index, part in enumerate(parts):
        escape = _SHELL_ESCAPE.match(part)
        if escape is not None:
            file = files.setdefault(shell, VirtualFile(shell))
            file.parts.append(part[escape.end() :])
            file.lines.append(lines[index])
            parts[index] = "\n"


def source_line(line: str) -> str:
    """The code a notebook's JSON line holds, as written in its cell (``"    x = f(y)\\n",``
    holds ``    x = f(y)``): what the line means when compared with a line of another file.
    A line that holds no JSON string is returned as it is."""
    try:
        value = json.loads(line.strip().removesuffix(","))
    except ValueError:
        return line
    return value.rstrip("\n") if isinstance(value, str) else line


def _magic_target(path: str, stem: str, kernel: str | None, name: str, args: str) -> str | None:
    if name == "writefile":
        # `%%writefile -a kernels/k.cu`: the file's name, next to the notebook.
        words = [w for w in args.split() if not w.startswith("-")]
        target = posixpath.basename(words[0].strip("'\"")) if words else ""
        # A notebook the cell writes is not read as one: no notebook nests another.
        if not target or target.lower().endswith(".ipynb"):
            return None
        return posixpath.join(posixpath.dirname(path), target)
    if name in _MAGIC_EXTENSIONS:
        return stem + _MAGIC_EXTENSIONS[name]
    if name in _KERNEL_MAGICS and kernel:
        return stem + kernel
    return None  # %%html, %%latex, %%sql, a magic of some extension: not the kernel's code


def _cell_extension(metadata: object) -> str | None:
    """The extension of the language a cell's metadata names (VS Code's languageId), if
    the language table knows it."""
    if isinstance(metadata, dict):
        vscode = metadata.get("vscode")
        if isinstance(vscode, dict) and isinstance(vscode.get("languageId"), str):
            return _KERNEL_EXTENSIONS.get(vscode["languageId"].strip().lower())
    return None


def _kernel_extension(metadata: object) -> str | None:
    """The extension of the kernel's language: Python when the notebook does not say."""
    if not isinstance(metadata, dict):
        return ".py"
    for key, name_key in (("kernelspec", "language"), ("language_info", "name")):
        section = metadata.get(key)
        if isinstance(section, dict) and isinstance(section.get(name_key), str):
            return _KERNEL_EXTENSIONS.get(section[name_key].strip().lower())
    return ".py"


def _cell_lines(sources: list[tuple[str, int]]) -> tuple[list[str], list[int]]:
    """A cell's lines (each ending with a newline) and the notebook line of each, from its
    source strings and the notebook line each starts on."""
    text = "".join(s for s, _ in sources)
    if not text.strip():
        return [], []
    lines: list[int] = []
    at_start = True
    for string, line in sources:
        if not string:
            continue
        if at_start:
            lines.append(line)
        ends = string.endswith("\n")
        lines.extend([line] * (string.count("\n") - ends))
        at_start = ends
    # splitlines also breaks at \r, \x0b, \x0c...: only \n ends a line here, as in git.
    parts = [line + "\n" for line in text.removesuffix("\n").split("\n")]
    return parts, lines


class _LineNumbers:
    """Offset -> 1-based line, for offsets asked in increasing order."""

    __slots__ = ("_at", "_line", "_text")

    def __init__(self, text: str) -> None:
        self._text, self._at, self._line = text, 0, 1

    def line(self, offset: int) -> int:
        self._line += self._text.count("\n", self._at, offset)
        self._at = offset
        return self._line


def _ws(text: str, i: int) -> int:
    match = _WS.match(text, i)
    return match.end() if match is not None else i


def _expect(text: str, i: int, char: str) -> int:
    if text[i : i + 1] != char:
        raise ValueError(f"expected {char!r} at offset {i}")
    return _ws(text, i + 1)


def _object(text: str, i: int, handlers: dict[str, Handler]) -> int:
    """Walks the JSON object at ``i``: ``handlers[key](text, offset)`` reads a value and
    returns the offset after it; any other value is decoded and dropped. Returns the offset
    after the object."""
    i = _expect(text, i, "{")
    if text[i : i + 1] == "}":
        return i + 1
    while True:
        if text[i : i + 1] != '"':
            raise ValueError(f"expected a key at offset {i}")
        key, i = _DECODER.raw_decode(text, i)
        i = _expect(text, _ws(text, i), ":")
        handler = handlers.get(key)
        i = _ws(text, handler(text, i) if handler else _DECODER.raw_decode(text, i)[1])
        if text[i : i + 1] == "}":
            return i + 1
        i = _expect(text, i, ",")


def _array(text: str, i: int, item: Handler) -> int:
    """Walks the JSON array at ``i``, ``item`` reading each value; the offset after it."""
    i = _expect(text, i, "[")
    if text[i : i + 1] == "]":
        return i + 1
    while True:
        i = _ws(text, item(text, i))
        if text[i : i + 1] == "]":
            return i + 1
        i = _expect(text, i, ",")


Handler = Callable[[str, int], int]
Sources = list[tuple[str, int]]  # a cell's source strings and the offset each starts at


def _stored(store: dict[str, object], key: str) -> Handler:
    """A handler that decodes the JSON value at its offset into ``store[key]``."""

    def decode(text: str, at: int) -> int:
        store[key], end = _DECODER.raw_decode(text, at)
        return end

    return decode


def _walk(text: str) -> tuple[object, list[tuple[object, Sources, object]]]:
    """The notebook's metadata, and each cell's type, source strings with their offsets and
    metadata. A key given twice: the last wins, as in json.loads."""
    found: dict[str, object] = {}
    cells: list[tuple[object, Sources, object]] = []

    def cell(text: str, at: int) -> int:
        fields: dict[str, object] = {}
        sources: Sources = []

        def string(text: str, at: int) -> int:
            if text[at : at + 1] != '"':
                raise ValueError(f"expected a source string at offset {at}")
            value, end = _DECODER.raw_decode(text, at)
            sources.append((value, at))
            return end

        def source(text: str, at: int) -> int:
            sources.clear()
            return _array(text, at, string) if text[at : at + 1] == "[" else string(text, at)

        # nbformat 3 kept a code cell's source under "input".
        end = _object(
            text,
            at,
            {
                "cell_type": _stored(fields, "cell_type"),
                "source": source,
                "input": source,
                "metadata": _stored(fields, "metadata"),
            },
        )
        cells.append((fields.get("cell_type"), sources, fields.get("metadata")))
        return end

    def cell_list(text: str, at: int) -> int:
        cells.clear()
        return in_cells(text, at)

    def in_cells(text: str, at: int) -> int:
        return _array(text, at, cell)

    def worksheet(text: str, at: int) -> int:
        return _object(text, at, {"cells": in_cells})

    def worksheets(text: str, at: int) -> int:  # nbformat 3: the cells in worksheets
        return _array(text, at, worksheet)

    handlers: dict[str, Handler] = {
        "metadata": _stored(found, "metadata"),
        "cells": cell_list,
        "worksheets": worksheets,
    }
    end = _object(text, _ws(text, 0), handlers)
    if _ws(text, end) != len(text):
        raise ValueError("text after the notebook")
    return found.get("metadata"), cells
