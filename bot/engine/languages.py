"""Path (and, for ambiguous extensions, content) -> language, from data/languages.yml and the
rows data/languages-scc.yml imports from scc's table."""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Set
from dataclasses import dataclass
from functools import cache
from typing import Any

from bot.engine import lexer, literals, syntax
from bot.engine import literal_first as literal_first_module
from bot.engine.keywords import KeywordIndex
from bot.engine.lexer import FAMILIES, TEMPLATE_TAGS, Family, lex
from bot.engine.literal_first import literal_first
from bot.engine.precompiled import (
    DATA,
    Precompiled,
    cache_dir,
    fixed_regex,
    load_yaml,
    module_sources,
)
from bot.engine.syntax import syntax_family, syntax_pattern


@dataclass(frozen=True, slots=True)
class Language:
    name: str
    family: Family
    # Documentation and data (Markdown, JSON, plain text, HTML): lines counted as scc counts
    # them, but no code, so outside the code lines and the lock-in share.
    text: bool = False
    # A template language (lexer.TEMPLATE_TAGS): a file of it that a heuristic names a code
    # language is read as that language with the template's tags masked first.
    template: str | None = None


@dataclass(frozen=True, slots=True)
class _Heuristic:
    """Content or folder evidence that a file with an ambiguous extension is ``language``."""

    extensions: frozenset[str]
    language: Language
    path: re.Pattern[str] | None  # the path must match
    keywords: tuple[str, ...]  # literals, one of which the text must hold before ``pattern``
    pattern: re.Pattern[str] | None  # the text must match
    unless: re.Pattern[str] | None  # the text must not match

    def holds(self, path: str, text: str, found: Set[str], present: dict[str, bool]) -> bool:
        """``found``: the heuristics' keywords ``text`` holds (``_keywords_in``);
        ``present``: the literals looked for in ``text`` so far (``literals.search``)."""
        # The keywords first, looked up in a set: a path regex is tried from every '/' of the
        # path, and the shader folders' one (case-insensitive, shared by the GLSL and HLSL
        # heuristics, whose keywords few headers hold) cost a quarter of refine's time.
        return (
            (self.pattern is None or any(map(found.__contains__, self.keywords)))  # no frame
            and (self.path is None or self.path.search(path) is not None)
            and (self.pattern is None or literals.search(self.pattern, text, present))
            and not (self.unless and literals.search(self.unless, text, present))
        )


#: The hand-written table, then the rows imported from scc's (scripts/import_scc_languages.py),
#: which name no language, extension or file name the first does.
_FILES = ("languages.yml", "languages-scc.yml")


def _load() -> tuple[
    dict[str, Language], dict[str, Language], dict[str, Language], re.Pattern[str] | None,
    list[tuple[str, Language]], list[_Heuristic], dict[str, frozenset[str]],
    dict[str, Language], re.Pattern[str], tuple[str, ...],
]:  # fmt: skip
    files = [(name, (DATA / name).read_bytes()) for name in _FILES]
    # Parsed, rewritten and compiled once per content, like the rule registry
    # (precompiled.py): the source of the code deriving from the rows is part of the key.
    deriving = module_sources(literal_first_module, literals, syntax, lexer)
    store = Precompiled(cache_dir(), [*files, *deriving], name="languages")
    raw, imported = store.documents(lambda: [load_yaml(data.decode("utf-8")) for _, data in files])
    # Each syntax-described language's master regex as built from its row, and the globs'
    # one (``glob_pattern``): kept with the cache, as building them was half the table's load
    # (3 of 6 ms).
    patterns: dict[str, str] = dict(store.derived("patterns") or {})

    def tokens(name: str, described: dict[str, Any]) -> re.Pattern[str]:
        pattern = patterns.get(name)
        if pattern is None:
            pattern = patterns[name] = syntax_pattern(described)
        return store.regex(pattern, 0)

    if overlap := raw["languages"].keys() & imported["languages"].keys():
        raise ValueError(f"languages named twice: {sorted(overlap)}")
    by_name: dict[str, Language] = {}
    by_file: dict[str, Language] = {}
    by_ext: dict[str, Language] = {}
    globs: list[tuple[str, Language]] = []
    by_interpreter: dict[str, Language] = {}
    for name, spec in (raw["languages"] | imported["languages"]).items():
        family = (
            FAMILIES[spec["family"]]
            if "family" in spec
            else syntax_family(name, tokens(name, spec.get("syntax", {})))
        )
        template = spec.get("template")
        if template is not None and template not in TEMPLATE_TAGS:
            raise ValueError(f"{name}: unknown template tags {template!r}")
        lang = Language(name, family, text=bool(spec.get("text", False)), template=template)
        by_name[name] = lang
        for filename in spec.get("filenames", ()):
            by_file[filename] = lang
        for ext in spec.get("extensions", ()):
            by_ext[ext.lower()] = lang
        globs += [(glob, lang) for glob in spec.get("globs", ())]
        by_interpreter.update(dict.fromkeys(spec.get("interpreters", ()), lang))
    regex = store.regex
    # The heuristics' patterns rewritten as the rules' are, so re can skip ahead to them;
    # kept with the cache, as rewriting checks each result by compiling it twice.
    rewritten: dict[str, str] = dict(store.derived("rewritten") or {})

    def rewrite(source: str) -> str:
        found = rewritten.get(source)
        if found is None:
            found = rewritten[source] = literal_first(source)
        return found

    glob_re = None
    if globs:
        glob_pattern = store.derived("glob_pattern")
        if glob_pattern is None:
            glob_pattern = "|".join(f"(?:{fnmatch.translate(g)})" for g, _ in globs)
            store.keep("glob_pattern", glob_pattern)
        glob_re = regex(glob_pattern, 0)
    heuristics = [
        _Heuristic(
            frozenset(h["extensions"]),
            by_name[h["language"]],
            regex(h["path"], 0) if h.get("path") else None,
            # `keyword`: one literal, or a list of which any will do ("" holds everywhere).
            tuple(k if isinstance(k := h.get("keyword", ""), list) else [k]),
            regex(rewrite(h["pattern"]), re.M) if h.get("pattern") else None,
            regex(rewrite(h["unless"]), re.M) if h.get("unless") else None,
        )
        for h in raw.get("heuristics", ())
    ]
    groups = {name: frozenset(members) for name, members in raw.get("groups", {}).items()}
    words = store.derived("glob_words")
    if words is None:
        store.keep("glob_words", words := _glob_words(globs))
    glob_words = regex(words, 0)
    store.keep("rewritten", rewritten)
    store.keep("patterns", patterns)
    store.save()
    return (
        by_name, by_file, by_ext, glob_re, globs, heuristics, groups, by_interpreter, glob_words,
        tuple(ext.lower() for ext in raw.get("documents", ())),
    )  # fmt: skip


