"""The bot's Prometheus metrics, on a registry of its own (docs/operations.md lists them).

Each ``App`` counts on a ``Metrics``: the process's ``METRICS`` unless it was given another
(a test gives each app a fresh one, so that no two tests share counts). The methods are named
after what happened, so that the code that counts never touches the Prometheus API.

>>> metrics = Metrics()
>>> metrics.move_played("line", by="engine")
>>> metrics.value("makruk_moves_total", platform="line", by="engine")
1.0
"""

from __future__ import annotations

from typing import Literal, get_args

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.exposition import choose_encoder

Outcome = Literal["ok", "refused", "error", "ignored"]
Mover = Literal["human", "engine"]
Rejection = Literal["too_large", "missing_signature", "bad_signature", "bad_body", "busy"]
NoticeState = Literal["pending", "dead"]

PLATFORMS = ("discord", "line", "console")  # bot.messages.Platform, not imported: this module is a leaf
# A reply is expected in well under a second; the engine's own answer may take a few.
REPLY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
ENGINE_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


class Metrics:
    """Every metric of the bot, registered on ``registry`` (a new one unless given)."""

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry if registry is not None else CollectorRegistry()
        r = self.registry
        self.messages = Counter("makruk_messages", "Chat messages handled, by outcome (ignored: no answer)",
                                ["platform", "outcome"], registry=r)
        self.moves = Counter("makruk_moves", "Moves played and stored, by who played them",
                             ["platform", "by"], registry=r)
        self.reply_seconds = Histogram("makruk_reply_seconds",
                                       "Seconds from a message to its replies (waiting for the channel and the "
                                       "engine's answer included)", ["platform"], buckets=REPLY_BUCKETS, registry=r)
        self.engine_seconds = Histogram("makruk_engine_move_seconds", "Seconds the engine took for one move",
                                        ["level"], buckets=ENGINE_BUCKETS, registry=r)
        self.engine_fallbacks = Counter("makruk_engine_fallbacks",
                                        "Moves another engine answered because the level's own failed",
                                        ["to"], registry=r)
        self.webhook_rejections = Counter("makruk_webhook_rejections", "Webhook requests refused, by reason",
                                          ["reason"], registry=r)
        self.outbox_notices = Gauge("makruk_outbox_notices",
                                    "Notices in the outbox not yet delivered (dead: given up after every try)",
                                    ["platform", "state"], registry=r)
        self.database_up = Gauge("makruk_database_up", "1 when the database answered the last look, else 0",
                                 registry=r)
        self.scheduler_claims = Counter("makruk_scheduler_claims", "Scheduled work this process claimed, by kind",
                                        ["kind"], registry=r)
        # Every series that alerts compare starts at 0, rather than appearing with its first event.
        for platform in PLATFORMS:
            for outcome in get_args(Outcome):
                self.messages.labels(platform, outcome)
            for mover in get_args(Mover):
                self.moves.labels(platform, mover)
            for state in get_args(NoticeState):
                self.outbox_notices.labels(platform, state)
        for reason in get_args(Rejection):
            self.webhook_rejections.labels(reason)

    def message_handled(self, platform: str, outcome: Outcome, seconds: float) -> None:
        """One chat message answered (or, ``ignored``, left alone) after ``seconds``."""
        self.messages.labels(platform, outcome).inc()
        if outcome != "ignored":  # group chatter is no reply: it would flatter the latency
            self.reply_seconds.labels(platform).observe(seconds)

    def move_played(self, platform: str, *, by: Mover) -> None:
        self.moves.labels(platform, by).inc()

    def engine_moved(self, level: int, seconds: float) -> None:
        self.engine_seconds.labels(str(level)).observe(seconds)

    def engine_fell_back(self, to: str) -> None:
        """The level's engine failed; ``to`` (another engine, or the rules) answered."""
        self.engine_fallbacks.labels(to).inc()

    def webhook_rejected(self, reason: Rejection) -> None:
        self.webhook_rejections.labels(reason).inc()

    def outbox_backlog(self, platform: str, *, pending: int, dead: int) -> None:
        self.outbox_notices.labels(platform, "pending").set(pending)
        self.outbox_notices.labels(platform, "dead").set(dead)

    def database_answered(self, up: bool) -> None:
        self.database_up.set(1 if up else 0)

    def claimed(self, kind: str, count: int = 1) -> None:
        self.scheduler_claims.labels(kind).inc(count)

    def value(self, name: str, **labels: str) -> float:
        """A sample's value now (0 when it has none yet), e.g. ``value("makruk_moves_total",
        platform="line", by="human")``."""
        return self.registry.get_sample_value(name, labels) or 0.0

    def exposition(self, accept: str | None = None) -> tuple[bytes, str]:
        """The metrics, and their content type, in the format a scraper's ``Accept`` header
        asks for: OpenMetrics, or Prometheus' text format (version 0.0.4 unless it asks for 1.0.0)."""
        encode, content_type = choose_encoder(accept or "")
        return encode(self.registry), content_type


METRICS = Metrics()  # the process's metrics


def count_claim(kind: str, metrics: Metrics = METRICS) -> None:
    """The scheduler claimed one piece of work of ``kind`` (a deadline, a reminder, a notice...)."""
    metrics.claimed(kind)
