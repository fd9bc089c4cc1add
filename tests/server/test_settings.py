"""Settings from the environment and `.env`, the start-up banner, and `serve` refusing bad
settings with one clear line."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from bot.runtime.settings import Settings, SettingsError
from bot.server.main import banner, serve, with_setup_token
from tests.fakegithub import FakeGitHub

SECRET = "whsec-value-for-tests"


@pytest.fixture
def pem() -> str:
    return FakeGitHub().private_key_pem


def env(pem: str, **more: str) -> dict[str, str]:
    return {"APP_ID": "12345", "PRIVATE_KEY": pem, "WEBHOOK_SECRET": SECRET, **more}


def test_defaults_match_probot(pem: str) -> None:
    settings = Settings.from_env(env(pem), env_file=None)
    assert settings.configured
    assert settings.app_id == "12345"
    assert (settings.webhook_path, settings.host, settings.port) == (
        "/api/github/webhooks",
        "0.0.0.0",
        3000,
    )
    assert (settings.log_level, settings.log_format) == ("info", "json")
    assert settings.github_api_url == "https://api.github.com"
    assert settings.sources["app_id"] == "env"
    assert settings.sources["port"] == "default"


def test_job_retry_delays_default_and_forms(pem: str) -> None:
    assert Settings.from_env(env(pem), env_file=None).job_retry_delays == (60.0, 300.0, 1800.0)
    given = Settings.from_env(env(pem, JOB_RETRY_DELAYS=" 5, 30 ,90"), env_file=None)
    assert given.job_retry_delays == (5.0, 30.0, 90.0)
    assert Settings.from_env(env(pem, JOB_RETRY_DELAYS="off"), env_file=None).job_retry_delays == ()


def test_private_key_in_every_accepted_form(pem: str, tmp_path: Path) -> None:
    escaped = pem.strip().replace("\n", "\\n")
    encoded = base64.b64encode(pem.encode()).decode()
    key_file = tmp_path / "app.pem"
    key_file.write_text(pem)
    forms = [
        {"PRIVATE_KEY": pem},
        {"PRIVATE_KEY": escaped},
        {"PRIVATE_KEY": encoded},
        {"PRIVATE_KEY_PATH": str(key_file)},
    ]
    keys = set()
    for form in forms:
        values = {"APP_ID": "1", "WEBHOOK_SECRET": SECRET, **form}
        keys.add(Settings.from_env(values, env_file=None).private_key)
    assert keys == {pem.strip() + "\n"}


@pytest.mark.parametrize(
    ("changes", "line"),
    [
        ({"APP_ID": "my-app"}, "APP_ID: expected the App's numeric id"),
        ({"APP_ID": ""}, "APP_ID: missing; it is required when PRIVATE_KEY and WEBHOOK_SECRET"),
        ({"WEBHOOK_SECRET": ""}, "WEBHOOK_SECRET: missing"),
        ({"PRIVATE_KEY": ""}, "PRIVATE_KEY: missing (or PRIVATE_KEY_PATH)"),
        ({"PRIVATE_KEY": "not a key"}, "PRIVATE_KEY: not a PEM private key"),
        (
            {"PRIVATE_KEY": "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----"},
            "PRIVATE_KEY: the PEM does not hold a readable unencrypted private key",
        ),
        ({"PRIVATE_KEY": "", "PRIVATE_KEY_PATH": "/no/such.pem"}, "PRIVATE_KEY_PATH: cannot read"),
        ({"PORT": "http"}, "PORT: expected an integer"),
        ({"PORT": "70000"}, "PORT: expected an integer from 1 to 65535"),
        ({"LOG_FORMAT": "xml"}, "LOG_FORMAT: expected one of json, pretty"),
        ({"LOG_LEVEL": "loud"}, "LOG_LEVEL: expected one of"),
        ({"GITHUB_API_URL": "api.github.com"}, "GITHUB_API_URL: expected an http(s) URL"),
        ({"WEBHOOK_PATH": "hooks"}, "WEBHOOK_PATH: expected a path starting with '/'"),
        ({"WORKERS": "0"}, "WORKERS: expected an integer from 1"),
        ({"REQUEST_TIMEOUT": "0"}, "REQUEST_TIMEOUT: expected a positive number"),
        ({"WRITE_INTERVAL": "soon"}, "WRITE_INTERVAL: expected a number of seconds"),
        ({"JOB_RETRY_DELAYS": "60,soon"}, "JOB_RETRY_DELAYS: expected seconds such as 60,300"),
        ({"JOB_RETRY_DELAYS": "60,-1"}, "JOB_RETRY_DELAYS: expected seconds such as 60,300"),
        ({"JOB_RETRY_DELAYS": ",".join(["1"] * 21)}, "JOB_RETRY_DELAYS: expected at most 20"),
        ({"DATABASE_URL": "mysql://u:pw@db/lockin"}, "DATABASE_URL: 'mysql' is not supported"),
        ({"DATABASE_URL": "lockin.db"}, "DATABASE_URL: not a database URL"),
        ({"STORE_BUSY_SECONDS": "0"}, "STORE_BUSY_SECONDS: expected a positive number"),
        ({"STORE_RETRY_SECONDS": "later"}, "STORE_RETRY_SECONDS: expected a number of seconds"),
        ({"STORE_BACKLOG": "0"}, "STORE_BACKLOG: expected an integer from 1"),
    ],
)
def test_bad_settings_give_one_line_naming_the_setting(
    pem: str, changes: dict[str, str], line: str
) -> None:
    with pytest.raises(SettingsError) as caught:
        Settings.from_env(env(pem, **changes), env_file=None)
    message = str(caught.value)
    assert message.startswith(line)
    assert "\n" not in message
    assert pem.splitlines()[1] not in message


def test_an_ec_key_is_refused(pem: str) -> None:
    ec_pem = (
        ec.generate_private_key(ec.SECP256R1())
        .private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        .decode()
    )
    with pytest.raises(SettingsError, match=r"^PRIVATE_KEY: GitHub App keys are RSA keys"):
        Settings.from_env(env(ec_pem), env_file=None)


def test_nothing_set_means_unconfigured_not_an_error() -> None:
    settings = Settings.from_env({}, env_file=None)
    assert not settings.configured
    assert settings.app_id is None


def test_dotenv_file_is_read_and_the_environment_wins(pem: str, tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    escaped = pem.strip().replace("\n", "\\n")
    dotenv.write_text(
        f"APP_ID=777\nPRIVATE_KEY={escaped}\nWEBHOOK_SECRET=from-file\nPORT=4000\n"
        'LOG_FORMAT="pretty"\n'
    )
    settings = Settings.from_env({"PORT": "5000"}, env_file=dotenv)
    assert settings.configured
    assert (settings.app_id, settings.webhook_secret) == ("777", "from-file")
    assert settings.port == 5000
    assert settings.log_format == "pretty"
    assert settings.sources["port"] == "env"
    assert settings.sources["app_id"] == "file"
    assert settings.sources["private_key"] == "file"


def test_database_urls_of_either_store_in_any_common_spelling(pem: str) -> None:
    for url in (
        "sqlite:///var/lib/lockin.db",
        "sqlite+aiosqlite:////var/lib/lockin.db",
        "postgres://lockin:pw@db/lockin",
        "postgresql://lockin@db/lockin?sslmode=require",
        "postgresql+psycopg://lockin@/lockin?host=/run/postgresql",
    ):
        assert Settings.from_env(env(pem, DATABASE_URL=url), env_file=None).database_url == url
    store = Settings.from_env(
        env(pem, STORE_BUSY_SECONDS="0.5", STORE_RETRY_SECONDS="10", STORE_BACKLOG="50"),
        env_file=None,
    )
    assert (store.store_busy_seconds, store.store_retry_seconds, store.store_backlog) == (
        0.5,
        10.0,
        50,
    )


def test_base_url_from_webhook_proxy_url(pem: str) -> None:
    settings = Settings.from_env(env(pem, WEBHOOK_PROXY_URL="https://smee.io/abc/"), env_file=None)
    assert settings.base_url == "https://smee.io/abc"


def test_banner_names_sources_and_hides_secret_values(pem: str) -> None:
    settings = Settings.from_env(
        env(pem, BASE_URL="https://lockin.example.org", REDIS_URL="redis://:pw@localhost/0"),
        env_file=None,
    )
    text = banner(settings)
    assert "https://lockin.example.org/api/github/webhooks" in text
    assert "App id 12345" in text
    assert "private_key" in text
    assert "(set) [env]" in text
    assert "3000 [default]" in text
    for secret in (SECRET, pem.splitlines()[1], "pw@"):
        assert secret not in text


def test_unconfigured_banner_points_to_the_setup_page() -> None:
    text = banner(Settings.from_env({"PORT": "3100", "SETUP_TOKEN": "mine"}, env_file=None))
    # A token the operator set is theirs to know: the banner names the setting, not its value.
    assert "not configured: open http://localhost:3100/setup?token=<SETUP_TOKEN> to" in text
    assert "mine" not in text


def test_without_setup_token_serve_makes_one_up_and_prints_its_link() -> None:
    settings = with_setup_token(Settings.from_env({"PORT": "3100"}, env_file=None))
    token = settings.setup_token
    assert token
    assert len(token) >= 32
    assert f"open http://localhost:3100/setup?token={token} to register" in banner(settings)
    assert with_setup_token(Settings.from_env({}, env_file=None)).setup_token != token


def test_serve_refuses_bad_settings_with_exit_2_and_one_line(
    pem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert serve(env(pem, PORT="eighty")) == 2
    err = capsys.readouterr().err
    assert err == "lockin: PORT: expected an integer, got 'eighty'\n"


def test_secrets_stay_out_of_repr(pem: str) -> None:
    """repr() is what tracebacks, debuggers and `%r` log arguments print, and it reaches the
    job context every handler holds."""
    password = "redis-password-for-tests"
    settings = Settings.from_env(
        env(pem, REDIS_URL=f"redis://:{password}@127.0.0.1:6379/0"), env_file=None
    )
    shown = repr(settings)
    assert "12345" in shown
    for secret in (SECRET, password, pem.splitlines()[1]):
        assert secret not in shown


def test_org_page_url_is_an_http_url_or_refused(pem: str) -> None:
    assert Settings.from_env(env(pem), env_file=None).org_page_url is None
    given = Settings.from_env(
        env(pem, ORG_PAGE_URL="https://lockin.example.com/orgs/{org}"), env_file=None
    )
    assert given.org_page_url == "https://lockin.example.com/orgs/{org}"
    with pytest.raises(SettingsError) as caught:
        Settings.from_env(env(pem, ORG_PAGE_URL="lockin.example.com"), env_file=None)
    assert str(caught.value).startswith("ORG_PAGE_URL")
