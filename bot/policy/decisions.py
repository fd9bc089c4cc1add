"""Compute-API decision records: Markdown files (or labelled issues) with YAML front matter,
and the `Compute-API-Decision: <ref>` lines that link them from a pull request.

Parsing never judges: a record with missing fields is returned with ``None`` there, and the
gate says which requirement failed. Only what cannot be read at all raises DecisionError.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import unquote, urlsplit

import yaml

from bot.policy.patterns import PatternError, compile_patterns, repo_path
from bot.policy.yaml_guard import YAMLTooLarge, check_yaml_limits

COMPUTE_API = "compute-api"
#: The issue label that makes an issue a decision record.
DECISION_LABEL = "compute-api-decision"
#: The key of the line that links a decision from a PR description or commit message.
LINK_KEY = "Compute-API-Decision"
STATUSES = ("proposed", "accepted", "superseded", "rejected")

#: Limits on a record, which a pull request may add: characters in the whole file and in its
#: front matter, nesting depth and values (aliases expanded) of the front matter.
MAX_RECORD = 1024 * 1024
MAX_FRONT_MATTER = 64 * 1024
MAX_DEPTH = 16
MAX_NODES = 10_000
#: Characters of one PR description or commit message searched for links.
MAX_LINK_TEXT = 256 * 1024

_MARKDOWN_SUFFIXES = (".md", ".markdown")
_LINK_LINE = re.compile(
    rf"^[ \t]{{0,3}}(?:[-*+][ \t]+)?{LINK_KEY}[ \t]*:[ \t]*(.*?)[ \t]*$", re.IGNORECASE
)
# A folded trailer's continuation: indented, and not a list item of its own.
_CONTINUATION = re.compile(r"^[ \t]+(?![-*+][ \t])(\S.*?)[ \t]*$")
_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^[ \t]{0,3}#[ \t]+(.+?)[ \t#]*$")
_ISSUE = re.compile(r"#(\d+)")
_REPO_ISSUE = re.compile(r"([\w.-]+)/([\w.-]+)#(\d+)")
_URL = re.compile(r"^[a-z][a-z0-9+.-]*://", re.IGNORECASE)


class DecisionError(ValueError):
    """A record that cannot be read at all; ``str(e)`` is one line saying why."""


class NoFrontMatter(DecisionError):
    """Markdown without front matter: not a record (a README in the decisions folder)."""


@dataclass(frozen=True)
class MigrationCost:
    """A structured ``migration_cost``: what the owner estimated moving off the API costs.
    ``lines`` is what the register compares the code now in scope against (the drift)."""

    lines: int | None = None
    engineer_weeks: float | None = None
    target: str | None = None
    note: str | None = None


_COST_KEYS = ("lines", "engineer_weeks", "target", "note")


@dataclass(frozen=True)
class DecisionRecord:
    ref: str  # how it was named: the link as written, or the path of a recorded file
    path: str | None  # path in the repository; None for an issue
    type: str | None
    status: str | None
    owner: str | None
    compute_api: str | None
    migration_cost: str | None
    scope: tuple[str, ...] | None  # gitignore-style patterns; None: no scope given
    title: str | None
    # The mapping form of migration_cost; None when it is free text or absent.
    cost: MigrationCost | None = None
    framework: str | None = None  # of a `type: framework` record

    def covers(self, path: str) -> bool:
        """Whether the scope covers a path. No scope covers everything, but the gate lets a
        record without scope cover only the pull requests that link it."""
        if self.scope is None:
            return True
        return bool(self.scope) and compile_patterns(self.scope).match_file(repo_path(path))


def parse_decision(ref: str, text: str | bytes, *, path: str | None = None) -> DecisionRecord:
    """Read a decision record file; raises DecisionError when it has no readable front matter."""
    meta, body = _front_matter(_decode(text), required=True)
    return _record(ref, path, meta, body)


def read_records(
    files: Iterable[tuple[str, str | bytes]],
) -> tuple[list[DecisionRecord], list[str]]:
    """The records among a decisions folder's files, given as (path, content), in path
    order, and one line per record that cannot be read. Files that are not Markdown or
    have no front matter (a README, an index) are not records and are skipped."""
    records: list[DecisionRecord] = []
    problems: list[str] = []
    for path, text in sorted(files, key=lambda item: item[0]):
        if not path.lower().endswith(_MARKDOWN_SUFFIXES):
            continue
        try:
            records.append(parse_decision(path, text, path=path))
        except NoFrontMatter:
            continue
        except DecisionError as e:
            problems.append(f"{path}: {e}")
    return records, problems


def issue_record(
    ref: str,
    *,
    body: str | None,
    labels: list[str],
    assignees: list[str],
    state: str,
    title: str | None = None,
) -> DecisionRecord:
    """An issue labelled compute-api-decision, read as a record.

    Its body's front matter wins where present. Otherwise the label implies the type, the
    first assignee is the owner, and an open issue is a proposal: an issue becomes accepted
    only by saying so (``status: accepted``), since closing one does not tell which way it went.
    """
    if DECISION_LABEL not in {label.lower() for label in labels}:
        raise DecisionError(f"issue {ref} is not labelled {DECISION_LABEL}")
    meta, text = _front_matter(body or "", required=False)
    if meta.get("type") is None:
        meta["type"] = COMPUTE_API
    if meta.get("owner") is None and assignees:
        meta["owner"] = assignees[0]
    if meta.get("status") is None and state == "open":
        meta["status"] = "proposed"
    if title and meta.get("title") is None:
        meta["title"] = title
    return _record(ref, None, meta, text)


def find_links(*texts: str) -> list[str]:
    """Every `Compute-API-Decision: <ref>` line of PR descriptions and commit messages, in
    order and without repeats. Lines in fenced code, block quotes and HTML comments are
    examples or citations, not links. A value folded onto indented lines, as git writes
    long trailers, is read back joined by single spaces."""
    found: dict[str, None] = {}
    for text in texts:
        # A PR description is at most 65,536 characters; a commit message has no limit.
        # Past MAX_LINK_TEXT only its start (where people write) and its end (where git
        # puts trailers) are read, so megabytes of message cost nothing.
        text = text or ""
        if len(text) > MAX_LINK_TEXT:
            half = MAX_LINK_TEXT // 2
            text = f"{text[:half]}\n{text[-half:]}"
        value: str | None = None  # the link being read, until its last continuation line
        for line in [*_live_lines(text or ""), ""]:
            folded = _CONTINUATION.match(line) if _unfinished(value) else None
            if folded and not _LINK_LINE.match(line.lstrip()):
                value = f"{value} {folded.group(1)}".strip()  # git unfolds with one space
                continue
            if value := _unwrap(value or ""):
                found.setdefault(value, None)
            match = _LINK_LINE.match(line)
            value = match.group(1) if match else None
    return list(found)


def _unfinished(value: str | None) -> bool:
    """A link value that an indented next line may continue: empty, or a path cut before its
    Markdown suffix (an indented line after a whole reference is prose, not a fold)."""
    if value is None:
        return False
    text = _unwrap(value)
    complete = (
        text.lower().endswith(_MARKDOWN_SUFFIXES) or _ISSUE.fullmatch(text) or _URL.match(text)
    )
    return not complete


def link_line(ref: str) -> str:
    """The line a PR adds to its description to link a decision."""
    return f"{LINK_KEY}: {ref}"


@dataclass(frozen=True)
class DecisionRef:
    kind: Literal["path", "issue", "invalid"]
    value: str | int  # repository path, issue number, or the raw text when invalid
    raw: str
    reason: str | None = None  # why it is invalid


def parse_ref(raw: str, *, owner: str, repo: str, folder: str | None = None) -> DecisionRef:
    """Classify a link's target: a path in this repository, an issue of it, or invalid.

    ``folder`` (the decisions folder) tells where a branch name with slashes ends in a
    ``/blob/<branch>/<path>`` URL.
    """
    text = _unwrap(raw)
    if match := _ISSUE.fullmatch(text):
        return _issue(raw, int(match.group(1)))
    if match := _REPO_ISSUE.fullmatch(text):
        other = _other_repo(match.group(1), match.group(2), owner, repo)
        return _invalid(raw, other) if other else _issue(raw, int(match.group(3)))
    if _URL.match(text):
        return _url_ref(raw, text, owner, repo, folder)
    if any(ch.isspace() for ch in text) and not text.lower().endswith(_MARKDOWN_SUFFIXES):
        # Prose such as "see the design doc"; "docs/decisions/0002 cuda.md" is a path.
        return _invalid(raw, "not a path, a GitHub URL or an issue reference (#N)")
    return _path_ref(raw, text.partition("#")[0])  # docs/x.md#section names the file


def _url_ref(raw: str, text: str, owner: str, repo: str, folder: str | None) -> DecisionRef:
    url = urlsplit(text)
    parts = [unquote(part) for part in url.path.split("/") if part]
    raw_host = (url.hostname or "").startswith("raw.")  # raw.githubusercontent.com, GHES's
    if parts[:1] == ["raw"] and len(parts) > 3 and not raw_host:  # GHES without subdomains
        parts, raw_host = parts[1:], True
    if url.scheme not in ("http", "https") or len(parts) < 2:
        return _invalid(raw, "not a GitHub URL of a decision record or issue")
    other = _other_repo(parts[0], parts[1], owner, repo)
    if other:
        return _invalid(raw, other)
    if raw_host:
        parts = [parts[0], parts[1], "raw", *parts[2:]]
    kind = parts[2] if len(parts) > 2 else ""
    if kind == "issues" and len(parts) == 4 and parts[3].isdigit():
        return _issue(raw, int(parts[3]))
    if kind == "pull":
        return _invalid(raw, "a pull request is not a decision record; link the record's file")
    if kind not in ("blob", "raw") or len(parts) < 5:
        return _invalid(raw, "not a URL of a file or an issue in this repository")
    return _path_ref(raw, "/".join(_after_ref(parts[3:], folder)))


def _after_ref(parts: list[str], folder: str | None) -> list[str]:
    """Drop the branch, tag or commit from ``<ref>/<path>`` parts."""
    if folder:
        wanted = repo_path(folder).strip("/").split("/")
        for start in range(1, len(parts) - len(wanted) + 1):
            if parts[start : start + len(wanted)] == wanted:
                return parts[start:]
    return parts[1:]


def _path_ref(raw: str, text: str) -> DecisionRef:
    path = posixpath.normpath(repo_path(text))
    if path == ".." or path.startswith("../"):
        return _invalid(raw, "the path leaves the repository")
    if not path.lower().endswith(_MARKDOWN_SUFFIXES):
        return _invalid(
            raw, "not a Markdown file: expected docs/decisions/<name>.md, its GitHub URL, or #N"
        )
    return DecisionRef("path", path, raw)


def _other_repo(ref_owner: str, ref_repo: str, owner: str, repo: str) -> str | None:
    if (ref_owner.lower(), ref_repo.lower()) == (owner.lower(), repo.lower()):
        return None
    return f"is in another repository ({ref_owner}/{ref_repo}); link a record in {owner}/{repo}"


def _issue(raw: str, number: int) -> DecisionRef:
    return DecisionRef("issue", number, raw) if number else _invalid(raw, "there is no issue #0")


def _invalid(raw: str, reason: str) -> DecisionRef:
    return DecisionRef("invalid", raw, raw, reason)


def _unwrap(value: str) -> str:
    """`docs/x.md`, <https://...> and similar Markdown wrappings around a reference."""
    return value.strip().strip("`").strip().removeprefix("<").removesuffix(">").strip()


