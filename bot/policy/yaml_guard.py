"""Limits on YAML from repositories, checked on the parser's events before any node is built.

Configuration and decision records are written by whoever opens a pull request, so their YAML
is hostile input. PyYAML builds nodes recursively (deep nesting ends in RecursionError) and
an alias repeats a whole subtree to whatever walks the result (a 481-byte "billion laughs"
document expands to billions of nodes). The event stream is flat, so one linear pass can
count the nesting depth and the size the document would have with every alias expanded,
and refuse it before anything is built.
"""

from __future__ import annotations

import yaml


class YAMLTooLarge(ValueError):
    """The document is past a limit; ``str(e)`` says which, in one line."""

    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.line = line  # 1-based, where the limit was crossed


def check_yaml_limits(text: str, *, max_depth: int, max_nodes: int) -> None:
    """Raise YAMLTooLarge when `text` nests deeper than `max_depth` collections or would
    hold more than `max_nodes` nodes with its aliases expanded; yaml.YAMLError when it is
    not YAML at all (the caller reports that as it does for its own parse)."""
    sizes: dict[str, int] = {}  # anchor -> expanded size of the node it names
    open_sizes: list[int] = []  # expanded size so far of each open collection
    open_anchors: list[str | None] = []
    total = 0
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        added = 0
        if isinstance(event, yaml.CollectionStartEvent):
            if len(open_sizes) >= max_depth:
                raise YAMLTooLarge(f"nested deeper than {max_depth} levels", _line(event))
            open_sizes.append(1)
            open_anchors.append(event.anchor)
            continue
        if isinstance(event, yaml.CollectionEndEvent):
            added = open_sizes.pop()
            anchor = open_anchors.pop()
            if anchor is not None:
                sizes[anchor] = added
        elif isinstance(event, yaml.ScalarEvent):
            added = 1
            if event.anchor is not None:
                sizes[event.anchor] = 1
        elif isinstance(event, yaml.AliasEvent):
            added = sizes.get(event.anchor or "", 1)
        else:
            continue
        if open_sizes:
            open_sizes[-1] += added
        else:
            total += added
        if total + sum(open_sizes) > max_nodes:
            raise YAMLTooLarge(
                f"more than {max_nodes:,} values once its aliases are expanded", _line(event)
            )


def _line(event: yaml.Event) -> int | None:
    return event.start_mark.line + 1 if event.start_mark else None
