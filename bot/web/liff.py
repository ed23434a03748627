"""LIFF sign-in: a LINE ID token (an ES256 JWT) checked against LINE's published keys (a JWKS,
fetched and cached), its issuer, audience (the LINE Login channel id) and expiry. The ``sub``
is the LINE user id; the socket then checks it is a player of the game."""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import time
from typing import Any

import aiohttp
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from .tokens import BadToken, Bearer

log = logging.getLogger(__name__)

ISSUER = "https://access.line.me"
KEYS_KEPT = 3600.0  # seconds a fetched key set is used before it is fetched again
REFETCH_AFTER = 60.0  # an unknown key id fetches the set again, at most this often
LEEWAY = 30  # seconds of clock difference allowed on exp and iat
MAX_ID_TOKEN = 4096


class LiffVerifier:
    """Checks LINE ID tokens for one LINE Login channel (``channel_id``, the audience)."""

    def __init__(self, channel_id: str, jwks_url: str, *, timeout: float = 5.0) -> None:
        self.channel_id = channel_id
        self.jwks_url = jwks_url
        self.timeout = timeout
        self._keys: dict[str, ec.EllipticCurvePublicKey] = {}
        self._fetched = float("-inf")
        self._lock = asyncio.Lock()

    async def verify(self, id_token: str, now: float | None = None) -> Bearer:
        """The LINE user the token names; BadToken if anything about it is wrong."""
        now = time.time() if now is None else now
        if not isinstance(id_token, str) or len(id_token) > MAX_ID_TOKEN or id_token.count(".") != 2:
            raise BadToken("malformed ID token")
        head_b64, claims_b64, signature_b64 = id_token.split(".")
        header, claims = _json_part(head_b64), _json_part(claims_b64)
        if header.get("alg") != "ES256":
            raise BadToken("ID token not signed with ES256")
        key = await self._key(str(header.get("kid", "")))
        signature = _b64decode(signature_b64)
        if len(signature) != 64:
            raise BadToken("malformed ID token signature")
        der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
        try:
            key.verify(der, f"{head_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            raise BadToken("bad ID token signature") from None
        return self._check_claims(claims, now)

    def _check_claims(self, claims: dict[str, Any], now: float) -> Bearer:
        if claims.get("iss") != ISSUER:
            raise BadToken("ID token of another issuer")
        audience = claims.get("aud")
        if audience != self.channel_id and not (isinstance(audience, list) and self.channel_id in audience):
            raise BadToken("ID token for another channel")
        expires = claims.get("exp")
        if not isinstance(expires, int | float) or expires + LEEWAY <= now:
            raise BadToken("expired ID token")
        issued = claims.get("iat")
        if isinstance(issued, int | float) and issued - LEEWAY > now:
            raise BadToken("ID token issued in the future")
        subject = claims.get("sub")
        if not isinstance(subject, str) or not subject:
            raise BadToken("ID token without a user")
        return Bearer("line", subject)

    async def _key(self, kid: str) -> ec.EllipticCurvePublicKey:
        async with self._lock:
            age = time.monotonic() - self._fetched
            if age > KEYS_KEPT or (kid not in self._keys and age > REFETCH_AFTER):
                await self._fetch()
        key = self._keys.get(kid)
        if key is None:
            raise BadToken("ID token signed with an unknown key")
        return key

    async def _fetch(self) -> None:
        try:
            timeout = aiohttp.ClientTimeout(total=self.timeout)
            async with aiohttp.ClientSession(timeout=timeout) as session, session.get(self.jwks_url) as response:
                response.raise_for_status()
                data = await response.json(content_type=None)
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            log.warning("could not fetch LINE's ID token keys from %s: %r", self.jwks_url, error)
            self._fetched = time.monotonic() - KEYS_KEPT + REFETCH_AFTER  # try again in a minute
            return
        self._keys = dict(_keys_of(data))
        self._fetched = time.monotonic()


def _keys_of(data: Any) -> list[tuple[str, ec.EllipticCurvePublicKey]]:
    """The P-256 keys of a JWKS document, by key id; anything else in it is skipped."""
    found = []
    for jwk in data.get("keys", []) if isinstance(data, dict) else []:
        if not isinstance(jwk, dict) or jwk.get("kty") != "EC" or jwk.get("crv") != "P-256":
            continue
        try:
            x, y = (int.from_bytes(_b64decode(jwk[name]), "big") for name in ("x", "y"))
            key = ec.EllipticCurvePublicNumbers(x, y, ec.SECP256R1()).public_key()
        except (KeyError, ValueError, BadToken):
            continue
        found.append((str(jwk.get("kid", "")), key))
    return found


def _json_part(part: str) -> dict[str, Any]:
    try:
        value = json.loads(_b64decode(part))
    except ValueError:
        raise BadToken("malformed ID token") from None
    if not isinstance(value, dict):
        raise BadToken("malformed ID token")
    return value


def _b64decode(text: str) -> bytes:
    if not isinstance(text, str):
        raise BadToken("malformed ID token")
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except ValueError:
        raise BadToken("malformed ID token") from None
