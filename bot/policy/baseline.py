"""`.github/lockin-baseline.yml`: the lock-in a repository held when it adopted the check.

``lockin baseline`` records, for every file outside the scope of an accepted decision, its
non-portable lines in the gated layers per ecosystem. Read from the default branch by the
App and at the base commit by ``lockin diff`` and the Action, it lets the gate count only
growth past those figures (bot/policy/counting.py), so a codebase with fifty undecided areas
can require the check on day one and write its records as the areas change.

Format (YAML, written by ``lockin baseline``; edit it only to remove files)::

    version: 1
    commit: 0123abcd...            # where it was recorded, for people
    layers: [kernel, vendor-path]  # the policy's gated layers then
    files:
      csrc/attention/attn.cu:
        cuda: 412
        hip: 40

A baseline recorded for other layers than the policy gates is an error, not a guess: the
figures would not measure the same lines.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from bot.engine.census import FileSummary
from bot.engine.model import LAYERS, Layer
from bot.policy.config import Policy, PolicyError, Problem
from bot.policy.counting import ecosystem_lines
from bot.policy.decisions import COMPUTE_API, DecisionRecord
from bot.policy.yaml_guard import YAMLTooLarge, check_yaml_limits

BASELINE_PATH = ".github/lockin-baseline.yml"
VERSION = 1
#: A baseline of a large repository lists a few thousand files; far past that is a mistake.
MAX_BASELINE_BYTES = 8 * 1024 * 1024
MAX_BASELINE_NODES = 500_000


@dataclass(frozen=True)
class Baseline:
    layers: tuple[Layer, ...]
    files: Mapping[str, Mapping[str, int]]  # path -> ecosystem -> lines
    commit: str | None = None

    def of(self, path: str) -> Mapping[str, int] | None:
        return self.files.get(path)


def record_baseline(
    files: Iterable[FileSummary],
    policy: Policy,
    recorded: Sequence[DecisionRecord],
    *,
    commit: str | None,
) -> Baseline:
    """Today's uncovered lock-in: files the path filter counts, that hold gated lines and
    that no accepted compute-API decision's scope covers."""
    paths = policy.path_filter()
    standing = [
        r
        for r in recorded
        if r.type == COMPUTE_API and r.status == "accepted" and r.owner and r.scope is not None
    ]
    out: dict[str, dict[str, int]] = {}
    for summary in files:
        if summary.skipped or not paths.includes(summary.path):
            continue
        if summary.generated and not policy.paths.include_generated:
            continue
        lines = ecosystem_lines(summary.rule_lines, policy.layers)
        if lines and not any(r.covers(summary.path) for r in standing):
            out[summary.path] = dict(sorted(lines.items()))
    return Baseline(policy.layers, dict(sorted(out.items())), commit)


def dump_baseline(baseline: Baseline) -> str:
    """The file ``lockin baseline`` writes."""
    total = sum(sum(e.values()) for e in baseline.files.values())
    head = [
        "# lockin baseline: non-portable lines per file and ecosystem, in the gated layers,",
        "# outside every accepted compute-API decision, when the check was adopted. Pull",
        "# requests are gated only on growth past these figures. Written by `lockin baseline`;",
        "# remove a file's entry once a decision covers it, never raise a figure by hand.",
        f"# {len(baseline.files):,} files, {total:,} lines.",
    ]
    body = {
        "version": VERSION,
        "commit": baseline.commit,
        "layers": [layer.value for layer in baseline.layers],
        "files": {path: dict(e) for path, e in baseline.files.items()},
    }
    if baseline.commit is None:
        del body["commit"]
    text = yaml.safe_dump(body, sort_keys=False, allow_unicode=True, width=100)
    return "\n".join(head) + "\n" + text


def load_baseline(text: str | bytes, policy: Policy, source: str = BASELINE_PATH) -> Baseline:
    """Parse a baseline; raises PolicyError (one line: source, line, key, message)."""
    if len(text) > MAX_BASELINE_BYTES:
        raise PolicyError.at(source, None, f"larger than {MAX_BASELINE_BYTES} bytes")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise PolicyError.at(source, None, f"not UTF-8 text ({e.reason})") from None
    try:
        check_yaml_limits(text, max_depth=4, max_nodes=MAX_BASELINE_NODES)
        data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except YAMLTooLarge as e:
        raise PolicyError.at(source, e.line, f"too large or too deeply nested: {e}") from None
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 if mark else None
        raise PolicyError.at(source, line, f"invalid YAML: {e.problem or e}") from None
    except yaml.YAMLError as e:
        raise PolicyError.at(source, None, f"invalid YAML: {e}") from None
    baseline = _baseline(data, source)
    if set(baseline.layers) != set(policy.layers):
        recorded = ", ".join(layer.value for layer in baseline.layers) or "none"
        gated = ", ".join(layer.value for layer in policy.layers) or "none"
        raise PolicyError(
            source,
            [
                Problem(
                    None,
                    "layers",
                    f"recorded for the layers {recorded} but the policy gates {gated}: "
                    "run `lockin baseline` again",
                )
            ],
        )
    return baseline


def _baseline(data: Any, source: str) -> Baseline:
    def wrong(key: str | None, message: str) -> PolicyError:
        return PolicyError(source, [Problem(None, key, message)])

    if not isinstance(data, dict):
        raise wrong(None, "the top level must be a mapping with version, layers and files")
    unknown = sorted(set(data) - {"version", "commit", "layers", "files"}, key=str)
    if unknown:
        raise wrong(str(unknown[0]), "unknown key (known: version, commit, layers, files)")
    if data.get("version") != VERSION:
        raise wrong("version", f"expected {VERSION}, got {data.get('version')!r}")
    commit = data.get("commit")
    if commit is not None and not isinstance(commit, str):
        raise wrong("commit", "expected text")
    layers = data.get("layers")
    known = {layer.value for layer in LAYERS}
    if not isinstance(layers, list) or not all(isinstance(x, str) and x in known for x in layers):
        raise wrong("layers", f"expected a list of layers ({', '.join(sorted(known))})")
    files = data.get("files") or {}
    if not isinstance(files, dict):
        raise wrong("files", "expected a mapping of path to lines per ecosystem")
    out: dict[str, dict[str, int]] = {}
    for path, lines in files.items():
        key = f"files.{path}"
        if not isinstance(path, str) or not isinstance(lines, dict):
            raise wrong(key, "expected a path mapped to lines per ecosystem")
        for name, n in lines.items():
            # bool is an int to Python; `cuda: yes` is a typo, not one line.
            if not isinstance(name, str) or not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise wrong(f"{key}.{name}", "expected a count of lines (0 or more)")
        out[path] = dict(lines)
    return Baseline(tuple(Layer(x) for x in layers), out, commit)
