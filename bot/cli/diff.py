"""``lockin diff``: the change between two revisions (or two directories), the gate's
verdict on it as the App gives it, and ``--write-record``, the drafted decision record."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TextIO

from bot.cli import record
from bot.cli.common import (
    CONFIG_PATH,
    FORMATS,
    UsageError,
    add_file_budget,
    add_jobs,
    not_counted_line,
    read_policy,
    recorded_decisions,
    snapshot_census,
    unreadable_line,
)
from bot.cli.help import add_command
from bot.engine import RULES
from bot.engine.census import FileSummary
from bot.engine.delta import ChangeDelta, change_delta
from bot.engine.languages import may_hold_code
from bot.github.refs import RepoRef
from bot.policy.approvals import RecordReview, approval
from bot.policy.baseline import BASELINE_PATH, Baseline, load_baseline
from bot.policy.codeowners import LOCATIONS as CODEOWNERS_LOCATIONS
from bot.policy.codeowners import parse as parse_codeowners
from bot.policy.config import Policy
from bot.policy.decisions import DecisionError, find_links, parse_decision, parse_ref
from bot.policy.gate import LinkedDecision, evaluate
from bot.render import json_out, markdown, sarif, text
from bot.render.fix import Fix, Via, fix_markdown, fix_text
from bot.sources import SourceError
from bot.sources.changes import Change, within
from bot.sources.dirs import directory_changes
from bot.sources.engine_runner import ChangedFile, change_deltas
from bot.sources.files import UNREADABLE
from bot.sources.git import EMPTY_TREE, GitRepo
from bot.sources.snapshot import DirSnapshot, GitSnapshot, Snapshot, submodules_of
from bot.sources.tree import Hidden


def add_diff_parser(commands: argparse._SubParsersAction) -> None:
    diff = add_command(
        commands,
        "diff",
        help="change between two revisions (or two directories) and the gate's verdict",
        examples=[
            "lockin diff main HEAD",
            "lockin diff main feature --repo path/to/repo --format markdown",
            "lockin diff before/ after/               # two directories",
            "lockin diff --staged                     # what `git commit` would record",
            f"lockin diff {EMPTY_TREE} ROOT  # a root commit: all added",
        ],
        exits={
            1: "the change adds non-portable code that no decision covers, or a file of it "
            "took longer than --file-budget and was not counted, or one that may hold code "
            "could not be read (its object absent from the repository) "
            "(enforcement: neutral: 0)"
        },
    )
    diff.add_argument(
        "base",
        nargs="?",
        help="base revision (the default branch) or directory; git's empty tree "
        f"{EMPTY_TREE} to count all of HEAD as added (a root commit)",
    )
    diff.add_argument("head", nargs="?", help="head revision or directory")
    diff.add_argument(
        "--staged", action="store_true", help="the staged change: the index against HEAD"
    )
    diff.add_argument("--repo", help="repository of the revisions (default: .)")
    diff.add_argument(
        "--format", choices=FORMATS, default="text", help="output format (default: text)"
    )
    diff.add_argument("--config", help=f"policy file (default: {CONFIG_PATH} at BASE)")
    diff.add_argument(
        "--decision",
        action="append",
        default=[],
        metavar="REF",
        help="link a decision record: a path, a file URL or #N (repeatable)",
    )
    add_jobs(diff)
    add_file_budget(diff)
    diff.add_argument(
        "--no-ignore",
        action="store_true",
        help="two directories: count the files .gitignore patterns leave out too; without it "
        "lockin says when patterns hid files of HEAD",
    )
    diff.add_argument(
        "--write-record",
        nargs="?",
        const="",
        metavar="PATH",
        help="write the drafted decision record into the work tree, at PATH in the repository "
        "(default: the drafted path in the decisions folder)",
    )


def check_args(args: argparse.Namespace) -> None:
    """BASE and HEAD, or ``--staged``: ``UsageError`` (one line) when neither or both."""
    if args.staged and (args.base or args.head):
        raise UsageError("--staged compares the index with HEAD: give no BASE or HEAD")
    if args.staged:
        args.base, args.head = "HEAD", "the index"
    elif not args.head:
        missing = "head" if args.base else "base, head"
        raise UsageError(f"the following arguments are required: {missing} (or --staged)")


def _linked(
    refs: Sequence[str], at: Snapshot, folder: str, origin: RepoRef | None
) -> list[LinkedDecision]:
    """Linked records read from ``at`` (HEAD, or BASE when the policy requires records
    on the default branch), as the bot does; ``origin`` resolves this repository's URLs."""
    owner, name = (origin.owner, origin.name) if origin else ("", "")
    linked = []
    for raw in dict.fromkeys(refs):
        ref = parse_ref(raw, owner=owner, repo=name, folder=folder)
        if ref.kind == "invalid":
            linked.append(LinkedDecision(ref.raw, None, ref.reason))
        elif ref.kind == "issue":
            reason = f"issue #{ref.value} can only be read by the GitHub App, not offline"
            linked.append(LinkedDecision(ref.raw, None, reason))
        else:
            path = str(ref.value)
            data = at.read(path)
            if data is None:
                linked.append(LinkedDecision(ref.raw, None, f"{path} does not exist at {at.label}"))
                continue
            try:
                linked.append(
                    LinkedDecision(ref.raw, parse_decision(ref.raw, data, path=path), None)
                )
            except DecisionError as exc:
                linked.append(LinkedDecision(ref.raw, None, f"{path}: {exc}"))
    return linked


