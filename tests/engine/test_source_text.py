"""source_text.offsets finds each character as a regex of them would, ASCII or not."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.source_text import offsets

# The sets region kinds ask for: braces (C structure), every bracket (string literals).
CHARS = ["{}", "()[]{}"]


def _expected(text: str, chars: str) -> list[int]:
    return [m.start() for m in re.finditer(f"[{re.escape(chars)}]", text)]


@pytest.mark.parametrize("chars", CHARS)
@pytest.mark.parametrize("text", ["", "{", "}{", "f(a[1], {b: 2})", "é(x)", "a\n{\n}\n", "((("])
def test_offsets_of_a_few_texts(text: str, chars: str) -> None:
    assert offsets(text, chars) == _expected(text, chars)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab \n(){}[]é𝑥", max_size=60), st.sampled_from(CHARS))
def test_offsets_in_order_whatever_the_text(text: str, chars: str) -> None:
    assert offsets(text, chars) == _expected(text, chars)
