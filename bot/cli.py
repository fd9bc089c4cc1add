"""The ``lockin`` command line: ``scan``, ``diff``, ``history``, ``plan``, ``rules``,
``serve`` and ``worker``.

Exit codes: 0 success (for ``diff``: the change passes the policy, or ``--write-record``
wrote the drafted record), 1 ``diff`` adds non-portable code without a decision, 2 bad
input. Errors are one line on stderr.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn, TextIO

from bot import cli_record
from bot.engine import RULES
from bot.engine.census import Census
from bot.engine.delta import change_delta
from bot.engine.model import ChangeDelta
from bot.engine.paths import PathFilter
from bot.github.refs import RepoRef
from bot.policy.config import DEFAULT_POLICY, Policy, PolicyError, load_policy
from bot.policy.decisions import (
    DecisionError,
    DecisionRecord,
    find_links,
    parse_decision,
    parse_ref,
    read_records,
)
from bot.policy.gate import LinkedDecision, evaluate
from bot.render import json_out, markdown, sarif, text
from bot.render.fix import Fix, Via, fix_markdown, fix_text
from bot.sources import SourceError
from bot.sources.analysis import ChangedFile, change_deltas, scan_paths
from bot.sources.changes import within
from bot.sources.dirs import directory_changes
from bot.sources.git import GitRepo, worktree_prefix
from bot.sources.snapshot import DirSnapshot, GitSnapshot, Snapshot, submodules_of
from bot.sources.tree import check_directory, walk

CONFIG_PATH = ".github/lockin.yml"
FORMATS = ("text", "json", "markdown", "sarif")


class UsageError(Exception):
    """Bad input the user can fix; the message is one line."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One line, like every other error of the command (argparse prints the usage too).
        raise UsageError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="lockin",
        description="Count the GPU code that could not move off its vendor tomorrow.",
    )
    parser.add_argument("--version", action="version", version=f"lockin {sarif.tool_version()}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    scan = commands.add_parser("scan", help="census of a directory or checkout")
    scan.add_argument("path", nargs="?", default=".", help="directory to scan (default: .)")
    scan.add_argument("--format", choices=FORMATS, default="text")
    scan.add_argument("--config", help=f"policy file (default: PATH/{CONFIG_PATH} if present)")
    scan.add_argument("--include", action="append", default=[], metavar="PAT")
    scan.add_argument("--exclude", action="append", default=[], metavar="PAT")
    scan.add_argument("--top", type=_positive, default=10, metavar="N")
    scan.add_argument("--jobs", type=_positive, default=os.cpu_count() or 1, metavar="N")
    scan.add_argument("--rev", help="count this git revision of PATH without a checkout")

    diff = commands.add_parser(
        "diff", help="change between two revisions (or two directories) and its verdict"
    )
    diff.add_argument("base", nargs="?", help="base revision (the default branch) or directory")
    diff.add_argument("head", nargs="?", help="head revision or directory")
    diff.add_argument(
        "--staged", action="store_true", help="the staged change: the index against HEAD"
    )
    diff.add_argument("--repo", help="repository of the revisions (default: .)")
    diff.add_argument("--format", choices=FORMATS, default="text")
    diff.add_argument("--config", help=f"policy file (default: {CONFIG_PATH} at BASE)")
    diff.add_argument(
        "--decision", action="append", default=[], metavar="REF", help="link a decision record"
    )
    diff.add_argument("--jobs", type=_positive, default=os.cpu_count() or 1, metavar="N")
    diff.add_argument(
        "--write-record",
        nargs="?",
        const="",
        metavar="PATH",
        help="write the drafted decision record into the work tree, at PATH in the repository "
        "(default: the drafted path in the decisions folder)",
    )

    rules = commands.add_parser("rules", help="the rule reference: every rule, or one rule's page")
    rules.add_argument("rule_id", nargs="?", metavar="ID", help="a rule id, e.g. cuda.kernel")
    rules.add_argument("--format", choices=("text", "json", "markdown"), default="text")

    from bot.cli_history import add_history_parser

    add_history_parser(commands, _positive)
    from bot.cli_plan import add_plan_parser

    add_plan_parser(commands, _positive)
    commands.add_parser("serve", help="run the GitHub App's webhook server")
    commands.add_parser("worker", help="run a background worker (Redis queue)")
    return parser


def _positive(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {value!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {value}")
    return number


# -- policy --------------------------------------------------------------------


def _policy(config: str | None, snapshot: Snapshot) -> Policy:
    """The policy: ``--config`` when given, else ``.github/lockin.yml`` of ``snapshot``."""
    if config:
        try:
            with open(config, "rb") as f:
                return load_policy(f.read(), config)
        except OSError as exc:
            raise UsageError(f"cannot read config {config}: {exc.strerror}") from None
    data = snapshot.read(CONFIG_PATH)
    return (
        load_policy(data, f"{snapshot.label}:{CONFIG_PATH}") if data is not None else DEFAULT_POLICY
    )


# -- scan ----------------------------------------------------------------------


def scan_census(args: argparse.Namespace, err: TextIO) -> Census:
    """Run ``lockin scan`` as parsed in ``args``; progress goes to ``err``."""
    root = args.path
    check_directory(root)
    snapshot = DirSnapshot(root)
    policy = _policy(args.config, snapshot)
    path_filter = PathFilter.build(
        [*policy.paths.include, *args.include],
        [*policy.paths.exclude, *args.exclude],
        submodules=submodules_of(snapshot),
    )
    progress = text.ProgressLine(err)
    census = scan_paths(
        root,
        walk(root, path_filter),
        jobs=args.jobs,
        progress=progress,
        include_generated=policy.paths.include_generated,
        markers_allowed=policy.markers_allowed,
    )
    progress.finish()
    return census


def _scan(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    census = scan_census(args, err)
    out.write(render_scan(census, args.format, args.path, args.top, pretty=out.isatty()))
    return 0


def render_scan(census: Census, fmt: str, root: str, top: int, *, pretty: bool) -> str:
    if fmt == "json":
        return json_out.dumps(json_out.scan_document(census, root=root, top=top), pretty=pretty)
    if fmt == "markdown":
        return markdown.scan_markdown(census, root=root, top=top)
    if fmt == "sarif":
        log = sarif.scan_sarif(census, prefix=worktree_prefix(root))
        return json_out.dumps(log, pretty=pretty)
    return text.render_scan(census, root=root, top=top)


# -- diff ----------------------------------------------------------------------


def _recorded(snapshot: Snapshot, folder: str, err: TextIO) -> list[DecisionRecord]:
    """Decision records in the decisions folder; broken ones are reported, not used."""
    records, problems = read_records(snapshot.files_under(folder))
    for problem in problems:
        err.write(f"lockin: warning: {problem}\n")
    return records


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
    files: list[ChangedFile]
    messages: list[str] = field(default_factory=list)  # commit messages BASE..HEAD
    origin: RepoRef | None = None  # the origin remote's, for GitHub URLs in links
    root: str = ""  # where --write-record writes: the HEAD directory, or the repository's
    in_git: bool = False  # work tree (found only when writing: a bare repository has none)


def _directory_inputs(args: argparse.Namespace) -> _Inputs:
    base, head = DirSnapshot(args.base), DirSnapshot(args.head)
    policy = _policy(args.config, base)
    path_filter = policy.path_filter(submodules=submodules_of(base) + submodules_of(head))
    changes = directory_changes(args.base, args.head, path_filter)
    files = [
        ChangedFile(
            c,
            base.read(c.old_path or c.path) if c.status != "added" else None,
            head.read(c.path) if c.status != "removed" else None,
        )
        for c in changes
    ]
    return _Inputs(base, head, policy, files, root=args.head)


def _git_inputs(args: argparse.Namespace) -> _Inputs:
    repo = GitRepo(args.repo or ".")
    if args.staged:
        # What `git commit` would record: the index against HEAD (the empty tree before
        # the first commit). There are no commit messages yet, so no trailers.
        base_commit = start = repo.head_or_empty_tree()
        head_commit, messages = None, []
    else:
        base_commit, head_commit = repo.resolve(args.base), repo.resolve(args.head)
        # Like a pull request: the change HEAD makes since it left BASE.
        start = repo.merge_base(base_commit, head_commit) or base_commit
        messages = repo.messages(base_commit, head_commit)
    base = GitSnapshot(repo, base_commit, args.base)
    head = GitSnapshot(repo, head_commit, args.head)
    policy = _policy(args.config, base)
    path_filter = policy.path_filter(submodules=submodules_of(base) + submodules_of(head))
    changes = within(repo.changes(start, head_commit), path_filter.includes)
    blobs = dict(
        repo.read_blobs(dict.fromkeys(b for c in changes for b in (c.old_blob, c.new_blob) if b))
    )
    files = [
        ChangedFile(c, blobs.get(c.old_blob or ""), blobs.get(c.new_blob or "")) for c in changes
    ]
    return _Inputs(base, head, policy, files, messages, _origin(repo), repo.path, in_git=True)


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


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line parsed; ``UsageError`` (one line) when it is wrong."""
    args = _parser().parse_args(argv)
    if args.command == "diff":
        if args.staged and (args.base or args.head):
            raise UsageError("--staged compares the index with HEAD: give no BASE or HEAD")
        if args.staged:
            args.base, args.head = "HEAD", "the index"
        elif not args.head:
            missing = "head" if args.base else "base, head"
            raise UsageError(f"the following arguments are required: {missing} (or --staged)")
    return args


def diff_report(
    args: argparse.Namespace, err: TextIO, *, fix_argv: list[str] | None = None
) -> DiffReport:
    """Run ``lockin diff`` as parsed in ``args``; warnings about records go to ``err``.
    ``fix_argv``: the arguments the fix's command gives ``lockin`` (default: these)."""
    kinds = (os.path.isdir(args.base), os.path.isdir(args.head))
    if args.staged or args.repo is not None or not any(kinds):
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
    )
    delta = change_delta(deltas)
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
    verdict = evaluate(delta, policy, linked=linked, recorded=_recorded(records, folder, err))
    summary = json_out.verdict_summary(verdict)
    draft = cli_record.draft_record(delta, verdict, policy)
    argv = cli_record.reproduce(args) if fix_argv is None else fix_argv
    fix = cli_record.fix_for(verdict, draft, policy, argv=argv, via=via)
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


def _diff(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
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
    root = cli_record.work_tree(report.root) if report.in_git else report.root
    written = cli_record.write_record(root, path or report.draft[0], report.draft[1])
    then = f"git add {written}" if staged else "commit it and link it"
    err.write(f"lockin: wrote {written} (status: proposed): fill in its TODOs, then {then}\n")


# -- rules ---------------------------------------------------------------------


def _rules(args: argparse.Namespace, out: TextIO) -> int:
    from bot.render import rules_page

    if args.rule_id is None:
        out.write(rules_page.render_list(rules_page.SPECS, args.format))
        return 0
    spec = rules_page.find(args.rule_id)
    if spec is None:
        raise UsageError(f"no rule {args.rule_id!r}: `lockin rules` lists them")
    out.write(rules_page.render_page(spec, args.format))
    return 0


# -- entry point ---------------------------------------------------------------


def _revision_scan(args: argparse.Namespace) -> bool:
    """``scan`` of a git revision: ``--rev`` given, or PATH is a repository without a work
    tree (a bare one, a ``.git`` folder), whose files are its ``HEAD``'s."""
    if args.rev:
        return True
    check_directory(args.path)
    return GitRepo.has_no_work_tree(args.path)


def _server(command: str) -> int:
    # Imported here: the server's dependencies are not needed to scan or diff.
    try:
        if command == "serve":
            from bot.server.main import serve as run
        else:
            from bot.worker import main as run
    except ImportError as exc:
        raise UsageError(f"lockin {command} is not available: {exc}") from None
    return run() or 0


def main(
    argv: Sequence[str] | None = None, *, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        args = parse_args(argv)
        if args.command in ("serve", "worker"):
            return _server(args.command)
        if args.command == "rules":
            return _rules(args, out)
        if args.command == "plan":
            from bot.cli_plan import plan

            return plan(args, out, err)
        if args.command == "history" or (args.command == "scan" and _revision_scan(args)):
            from bot import cli_history

            run = cli_history.history if args.command == "history" else cli_history.scan_revision
            return run(args, out, err)
        return _scan(args, out, err) if args.command == "scan" else _diff(args, out, err)
    except (UsageError, SourceError, PolicyError) as exc:
        err.write(f"lockin: error: {exc}\n")
        return 2
    except KeyboardInterrupt:
        err.write("lockin: interrupted\n")
        return 130
    except BrokenPipeError:
        # `lockin scan | head`: the reader left. Point stdout at /dev/null so the
        # interpreter's final flush does not fail a second time.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
