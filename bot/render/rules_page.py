"""The rule reference: ``lockin rules`` (the list, or one rule's page) and docs/rules.md.

Every finding names a rule id; this is where a reader looks it up: what the rule matches,
why that code would not move off its vendor, what it would move to, and the registry's own
examples of code it matches and code it leaves alone. SARIF, the check run and the PR comment
link each id to its anchor in docs/rules.md (``rule_url``).
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Sequence
from typing import Any

from bot import DISTRIBUTION
from bot.engine.languages import by_path
from bot.engine.registry import ECOSYSTEMS, SPECS, Example, RuleSpec, current_id
from bot.render.text import table
from bot.render.wording import COST

FORMATS = ("text", "json", "markdown")
#: Overrides where rule ids link to (a copy of docs/rules.md on an internal host, a fork).
RULES_URL_ENV = "LOCKIN_RULES_URL"
_DEFAULT_SOURCE = "https://github.com/lockin-dev/lockin"
DOC_PATH = "docs/rules.md"


@functools.cache
def _source_url() -> str:
    """The repository named in pyproject's [project.urls] (Source), as installed."""
    # late: importlib.metadata takes longer to load than a small scan to count, and only
    # rule links (Markdown, SARIF, the rules page) ask
    from importlib import metadata

    try:
        urls = metadata.metadata(DISTRIBUTION).get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        urls = []
    for entry in urls:
        label, _, url = entry.partition(",")
        if label.strip().lower() == "source" and url.strip():
            return url.strip().rstrip("/")
    return _DEFAULT_SOURCE


def rules_doc_url() -> str:
    """docs/rules.md on the project's repository, or ``$LOCKIN_RULES_URL`` when set."""
    return os.environ.get(RULES_URL_ENV) or f"{_source_url()}/blob/main/{DOC_PATH}"


def rule_url(rule_id: str) -> str:
    """The page of one rule: its anchor in the rule reference."""
    return f"{rules_doc_url()}#{anchor(rule_id)}"


def anchor(rule_id: str) -> str:
    # Rule ids are lower-case letters, digits, dots and hyphens: valid fragment ids as they
    # are, and the same string a reader sees in findings.
    return rule_id


def find(rule_id: str) -> RuleSpec | None:
    """The rule ``rule_id`` names, a renamed rule's old id included."""
    wanted = current_id(rule_id)
    return next((s for s in SPECS if s.rule.id == wanted), None)


def _vendors(spec: RuleSpec) -> str:
    return ", ".join(sorted(spec.rule.vendors)) or "none"


def _fence(example: Example) -> str:
    lang, _ = by_path(example.path)
    return lang.name.lower().replace(" header", "").replace(" ", "-") if lang else ""


def _marker_hint(spec: RuleSpec) -> str:
    return (
        f"If lockin is wrong about a line, say so where a reviewer sees it: a comment "
        f"`lockin: ignore[{spec.rule.id}] <reason>` on that line (or on the line that opens "
        f"the function, block or branch); see [ignore markers](#ignore-markers)."
    )


def _md(text: str) -> str:
    """Prose from the registry as Markdown shows it: `__device__` is not bold, `<<<` no tag."""
    return text.replace("_", "\\_").replace("*", "\\*").replace("<", "&lt;")


def _cell(text: str) -> str:
    return _md(text).replace("|", "\\|")


# -- the list ------------------------------------------------------------------


def _row(spec: RuleSpec) -> dict[str, Any]:
    r = spec.rule
    return {
        "id": r.id,
        "layer": r.layer.value,
        "ecosystem": r.ecosystem,
        "vendors": sorted(r.vendors),
        "summary": r.summary,
    }


def _page(spec: RuleSpec) -> dict[str, Any]:
    def examples(rows: Sequence[Example]) -> list[dict[str, Any]]:
        return [
            {"path": e.path, "code": e.code, **({"lines": list(e.lines)} if e.lines else {})}
            for e in rows
        ]

    return {
        **_row(spec),
        "why": spec.rule.why,
        "instead": spec.rule.instead,
        "url": rule_url(spec.rule.id),
        "examples": {"positive": examples(spec.positive), "negative": examples(spec.negative)},
    }


def render_list(specs: Sequence[RuleSpec], fmt: str) -> str:
    if fmt == "json":
        return json.dumps([_row(s) for s in specs], indent=2) + "\n"
    if fmt == "markdown":
        lines = [
            "| Rule | Layer | Ecosystem | Runs today on | Summary |",
            "| :--- | :--- | :--- | :--- | :--- |",
        ]
        lines += [
            f"| [`{s.rule.id}`](#{anchor(s.rule.id)}) | `{s.rule.layer.value}` | "
            f"{s.rule.ecosystem} | {_vendors(s)} | {_cell(s.rule.summary)} |"
            for s in specs
        ]
        return "\n".join(lines) + "\n"
    rows = [
        [s.rule.id, s.rule.layer.value, s.rule.ecosystem, _vendors(s), s.rule.summary]
        for s in specs
    ]
    return table(["id", "layer", "ecosystem", "vendors", "summary"], rows) + "\n"


# -- one rule ------------------------------------------------------------------


