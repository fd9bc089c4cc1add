"""An HTML page's ``<script>`` elements as the source files they stand for, each line placed
where it is in the page.

A page is documentation to lockin (its lines counted apart, as text), but the scripts in it
are code: a WebGL demo keeps its shaders in ``<script type="x-shader/x-fragment">`` elements
and the JavaScript that compiles them in a plain ``<script>``; a WebGPU sample keeps its WGSL
in that JavaScript's template literals. ``read`` returns them as virtual files, as
``notebooks.read`` returns a notebook's cells: the JavaScript of the page joined in order (a
``const gl`` in the first script informs the calls in the last), and the shader elements
joined by the stage their type names (``x-shader/x-vertex`` a ``.vert``, a type naming WGSL
a ``.wgsl``). Elements of any other type (templates, JSON, import maps) and elements that
only load a file (``src=``, empty) are none.

Hostile input: each opening tag's attributes are read for at most ``_ATTRIBUTES``
characters, the search for a closing tag goes on from where the last one ended, and a page
is a handful of virtual files however many elements it holds (one each, ten thousand shader
elements took 0.46 s for 570 KB), so a page is read once whatever it holds.
"""

from __future__ import annotations

import re

from bot.engine.notebooks import VirtualFile
from bot.engine.precompiled import fixed_regex

#: The language languages.yml names for ``.html``: classify reads such files here.
LANGUAGE = "HTML"

_ATTRIBUTES = 2000
_OPEN = fixed_regex(rf"<script\b([^<>]{{0,{_ATTRIBUTES}}})>", re.I)
_CLOSE = fixed_regex(r"</script[ \t\r\n]*>", re.I)
_TYPE = fixed_regex(
    r"""(?:^|[ \t\r\n])type[ \t\r\n]*=[ \t\r\n]*(?:"([^"]*)"|'([^']*)'|([^ \t\r\n"'>]+))""", re.I
)
#: The types a browser runs as JavaScript (no type at all is JavaScript too).
_JAVASCRIPT = frozenset(
    {
        "",
        "module",
        "text/javascript",
        "application/javascript",
        "text/ecmascript",
        "application/ecmascript",
        "text/babel",  # JSX compiled in the page (React demos)
    }
)
# A shader element's type, as WebGL tutorials and three.js examples spell it: x-shader/x-vertex,
# x-shader/x-fragment, text/x-glsl, x-shader/wgsl...
_STAGES = ((".wgsl", "wgsl"), (".vert", "vert"), (".frag", "frag"), (".comp", "comp"))


def _extension(attributes: str) -> str | None:
    """The extension the element's code would have as a file; None for no code lockin reads."""
    found = _TYPE.search(attributes)
    kind = "" if found is None else next(g for g in found.groups() if g is not None)
    kind = kind.strip().lower()
    if kind in _JAVASCRIPT:
        return ".js"
    if kind.startswith(("x-shader/", "text/x-shader", "x-shader-")) or "glsl" in kind:
        return next((ext for ext, word in _STAGES if word in kind), ".glsl")
    if "wgsl" in kind:
        return ".wgsl"
    return None


def read(path: str, text: str) -> list[VirtualFile]:
    """The script elements of the page ``text`` (named ``path``) that hold code, as virtual
    files: the page's JavaScript first, then its shaders, one file a stage."""
    stem = path.rsplit(".", 1)[0] if "." in path.rsplit("/", 1)[-1] else path
    line, counted = 1, 0  # the page line at offset ``counted``
    files: dict[str, VirtualFile] = {".js": VirtualFile(stem + ".js")}  # JavaScript first
    at = 0
    while (opening := _OPEN.search(text, at)) is not None:
        body = opening.end()
        closing = _CLOSE.search(text, body)
        end = closing.start() if closing is not None else len(text)
        at = closing.end() if closing is not None else len(text)
        ext = _extension(opening.group(1))
        if ext is None or not text[body:end].strip():
            continue
        file = files.setdefault(ext, VirtualFile(f"{stem}.scripts{ext}"))
        line += text.count("\n", counted, body)  # the line the body opens on
        counted = body
        parts = text[body:end].split("\n")
        file.parts.extend(part + "\n" for part in parts)
        file.lines.extend(range(line, line + len(parts)))
    return [file for file in files.values() if file.parts]
