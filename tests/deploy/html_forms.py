"""The forms of an HTML page, read with the standard library's parser (no browser needed)."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Form:
    action: str
    method: str
    inputs: dict[str, str] = field(default_factory=dict)
    buttons: list[str] = field(default_factory=list)


class _FormParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self._button: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "form":
            self.forms.append(Form(values.get("action", ""), values.get("method", "get").lower()))
        elif tag == "input" and self.forms:
            self.forms[-1].inputs[values.get("name", "")] = values.get("value", "")
        elif tag == "button" and self.forms:
            self._button = []

    def handle_data(self, data: str) -> None:
        if self._button is not None:
            self._button.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "button" and self._button is not None:
            self.forms[-1].buttons.append("".join(self._button).strip())
            self._button = None


def forms(page: str) -> list[Form]:
    parser = _FormParser()
    parser.feed(page)
    parser.close()
    return parser.forms