def _live_lines(text: str) -> Iterator[str]:
    """Lines outside fenced code blocks, block quotes and HTML comments."""
    fence: str | None = None
    in_comment = False
    for line in text.splitlines():
        if in_comment:
            in_comment = "-->" not in line
            continue
        if fence:
            stripped = line.strip()
            if stripped.startswith(fence) and not stripped.strip(fence[0]):
                fence = None
            continue
        if match := _FENCE.match(line):
            fence = match.group(1)
            continue
        start = line.find("<!--")
        if start >= 0 and "-->" not in line[start:]:
            in_comment = True
            continue
        if not line.lstrip().startswith(">"):
            yield line


def _decode(text: str | bytes) -> str:
    if isinstance(text, str):
        return text
    try:
        return text.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DecisionError("not UTF-8 text") from None


def _front_matter(text: str, *, required: bool) -> tuple[dict[str, Any], str]:
    if len(text) > MAX_RECORD:
        raise DecisionError(f"too large ({len(text):,} characters; at most {MAX_RECORD:,})")
    lines = text.lstrip("\ufeff").splitlines(keepends=True)
    first = next((i for i, line in enumerate(lines) if line.strip()), len(lines))
    if first == len(lines) or lines[first].strip() != "---":
        if required:
            raise NoFrontMatter("no front matter (the file must start with a '---' line)")
        return {}, text
    end = next(
        (i for i in range(first + 1, len(lines)) if lines[i].strip() in ("---", "...")), None
    )
    if end is None:
        raise DecisionError("front matter is not closed (no second '---' line)")
    front = "".join(lines[first + 1 : end])
    if len(front) > MAX_FRONT_MATTER:
        raise DecisionError(
            f"front matter too large ({len(front):,} characters; at most {MAX_FRONT_MATTER:,})"
        )
    try:
        check_yaml_limits(front, max_depth=MAX_DEPTH, max_nodes=MAX_NODES)
        meta = yaml.safe_load(front)
    except YAMLTooLarge as e:
        where = f" at line {e.line + first + 1}" if e.line else ""
        raise DecisionError(f"front matter too large{where}: {e}") from None
    except yaml.MarkedYAMLError as e:
        line = e.problem_mark.line + first + 2 if e.problem_mark else first + 1
        reserved = "cannot start any token" in str(e)
        hint = " (quote values that start with @ or `)" if reserved else ""
        raise DecisionError(f"bad YAML at line {line}: {e.problem}{hint}") from None
    except yaml.reader.ReaderError as e:  # a control character YAML refuses
        line = front.count("\n", 0, e.position) + first + 2
        what = f"{e.reason} (U+{e.character:04X})"
        raise DecisionError(f"bad YAML at line {line}: {what}") from None
    except yaml.YAMLError as e:
        raise DecisionError(f"bad YAML: {' '.join(str(e).split())}") from None
    if meta is None:
        meta = {}
    if not isinstance(meta, dict):
        raise DecisionError("front matter is not a mapping of keys")
    return meta, "".join(lines[end + 1 :])


