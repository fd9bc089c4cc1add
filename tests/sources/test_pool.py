"""The engine pool itself, with real worker processes: per-file and per-job CPU budgets, and
workers that die or hang being replaced. The work functions below run in the workers (they
are imported there by name), standing in for files the engine is slow on."""

from __future__ import annotations

import contextlib
import hashlib
import os
import signal
import threading
import time
from dataclasses import replace
from pathlib import Path

from bot.sources.pool import NOT_COUNTED, Budget, EnginePool


def burn(path: str, data: bytes) -> str:
    """Spends ``data`` (a decimal number of) CPU seconds."""
    end = time.process_time() + float(data)
    while time.process_time() < end:
        pass
    return path


def wait_for_go(path: str, data: bytes) -> str:
    """Writes this worker's pid beside the file ``data`` names, then waits (without using
    CPU time) until that file exists."""
    go = Path(data.decode())
    go.with_suffix(".pid").write_text(str(os.getpid()))
    while not go.exists():
        time.sleep(0.01)
    return path


def hang(path: str, data: bytes) -> str:
    time.sleep(3600)  # no CPU time: only the wall-clock deadline can end it
    return path


def spin_in_c(path: str, data: bytes) -> str:
    """CPU time in one C call that never returns to the interpreter (minutes of it), so
    the profiling timer's exception cannot be raised: only the kernel's limit ends it."""
    hashlib.pbkdf2_hmac("sha256", b"lockin", b"salt", 2**31 - 1)
    return path


def test_a_file_over_its_cpu_budget_is_not_counted_and_the_next_one_is() -> None:
    pool = EnginePool(1, Budget(file_seconds=0.05, job_seconds=60, grace_seconds=30))
    try:
        results = pool.job().map_blocking(burn, [("slow", b"2"), ("fast", b"0")])
    finally:
        pool.close()
    assert results == [f"{NOT_COUNTED}took longer than 0.05 s", "fast"]


def test_a_job_over_its_budget_counts_no_further_files() -> None:
    pool = EnginePool(2, Budget(file_seconds=5, job_seconds=0.1, grace_seconds=30))
    job = pool.job()
    try:
        results = job.map_blocking(burn, [(f"f{i}", b"0.005") for i in range(224)])
    finally:
        pool.close()
    counted = [r for r in results if not r.startswith(NOT_COUNTED)]
    assert counted == [f"f{i}" for i in range(len(counted))]  # in order, the first ones
    assert 32 <= len(counted) < 224
    assert results[-1] == f"{NOT_COUNTED}the check took longer than 0.1 s in all"
    assert job.spent >= 0.1


def test_a_worker_killed_mid_batch_is_replaced_and_the_batch_runs_again(tmp_path: Path) -> None:
    pool = EnginePool(1, Budget(file_seconds=60, job_seconds=600, grace_seconds=60))
    go = tmp_path / "go"
    results: list[str] = []
    worker = threading.Thread(
        target=lambda: results.extend(
            pool.job().map_blocking(wait_for_go, [("a", str(go).encode()), ("b", str(go).encode())])
        )
    )
    try:
        worker.start()
        pid_file = go.with_suffix(".pid")
        while not pid_file.exists():
            time.sleep(0.01)
        os.kill(int(pid_file.read_text()), signal.SIGKILL)
        go.touch()  # the batch's second attempt, in a new worker, finds it at once
        worker.join(timeout=120)
        assert results == ["a", "b"]
        assert pool.replaced == 1
    finally:
        go.touch()
        pool.close()


def test_a_worker_that_stops_answering_is_replaced_and_its_files_not_counted() -> None:
    pool = EnginePool(1, Budget(file_seconds=0.1, grace_seconds=0.5, hang_seconds=0.5))
    try:
        job = pool.job()
        assert job.map_blocking(hang, [("stuck", b"")]) == [f"{NOT_COUNTED}took longer than 0.1 s"]
        assert pool.replaced == 2  # both attempts' workers killed
        # New workers serve (given time to start: half a second is not, on a busy machine).
        pool.budget = replace(pool.budget, hang_seconds=3600)
        assert job.map_blocking(burn, [("after", b"0")]) == ["after"]
    finally:
        pool.close()


def test_a_worker_stuck_in_c_code_is_ended_by_its_cpu_time_and_replaced() -> None:
    # No wall-clock bound could tell this from a slow file on a busy machine: the kernel
    # ends the worker once the file has taken its budget and the grace in CPU time.
    pool = EnginePool(1, Budget(file_seconds=0.1, grace_seconds=0.5, hang_seconds=3600))
    try:
        job = pool.job()
        stuck = job.map_blocking(spin_in_c, [("stuck", b"")])
        assert stuck == [f"{NOT_COUNTED}took longer than 0.1 s"]
        assert pool.replaced == 2  # both attempts' workers ended
        assert job.map_blocking(burn, [("after", b"0")]) == ["after"]  # new workers serve
    finally:
        pool.close()


def test_a_worker_given_no_cpu_for_a_while_still_counts_its_files(tmp_path: Path) -> None:
    """A busy machine, at its worst: the worker is stopped (SIGSTOP) for longer than the
    batch's CPU budget and grace together. Its files are counted all the same: only CPU
    time decides that a file is too slow or a worker stuck."""
    budget = Budget(file_seconds=0.5, grace_seconds=0.5)
    pool = EnginePool(1, budget)
    go = tmp_path / "go"
    results: list[str] = []
    pid = 0
    worker = threading.Thread(
        target=lambda: results.extend(
            pool.job().map_blocking(wait_for_go, [("a", str(go).encode())])
        )
    )
    try:
        worker.start()
        pid_file = go.with_suffix(".pid")
        while not pid_file.exists():
            time.sleep(0.01)
        pid = int(pid_file.read_text())
        os.kill(pid, signal.SIGSTOP)
        go.touch()
        time.sleep(3 * (budget.file_seconds + budget.grace_seconds))  # the stall itself
        os.kill(pid, signal.SIGCONT)
        worker.join(timeout=120)
        assert results == ["a"]
        assert pool.replaced == 0
    finally:
        go.touch()
        if pid:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
        pool.close()