def _glob_words(globs: list[tuple[str, Language]]) -> str:
    """A literal each glob's matches hold, as one regex: a name holding none of them is no
    glob's, found at C speed (the globs' regex tries each of its '.*' at every offset).
    A glob without such a literal makes it match every name. Kept with the cache: learning
    what the globs need compiles each of them."""
    words: set[str] = set()
    for glob, _ in globs:
        need = literals.need(re.compile(fnmatch.translate(glob)))
        if isinstance(need, tuple) and need[0] == "all":
            need = next((part for part in need[1] if isinstance(part, str)), None)
        if not isinstance(need, str):
            return ""
        words.add(need)
    return "|".join(map(re.escape, sorted(words)))


(
    LANGUAGES, _BY_FILE, _BY_EXT, _GLOB_RE, _GLOBS, _HEURISTICS, GROUPS, _BY_INTERPRETER,
    _GLOB_WORDS, _DOCUMENTS,
) = _load()  # fmt: skip

# "#!/usr/bin/env -S python3 -u" or "#! /bin/bash": the interpreter's name, without the env
# indirection (and its options) and without the folder.
_SHEBANG = fixed_regex(rb"#![ \t]*(?:\S*/)?(?:env[ \t]+(?:-\S*[ \t]+)*)?(?:\S*/)?([\w.+-]+)")


def expand(names: list[str] | tuple[str, ...]) -> frozenset[str]:
    """Language names, with group names (data/languages.yml `groups`) replaced by members."""
    out: set[str] = set()
    for name in names:
        if name in GROUPS:
            out |= GROUPS[name]
        elif name in LANGUAGES:
            out.add(name)
        else:
            raise ValueError(f"unknown language or group: {name!r}")
    return frozenset(out)


#: The length of the longest extension (with its dot) a language names.
_LONGEST_EXT = max(map(len, _BY_EXT), default=0)


def by_path(path: str) -> tuple[Language | None, str]:
    """The language a path names (before content heuristics) and the extension that chose it."""
    filename = path.rsplit("/", 1)[-1]
    if filename in _BY_FILE:
        return _BY_FILE[filename], ""
    # A document's extension outranks the globs (data/languages.yml `documents`): a
    # Dockerfile.md or dockerfile-notes.md is prose about a Dockerfile, not one.
    if (
        _GLOB_RE is not None
        and _GLOB_WORDS.search(filename)
        and _GLOB_RE.match(filename)
        and not filename.lower().endswith(_DOCUMENTS)
    ):
        for glob, lang in _GLOBS:
            if fnmatch.fnmatchcase(filename, glob):
                return lang, ""
    # Every dotted suffix, longest first ('a.cu.cc': '.cu.cc', then '.cc'); a leading dot
    # opens no extension. None longer than the table's longest: a name of a hundred thousand
    # dots took each of its suffixes in turn (seconds, quadratic in its length).
    lower = filename.lower()
    dot = lower.find(".", max(1, len(lower) - _LONGEST_EXT))
    while dot > 0:
        ext = lower[dot:]
        if ext in _BY_EXT:
            return _BY_EXT[ext], ext
        dot = lower.find(".", dot + 1)
    return None, ""