def _record(ref: str, path: str | None, meta: dict[str, Any], body: str) -> DecisionRecord:
    kind, status = _text(meta.get("type")), _text(meta.get("status"))
    cost = _cost(meta.get("migration_cost"))
    return DecisionRecord(
        ref=ref,
        path=path,
        type=kind.lower() if kind else None,
        status=status.lower() if status else None,
        owner=_text(meta.get("owner")),
        compute_api=_text(meta.get("compute_api")),
        migration_cost=_cost_text(cost) if cost else _text(meta.get("migration_cost")),
        scope=_scope(meta.get("scope")),
        title=_text(meta.get("title")) or _heading(body),
        cost=cost,
        framework=_text(meta.get("framework")),
    )


def _cost(value: Any) -> MigrationCost | None:
    """The mapping form of migration_cost, checked; free text gives None."""
    if not isinstance(value, dict):
        return None
    unknown = sorted(str(k) for k in value if k not in _COST_KEYS)
    if unknown:
        raise DecisionError(
            f"migration_cost: unknown key {unknown[0]!r} (expected {', '.join(_COST_KEYS)})"
        )
    lines, weeks = value.get("lines"), value.get("engineer_weeks")
    if lines is not None and (isinstance(lines, bool) or not isinstance(lines, int) or lines < 0):
        raise DecisionError("migration_cost.lines must be a whole number of lines, at least 0")
    if weeks is not None and (isinstance(weeks, bool) or not isinstance(weeks, int | float)):
        raise DecisionError("migration_cost.engineer_weeks must be a number")
    if weeks is not None and weeks < 0:
        raise DecisionError("migration_cost.engineer_weeks must be at least 0")
    return MigrationCost(
        lines=lines,
        engineer_weeks=float(weeks) if weeks is not None else None,
        target=_text(value.get("target")),
        note=_text(value.get("note")),
    )