def _awaiting(linked: list[LinkedDecision], base: Snapshot, head: Snapshot) -> list[LinkedDecision]:
    """Linked records that BASE does not hold as they read: written in this change, they
    count only once their owner approves the pull request, which only GitHub can tell."""
    codeowners = next(
        (
            parse_codeowners(data, location)
            for location in CODEOWNERS_LOCATIONS
            if (data := base.read(location)) is not None
        ),
        None,
    )
    out = []
    for link in linked:
        path = link.record.path if link.record else None
        if path is not None and base.read(path) != head.read(path):
            owners = codeowners.owners(path) if codeowners else ()
            link = replace(link, review=RecordReview(None, code_owners=owners, visible=False))
        out.append(link)
    return out


def _origin(repo: GitRepo) -> RepoRef | None:
    """The repository of the ``origin`` remote, so that GitHub URLs of this repo resolve."""
    try:
        url = repo.remote_url("origin") or ""
    except SourceError:
        url = ""
    parts = url.removesuffix(".git").replace(":", "/").split("/")
    return RepoRef(parts[-2], parts[-1]) if len(parts) >= 2 else None


@dataclass
class _Inputs:
    """What a diff reads from either kind of BASE/HEAD."""

    base: Snapshot
    head: Snapshot
    policy: Policy
    files: Iterable[ChangedFile]  # read as the engine takes them (once)
    messages: list[str] = field(default_factory=list)  # commit messages BASE..HEAD
    origin: RepoRef | None = None  # the origin remote's, for GitHub URLs in links
    root: str = ""  # where --write-record writes: the HEAD directory, or the repository's
    in_git: bool = False  # work tree (found only when writing: a bare repository has none)
    notes: list[str] = field(default_factory=list)  # what .gitignore hid (directories)


def _directory_inputs(args: argparse.Namespace) -> _Inputs:
    base, head = DirSnapshot(args.base), DirSnapshot(args.head)
    policy = read_policy(args.config, base)
    path_filter = policy.path_filter(submodules=submodules_of(base) + submodules_of(head))
    hidden = Hidden()
    changes = directory_changes(
        args.base, args.head, path_filter, gitignore=not args.no_ignore, hidden=hidden
    )
    # Read as the engine takes them, not all at once: the contents of a large change.
    files = (
        ChangedFile(
            c,
            base.read(c.old_path or c.path) if c.status != "added" else None,
            head.read(c.path) if c.status != "removed" else None,
        )
        for c in changes
    )
    notes = [f"in HEAD, {hidden.line()}"] if hidden else []
    return _Inputs(base, head, policy, files, root=args.head, notes=notes)


def _git_inputs(args: argparse.Namespace) -> _Inputs:
    repo = GitRepo(args.repo or ".")
    if args.staged:
        # What `git commit` would record: the index against HEAD (the empty tree before
        # the first commit). There are no commit messages yet, so no trailers.
        base_commit = start = repo.head_or_empty_tree()
        head_commit, messages = None, []
    else:
        base_commit = repo.resolve(args.base, empty_tree=True)  # a root commit's base
        head_commit = repo.resolve(args.head)
        # Like a pull request: the change HEAD makes since it left BASE.
        start = repo.merge_base(base_commit, head_commit) or base_commit
        messages = repo.messages(base_commit, head_commit)
    base = GitSnapshot(repo, base_commit, args.base)
    head = GitSnapshot(repo, head_commit, args.head)
    policy = read_policy(args.config, base)
    path_filter = policy.path_filter(submodules=submodules_of(base) + submodules_of(head))
    changes = within(repo.changes(start, head_commit), path_filter.includes)
    files = _with_contents(repo, changes)
    return _Inputs(base, head, policy, files, messages, _origin(repo), repo.path, in_git=True)


