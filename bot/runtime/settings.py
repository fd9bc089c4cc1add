"""Server settings from the environment, with Probot's names.

Every value is read from the process environment first, then from a `.env` file in the
working directory (what the manifest setup page writes), then from the default. A bad value
raises `SettingsError` whose text is one line that names the setting.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
LOG_LEVELS = ("debug", "info", "warning", "error", "critical")
LOG_FORMATS = ("json", "pretty")


class SettingsError(ValueError):
    """A setting is missing or malformed; the message is one line naming it."""


@dataclass(frozen=True)
class Settings:
    app_id: str | None
    # Secrets are left out of repr(), which tracebacks, debuggers and `%r` logs print.
    private_key: str | None = field(repr=False)
    webhook_secret: str | None = field(repr=False)
    webhook_path: str = "/api/github/webhooks"
    host: str = "0.0.0.0"
    port: int = 3000
    log_level: str = "info"
    log_format: str = "json"
    github_api_url: str = "https://api.github.com"
    base_url: str | None = None
    # The organisation the setup page registers the App under (personal account when unset).
    gh_org: str | None = None
    workers: int = 4
    queue_size: int = 1000
    write_interval: float = 1.0
    request_timeout: float = 10.0
    max_rate_limit_wait: float = 900.0
    # May carry the Redis password.
    redis_url: str | None = field(default=None, repr=False)
    # Jobs still queued or running after this many seconds of shutdown are logged as lost.
    shutdown_timeout: float = 25.0
    # A handler running longer is cancelled, so a stuck job cannot hold a worker forever.
    job_timeout: float = 1800.0
    # A job that failed because GitHub failed (5xx, timeouts, rate limits past the wait cap)
    # runs again after each of these delays in turn: GitHub never redelivers on its own.
    job_retry_delays: tuple[float, ...] = (60.0, 300.0, 1800.0)
    # Embedded mode: look for runs a dead process left in progress (bot.review.stale).
    recover_stale_runs: bool = True
    # Attempts per GitHub request on 5xx and timeouts, and the first backoff delay.
    retry_attempts: int = 4
    retry_backoff: float = 0.5
    # GitHub asks to wait at least a minute after a secondary limit that names no delay.
    secondary_rate_limit_wait: float = 60.0
    # The trend store: PostgreSQL when set (may carry a password), else a SQLite file.
    database_url: str | None = field(default=None, repr=False)
    db_path: str = "lockin.db"
    # The trend store is optional: a statement waits this long for a lock (or PostgreSQL
    # for a connection) before the store counts as degraded; its writes then wait, up to
    # STORE_BACKLOG of them, and are retried every STORE_RETRY_SECONDS (bot/store/keeper.py).
    store_busy_seconds: float = 5.0
    store_retry_seconds: float = 30.0
    store_backlog: int = 1000
    # Past default-branch points counted when a repository is added, and the GitHub
    # requests per minute per installation that counting them may use.
    history_backfill_points: int = 12
    backfill_requests_per_minute: int = 30
    # The engine runs in this many processes (0: one per core), never in the web process's
    # own threads; each file and each job gets at most this much CPU time.
    analysis_processes: int = 0
    analysis_file_seconds: float = 5.0
    analysis_job_seconds: float = 600.0
    # CPU seconds a file may run past its budget (in C code the budget's timer cannot
    # interrupt) before the kernel ends its worker, which is then replaced.
    analysis_grace_seconds: float = 10.0
    # "Sign in with GitHub" for the organisation pages: the App's OAuth client (the setup
    # page writes both), the key that signs session cookies (derived from the private key
    # when unset) and GitHub's web address (derived from GITHUB_API_URL when unset).
    github_client_id: str | None = None
    github_client_secret: str | None = field(default=None, repr=False)
    session_secret: str | None = field(default=None, repr=False)
    github_web_url: str | None = None
    private_key_path: str | None = None
    # Lets the setup page of an unconfigured server answer visitors who are not on the
    # machine itself (through a proxy or from the network), who must present it.
    setup_token: str | None = field(default=None, repr=False)
    # Admission of webhook bodies not yet authenticated (bot.server.signed_body): bodies
    # read at once in all and from one peer, seconds a body waits for a slot, seconds one
    # body may stall between chunks and seconds to receive it whole; proxies (addresses or
    # CIDRs) whose X-Forwarded-For is believed; and whether only GitHub's published hook
    # ranges (GET /meta) may deliver.
    # Seconds between sweeps for check runs left in progress (bot.runtime.sweep).
    stale_run_sweep_interval: float = 60.0
    webhook_body_slots: int = 32
    webhook_peer_slots: int = 4
    webhook_slot_wait: float = 3.0
    webhook_chunk_timeout: float = 2.0
    webhook_body_deadline: float = 5.0
    trusted_proxies: tuple[IPNetwork, ...] = ()
    github_hooks_only: bool = False
    # The organisation page the PR comment links to; "{org}" stands for the repository's owner.
    org_page_url: str | None = None
    sources: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    @property
    def web_url(self) -> str:
        """GitHub's web address: github.com, or a GitHub Enterprise Server's host."""
        if self.github_web_url:
            return self.github_web_url.rstrip("/")
        api = self.github_api_url.rstrip("/")
        if api == "https://api.github.com":
            return "https://github.com"
        return api.removesuffix("/api/v3")

    @property
    def sign_in_configured(self) -> bool:
        return bool(self.github_client_id and self.github_client_secret)

    @property
    def configured(self) -> bool:
        return bool(self.app_id and self.private_key and self.webhook_secret)

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str], *, env_file: Path | None = Path(".env")
    ) -> Settings:
        values = _Layered(environ, _read_env_file(env_file))
        kwargs: dict[str, Any] = {}
        sources: dict[str, str] = {}
        for spec in _SPECS:
            raw, source = values.first(spec.names)
            if raw is None or raw == "":
                sources[spec.field] = "default"
                continue
            try:
                kwargs[spec.field] = spec.parse(raw)
            except ValueError as exc:
                raise SettingsError(f"{spec.names[0]}: {exc}") from None
            sources[spec.field] = source
        _load_private_key(values, kwargs, sources)
        _check_complete(kwargs)
        kwargs.setdefault("app_id", None)
        kwargs.setdefault("webhook_secret", None)
        return cls(**kwargs, sources=sources)

    def public_view(self) -> dict[str, str]:
        """Each setting with where it came from, secret values masked (for the banner)."""
        view: dict[str, str] = {}
        for f in fields(self):
            if f.name == "sources":
                continue
            value = getattr(self, f.name)
            shown = "(set)" if not f.repr and value else repr(value)
            view[f.name] = f"{shown} [{self.sources.get(f.name, 'default')}]"
        return view


class _Layered:
    """The environment over the `.env` file; remembers which layer answered."""

    def __init__(self, environ: Mapping[str, str], file_values: Mapping[str, str]) -> None:
        self._layers = (("env", environ), ("file", file_values))

    def first(self, names: tuple[str, ...]) -> tuple[str | None, str]:
        for source, layer in self._layers:
            for name in names:
                value = layer.get(name)
                if value not in (None, ""):
                    return value, source
        return None, "default"


def _read_env_file(path: Path | None) -> dict[str, str]:
    if path is None or not path.is_file():
        return {}
    # Imported here, as cryptography below: `lockin serve --help` lists the settings in an
    # install without the `app` extra.
    from dotenv import dotenv_values

    return {k: v for k, v in dotenv_values(path, interpolate=False).items() if v is not None}


def _int_in(low: int, high: int) -> Callable[[str], int]:
    def parse(raw: str) -> int:
        try:
            value = int(raw.strip())
        except ValueError:
            raise ValueError(f"expected an integer, got {raw!r}") from None
        if not low <= value <= high:
            raise ValueError(f"expected an integer from {low} to {high}, got {value}")
        return value

    return parse


def _seconds(*, positive: bool) -> Callable[[str], float]:
    def parse(raw: str) -> float:
        try:
            value = float(raw.strip())
        except ValueError:
            raise ValueError(f"expected a number of seconds, got {raw!r}") from None
        if value < 0 or (positive and value == 0) or value != value:
            raise ValueError(f"expected a {'positive' if positive else 'non-negative'} number")
        return value

    return parse


def _choice(
    options: tuple[str, ...], aliases: Mapping[str, str] | None = None
) -> Callable[[str], str]:
    def parse(raw: str) -> str:
        value = raw.strip().lower()
        value = (aliases or {}).get(value, value)
        if value not in options:
            raise ValueError(f"expected one of {', '.join(options)}, got {raw!r}")
        return value

    return parse


def _url(raw: str) -> str:
    parts = urlsplit(raw.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"expected an http(s) URL, got {raw!r}")
    return raw.strip().rstrip("/")


def _delays(raw: str) -> tuple[float, ...]:
    """Comma-separated seconds ("60,300,1800"); empty or "off" for no retries."""
    text = raw.strip()
    if text.lower() in ("", "off", "none"):
        return ()
    seconds = _seconds(positive=False)
    try:
        delays = tuple(seconds(part) for part in text.split(","))
    except ValueError:
        raise ValueError(f"expected seconds such as 60,300,1800, got {raw!r}") from None
    if len(delays) > 20:
        raise ValueError(f"expected at most 20 delays, got {len(delays)}")
    return delays


def _database_url(raw: str) -> str:
    """A URL the trend store can open (PostgreSQL or SQLite); the error never repeats it."""
    from bot.store.connect import store_url  # SQLAlchemy's URL parser, loaded when needed

    value = raw.strip()
    store_url(value, None)  # StoreURLError is a ValueError: one line naming the problem
    return value


def _app_id(raw: str) -> str:
    # Kept as a string: gidgethub's get_jwt and GitHub both want `iss` as a string.
    value = raw.strip()
    if not value.isdigit() or int(value) == 0:
        raise ValueError(f"expected the App's numeric id, got {raw!r}")
    return value


def _webhook_path(raw: str) -> str:
    value = raw.strip()
    if not value.startswith("/") or any(c.isspace() for c in value):
        raise ValueError(f"expected a path starting with '/', got {raw!r}")
    return value


def _flag(raw: str) -> bool:
    value = raw.strip().lower()
    if value not in ("true", "false", "1", "0", "yes", "no"):
        raise ValueError(f"expected true or false, got {raw!r}")
    return value in ("true", "1", "yes")


def _networks(raw: str) -> tuple[IPNetwork, ...]:
    """Comma-separated addresses or CIDRs ("10.0.0.0/8, ::1")."""
    try:
        return tuple(
            ipaddress.ip_network(part.strip(), strict=False)
            for part in raw.split(",")
            if part.strip()
        )
    except ValueError as exc:
        raise ValueError(f"expected addresses or CIDRs such as 10.0.0.0/8, got {exc}") from None


def _text(raw: str) -> str:
    return raw.strip()


@dataclass(frozen=True)
class _Spec:
    field: str
    names: tuple[str, ...]
    parse: Callable[[str], Any]


_SPECS = (
    _Spec("app_id", ("APP_ID",), _app_id),
    _Spec("webhook_secret", ("WEBHOOK_SECRET",), str),
    _Spec("webhook_path", ("WEBHOOK_PATH",), _webhook_path),
    _Spec("host", ("HOST",), _text),
    _Spec("port", ("PORT",), _int_in(1, 65535)),
    _Spec(
        "log_level",
        ("LOG_LEVEL",),
        _choice(LOG_LEVELS, {"trace": "debug", "warn": "warning", "fatal": "critical"}),
    ),
    _Spec("log_format", ("LOG_FORMAT",), _choice(LOG_FORMATS)),
    _Spec("github_api_url", ("GITHUB_API_URL",), _url),
    _Spec("base_url", ("BASE_URL", "WEBHOOK_PROXY_URL"), _url),
    _Spec("gh_org", ("GH_ORG",), _text),
    _Spec("workers", ("WORKERS",), _int_in(1, 256)),
    _Spec("queue_size", ("QUEUE_SIZE",), _int_in(1, 1_000_000)),
    _Spec("write_interval", ("WRITE_INTERVAL",), _seconds(positive=False)),
    _Spec("request_timeout", ("REQUEST_TIMEOUT",), _seconds(positive=True)),
    _Spec("max_rate_limit_wait", ("MAX_RATE_LIMIT_WAIT",), _seconds(positive=False)),
    _Spec("redis_url", ("REDIS_URL",), _text),
    _Spec("shutdown_timeout", ("SHUTDOWN_TIMEOUT",), _seconds(positive=False)),
    _Spec("job_timeout", ("JOB_TIMEOUT",), _seconds(positive=True)),
    _Spec("job_retry_delays", ("JOB_RETRY_DELAYS",), _delays),
    _Spec("setup_token", ("SETUP_TOKEN",), _text),
    _Spec("retry_attempts", ("RETRY_ATTEMPTS",), _int_in(1, 20)),
    _Spec("retry_backoff", ("RETRY_BACKOFF",), _seconds(positive=False)),
    _Spec("recover_stale_runs", ("RECOVER_STALE_RUNS",), _flag),
    _Spec("secondary_rate_limit_wait", ("SECONDARY_RATE_LIMIT_WAIT",), _seconds(positive=False)),
    _Spec("database_url", ("DATABASE_URL",), _database_url),
    _Spec("db_path", ("LOCKIN_DB_PATH",), _text),
    _Spec("store_busy_seconds", ("STORE_BUSY_SECONDS",), _seconds(positive=True)),
    _Spec("store_retry_seconds", ("STORE_RETRY_SECONDS",), _seconds(positive=True)),
    _Spec("store_backlog", ("STORE_BACKLOG",), _int_in(1, 1_000_000)),
    _Spec("history_backfill_points", ("HISTORY_BACKFILL_POINTS",), _int_in(0, 1000)),
    _Spec("backfill_requests_per_minute", ("BACKFILL_REQUESTS_PER_MINUTE",), _int_in(1, 5000)),
    _Spec("github_client_id", ("GITHUB_CLIENT_ID",), _text),
    _Spec("github_client_secret", ("GITHUB_CLIENT_SECRET",), _text),
    _Spec("session_secret", ("SESSION_SECRET",), _text),
    _Spec("github_web_url", ("GITHUB_WEB_URL",), _url),
    _Spec("org_page_url", ("ORG_PAGE_URL",), _url),
    _Spec("analysis_processes", ("ANALYSIS_PROCESSES",), _int_in(0, 256)),
    _Spec("analysis_file_seconds", ("ANALYSIS_FILE_SECONDS",), _seconds(positive=True)),
    _Spec("analysis_job_seconds", ("ANALYSIS_JOB_SECONDS",), _seconds(positive=True)),
    _Spec("analysis_grace_seconds", ("ANALYSIS_GRACE_SECONDS",), _seconds(positive=True)),
    _Spec("stale_run_sweep_interval", ("STALE_RUN_SWEEP_INTERVAL",), _seconds(positive=True)),
    _Spec("webhook_body_slots", ("WEBHOOK_BODY_SLOTS",), _int_in(1, 4096)),
    _Spec("webhook_peer_slots", ("WEBHOOK_PEER_SLOTS",), _int_in(1, 1024)),
    _Spec("webhook_slot_wait", ("WEBHOOK_SLOT_WAIT",), _seconds(positive=False)),
    _Spec("webhook_chunk_timeout", ("WEBHOOK_CHUNK_TIMEOUT",), _seconds(positive=True)),
    _Spec("webhook_body_deadline", ("WEBHOOK_BODY_DEADLINE",), _seconds(positive=True)),
    _Spec("trusted_proxies", ("TRUSTED_PROXIES",), _networks),
    _Spec("github_hooks_only", ("GITHUB_HOOKS_ONLY",), _flag),
)


def _load_private_key(values: _Layered, kwargs: dict[str, Any], sources: dict[str, str]) -> None:
    raw, source = values.first(("PRIVATE_KEY",))
    if raw is not None:
        kwargs["private_key"] = parse_private_key(raw, "PRIVATE_KEY")
        sources["private_key"] = source
        return
    path, source = values.first(("PRIVATE_KEY_PATH",))
    if path is None:
        kwargs["private_key"] = None
        sources["private_key"] = "default"
        return
    try:
        text = Path(path).expanduser().read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise SettingsError(f"PRIVATE_KEY_PATH: cannot read {path}: {reason}") from None
    kwargs["private_key"] = parse_private_key(text, "PRIVATE_KEY_PATH")
    kwargs["private_key_path"] = path
    sources["private_key"] = source
    sources["private_key_path"] = source


def parse_private_key(raw: str, name: str) -> str:
    """The App's RSA key as PEM text, from PEM, `\\n`-escaped PEM or base64 of PEM."""
    text = raw.strip()
    if "-----BEGIN" not in text:
        try:
            text = base64.b64decode(text, validate=False).decode("utf-8").strip()
        except (binascii.Error, UnicodeDecodeError):
            text = ""
    text = text.replace("\\n", "\n")
    if "-----BEGIN" not in text:
        raise SettingsError(
            f"{name}: not a PEM private key (give the PEM text, the PEM with \\n escapes, "
            "or its base64)"
        )
    from cryptography.hazmat.primitives.asymmetric import rsa
    from cryptography.hazmat.primitives.serialization import load_pem_private_key

    try:
        key = load_pem_private_key(text.encode("ascii"), password=None)
    except (ValueError, TypeError, UnicodeEncodeError):
        raise SettingsError(
            f"{name}: the PEM does not hold a readable unencrypted private key"
        ) from None
    if not isinstance(key, rsa.RSAPrivateKey):
        raise SettingsError(f"{name}: GitHub App keys are RSA keys; this one is not")
    return text + "\n"


