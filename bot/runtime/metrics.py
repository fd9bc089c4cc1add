"""Prometheus metrics, one registry per app so several apps can live in one process."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily
from prometheus_client.registry import Collector

from bot.store.keeper import Keeper

_JOB_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900)
#: Installations whose rate-limit gauge is exported: the most recently active ones. One
#: series per installation forever would grow without bound in an App installed widely.
MAX_RATE_LIMIT_SERIES = 500


class Metrics:
    def __init__(self, *, max_rate_limit_series: int = MAX_RATE_LIMIT_SERIES) -> None:
        self._max_rate_limit_series = max_rate_limit_series
        self._rate_limit_scopes: OrderedDict[str, None] = OrderedDict()
        self.registry = CollectorRegistry()
        r = self.registry
        self.deliveries = Counter(
            "lockin_webhook_deliveries",
            "Webhook deliveries by event and outcome (queued, ignored, duplicate, rejected...).",
            ["event", "outcome"],
            registry=r,
        )
        self.queue_depth = Gauge("lockin_job_queue_depth", "Jobs waiting for a worker.", registry=r)
        self.queue_capacity = Gauge(
            "lockin_job_queue_capacity", "Jobs the queue holds before answering 503.", registry=r
        )
        self.jobs = Histogram(
            "lockin_job_duration_seconds",
            "Time from a worker taking a job to its end, by event and outcome.",
            ["event", "outcome"],
            buckets=_JOB_BUCKETS,
            registry=r,
        )
        self.job_retries = Counter(
            "lockin_job_retries",
            "Jobs GitHub made fail, by event and what lockin did: scheduled (runs again "
            "after a JOB_RETRY_DELAYS delay), exhausted (no delays left), dropped (the head "
            "moved on or the pull request closed before the retry ran).",
            ["event", "outcome"],
            registry=r,
        )
        self.github_requests = Counter(
            "lockin_github_requests",
            "HTTP exchanges with GitHub by method and status (or timeout / connection error).",
            ["method", "status"],
            registry=r,
        )
        self.github_seconds = Histogram(
            "lockin_github_request_duration_seconds",
            "Duration of one HTTP exchange with GitHub.",
            registry=r,
        )
        self.admission_in_use = Gauge(
            "lockin_webhook_admission_in_use",
            "Webhook bodies being read before their signature is checked (slots held).",
            registry=r,
        )
        self.admission_waiting = Gauge(
            "lockin_webhook_admission_waiting",
            "Webhook bodies waiting for an admission slot (their peer's or the shared ones).",
            registry=r,
        )
        self.admission_saturated = Gauge(
            "lockin_webhook_admission_saturated",
            "1 while every shared admission slot is taken (readiness reports it too).",
            registry=r,
        )
        self.admission_saturations = Counter(
            "lockin_webhook_admission_saturations",
            "Webhook bodies that found every shared admission slot taken and had to wait.",
            registry=r,
        )
        self.rate_limit_remaining = Gauge(
            "lockin_github_rate_limit_remaining",
            "Requests left in GitHub's primary rate limit, per recently active installation "
            "('app' for the JWT).",
            ["installation"],
            registry=r,
        )

    def watch_store(self, keeper: Keeper) -> None:
        """The trend store's health: degraded or not, writes waiting, writes dropped."""
        degraded = Gauge(
            "lockin_trend_store_degraded",
            "1 while the trend store is corrupt, locked or unreachable (the gate goes on).",
            registry=self.registry,
        )
        degraded.set_function(lambda: float(keeper.problem is not None))
        backlog = Gauge(
            "lockin_trend_store_backlog",
            "Trend store writes waiting for the store to answer again.",
            registry=self.registry,
        )
        backlog.set_function(lambda: float(keeper.pending))
        self.registry.register(_DroppedWrites(keeper))

    def watch_admission(
        self,
        in_use: Callable[[], float],
        waiting: Callable[[], float],
        saturated: Callable[[], float],
    ) -> None:
        self.admission_in_use.set_function(in_use)
        self.admission_waiting.set_function(waiting)
        self.admission_saturated.set_function(saturated)

    def watch_queue(self, depth: Callable[[], int], capacity: int) -> None:
        self.queue_depth.set_function(depth)
        self.queue_capacity.set(capacity)

    def github_request(
        self, *, method: str, status: str, seconds: float, scope: str, remaining: int | None
    ) -> None:
        self.github_requests.labels(method, status).inc()
        self.github_seconds.observe(seconds)
        if remaining is None:
            return
        self.rate_limit_remaining.labels(scope).set(remaining)
        self._rate_limit_scopes[scope] = None
        self._rate_limit_scopes.move_to_end(scope)
        if len(self._rate_limit_scopes) > self._max_rate_limit_series:
            idle, _ = self._rate_limit_scopes.popitem(last=False)
            self.rate_limit_remaining.remove(idle)

    def render(self) -> bytes:
        return generate_latest(self.registry)


class _DroppedWrites(Collector):
    """The keeper counts the writes it drops; exported as a counter."""

    def __init__(self, keeper: Keeper) -> None:
        self._keeper = keeper

    def collect(self) -> Iterator[CounterMetricFamily]:
        yield CounterMetricFamily(
            "lockin_trend_store_writes_dropped",
            "Trend store writes dropped: the backlog was full, or the database refused them.",
            value=self._keeper.dropped,
        )
