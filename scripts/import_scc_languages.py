"""Write bot/engine/data/languages-scc.yml: every language scc counts that
data/languages.yml does not, described by scc's own comment and string syntax.

    python scripts/import_scc_languages.py PATH/TO/scc/languages.json --commit SHA

scc (boyter/scc, MIT) keeps its languages in ``languages.json``: extensions, file names,
line comment openers, block comment pairs and quotes. lockin's hand-written rows come first
(they carry families, rules and heuristics); this script adds a row for each other language,
so a file scc counts is counted here too, its lines as scc counts them. Only facts are taken
(names, extensions, delimiters).

Left out, each for a reason named below: languages that are ours under another name; an
extension two scc languages claim, or that real trees use for something else (``.pro`` is a
Qt project far more often than Prolog); quotes of more than one character (the syntax rows
have one-character quotes: a triple quote reads as three one-character strings, the same
lines). Documentation and data languages are marked ``text: true``: their lines are counted
apart from code, as data/languages.yml does for Markdown and JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

DATA = Path(__file__).resolve().parent.parent / "bot" / "engine" / "data"
OURS = DATA / "languages.yml"
OUT = DATA / "languages-scc.yml"

#: scc names for languages data/languages.yml already has under its own name.
#: BASH and Zsh (their dotfiles too) and PKGBUILD are Shell here, Scons Python, Rakefile
#: Ruby, Bazel Starlark, XMake's xmake.lua Lua.
ALIASES = frozenset(
    {
        "BASH", "Zsh", "Jupyter", "Bazel", "Rakefile", "PKGBUILD", "Scons", "XMake",
        # scc names .gitignore and .ignore but never counts them: its walker skips them.
        "gitignore", "ignore",
        "Bitbucket Pipeline",  # a file name scc matches whole: YAML here
        "FORTRAN Legacy",  # Fortran (fixed form), by columns: scc takes `call` for a comment
        "JSX",  # JavaScript here, as in GitHub linguist (TypeScript takes .tsx alike)
    }
)  # fmt: skip
#: Extensions scc gives one language that trees use for other things as often or more.
AMBIGUOUS = {
    "d": "D, and make's dependency files",
    "def": "module definitions, and many tools' own formats",
    "fs": "F#, and GLSL fragment shaders",
    "i": "SWIG interfaces, and preprocessed C",
    "y": "Happy, and yacc grammars",
    "v": "Coq, V and Verilog",
    "t": "Raku, and Perl's tests",
    "pro": "Prolog, and Qt projects",
    "p": "Prolog, and Pascal",
    "pp": "Puppet, and Pascal",
    "re": "ReasonML, and re2c sources",
    "res": "ReScript, and Windows resources",
    "x": "Alex, and RPC definitions",
    "e": "Specman e, and many tools' outputs",
    "k": "K, and many tools' inputs",
    "n": "Nature, and many tools' inputs",
    "cls": "Visual Basic for Applications, and TeX classes",
    "il": "SKILL, and .NET IL",
    "ls": "LiveScript, and listings",
    "do": "Stata, and redo scripts",
    "mc": "Monkey C, and message compiler files",
    "ps": "PostScript, most of it generated",
    "hex": "firmware images",
    "ihex": "firmware images",
    "rules": "Snakemake, and udev rules",
    "build": "Bazel's BUILD, already Starlark",
    "settings": "MSBuild, and editors' settings",
    "link": "systemd units, and linker inputs",
    "path": "systemd units, and plain lists",
    "device": "systemd units",
    "target": "systemd units, and build targets",
    "ft": "Forth, and many tools' inputs",
    "fr": "Forth, and translations",
    "rx": "Forth, and regular expressions",
    "pi": "Picat, and many tools' inputs",
    "tl": "TL, and templates",
    "up": "Up, and many tools' inputs",
    "spl": "SPL, and many tools' inputs",
    "prg": "Clipper, and many tools' inputs",
    "ch": "Clipper, and C headers of old projects",
    "flow": "Flow9, and Flow-typed JavaScript",
    "master": "ASP.NET, and many tools' inputs",
    "al": "AL, and many tools' inputs",
    "ab": "Amber, and many tools' inputs",
    "art": "Arturo, and many tools' inputs",
    "mad": "Madlang, and many tools' inputs",
    "ede": "Emacs Dev Env, and many tools' inputs",
    "emit": "EmiT, and many tools' inputs",
    "gw": "Gwion, and many tools' inputs",
    "bt": "bait, and many tools' inputs",
    "mg": "Modula-3, and many tools' inputs",
    "ig": "Modula-3, and many tools' inputs",
    "crn": "Alchemist, and many tools' inputs",
    "luna": "Luna, and many tools' inputs",
}
#: Documentation and data: lines counted apart from code.
TEXT = frozenset(
    {
        "ABNF", "Avro", "Creole", "Document Type Definition", "FXML", "Intel HEX", "JSON5",
        "JSONC", "Macromedia eXtensible Markup Language", "RAML", "Rich Text Format", "SPDX",
        "TaskPaper", "Textile", "TOON", "Web Services Description Language", "XAML", "XHTML",
        "nuspec", "Game Maker Project", "Godot Scene", "Max", "Report Definition Language",
        "Gherkin Specification", "Verilog Args File", "W.I.S.E. Jobfile",
        "Bean", "Ur/Web Project", "Spice Netlist", "Docker ignore",
    }
)  # fmt: skip


def _our_names() -> tuple[set[str], set[str], set[str]]:
    rows = yaml.safe_load(OURS.read_text("utf-8"))["languages"]
    extensions = {e.lstrip(".").lower() for row in rows.values() for e in row.get("extensions", ())}
    filenames = {f.lower() for row in rows.values() for f in row.get("filenames", ())}
    return set(rows), extensions, filenames


def _syntax(spec: dict[str, Any]) -> dict[str, list[Any]]:
    syntax: dict[str, list[Any]] = {}
    if line := [c for c in spec.get("line_comment") or () if c]:
        syntax["line"] = line
    if block := [list(pair) for pair in spec.get("multi_line") or () if len(pair) == 2]:
        syntax["block"] = block
    quotes = sorted(
        {q["start"] for q in spec.get("quotes") or () if len(q["start"]) == 1 == len(q["end"])}
        & {q["end"] for q in spec.get("quotes") or ()}
    )
    if quotes:
        syntax["quotes"] = quotes
    return syntax


def rows(scc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The rows to write, by scc's language name."""
    names, extensions, filenames = _our_names()
    claims = Counter(e.lower() for spec in scc.values() for e in spec.get("extensions") or ())
    out: dict[str, dict[str, Any]] = {}
    for name in sorted(scc, key=str.lower):
        spec = scc[name]
        if name in names or name in ALIASES:
            continue
        exts = sorted(
            e
            for e in map(str.lower, spec.get("extensions") or ())
            if e not in extensions and e not in AMBIGUOUS and claims[e] == 1
        )
        files = sorted(f for f in spec.get("filenames") or () if f.lower() not in filenames)
        if not exts and not files:
            continue
        row: dict[str, Any] = {"syntax": _syntax(spec)}
        if exts:
            row["extensions"] = [f".{e}" for e in exts]
        if files:
            row["filenames"] = files
        if name in TEXT:
            row["text"] = True
        out[name] = row
    return out


def render(out: dict[str, dict[str, Any]], commit: str) -> str:
    head = (
        "# Generated by scripts/import_scc_languages.py from boyter/scc's languages.json (MIT)\n"
        f"# at commit {commit}; do not edit by hand. Every language scc counts that\n"
        "# languages.yml does not, with scc's comment and string syntax (see the script for\n"
        "# what is left out and why). languages.yml's rows win where both name a file.\n"
        "languages:\n"
    )
    body = []
    for name, row in out.items():
        flow = yaml.safe_dump(row, default_flow_style=True, width=10_000, sort_keys=False)
        key = yaml.safe_dump(name, default_style=None).strip().removesuffix("...").strip()
        body.append(f"  {key}: {flow.strip()}\n")
    return head + "".join(body)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("languages_json", type=Path, help="scc's languages.json")
    parser.add_argument("--commit", required=True, help="the scc commit it comes from")
    args = parser.parse_args()
    scc = json.loads(args.languages_json.read_text("utf-8"))
    OUT.write_text(render(rows(scc), args.commit), "utf-8")
    print(f"wrote {OUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
