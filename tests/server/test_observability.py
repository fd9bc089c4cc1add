"""Probes, Prometheus metrics, and logs that carry delivery ids and never a secret."""

from __future__ import annotations

import logging
from typing import Any

from gidgethub import sansio
from gidgethub.routing import Router
from prometheus_client.parser import text_string_to_metric_families

from bot.github.client import GitHub
from bot.runtime.context import JobContext
from bot.runtime.logs import REDACTOR
from bot.runtime.metrics import Metrics
from bot.server.app import create_app
from tests.fakegithub import FakeGitHub
from tests.server.conftest import CapturedLogs, StartBot, until
from tests.support.server import SECRET, settings_for
from tests.support.webhooks import load_example


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


async def test_healthz_and_readyz(start_bot: StartBot) -> None:
    bot = await start_bot()
    assert (await bot.get("/healthz"))[0] == 200
    assert (await bot.get("/readyz"))[0] == 200


async def test_metrics_count_deliveries_jobs_and_github_requests(
    start_bot: StartBot, fake_github: FakeGitHub
) -> None:
    bot = await start_bot()
    fake_github.fail("GET", r"/pulls/\d+$", status=502)
    await bot.open_pr("d-1")
    await bot.open_pr("d-1")
    await bot.deliver("check_suite", load_example("check_suite.completed.1"))
    await bot.post(b"{}", {"Content-Type": "application/json", "X-GitHub-Event": "x"})
    await until(lambda: len(bot.feature.done) == 1, "the job ran")
    status, text = await bot.get("/metrics")
    assert status == 200
    got = samples(text)

    def delivered(event: str, outcome: str) -> float:
        labels = (("event", event), ("outcome", outcome))
        return got[("lockin_webhook_deliveries_total", labels)]

    assert delivered("pull_request", "queued") == 1
    assert delivered("pull_request", "duplicate") == 1
    assert delivered("check_suite", "ignored") == 1
    assert delivered("unverified", "missing_headers") == 1
    jobs = (("event", "pull_request"), ("outcome", "ok"))
    assert got[("lockin_job_duration_seconds_count", jobs)] == 1
    assert got[("lockin_job_queue_depth", ())] == 0
    assert got[("lockin_job_queue_capacity", ())] == bot.settings.queue_size
    requests = {
        labels: value
        for (name, labels), value in got.items()
        if name == "lockin_github_requests_total"
    }
    assert requests[(("method", "GET"), ("status", "502"))] == 1
    assert requests[(("method", "GET"), ("status", "200"))] >= 2  # /app, the PR
    assert requests[(("method", "POST"), ("status", "201"))] == 2  # token, comment
    remaining = got[("lockin_github_rate_limit_remaining", (("installation", "1"),))]
    assert 0 < remaining < 5000


async def test_two_apps_in_one_process_keep_their_own_metrics(fake_github: FakeGitHub) -> None:
    first = create_app(settings_for(fake_github))
    second = create_app(settings_for(fake_github))
    from bot.server.keys import SERVICES

    first[SERVICES].metrics.deliveries.labels("ping", "pong").inc()
    assert b'outcome="pong"} 1.0' in first[SERVICES].metrics.render()
    assert b'outcome="pong"' not in second[SERVICES].metrics.render()