def _markdown_examples(title: str, rows: Sequence[Example]) -> list[str]:
    out = [f"**{title}**", ""]
    for e in rows:
        where = f"`{e.path}`" + (f", lines {e.lines[0]}-{e.lines[1]}" if e.lines else "")
        out += [f"{where}:", "", f"```{_fence(e)}", e.code.rstrip("\n"), "```", ""]
    return out


def markdown_page(spec: RuleSpec, *, heading: str = "##") -> str:
    r = spec.rule
    lines = [
        f'{heading} <a id="{anchor(r.id)}"></a>`{r.id}`',
        "",
        f"{_md(r.summary[:1].upper() + r.summary[1:])}.",
        "",
        f"Layer `{r.layer.value}` (moving it costs a {COST[r.layer]}) · ecosystem "
        f"{ECOSYSTEMS[r.ecosystem].title} · runs today on: {_vendors(spec)}",
        "",
        f"**Why it would not move.** {_md(r.why)}",
        "",
        f"**Instead.** {_md(r.instead)}",
        "",
        *_markdown_examples("Matches", spec.positive),
        *_markdown_examples("Does not match", spec.negative),
        _marker_hint(spec),
        "",
    ]
    return "\n".join(lines)


def _text_page(spec: RuleSpec) -> str:
    r = spec.rule
    out = [
        r.id,
        "",
        f"  {r.summary}",
        "",
        f"  layer:      {r.layer.value} (moving it costs a {COST[r.layer]})",
        f"  ecosystem:  {ECOSYSTEMS[r.ecosystem].title}",
        f"  runs on:    {_vendors(spec)}",
        f"  page:       {rule_url(r.id)}",
        "",
        "Why it would not move",
        f"  {r.why}",
        "",
        "Instead",
        f"  {r.instead}",
    ]
    for title, rows in (("Matches", spec.positive), ("Does not match", spec.negative)):
        out += ["", title]
        for e in rows:
            where = e.path + (f" (lines {e.lines[0]}-{e.lines[1]})" if e.lines else "")
            out += [f"  {where}:", *(f"    {line}" for line in e.code.rstrip("\n").split("\n"))]
    out += ["", f"Ignore a line lockin is wrong about: lockin: ignore[{r.id}] <reason>"]
    return "\n".join(out) + "\n"


MARKERS_SECTION = """\
## Ignore markers

When lockin is wrong about a line, say so in the code, where a reviewer sees it:

```cuda
int n = params.gridDim.x;  // lockin: ignore[cuda.device-builtin] a host struct field
```

The marker is `lockin: ignore[RULE-ID] REASON` inside a comment of the file's language
(`//`, `/* */`, `#`, `--`...); several ids may be listed, separated by commas
(`ignore[cuda.runtime, cuda.include]`). A marker inside a string is not a marker.

- **Which lines it covers.** Its *target line* is the line it is on when that line holds
  code (a trailing comment), otherwise the next line that holds code (a comment line of its
  own above the code). A region the named rule claims *starting* on the target line is
  covered whole: the function, block, statement or preprocessor branch (put the marker above
  the first line of the region, e.g. above `template <...>` of a kernel). A neighbouring
  region of the same rule is not covered, even where the two show as one finding. Otherwise
  only the target line is covered, when the rule owns it.
- **What covered lines count as.** They leave their layer and count as portable, and are
  listed and counted apart as *ignored* (per rule, with the reason) in `lockin scan` (text,
  JSON, Markdown, SARIF suppressions), `lockin diff`, the check run and the PR comment. The
  gate does not count ignored added lines as added non-portable code.
- **What is reported, not obeyed.** A marker without a reason, naming an unknown rule id, or
  covering no line of the rule it names is listed as a marker problem (and ignores nothing).
- **Turning markers off.** With `ignore_markers: not-allowed` in `.github/lockin.yml`,
  markers ignore nothing: every line counts as if they were absent, and each marker that would
  have ignored code is listed as a problem. The default is `allowed`.
"""


def rules_document() -> str:
    """docs/rules.md: the list, then every rule's page by ecosystem, then the markers."""
    out = [
        "# lockin rules",
        "",
        "<!-- Generated from bot/engine/data/rules/*.yml by `make rules-doc`; do not edit. -->",
        "",
        "Every finding names one of these rules. Each page says what the rule matches, why",
        "that code would not move off its vendor, what the portable or other-vendor",
        "equivalent is, and shows the registry's own examples (the tests run them).",
        "`lockin rules` prints the same pages.",
        "",
        render_list(SPECS, "markdown"),
    ]
    for ecosystem in dict.fromkeys(s.rule.ecosystem for s in SPECS):
        out += [f"## {ECOSYSTEMS[ecosystem].title}", ""]
        out += [markdown_page(s, heading="###") for s in SPECS if s.rule.ecosystem == ecosystem]
    out.append(MARKERS_SECTION)
    return "\n".join(out)


def render_page(spec: RuleSpec, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(_page(spec), indent=2) + "\n"
    if fmt == "markdown":
        return markdown_page(spec)
    return _text_page(spec)


def main(argv: Sequence[str]) -> int:
    """``python -m bot.render.rules_page FILE``: write docs/rules.md (``make rules-doc``)."""
    with open(argv[0], "w", encoding="utf-8") as f:
        f.write(rules_document())
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
