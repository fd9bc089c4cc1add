"""Graceful shutdown: every accepted delivery is finished before the server exits."""

from __future__ import annotations

import asyncio

from tests.server.conftest import CapturedLogs, StartBot, until


async def test_shutdown_finishes_jobs_in_flight_and_queued(start_bot: StartBot) -> None:
    bot = await start_bot(workers=2, queue_size=50)
    bot.feature.gate = asyncio.Event()
    for _ in range(8):
        assert (await bot.open_pr())[0] == 202
    await until(lambda: len(bot.feature.started) == 2, "both workers busy")
    # Shutdown starts with two jobs in flight and six queued; the work resumes meanwhile.
    closing = asyncio.create_task(bot.server.close())
    await asyncio.sleep(0.05)
    assert not closing.done()
    bot.feature.gate.set()
    await closing
    assert sorted(bot.feature.done) == sorted(bot.sent)
    assert len(bot.comments()) == 8


async def test_shutdown_past_its_timeout_names_the_lost_deliveries(
    start_bot: StartBot, json_logs: CapturedLogs
) -> None:
    bot = await start_bot(workers=1, queue_size=10, shutdown_timeout=0.2)
    bot.feature.gate = asyncio.Event()  # never set: the job hangs
    await bot.open_pr("stuck")
    await bot.open_pr("queued")
    await until(lambda: bot.feature.started == ["stuck"], "the first job started")
    await bot.server.close()
    [lost] = [line for line in json_logs.lines() if "lost_deliveries" in line]
    assert lost["level"] == "error"
    assert sorted(lost["lost_deliveries"]) == ["queued", "stuck"]


async def test_a_stuck_handler_is_cancelled_after_job_timeout(
    start_bot: StartBot, json_logs: CapturedLogs
) -> None:
    bot = await start_bot(workers=1, job_timeout=0.2)
    bot.feature.gate = asyncio.Event()  # never set
    await bot.open_pr("stuck")
    await until(
        lambda: any("JOB_TIMEOUT" in line["msg"] for line in json_logs.lines()),
        "the stuck job cancelled",
    )
    # The worker is free again: the next delivery starts (whether it then finishes within
    # the tiny JOB_TIMEOUT depends on the machine's load, so it is not asserted).
    await bot.open_pr("next")
    await until(lambda: "next" in bot.feature.started, "the next job started")
    cancelled = [line for line in json_logs.lines() if "JOB_TIMEOUT" in line["msg"]]
    assert cancelled[0]["delivery_id"] == "stuck"
    assert "stuck" not in bot.feature.done