async def test_logs_never_carry_secrets(
    start_bot: StartBot, fake_github: FakeGitHub, json_logs: CapturedLogs
) -> None:
    """Even a careless feature that logs its token and raises with the JWT in the message."""
    careless = Router()

    @careless.register("pull_request", action="opened")
    async def leak(event: sansio.Event, gh: GitHub, ctx: JobContext) -> None:
        token = await ctx.auth.installation_token(event.data["installation"]["id"])
        ctx.log.warning("using token %s", token)
        ctx.log.info("settings %s", ctx.settings)
        raise RuntimeError(f"failed with jwt {ctx.auth.jwt()} and token {token}")

    bot = await start_bot(careless)
    await bot.open_pr("leaky")
    await until(lambda: bot.feature.done == ["leaky"], "the honest feature ran")
    await until(lambda: '"handler' in json_logs.text, "the careless handler's error logged")
    text = json_logs.text
    secrets = [SECRET, *fake_github.tokens]
    secrets += [line for line in fake_github.private_key_pem.splitlines() if "-----" not in line]
    for secret in secrets:
        assert secret not in text
    assert "eyJ" not in text  # no JWT
    assert "[redacted]" in text
    [failure] = [line for line in json_logs.lines() if line["msg"].startswith("handler ")]
    assert failure["delivery_id"] == "leaky"
    assert "RuntimeError" in failure["exc"]


async def test_one_log_line_per_delivery_and_per_github_request(
    start_bot: StartBot, json_logs: CapturedLogs
) -> None:
    bot = await start_bot()
    await bot.open_pr("traced")
    await until(lambda: bot.feature.done == ["traced"], "the job ran")
    await until(lambda: any(line["msg"] == "job ok" for line in json_logs.lines()), "the job line")
    lines = json_logs.lines()
    [delivery] = [line for line in lines if line["logger"] == "lockin.webhook"]
    assert delivery["delivery_id"] == "traced"
    assert (delivery["event"], delivery["outcome"], delivery["http_status"]) == (
        "pull_request",
        "queued",
        202,
    )
    job_requests = [
        line
        for line in lines
        if line["logger"] == "lockin.github" and line.get("delivery_id") == "traced"
    ]
    assert [(line["method"], line["status"]) for line in job_requests] == [
        ("GET", "200"),
        ("POST", "201"),
    ]
    [job] = [line for line in lines if line["msg"] == "job ok"]
    assert job["github_requests"] == 2


async def test_github_failures_reach_the_logs_with_the_delivery_id(
    start_bot: StartBot, fake_github: FakeGitHub, json_logs: CapturedLogs
) -> None:
    bot = await start_bot(retry_attempts=2)
    fake_github.fail("GET", r"/pulls/\d+$", status=502, times=5)
    await bot.open_pr("doomed")
    await until(lambda: len(bot.feature.errors) == 1, "the feature gave up")
    await until(lambda: any(line["msg"] == "job error" for line in json_logs.lines()), "job line")
    lines = [line for line in json_logs.lines() if line.get("delivery_id") == "doomed"]
    refused = [line for line in lines if line["logger"] == "lockin.github"]
    assert [(line["status"], line["attempt"]) for line in refused] == [("502", 1), ("502", 2)]
    [failure] = [line for line in lines if line["msg"].startswith("handler ")]
    assert "GitHubUnavailable" in failure["exc"]
    assert "HTTP 502 after 2 attempt(s)" in failure["exc"]


def test_pretty_lines_are_readable_and_redacted(capture_logs: Any) -> None:
    logs = capture_logs("pretty")
    REDACTOR.add("ghs_pretty_token_value_1234")
    logging.getLogger("lockin.test").info(
        "minted %s", "ghs_pretty_token_value_1234", extra={"delivery_id": "abc"}
    )
    assert "INFO" in logs.text
    assert "minted [redacted]" in logs.text
    assert "delivery_id=abc" in logs.text
    assert "ghs_pretty" not in logs.text


def test_rate_limit_gauges_are_kept_for_recent_installations_only() -> None:
    """One series per installation ever seen would grow without bound; the gauge keeps the
    most recently active installations."""
    metrics = Metrics(max_rate_limit_series=3)
    for scope in ("app", "1", "2", "1", "3", "4"):
        metrics.github_request(
            method="GET", status="200", seconds=0.01, scope=scope, remaining=4999
        )
    got = samples(metrics.render().decode())
    kept = {dict(labels)["installation"] for name, labels in got if "rate_limit" in name}
    assert kept == {"1", "3", "4"}
