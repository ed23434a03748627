"""Tiny vector helpers for drawing shapes in unit coordinates (0..1, y down)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

Point = tuple[float, float]


def cubic(p0: Point, c1: Point, c2: Point, p1: Point, steps: int = 12) -> list[Point]:
    """Points along a cubic Bézier curve, without ``p0`` (so segments chain)."""
    out = []
    for i in range(1, steps + 1):
        t = i / steps
        u = 1 - t
        out.append(
            (
                u**3 * p0[0] + 3 * u * u * t * c1[0] + 3 * u * t * t * c2[0] + t**3 * p1[0],
                u**3 * p0[1] + 3 * u * u * t * c1[1] + 3 * u * t * t * c2[1] + t**3 * p1[1],
            )
        )
    return out


def quad(p0: Point, c: Point, p1: Point, steps: int = 10) -> list[Point]:
    """Points along a quadratic Bézier curve, without ``p0``."""
    return cubic(p0, _lerp(p0, c, 2 / 3), _lerp(p1, c, 2 / 3), p1, steps)


def path(start: Point, *segments: Point | tuple[Point, ...]) -> list[Point]:
    """A polyline: each segment is a point (straight line), ``(c, end)`` (quadratic) or
    ``(c1, c2, end)`` (cubic)."""
    points = [start]
    for seg in segments:
        if isinstance(seg[0], (int, float)):
            points.append(seg)
        elif len(seg) == 2:
            points.extend(quad(points[-1], seg[0], seg[1]))
        else:
            points.extend(cubic(points[-1], *seg))  # type: ignore[arg-type]
    return points


def mirror(right_half: Sequence[Point], axis: float = 0.5) -> list[Point]:
    """A closed outline symmetric about ``x = axis`` from its right half drawn top to bottom."""
    left = [(2 * axis - x, y) for x, y in reversed(right_half)]
    return list(right_half) + left


def ellipse(cx: float, cy: float, rx: float, ry: float, steps: int = 48) -> list[Point]:
    return [
        (cx + rx * math.cos(2 * math.pi * i / steps), cy + ry * math.sin(2 * math.pi * i / steps))
        for i in range(steps)
    ]


def arc(cx: float, cy: float, rx: float, ry: float, start: float, end: float, steps: int = 24) -> list[Point]:
    """Points on an elliptic arc, angles in degrees (0 = right, 90 = down)."""
    return [
        (
            cx + rx * math.cos(math.radians(start + (end - start) * i / steps)),
            cy + ry * math.sin(math.radians(start + (end - start) * i / steps)),
        )
        for i in range(steps + 1)
    ]


def scale(points: Iterable[Point], factor: float, dx: float = 0.0, dy: float = 0.0) -> list[Point]:
    return [(x * factor + dx, y * factor + dy) for x, y in points]


def _lerp(a: Point, b: Point, t: float) -> Point:
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
