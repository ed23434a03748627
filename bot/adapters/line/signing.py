"""The signatures of the URLs the LINE server hands out (pictures, standings, TRF files).

Each kind of URL has a key of its own, derived from the channel secret and the kind's label,
so a token of one kind is never valid as another, nor as a webhook signature; every process of
a channel derives the same keys, so any of them accepts the URLs of the others. A signature is
HMAC-SHA256 cut to 16 bytes, in unpadded URL-safe base64: 22 characters.

>>> key = UrlKey("secret", b"makruk-bot LINE example v1")
>>> mac = key.sign("7-2-th")
>>> len(mac), key.verify("7-2-th", mac), key.verify("7-3-th", mac)
(22, True, False)
"""

from __future__ import annotations

import base64
import hashlib
import hmac

MAC_PATTERN = "[A-Za-z0-9_-]{22}"  # a signature, in a URL token's pattern
_MAC_BYTES = 16


class UrlKey:
    """One kind of URL's key: signs and verifies its tokens. ValueError without a channel secret
    (an empty one would make a key anyone can derive)."""

    def __init__(self, channel_secret: str, label: bytes) -> None:
        if not channel_secret:
            raise ValueError("signed URLs need the channel secret")
        self._key = hmac.new(channel_secret.encode("utf-8"), label, hashlib.sha256).digest()

    def sign(self, text: str) -> str:
        digest = hmac.new(self._key, text.encode("ascii"), hashlib.sha256).digest()[:_MAC_BYTES]
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")

    def verify(self, text: str, mac: str) -> bool:
        """Whether ``mac`` is this key's signature of ``text`` (in constant time)."""
        return hmac.compare_digest(mac, self.sign(text))
