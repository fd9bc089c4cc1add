"""The examples in bot/policy/README.md are what the code accepts."""

from __future__ import annotations

import re
from pathlib import Path

from bot.policy.config import DEFAULT_POLICY, load_policy
from bot.policy.decisions import find_links, parse_decision, parse_ref

README = (Path(__file__).parents[2] / "bot" / "policy" / "README.md").read_text("utf-8")


def _block(language: str) -> str:
    blocks = re.findall(rf"^```{language}\n(.*?)^```$", README, re.MULTILINE | re.DOTALL)
    assert len(blocks) == 1, f"expected one {language} block"
    return blocks[0]


def test_configuration_example_is_the_defaults() -> None:
    assert load_policy(_block("yaml")) == DEFAULT_POLICY


def test_record_example_parses_and_passes_the_requirements() -> None:
    record = parse_decision("example", _block("markdown"))
    assert record.type == "compute-api"
    assert record.status == "accepted"
    assert record.owner == "@octo/kernel-team"
    assert record.covers("csrc/attention/fwd.cu")
    assert record.title == "Hand-written attention kernels in CUDA"


def test_structured_cost_example_parses_into_the_mapping() -> None:
    record = parse_decision("example", _block("md"))
    assert record.cost is not None
    assert (record.cost.lines, record.cost.engineer_weeks, record.cost.target) == (1200, 3.0, "HIP")


def test_link_examples_are_links_of_this_repository() -> None:
    links = find_links(_block("text"))
    assert len(links) == 3
    kinds = [parse_ref(raw, owner="octo", repo="gpu-lab").kind for raw in links]
    assert kinds == ["path", "path", "issue"]
