"""Tests of the LINE door: the real webhook server, the real SDK, a fake LINE API on loopback."""
