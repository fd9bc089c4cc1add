"""The ``lockin`` command line: ``scan``, ``diff``, ``history``, ``plan``, ``baseline``,
``report``, ``rules``, ``init``, ``serve`` and ``worker``.

Exit codes: 0 success (for ``diff``: the change passes the policy, or ``--write-record``
wrote the drafted record), 1 ``diff`` adds non-portable code without a decision (``scan``:
above ``--fail-above``), 2 bad input. Errors are one line on stderr (one per problem of an
invalid configuration).
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from textwrap import fill
from typing import Any, NoReturn, TextIO

from bot import DISTRIBUTION, cli_baseline, cli_history, cli_init, cli_plan, cli_record, cli_report
from bot.cli_common import (
    CONFIG_PATH,
    UsageError,
    finish_scan,
    read_policy,
    recorded_decisions,
    snapshot_census,
)
from bot.cli_help import HELP_WIDTH, add_command, epilog
from bot.engine import RULES
from bot.engine.census import Census, FileSummary
from bot.engine.delta import change_delta
from bot.engine.model import ChangeDelta
from bot.engine.paths import PathFilter
from bot.github.refs import RepoRef
from bot.policy.approvals import RecordReview, approval
from bot.policy.baseline import BASELINE_PATH, Baseline, load_baseline
from bot.policy.codeowners import LOCATIONS as CODEOWNERS_LOCATIONS
from bot.policy.codeowners import parse as parse_codeowners
from bot.policy.config import (
    Policy,
    PolicyError,
)
from bot.policy.decisions import (
    DecisionError,
    find_links,
    parse_decision,
    parse_ref,
)
from bot.policy.gate import LinkedDecision, evaluate
from bot.render import json_out, markdown, sarif, scan_tables, text
from bot.render.fix import Fix, Via, fix_markdown, fix_text
from bot.render.wording import percent
from bot.sources import SourceError
from bot.sources.changes import within
from bot.sources.dirs import directory_changes
from bot.sources.engine_runner import ChangedFile, change_deltas, scan_paths
from bot.sources.git import GitRepo
from bot.sources.snapshot import DirSnapshot, GitSnapshot, Snapshot, submodules_of
from bot.sources.tree import check_directory, walk

FORMATS = ("text", "json", "markdown", "sarif")
SCAN_FORMATS = (*FORMATS, "csv")
#: Ranked entries ``scan`` lists: few enough in text that the summary fits a screen.
TEXT_TOP, TOP = 5, 10


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One line, like every other error of the command (argparse prints the usage too).
        raise UsageError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="lockin",
        description=fill(
            "Count the GPU code that could not move off its vendor tomorrow, and gate the "
            "pull requests that add more.",
            HELP_WIDTH,
        ),
        epilog=epilog(["lockin scan .", "lockin diff main HEAD", "lockin report . -o lockin.html"])
        + "\n\n`lockin COMMAND --help` describes a command.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version", action="version", version=f"lockin {sarif.tool_version()}", help="the version"
    )
    commands = parser.add_subparsers(
        dest="command", metavar="COMMAND", title="commands", parser_class=_Parser
    )
    # One function per command, in the order `lockin --help` lists them.
    _add_scan_parser(commands)
    _add_diff_parser(commands)

    cli_history.add_history_parser(commands, _positive)
    cli_plan.add_plan_parser(commands, _positive)
    cli_baseline.add_baseline_parser(commands, _positive)
    cli_report.add_report_parser(commands, _positive)
    _add_rules_parser(commands)
    cli_init.add_init_parser(commands)
    _add_server_parsers(commands)
    return parser


def _add_scan_parser(commands: argparse._SubParsersAction) -> None:
    scan = add_command(
        commands,
        "scan",
        help="census of a directory or checkout: lines per layer and language",
        examples=[
            "lockin scan path/to/repo",
            "lockin scan . --by-file --sort code",
            "lockin scan . --findings                # every finding, file:line and rule",
            "lockin scan . --format csv > lockin.csv",
            "lockin scan . --fail-above 2%           # CI: fail past 2% NVIDIA-only lines",
            "lockin scan repo.git --rev v1.0         # a revision, no checkout",
        ],
        exits={1: "--fail-above: the NVIDIA-only lines are above the threshold"},
    )
    scan.add_argument("path", nargs="?", default=".", help="directory to scan (default: .)")
    scan.add_argument(
        "--format", choices=SCAN_FORMATS, default="text", help="output format (default: text)"
    )
    scan.add_argument(
        "--config",
        help=f"policy file (default: PATH/{CONFIG_PATH}, else pyproject.toml [tool.lockin])",
    )
    scan.add_argument(
        "--include",
        action="append",
        default=[],
        metavar="PAT",
        help="count only paths matching this gitignore-style pattern (repeatable)",
    )
    scan.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="PAT",
        help="leave out paths matching this gitignore-style pattern (repeatable)",
    )
    scan.add_argument(
        "--top",
        type=_positive,
        metavar="N",
        help=f"entries in the ranked lists: files, directories, ecosystems (default: "
        f"{TEXT_TOP} in text, to fit a screen; {TOP} otherwise)",
    )
    scan.add_argument(
        "--findings", action="store_true", help="text: list every finding (file:line, rule)"
    )
    scan.add_argument(
        "--by-file",
        action="store_true",
        help="text and csv: one row per file with non-portable lines instead of per language",
    )
    scan.add_argument(
        "--sort",
        choices=scan_tables.SORTS,
        default="lines",
        help="order of the table's rows: non-portable lines (default), code lines, files, "
        "non-portable share, name",
    )
    scan.add_argument(
        "--fail-above",
        type=Threshold.parse,
        metavar="LINES|PCT%",
        help="exit 1 when the NVIDIA-only lines exceed this many lines, or this share of the "
        "code lines (e.g. 5000 or 2%%)",
    )
    _add_jobs(scan)
    scan.add_argument(
        "--rev", help="count this git revision of PATH without a checkout (PATH a repository)"
    )


def _add_diff_parser(commands: argparse._SubParsersAction) -> None:
    diff = add_command(
        commands,
        "diff",
        help="change between two revisions (or two directories) and the gate's verdict",
        examples=[
            "lockin diff main HEAD",
            "lockin diff main feature --repo path/to/repo --format markdown",
            "lockin diff before/ after/               # two directories",
            "lockin diff --staged                     # what `git commit` would record",
        ],
        exits={1: "the change adds non-portable code that no decision covers"},
    )
    diff.add_argument("base", nargs="?", help="base revision (the default branch) or directory")
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
    _add_jobs(diff)
    diff.add_argument(
        "--write-record",
        nargs="?",
        const="",
        metavar="PATH",
        help="write the drafted decision record into the work tree, at PATH in the repository "
        "(default: the drafted path in the decisions folder)",
    )


def _add_rules_parser(commands: argparse._SubParsersAction) -> None:
    rules = add_command(
        commands,
        "rules",
        help="the rule reference: every rule, or one rule's page",
        examples=["lockin rules", "lockin rules cuda.kernel", "lockin rules --format json"],
    )
    rules.add_argument("rule_id", nargs="?", metavar="ID", help="a rule id, e.g. cuda.kernel")
    rules.add_argument(
        "--format",
        choices=("text", "json", "markdown"),
        default="text",
        help="output format (default: text)",
    )


def _add_server_parsers(commands: argparse._SubParsersAction) -> None:
    # late: only `serve --help` lists the settings
    from bot.runtime.settings import documented

    width = max(len(name) for name, _ in documented())
    settings = "\n".join(f"  {name:<{width}}  {default}" for name, default in documented())
    add_command(
        commands,
        "serve",
        help="run the GitHub App's webhook server (the `app` extra)",
        description="Run the GitHub App's webhook server. Settings come from the environment, "
        "then from a .env file in the working directory; without APP_ID, PRIVATE_KEY and "
        "WEBHOOK_SECRET it serves the page that registers the App.",
        examples=["BASE_URL=https://lockin.example.com lockin serve"],
        exits={
            1: "it cannot listen on HOST:PORT",
            2: "a setting below is invalid, or the App's credentials are incomplete",
        },
        extra_epilog=f"settings (environment variables):\n{settings}",
    )
    add_command(
        commands,
        "worker",
        help="run a background worker on the Redis queue (the `redis` extra)",
        examples=["REDIS_URL=redis://localhost:6379 lockin worker"],
        exits={2: "a setting is invalid, or REDIS_URL or the App's credentials are missing"},
        extra_epilog="settings: those of `lockin serve --help`; REDIS_URL is required",
    )


def _add_jobs(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--jobs",
        type=_positive,
        default=os.cpu_count() or 1,
        metavar="N",
        help="processes that count files (default: one per core)",
    )


def _positive(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {value!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {value}")
    return number


@dataclass(frozen=True)
class Threshold:
    """``--fail-above``: a number of NVIDIA-only lines, or a share of the code lines."""

    value: float
    share: bool

    @classmethod
    def parse(cls, raw: str) -> Threshold:
        text = raw.strip().replace(",", "").replace("_", "")
        share = text.endswith("%")
        try:
            value = float(text.removesuffix("%")) if share else int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected a number of lines or a percentage such as 2%, got {raw!r}"
            ) from None
        if value < 0 or (share and value > 100):
            raise argparse.ArgumentTypeError(f"out of range: {raw!r}")
        return cls(value / 100 if share else value, share)

    def exceeded(self, census: Census) -> str | None:
        """Why the census fails the threshold (one line), or None."""
        locked, code = census.locked_to_nvidia(), census.totals.code_lines
        if self.share:
            if census.nvidia_share() <= self.value:
                return None
            return (
                f"NVIDIA-only lines are {percent(locked, code)} of the code "
                f"({locked:,} of {code:,}), above --fail-above {100 * self.value:g}%"
            )
        if locked <= self.value:
            return None
        return f"{locked:,} NVIDIA-only lines, above --fail-above {int(self.value):,}"


# -- policy --------------------------------------------------------------------


# -- scan ----------------------------------------------------------------------


def scan_census(args: argparse.Namespace, err: TextIO) -> Census:
    """Run ``lockin scan`` as parsed in ``args``; progress goes to ``err``."""
    root = args.path
    check_directory(root)
    snapshot = DirSnapshot(root)
    policy = read_policy(args.config, snapshot)
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
    return finish_scan(scan_census(args, err), args, args.path, out, err)


# -- diff ----------------------------------------------------------------------


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
    files: list[ChangedFile]
    messages: list[str] = field(default_factory=list)  # commit messages BASE..HEAD
    origin: RepoRef | None = None  # the origin remote's, for GitHub URLs in links
    root: str = ""  # where --write-record writes: the HEAD directory, or the repository's
    in_git: bool = False  # work tree (found only when writing: a bare repository has none)


def _directory_inputs(args: argparse.Namespace) -> _Inputs:
    base, head = DirSnapshot(args.base), DirSnapshot(args.head)
    policy = read_policy(args.config, base)
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
    policy = read_policy(args.config, base)
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
    if args.command == "scan" and args.top is None:
        args.top = TEXT_TOP if args.format == "text" else TOP
    if args.command == "diff":
        if args.staged and (args.base or args.head):
            raise UsageError("--staged compares the index with HEAD: give no BASE or HEAD")
        if args.staged:
            args.base, args.head = "HEAD", "the index"
        elif not args.head:
            missing = "head" if args.base else "base, head"
            raise UsageError(f"the following arguments are required: {missing} (or --staged)")
    return args


def diff_change(args: argparse.Namespace) -> tuple[_Inputs, ChangeDelta]:
    """What ``lockin diff`` reads, and the change it counts, before any verdict."""
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
        base_files=_ratchet_base(inputs.base, policy, args.jobs),
    )
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


def _baseline_at(snapshot: Snapshot, policy: Policy) -> Baseline | None:
    """The baseline committed at BASE (as the App reads it on the default branch)."""
    data = snapshot.read(BASELINE_PATH)
    if data is None:
        return None
    return load_baseline(data, policy, f"{snapshot.label}:{BASELINE_PATH}")


def _ratchet_base(snapshot: Snapshot, policy: Policy, jobs: int) -> list[FileSummary] | None:
    """BASE's census, which only the ratchet's percent threshold needs."""
    if policy.ratchet is None or policy.ratchet.percent is None:
        return None
    return snapshot_census(snapshot, policy, jobs).files()


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
    # late: the rule pages load every rule's examples
    from bot.render import rules_page

    if args.rule_id is None:
        out.write(rules_page.render_list(rules_page.SPECS, args.format))
        return 0
    spec = rules_page.find(args.rule_id)
    if spec is None:
        ids = [s.rule.id for s in rules_page.SPECS]
        close = difflib.get_close_matches(args.rule_id, ids, n=3, cutoff=0.6)
        hint = f"did you mean {' or '.join(close)}?" if close else "`lockin rules` lists them"
        raise UsageError(f"no rule {args.rule_id!r}: {hint}")
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
    # Imported here: a plain install (no `app` extra) has the CLI but not the server stack.
    try:
        if command == "serve":
            # late: the server stack is the `app` extra
            from bot.server.main import serve as run
        else:
            # late: the worker needs the `redis` extra
            from bot.worker import main as run
    except ModuleNotFoundError as exc:
        extra = "redis" if command == "worker" else "app"
        raise UsageError(
            f"lockin {command} needs the App's dependencies ({exc.name} is missing): "
            f"pip install '{DISTRIBUTION}[{extra}]'"
        ) from None
    return run() or 0


def main(
    argv: Sequence[str] | None = None, *, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        args = parse_args(argv)
        if args.command is None:  # a bare `lockin`: what it can do
            out.write(_parser().format_help())
            return 0
        if args.command in ("serve", "worker"):
            return _server(args.command)
        if args.command == "rules":
            return _rules(args, out)
        if args.command == "plan":
            return cli_plan.plan(args, out, err)
        if args.command == "baseline":
            return cli_baseline.baseline(args, out, err)
        if args.command == "report":
            return cli_report.report(args, out, err)
        if args.command == "init":
            return cli_init.init(args, out, err)
        if args.command == "history" or (args.command == "scan" and _revision_scan(args)):
            run = cli_history.history if args.command == "history" else cli_history.scan_revision
            return run(args, out, err)
        return _scan(args, out, err) if args.command == "scan" else _diff(args, out, err)
    except PolicyError as exc:
        # Every problem of the file, one line each: fixing them one run at a time is slow.
        err.writelines(f"lockin: error: {line}\n" for line in exc.lines())
        return 2
    except (UsageError, SourceError) as exc:
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
