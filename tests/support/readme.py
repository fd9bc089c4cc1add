"""Code blocks of the README, so that tests run the snippets users copy."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def blocks(language: str, section: str | None = None) -> list[str]:
    """The ```language blocks, of the whole README or of the `### section` heading's part."""
    text = README
    if section is not None:
        match = re.search(rf"^### {re.escape(section)}\n(.*?)(?=^#)", README, flags=re.S | re.M)
        assert match, f"README has no section {section!r}"
        text = match.group(1)
    return re.findall(rf"^```{language}\n(.*?)^```", text, flags=re.S | re.M)


def commands(section: str) -> list[str]:
    """The command lines of a section's ```sh blocks, comments dropped."""
    return [
        line.split("  #")[0].strip()
        for block in blocks("sh", section)
        for line in block.splitlines()
        if line.strip()
    ]