#: Changed files whose blobs are read at a time: the engine takes them as they come, so a
#: change of half a million files holds a few hundred contents, not gigabytes.
READ_BATCH = 256


def _with_contents(repo: GitRepo, changes: list[Change]) -> Iterator[ChangedFile]:
    """Each change with its blobs, read a batch at a time. Each batch is read whole before
    its files are handed on: no reader thread or ``cat-file`` process is running when the
    engine's pool forks its workers."""
    for at in range(0, len(changes), READ_BATCH):
        batch = changes[at : at + READ_BATCH]
        wanted = dict.fromkeys(b for c in batch for b in (c.old_blob, c.new_blob) if b)
        blobs = dict(repo.read_blobs(wanted))
        yield from (
            ChangedFile(c, blobs.get(c.old_blob or ""), blobs.get(c.new_blob or "")) for c in batch
        )


@dataclass
class DiffReport:
    """A change and the gate's verdict on it, ready to render in any format."""

    delta: ChangeDelta
    summary: dict[str, Any]  # json_out.verdict_summary
    base: str
    head: str
    markers_allowed: bool = True
    draft: tuple[str, str] | None = None  # (path, Markdown) of the drafted record
    fix: Fix | None = None  # what to do when the gate wants a decision
    root: str = ""  # where --write-record writes: HEAD's directory, or in a repository
    in_git: bool = False  # ... the work tree of the repository at ``root``

    @property
    def failed(self) -> bool:
        return self.summary["conclusion"] == "failure"

    def render(self, fmt: str, *, pretty: bool) -> str:
        delta, summary, base, head = self.delta, self.summary, self.base, self.head
        if fmt == "json":
            document = json_out.diff_document(
                delta, summary, base=base, head=head, markers_allowed=self.markers_allowed
            )
            return json_out.dumps(document, pretty=pretty)
        if fmt == "markdown":
            fix = fix_markdown(self.fix) if self.fix else ""
            return markdown.diff_markdown(delta, summary, base=base, head=head, fix=fix)
        if fmt == "sarif":
            return json_out.dumps(sarif.diff_sarif(delta, RULES), pretty=pretty)
        fix_lines = fix_text(self.fix) if self.fix else []
        return text.render_diff(delta, summary, base=base, head=head, fix=fix_lines)


def diff_change(args: argparse.Namespace) -> tuple[_Inputs, ChangeDelta]:
    """What ``lockin diff`` reads, and the change it counts, before any verdict."""
    kinds = (os.path.isdir(args.base), os.path.isdir(args.head))
    if args.staged or args.repo is not None or not any(kinds):
        if args.no_ignore:
            raise UsageError("--no-ignore is for two directories: revisions hold what git tracks")
        inputs = _git_inputs(args)
    elif all(kinds):
        inputs = _directory_inputs(args)
    else:
        raise UsageError("BASE and HEAD must both be directories or both git revisions")
    policy = inputs.policy
    deltas = change_deltas(
        inputs.files,
        jobs=args.jobs,
        include_generated=policy.paths.include_generated,
        markers_allowed=policy.markers_allowed,
        file_seconds=args.file_budget,
    )
    return inputs, change_delta(deltas)


#: What sees the approvals of linked records the change adds or changes (the Action reads
#: them from GitHub); given the links as read at HEAD, it returns them with their reviews.
Reviewer = Callable[[list[LinkedDecision]], list[LinkedDecision]]


