"""The keys of the LINE server's signed URLs (bot/adapters/line/signing.py): none without the
channel secret, whichever kind of URL asks for one."""

from __future__ import annotations

import pytest

from bot.adapters.line.exports import TrfSigner
from bot.adapters.line.pictures import Signer
from bot.adapters.line.signing import UrlKey
from bot.adapters.line.standings import StandingsSigner


def test_no_key_without_the_channel_secret() -> None:
    with pytest.raises(ValueError, match="channel secret"):
        UrlKey("", b"makruk-bot LINE example v1")
    for signer in (Signer, StandingsSigner, TrfSigner):  # every kind of URL, each through its UrlKey
        with pytest.raises(ValueError, match="channel secret"):
            signer("")


def test_a_key_signs_under_its_own_label() -> None:
    one, other = UrlKey("secret", b"one"), UrlKey("secret", b"other")
    assert one.verify("7-2-th", one.sign("7-2-th")) and not other.verify("7-2-th", one.sign("7-2-th"))
