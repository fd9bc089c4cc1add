"""by_path: file names, globs and every dotted suffix, as the language table lists them."""

from __future__ import annotations

import fnmatch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import classify
from bot.engine.languages import _BY_EXT, _BY_FILE, _GLOBS, Language, by_path
from bot.engine.model import Layer


@pytest.mark.parametrize(
    ("path", "language", "ext"),
    [
        ("src/kernel.cu", "CUDA", ".cu"),
        ("src/Scene.jsx", "JavaScript", ".jsx"),  # as linguist has it (scc: JSX)
        ("tf/time_two_kernels.cu.cc", "CUDA", ".cu.cc"),  # the longest suffix first
        ("a/b.tar.cc", "C++", ".cc"),  # '.tar.cc' names nothing: the next suffix does
        ("A.CU", "CUDA", ".cu"),
        ("ops/.hidden.py", "Python", ".py"),
        ("CMakeLists.txt", "CMake", ""),
        ("docker/x.Dockerfile", "Dockerfile", ""),
        ("dockerfile.dev", "Dockerfile", ""),
        ("requirements-dev.txt", "Requirements", ""),
        ("constraints.txt", "Requirements", ""),
        ("notes.txt", "Plain Text", ".txt"),  # documentation: counted apart from code
        ("weights.bin", None, ""),
        (".cu", None, ""),  # a leading dot opens no extension
        ("Makefile.cu", "CUDA", ".cu"),
        ("tests/namespace/namespace.cpp.in", "C++", ".cpp.in"),  # a configure_file() source
        ("config.h.in", "Autoconf", ".in"),
    ],
)
def test_by_path(path: str, language: str | None, ext: str) -> None:
    named, found = by_path(path)
    assert (named.name if named else None, found) == (language, ext)


def reference(filename: str) -> tuple[Language | None, str]:
    """The table read the plain way: file name, then each glob, then each dotted suffix."""
    if filename in _BY_FILE:
        return _BY_FILE[filename], ""
    for glob, lang in _GLOBS:
        if fnmatch.fnmatchcase(filename, glob):
            return lang, ""
    lower = filename.lower()
    for ext in [lower[i:] for i, ch in enumerate(lower) if ch == "." and i > 0]:
        if ext in _BY_EXT:
            return _BY_EXT[ext], ext
    return None, ""


# Pieces of the listed names, globs and extensions, so that many names hit one.
PIECES = ["Dockerfile", "dockerfile", "Containerfile", "requirements", "constraints", "CMakeLists"]
PIECES += [".txt", ".in", ".cu", ".cc", ".py", ".h", ".", "-", "_", "a", "X", "/"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=6).map("".join))
def test_any_name_gets_the_tables_answer(path: str) -> None:
    assert by_path(f"dir/{path}") == reference(path.rsplit("/", 1)[-1])


@pytest.mark.parametrize("tail", [".cu.cc", ".vcxproj.filters", ".CU", ".tar", ""])
def test_a_name_of_many_dots_gets_the_tables_answer(tail: str) -> None:
    """Only a suffix as long as the table's longest extension can name one: a name of
    thousands of dots (any name a git tree entry is given) is read from its end."""
    name = ".x" * 5_000 + tail
    assert by_path(f"dir/{name}") == reference(name)


def test_a_react_component_holds_its_shaders_as_a_javascript_file_does() -> None:
    """A react-three-fiber component (.jsx) keeps its GLSL in the template literals a .js
    file would: read as JavaScript, its shader is kernel code, as in the .js and .tsx."""
    source = b"""\
import { shaderMaterial } from "@react-three/drei";
export const WaveMaterial = shaderMaterial(
  { uTime: 0 },
  `
  varying vec2 vUv;
  void main() {
    vUv = uv;
    gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0);
  }
  `,
);
export function Wave() {
  return <mesh><planeGeometry /><waveMaterial /></mesh>;
}
"""
    counts = {path: classify(path, source).layers[Layer.KERNEL] for path in ("w.jsx", "w.js")}
    assert counts == {"w.jsx": 7, "w.js": 7}