def _check_complete(kwargs: Mapping[str, Any]) -> None:
    """All three credentials, or none (then the manifest setup page serves)."""
    present = {
        "APP_ID": kwargs.get("app_id"),
        "PRIVATE_KEY": kwargs.get("private_key"),
        "WEBHOOK_SECRET": kwargs.get("webhook_secret"),
    }
    if any(present.values()) and not all(present.values()):
        missing = [name for name, value in present.items() if not value]
        given = [name for name, value in present.items() if value]
        hint = " (or PRIVATE_KEY_PATH)" if missing[0] == "PRIVATE_KEY" else ""
        raise SettingsError(
            f"{missing[0]}: missing{hint}; it is required when {' and '.join(given)} is set"
        )


def documented() -> list[tuple[str, str]]:
    """Every setting's environment name (aliases after a slash) and its default, in the
    order read: what ``lockin serve --help`` lists, generated so it cannot fall behind."""
    defaults = {f.name: f for f in fields(Settings)}
    rows = []
    for spec in _SPECS:
        f = defaults[spec.field]
        rows.append((" / ".join(spec.names), _shown_default(f.default, secret=not f.repr)))
    rows.insert(1, ("PRIVATE_KEY", "unset, secret: the App's key (PEM, \\n-escaped or base64)"))
    rows.insert(2, ("PRIVATE_KEY_PATH", "unset: a file holding that key"))
    return rows


def _shown_default(value: Any, *, secret: bool) -> str:
    if value is None or value is MISSING:
        shown = "unset"
    elif isinstance(value, bool):
        shown = f"default {str(value).lower()}"
    elif isinstance(value, tuple):
        shown = "default " + ",".join(f"{v:g}" for v in value)
    else:
        shown = f"default {value}"
    return f"{shown}, secret" if secret else shown
