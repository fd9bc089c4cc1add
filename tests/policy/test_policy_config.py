"""`.github/lockin.yml`: defaults from the schema, and every invalid file named by line and key."""

from __future__ import annotations

import textwrap

import pytest
from jsonschema import Draft202012Validator

from bot.engine.model import Layer
from bot.policy.config import (
    DEFAULT_POLICY,
    SCHEMA,
    CensusSettings,
    DecisionSettings,
    PathSettings,
    Policy,
    PolicyError,
    RecountSettings,
    load_policy,
)


def _load(text: str):
    return load_policy(textwrap.dedent(text))


def _error(text: str) -> PolicyError:
    with pytest.raises(PolicyError) as info:
        _load(text)
    return info.value


def test_schema_is_valid_draft_2020_12_and_documents_every_key() -> None:
    Draft202012Validator.check_schema(SCHEMA)

    def walk(schema: dict, where: str) -> None:
        if schema.get("type") == "object":
            assert schema["additionalProperties"] is False, where
        for name, sub in schema.get("properties", {}).items():
            assert sub.get("description"), f"{where}.{name} has no description"
            assert "default" in sub, f"{where}.{name} has no default"
            walk(sub, f"{where}.{name}")

    walk(SCHEMA, "lockin.yml")


def test_defaults() -> None:
    policy = DEFAULT_POLICY
    assert policy.layers == (Layer.KERNEL, Layer.VENDOR_PATH)
    assert policy.allowance == 0
    assert policy.enforcement == "fail"
    assert policy.paths == PathSettings(include=(), exclude=(), generated="exclude")
    assert not policy.paths.include_generated
    assert policy.comment == "on-gated"
    assert policy.annotations == "warning"
    assert policy.check_name == "lockin"
    assert policy.decisions.folder == "docs/decisions"
    assert policy.decisions.require_default_branch is False
    assert policy.decisions.allow_proposed is False
    assert policy.recount.allow == frozenset({"write", "maintain", "admin"})
    assert policy.census.max_archive_mb == 1024
    assert policy.census.max_archive_bytes == 1024 * 1024 * 1024


@pytest.mark.parametrize("text", ["", "# only comments\n", "---\n", "~\n", b"\xef\xbb\xbf"])
def test_empty_file_means_defaults(text: str | bytes) -> None:
    assert load_policy(text) == DEFAULT_POLICY


def test_full_file_overrides_every_default() -> None:
    policy = _load(
        """\
        layers: [kernel, vendor-library]
        allowance: 25
        enforcement: neutral
        paths:
          include: ["src/**"]
          exclude: ["src/generated/", "!src/generated/keep.cu"]
          generated: include
        comment: always
        check_name: " GPU lock-in "
        decisions:
          folder: ./adr/compute/
          require_default_branch: true
          allow_proposed: true
        recount:
          allow: [write, triage, author]
        census:
          max_archive_mb: 64
        """
    )
    assert policy == Policy(
        layers=(Layer.KERNEL, Layer.VENDOR_LIBRARY),
        allowance=25,
        enforcement="neutral",
        paths=PathSettings(("src/**",), ("src/generated/", "!src/generated/keep.cu"), "include"),
        comment="always",
        check_name="GPU lock-in",
        decisions=DecisionSettings("adr/compute", require_default_branch=True, allow_proposed=True),
        recount=RecountSettings(frozenset({"write", "triage", "author"})),
        census=CensusSettings(64),
    )


def test_partial_section_keeps_its_other_defaults() -> None:
    policy = _load("decisions:\n  allow_proposed: true\n")
    assert policy.decisions.allow_proposed is True
    assert policy.decisions.folder == "docs/decisions"
    assert policy.layers == DEFAULT_POLICY.layers


def test_path_filter_applies_vendored_trees_then_include_then_exclude() -> None:
    policy = _load(
        """\
        paths:
          include: ["src/", "*.cu"]
          exclude: ["src/gen/", "!src/gen/keep.cu", "**/test_*.py"]
        """
    )
    paths = policy.path_filter(submodules=["src/cutlass"])
    assert paths.includes("src/a.py")
    assert paths.includes("other/kernel.cu")  # a pattern without a slash matches anywhere
    assert not paths.includes("docs/readme.md")
    assert not paths.includes("src/gen/x.cu")
    assert paths.includes("src/gen/keep.cu")
    assert not paths.includes("src/deep/test_ops.py")
    assert not paths.includes("third_party/flash/kernel.cu")
    assert not paths.includes("src/cutlass/gemm.cu")


def test_default_path_filter_keeps_everything_but_vendored_trees() -> None:
    paths = DEFAULT_POLICY.path_filter()
    assert paths.includes("csrc/attn.cu")
    assert not paths.includes("vendor/cub/block.cuh")
    assert _load("paths:\n  generated: include\n").paths.include_generated