def diff_report(
    args: argparse.Namespace,
    err: TextIO,
    *,
    reviewer: Reviewer | None = None,
    fix_argv: list[str] | None = None,
) -> DiffReport:
    """Run ``lockin diff`` as parsed in ``args``; warnings about records go to ``err``.
    Without a ``reviewer``, a linked record the change adds or changes awaits approval:
    reviews are on GitHub, which ``lockin diff`` does not ask. ``fix_argv``: the arguments
    the fix's command gives ``lockin`` (default: these)."""
    inputs, delta = diff_change(args)
    err.writelines(f"lockin: note: {note}\n" for note in inputs.notes)
    unread = [f.path for f in delta.files if f.skipped == UNREADABLE]
    if unread:
        err.write(f"lockin: note: {unreadable_line(unread)}\n")
    policy = inputs.policy
    folder = policy.decisions.folder
    via: Via
    if policy.decisions.require_default_branch:
        at, records, via = inputs.base, inputs.base, "default-branch"
    elif args.staged:
        # The pre-commit hook judges what the commit will hold: records staged with the
        # change count, linked or recorded, so a record committed with its kernel is seen.
        at, records, via = inputs.head, inputs.head, "staged"
    else:
        at, records, via = inputs.head, inputs.base, "link"
    refs = [*args.decision, *find_links(*inputs.messages)]
    linked = _linked(refs, at, folder, inputs.origin)
    if via == "link":
        # A record the pull request adds counts once its owner approves (the App and the
        # Action read reviews).
        linked = reviewer(linked) if reviewer else _awaiting(linked, inputs.base, inputs.head)
    elif via == "staged":
        # The hook judges the developer's own commit: what it stages counts there. The pull
        # request will ask for the approval, and the hook says whose.
        for link in _awaiting(linked, inputs.base, inputs.head):
            if link.record is not None and link.review is not None:
                _, problems = approval(link.record, link.review)
                err.write(
                    f"lockin: {link.ref} counts for this commit; on its pull request it is "
                    f"{problems[-1]}\n"
                )
    verdict = evaluate(
        delta,
        policy,
        linked=linked,
        recorded=recorded_decisions(records, folder, err),
        baseline=_baseline_at(inputs.base, policy),
        base_files=_ratchet_base(inputs.base, policy, args.jobs, args.file_budget),
    )
    summary = json_out.verdict_summary(verdict)
    uncounted = delta.not_counted()
    # An unreadable file the App's check would have read (one whose name allows code) is
    # one it could not read: like a file the engine gave up on, it may hold the lines.
    unread_code = [path for path in unread if may_hold_code(path)]
    if (uncounted or unread_code) and verdict.conclusion == "success":
        # As the App's check (bot/review/report.py): a change with files the engine gave
        # up on, or could not read, cannot pass, since they may add what the gate is for.
        summary["conclusion"] = "neutral" if policy.report_only else "failure"
        reasons = [not_counted_line(uncounted)] if uncounted else []
        reasons += [unreadable_line(unread_code)] if unread_code else []
        summary["summary"] = f"cannot pass: {'; '.join(reasons)}"
    draft = record.draft_record(delta, verdict, policy)
    argv = record.reproduce(args) if fix_argv is None else fix_argv
    fix = record.fix_for(verdict, draft, policy, argv=argv, via=via)
    return DiffReport(
        delta,
        summary,
        args.base,
        args.head,
        policy.markers_allowed,
        draft,
        fix,
        inputs.root,
        inputs.in_git,
    )


def _baseline_at(snapshot: Snapshot, policy: Policy) -> Baseline | None:
    """The baseline committed at BASE (as the App reads it on the default branch)."""
    data = snapshot.read(BASELINE_PATH)
    if data is None:
        return None
    return load_baseline(data, policy, f"{snapshot.label}:{BASELINE_PATH}")


def _ratchet_base(
    snapshot: Snapshot, policy: Policy, jobs: int, file_seconds: float
) -> list[FileSummary] | None:
    """BASE's census, which only the ratchet's percent threshold needs."""
    if policy.ratchet is None or policy.ratchet.percent is None:
        return None
    return snapshot_census(snapshot, policy, jobs, file_seconds).files()


def diff(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    report = diff_report(args, err)
    out.write(report.render(args.format, pretty=out.isatty()))
    if args.format != "text":
        err.write(f"lockin: {report.summary['conclusion']}: {report.summary['summary']}\n")
        if report.fix:
            err.write(f"lockin: write the drafted decision record with: {report.fix.command}\n")
    if args.write_record is not None:
        # Asked to write the fix, and written: that succeeded (the pre-commit hook that
        # writes the record must not read as failed). The verdict above is unchanged.
        _write_record(report, args.write_record, args.staged, err)
        return 0
    return 1 if report.failed else 0


def _write_record(report: DiffReport, path: str, staged: bool, err: TextIO) -> None:
    if report.draft is None:
        raise UsageError("nothing to record: the change adds no line that needs a decision")
    root = record.work_tree(report.root) if report.in_git else report.root
    written = record.write_record(root, path or report.draft[0], report.draft[1])
    then = f"git add {written}" if staged else "commit it and link it"
    err.write(f"lockin: wrote {written} (status: proposed): fill in its TODOs, then {then}\n")