def _cost_text(cost: MigrationCost) -> str | None:
    """One line for people, as a free-text migration_cost would read."""
    parts = []
    if cost.lines is not None:
        parts.append(f"~{cost.lines:,} lines")
    if cost.engineer_weeks is not None:
        parts.append(f"{cost.engineer_weeks:g} engineer-weeks")
    text = ", ".join(parts)
    if cost.target:
        text = f"{text} to {cost.target}" if text else f"to {cost.target}"
    if cost.note:
        text = f"{text} ({cost.note})" if text else cost.note
    return text or None


def _text(value: Any) -> str | None:
    """A field as text; several values (a list of owners) are joined."""
    if value is None:
        return None
    if isinstance(value, list):
        value = ", ".join(str(item) for item in value if item is not None)
    return str(value).strip() or None


def _scope(value: Any) -> tuple[str, ...] | None:
    if value is None:
        return None
    patterns = [value] if isinstance(value, str) else value
    if not isinstance(patterns, list) or not all(isinstance(p, str) for p in patterns):
        raise DecisionError("scope must be a gitignore-style pattern or a list of them")
    scope = tuple(p.strip() for p in patterns if p.strip())
    try:
        compile_patterns(scope)
    except PatternError as e:
        raise DecisionError(f"scope: {e}") from None
    return scope


def _heading(body: str) -> str | None:
    for line in _live_lines(body):
        if match := _HEADING.match(line):
            return match.group(1)
    return None
