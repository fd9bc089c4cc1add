"""The YAML side of `.github/lockin.yml` (bot/policy/config.py holds the rest): one parse
that keeps the nodes, so that every problem, whether of YAML, of structure, of the schema or
of a path pattern, is reported at its line.

A module of its own because importing PyYAML is about 15 ms of a scan's start-up, and a
scan of a tree without a configuration file reads no YAML: bot/policy/config.py loads this
module with the first file it parses.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import yaml

from bot.policy.config import MAX_CONFIG_DEPTH, MAX_CONFIG_NODES, PolicyError, Problem
from bot.policy.patterns import PatternError, compile_patterns
from bot.policy.yaml_guard import YAMLTooLarge, check_yaml_limits

if TYPE_CHECKING:
    from jsonschema import ValidationError

_SCALAR_NAMES = {
    "tag:yaml.org,2002:str": "string",
    "tag:yaml.org,2002:int": "integer",
    "tag:yaml.org,2002:float": "number",
    "tag:yaml.org,2002:bool": "boolean",
    "tag:yaml.org,2002:null": "null",
}
_JSON_TYPES = {"array": "a list", "object": "a mapping", "integer": "an integer", "string": "text"}


def parse(text: str, source: str) -> tuple[yaml.Node | None, Any]:
    """One parse gives both the nodes (for line numbers) and the data."""
    try:
        loader = yaml.SafeLoader(text)
    except yaml.reader.ReaderError as e:
        line = text.count("\n", 0, e.position) + 1
        what = f"invalid YAML: {e.reason} (U+{e.character:04X})"
        raise PolicyError.at(source, line, what) from None
    try:
        check_yaml_limits(text, max_depth=MAX_CONFIG_DEPTH, max_nodes=MAX_CONFIG_NODES)
        root = loader.get_single_node()
        problems = list(_structure_problems(root))
        if problems:
            raise PolicyError(source, problems)
        return root, loader.construct_document(root) if root is not None else None
    except YAMLTooLarge as e:
        raise PolicyError.at(source, e.line, f"too large or too deeply nested: {e}") from None
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        at = mark.line + 1 if mark else None
        what = ", ".join(part for part in (e.context, e.problem) if part) or str(e)
        raise PolicyError.at(source, at, f"invalid YAML: {what}") from None
    except yaml.YAMLError as e:
        raise PolicyError.at(source, None, f"invalid YAML: {e}") from None
    finally:
        loader.dispose()


def _structure_problems(root: yaml.Node | None) -> Iterator[Problem]:
    """What JSON Schema cannot see once YAML is constructed: key types, duplicates, size."""
    if root is None or _is_null(root):
        return
    if not isinstance(root, yaml.MappingNode):
        yield Problem(_line(root), None, f"the top level must be a mapping, not a {_kind(root)}")
        return
    stack: list[tuple[yaml.Node, str | None, int]] = [(root, None, 0)]
    seen = 0
    while stack:
        node, key, depth = stack.pop()
        seen += 1
        if seen > MAX_CONFIG_NODES or depth > MAX_CONFIG_DEPTH:
            yield Problem(_line(node), None, "too large or too deeply nested (aliases?)")
            return
        if isinstance(node, yaml.SequenceNode):
            stack.extend((item, f"{key}[{i}]", depth + 1) for i, item in enumerate(node.value))
        elif isinstance(node, yaml.MappingNode):
            names: set[str] = set()
            for key_node, value in node.value:
                # A complex key (`? [a]`) has no name to print, and its list is unhashable.
                label = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
                name = _join(key, str(label) if label is not None else f"<{_kind(key_node)}>")
                if key_node.tag != "tag:yaml.org,2002:str":
                    yield Problem(_line(key_node), name, "keys must be strings (quote it)")
                elif key_node.value in names:
                    yield Problem(_line(key_node), name, "duplicate key")
                else:
                    names.add(key_node.value)
                stack.append((value, name, depth + 1))


def schema_problems(root: yaml.Node | None, error: ValidationError) -> Iterator[Problem]:
    # jsonschema types these as possibly unset; an error from validation always has them.
    schema: Any = error.schema
    instance: Any = error.instance
    expected_value: Any = error.validator_value
    path = list(error.absolute_path)
    node = _node_at(root, path)
    key = _key(path)
    match error.validator:
        case "additionalProperties":
            known = list(schema.get("properties", {}))
            for extra in (k for k in instance if k not in known):
                close = difflib.get_close_matches(extra, known, n=1)
                hint = f"did you mean {close[0]!r}?" if close else f"known: {', '.join(known)}"
                line = _line(_key_node(node, extra))
                yield Problem(line, _join(key, extra), f"unknown key ({hint})")
            return
        case "type":
            names = expected_value if isinstance(expected_value, list) else [expected_value]
            expected = " or ".join(_JSON_TYPES.get(n) or str(n) for n in names if n != "null")
            got = _kind(node) if node is not None else type(instance).__name__
            found = "nothing" if instance is None else f"{got} {instance!r}"
            message = f"expected {expected}, got {found}"
        case "enum":
            choices = ", ".join(str(choice) for choice in expected_value)
            message = f"{instance!r} is not one of: {choices}"
        case "uniqueItems":
            message = "lists the same value twice"
        case "pattern" | "minLength":
            message = f"{instance!r} is not allowed here"
        case _:
            message = error.message
    yield Problem(_line(node), key, message)


def pattern_problems(root: yaml.Node | None, data: dict[str, Any]) -> Iterator[Problem]:
    paths = data.get("paths")
    for name in ("include", "exclude"):
        patterns = paths.get(name) if isinstance(paths, dict) else None
        if not isinstance(patterns, list) or not all(isinstance(p, str) for p in patterns):
            continue  # absent, or the schema reports it
        try:
            compile_patterns(patterns)
        except PatternError as e:
            node = _node_at(root, ["paths", name, e.index])
            yield Problem(_line(node), f"paths.{name}[{e.index}]", str(e))


def _node_at(root: yaml.Node | None, path: list[str | int]) -> yaml.Node | None:
    node = root
    for step in path:
        if isinstance(node, yaml.MappingNode):
            node = next((v for k, v in node.value if k.value == step), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int):
            node = node.value[step] if step < len(node.value) else None
        else:
            return node
    return node


def _key_node(mapping: yaml.Node | None, name: str) -> yaml.Node | None:
    if isinstance(mapping, yaml.MappingNode):
        return next((k for k, _ in mapping.value if k.value == name), mapping)
    return mapping


def _key(path: list[str | int]) -> str | None:
    key: str | None = None
    for step in path:
        key = f"{key}[{step}]" if isinstance(step, int) else _join(key, step)
    return key


def _join(parent: str | None, name: str) -> str:
    return f"{parent}.{name}" if parent else name


def _line(node: yaml.Node | None) -> int | None:
    return node.start_mark.line + 1 if node is not None else None


def _is_null(node: yaml.Node) -> bool:
    return isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:null"


def _kind(node: yaml.Node) -> str:
    if isinstance(node, yaml.MappingNode):
        return "mapping"
    if isinstance(node, yaml.SequenceNode):
        return "list"
    return _SCALAR_NAMES.get(node.tag, "value")
