"""The channel's monthly message quota, as LINE counts it: read now and then and logged.

Pushes count against it (a push to a group once per member); replies do not. The log says how
much is used, and warns from 80 %, before LINE starts refusing pushes (429) until next month.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import aiohttp
from linebot.v3.messaging import ApiException, AsyncMessagingApi  # type: ignore[import-untyped]  # line-bot-sdk ships no py.typed

log = logging.getLogger(__name__)

REQUEST_TIMEOUT = 10.0  # seconds
WARN_SHARE = 0.8


@dataclass(frozen=True)
class Quota:
    """``limit`` messages a month (None: no limit), ``used`` so far this month."""

    limit: int | None
    used: int

    @property
    def running_low(self) -> bool:
        """
        >>> Quota(200, 160).running_low, Quota(200, 159).running_low, Quota(None, 10**6).running_low
        (True, False, False)
        """
        return self.limit is not None and self.used >= WARN_SHARE * self.limit


async def read_quota(api: AsyncMessagingApi, *, timeout: float = REQUEST_TIMEOUT) -> Quota | None:
    """Asks LINE for the quota and its use and logs them; None (logged) when LINE does not say.

    Whatever goes wrong is a warning: the read only informs, and must never stop the bot.
    """
    try:
        quota = await api.get_message_quota(_request_timeout=timeout)
        consumption = await api.get_message_quota_consumption(_request_timeout=timeout)
    except ApiException as error:
        log.warning("could not read LINE's message quota: %s %s", error.status, error.reason)
        return None
    except (TimeoutError, aiohttp.ClientError, ValueError) as error:  # ValueError: not JSON, or a field missing
        log.warning("could not read LINE's message quota: %r", error)
        return None
    except Exception:
        log.warning("could not read LINE's message quota", exc_info=True)
        return None
    limited = getattr(quota.type, "value", quota.type) == "limited"
    if limited and quota.value is None:
        log.warning("could not read LINE's message quota: a limited quota without its value")
        return None
    report = Quota(quota.value if limited else None, consumption.total_usage)
    if report.limit is None:
        log.info("LINE push messages this month: %d (no monthly limit)", report.used)
    elif report.running_low:
        log.warning("LINE push messages this month: %d of %d; pushes stop when the quota is used up "
                    "(replies go on)", report.used, report.limit)
    else:
        log.info("LINE push messages this month: %d of %d", report.used, report.limit)
    return report
