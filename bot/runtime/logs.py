"""Structured logs (JSON lines or a pretty form for terminals) that never carry a secret.

Every line passes through the `Redactor` after formatting, so a token, JWT, private key or
webhook secret is masked wherever it would appear: message, extra fields or traceback.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from collections import deque
from datetime import UTC, datetime
from typing import IO, Any

MASK = "[redacted]"
_PATTERNS = (
    re.compile(
        r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)", re.S
    ),
    re.compile(r"\bgh[pousr]_[A-Za-z0-9_]{16,}"),  # GitHub token formats
    re.compile(r"\beyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}"),  # JWTs
    re.compile(r"(?i)\b(?:token|bearer)\s+[\w.~+/=-]{8,}"),  # Authorization header values
)
# Tokens live an hour: the latest ones of the most active installations. (GitHub's own
# token and JWT formats are also caught by the patterns above, however many there are.)
_MAX_DYNAMIC = 1024
_RECORD_FIELDS = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message",
    "asctime",
    "taskName",
}


class Redactor:
    def __init__(self) -> None:
        self._static: set[str] = set()
        self._dynamic: deque[str] = deque(maxlen=_MAX_DYNAMIC)

    def add_static(self, secret: str | None) -> None:
        """A configured secret; a PEM key is also masked line by line."""
        if not secret:
            return
        self._static.add(secret)
        self._static.update(line for line in secret.splitlines() if len(line) >= 16)

    def add(self, secret: str) -> None:
        """A credential minted at run time (installation token, JWT)."""
        if len(secret) >= 8:
            self._dynamic.append(secret)

    def __call__(self, text: str) -> str:
        for pattern in _PATTERNS:
            text = pattern.sub(MASK, text)
        for secret in (*self._static, *self._dynamic):
            if secret in text:
                text = text.replace(secret, MASK)
        return text


REDACTOR = Redactor()


def _extra_fields(record: logging.LogRecord) -> dict[str, Any]:
    return {
        key: value
        for key, value in record.__dict__.items()
        if key not in _RECORD_FIELDS and not key.startswith("_") and value is not None
    }


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
            **_extra_fields(record),
        }
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return REDACTOR(json.dumps(line, default=str))


class PrettyFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        when = datetime.fromtimestamp(record.created).strftime("%H:%M:%S")
        fields = " ".join(f"{k}={v}" for k, v in _extra_fields(record).items())
        text = f"{when} {record.levelname:<7} {record.getMessage()}  {fields}".rstrip()
        if record.exc_info:
            text += "\n" + self.formatException(record.exc_info)
        return REDACTOR(text)


class _OurHandler(logging.StreamHandler):
    """Marks the handler `configure_logging` installed, so a second call replaces it."""


def configure_logging(level: str, fmt: str, *, stream: IO[str] | None = None) -> logging.Handler:
    root = logging.getLogger()
    for handler in [h for h in root.handlers if isinstance(h, _OurHandler)]:
        root.removeHandler(handler)
    handler = _OurHandler(stream or sys.stdout)
    handler.setFormatter(JsonFormatter() if fmt == "json" else PrettyFormatter())
    root.addHandler(handler)
    # Our own loggers at the chosen level; libraries only when they warn.
    root.setLevel(logging.WARNING)
    logging.getLogger("lockin").setLevel(level.upper())
    return handler