@pytest.mark.parametrize(
    ("text", "line", "key", "words"),
    [
        # wrong type
        ("comment: always\nallowance: five\n", 2, "allowance", "expected an integer"),
        ("layers: kernel\n", 1, "layers", "expected a list"),
        (
            "decisions:\n  folder: docs\n  allow_proposed: 'yes'\n",
            3,
            "decisions.allow_proposed",
            "expected boolean",
        ),
        ("allowance: true\n", 1, "allowance", "got boolean"),
        ("decisions:\n", 1, "decisions", "got nothing"),
        # unknown key, at the key's own line, with a suggestion
        ("check_name: x\n\nenforcment: fail\n", 3, "enforcment", "did you mean 'enforcement'"),
        ("recount:\n  allow: [write]\n  users: [bob]\n", 3, "recount.users", "unknown key"),
        # bad enum
        (
            "enforcement: sometimes\n",
            1,
            "enforcement",
            "'sometimes' is not one of: fail, report-only, neutral",
        ),
        ("layers:\n  - kernel\n  - gpu\n", 3, "layers[1]", "'gpu' is not one of"),
        ("recount:\n  allow: [write, everyone]\n", 2, "recount.allow[1]", "'everyone'"),
        ("comment: sometimes\n", 1, "comment", "on-gated, on-change, always, never"),
        # other constraints
        ("allowance: -1\n", 1, "allowance", "minimum"),
        ("census:\n  max_archive_mb: 0\n", 2, "census.max_archive_mb", "minimum"),
        ("layers: [kernel, kernel]\n", 1, "layers", "twice"),
        ("decisions:\n  folder: ../elsewhere\n", 2, "decisions.folder", "not allowed"),
        ("check_name: '   '\n", 1, "check_name", "not allowed"),
        (
            "paths:\n  exclude:\n    - build/\n    - '!'\n",
            4,
            "paths.exclude[1]",
            "invalid gitignore",
        ),
        ("paths:\n  include: src/\n", 2, "paths.include", "expected a list"),
        ("paths:\n  generated: sometimes\n", 2, "paths.generated", "not one of: exclude, include"),
        # what YAML hides from the schema
        ("comment: always\ncomment: never\n", 2, "comment", "duplicate key"),
        ("on: fail\n", 1, "on", "keys must be strings"),
        ("? ?\n", 1, "<mapping>", "keys must be strings"),
        ("? [a, b]\n: 1\n", 1, "<list>", "keys must be strings"),
    ],
)
def test_invalid_file_names_line_and_key(text: str, line: int, key: str, words: str) -> None:
    error = _error(text)
    assert (error.line, error.key) == (line, key)
    assert words in error.message
    assert str(error).startswith(f".github/lockin.yml:{line}: {key}: ")
    assert "\n" not in str(error)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("layers: [kernel\n", 2),  # unclosed flow sequence: reported where the file ends
        ("enforcement: fail\n  comment: never\n", 2),
        ("decisions:\n  folder: 'docs\n", 3),
        ("a: 1\n---\nb: 2\n", 2),
    ],
)
def test_yaml_syntax_error_gives_the_line(text: str, line: int) -> None:
    error = _error(text)
    assert error.line == line
    assert error.key is None
    assert error.message.startswith("invalid YAML")
    assert str(error).startswith(f".github/lockin.yml:{line}: invalid YAML")


@pytest.mark.parametrize(("text", "kind"), [("- kernel\n", "list"), ("fail\n", "string")])
def test_top_level_must_be_a_mapping(text: str, kind: str) -> None:
    error = _error(text)
    assert error.line == 1
    assert error.message == f"the top level must be a mapping, not a {kind}"


def test_every_problem_is_kept_and_the_first_in_file_order_leads() -> None:
    error = _error("enforcement: never\nallowance: x\nbogus: 1\n")
    assert [(p.line, p.key) for p in error.problems] == [
        (1, "enforcement"),
        (2, "allowance"),
        (3, "bogus"),
    ]
    assert (error.line, error.key) == (1, "enforcement")
    assert str(error).endswith("(and 2 more)")


def test_source_names_the_file_it_came_from() -> None:
    with pytest.raises(PolicyError, match=r"^octo/\.github:\.github/lockin\.yml:1: allowance: "):
        load_policy("allowance: []\n", source="octo/.github:.github/lockin.yml")


def test_bytes_that_are_not_utf8_are_an_error() -> None:
    with pytest.raises(PolicyError, match="not UTF-8") as info:
        load_policy(b"allowance: \xff\n")
    assert info.value.line is None


@pytest.mark.parametrize(
    "text",
    [
        "a: &a [*a]\n",  # an alias that contains itself
        "a: &a [1,2,3,4,5,6,7,8,9,0]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
        "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n",
    ],
)
def test_alias_bombs_are_refused_not_expanded(text: str) -> None:
    assert "too large or too deeply nested" in _error(text).message


def test_oversized_file_is_refused() -> None:
    with pytest.raises(PolicyError, match="larger than"):
        load_policy("# padding\n" * 20_000)