# Per extension, the content heuristics that may move it to another language (a .jinja
# template of CUDA), in the data's order: the first that holds wins.
_HEURISTICS_BY_EXT: dict[str, tuple[_Heuristic, ...]] = {
    ext: tuple(h for h in _HEURISTICS if ext in h.extensions)
    for ext in sorted({ext for h in _HEURISTICS for ext in h.extensions})
}


@cache
def _heuristic_keywords(ext: str) -> KeywordIndex:
    """The keywords of the heuristics for ``ext``, built the first time a file needs them."""
    return KeywordIndex(frozenset(k for h in _HEURISTICS_BY_EXT[ext] for k in h.keywords if k))


def _keywords_in(ext: str, text: str) -> set[str]:
    """Which keywords of the heuristics for ``ext`` ``text`` holds, and "" (which every text
    holds): one pass over the text for them all, where a header's twenty heuristics each
    read it to its end for a keyword it lacks (0.08 -> 0.05 s over the bench corpus)."""
    found = _heuristic_keywords(ext).found(text)
    found.add("")
    return found


# Extensions no language owns that heuristics name by content alone (MIOpen's .inc fragments
# of AMD GPU assembly, included by its .s kernels): such a file counts only when one holds;
# otherwise it is left out, as scc leaves the extension out.
_BY_CONTENT_ONLY = {ext: hs for ext, hs in _HEURISTICS_BY_EXT.items() if ext not in _BY_EXT}


def content_extension(path: str) -> str:
    """The extension of ``path`` when only its content may name its language, else ""."""
    filename = path.rsplit("/", 1)[-1].lower()
    dot = filename.rfind(".")
    ext = filename[dot:] if dot > 0 else ""
    return ext if ext in _BY_CONTENT_ONLY else ""


def by_content(path: str, ext: str, text: str) -> Language | None:
    """The language the first heuristic for ``ext`` that holds names (``content_extension``),
    each reading the text as its language lexes it: comments and strings masked."""
    # Per family: the masked text, the keywords it holds and the literals looked for in it.
    read: dict[Family, tuple[str, set[str], dict[str, bool]]] = {}
    for h in _BY_CONTENT_ONLY.get(ext, ()):
        family = h.language.family
        if family not in read:
            masked = lex(text, family).masked
            read[family] = masked, _keywords_in(ext, masked), {}
        if h.holds(path, *read[family]):
            return h.language
    return None


def may_hold_code(path: str) -> bool:
    """Whether the file at ``path`` may hold code lines, by its name alone: a code language,
    a documentation one whose extension a heuristic may turn into code, an extension only
    content names, or no extension at all (a script its ``#!`` line names). What a pull
    request's check must read. A heuristic bound to a folder or a name (HLSL in a
    ``*Shader*.txt``) leaves the other files of its extension unread."""
    lang, ext = by_path(path)
    if lang is None:
        return "." not in path.rsplit("/", 1)[-1] or bool(content_extension(path))
    return not lang.text or any(
        h.path is None or h.path.search(path) for h in _HEURISTICS_BY_EXT.get(ext, ())
    )


def by_shebang(data: bytes) -> Language | None:
    """The language of a script that no name or extension places, from its ``#!`` line:
    ``python3.11`` and ``python`` alike are Python (version digits dropped)."""
    found = _SHEBANG.match(data) if data.startswith(b"#!") else None
    if found is None:
        return None
    name = found.group(1).decode("ascii", "replace").rstrip("0123456789.")
    return _BY_INTERPRETER.get(name)


def heuristic_keywords(family: str) -> frozenset[str]:
    """The keywords of the heuristics ``refine`` tries on the files of the lexer family
    ``family`` (those of the extensions its languages own)."""
    return frozenset(
        keyword
        for ext, heuristics in _HEURISTICS_BY_EXT.items()
        if ext in _BY_EXT and _BY_EXT[ext].family.name == family
        for h in heuristics
        for keyword in h.keywords
        if keyword
    )


def refine(
    lang: Language, ext: str, path: str, code: str, found: Set[str] | None = None
) -> Language:
    """The language ``by_path`` named, or the one a heuristic finds in the file's ``code``.

    ``code`` is the text with comments (and string literals) masked: a ``[[kernel]]`` or a
    ``cuda_runtime`` named in a comment is no evidence of the language. ``found``: the
    keywords ``code`` holds, when the caller searched it for ``heuristic_keywords`` of its
    family already (else they are searched here).
    """
    # A header meets a dozen heuristics, whose conditions share literals ("#", "include",
    # "cuda_runtime"): each is looked for in the file once.
    heuristics = _HEURISTICS_BY_EXT.get(ext)
    if heuristics is None:
        return lang
    found = _keywords_in(ext, code) if found is None else {"", *found}
    present: dict[str, bool] = {}
    for h in heuristics:
        if h.holds(path, code, found, present):
            return h.language
    return lang
