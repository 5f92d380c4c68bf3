"""SVG path data, read and stored compactly: the geometry of the bundled icon set.

`parse` reads an SVG `d` attribute into absolute segments (M L H V C S Q T A Z, every
coordinate absolute). `encode` writes a list of such paths in the set's compact form and
`Outlines` reads one path back without decoding the others. `drawing_segments` expands the
stored segments into the four a PDF path has (move, line, cubic curve, close): quadratic
curves become cubics, smooth curves get their reflected control point, elliptical arcs become
cubic pieces (SVG 1.1, appendix F.6). `Outlines.drawing` gives the same drawing in one pass
from the stored form, as letters and numbers (what an icon drawn in a PDF is made from).

Why a form of our own: the 4,134 icons are 6.4 MB of path text (`@iconify-json/game-icons`);
the install has less than a megabyte to spare (tests/test_install.py). Coordinates rounded to
half a unit of the icons' 512-unit box (0.05 mm on a 50 mm picture, well under a printer's dot)
and written as small integers, a byte stream per kind, compress to 1.2 MB with zlib (xz makes
1.07 MB of it, but takes ten times as long to read back: 60 ms against 7 in every process that
draws an icon).

Stored form: a zlib stream holding six varint-length-prefixed byte streams: per icon the byte
length of its part of the five others (`index`), then the segment codes (`ops`: one byte each,
the arc's two flags in bits 4 and 5, 255 ends an icon), the end points' x and y as
zigzag-varint deltas from the current point (`xs`, `ys`), control points (`ctrl`: the first from
the current point, a cubic's second from its end point) and arc radii and rotation (`arcs`).
"""

from __future__ import annotations

import math
import re
import zlib
from functools import cache
from itertools import accumulate
from typing import Any

SCALE = 2  # stored units per icon unit: coordinates are kept to half a unit of the 512-unit box
_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}
_CODES = {op: i for i, op in enumerate("MLHVCSQTAZ")}
_OPS = "MLHVCSQTAZ"
_END = 255
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_STREAMS = 6

Segment = tuple[Any, ...]  # (op, *numbers), absolute coordinates


class PathSyntaxError(ValueError):
    """Path data that is not SVG path data."""


def _tokens(d: str) -> list[str | float]:
    out: list[str | float] = []
    pos, n, command, index = 0, len(d), None, 0
    while pos < n:
        ch = d[pos]
        if ch in " ,\t\r\n":
            pos += 1
        elif ch.isalpha():
            if ch.upper() not in _ARGS:
                raise PathSyntaxError(f"unknown path command `{ch}` at {pos}")
            command, index = ch, 0
            out.append(ch)
            pos += 1
        elif command in ("A", "a") and index % 7 in (3, 4) and ch in "01":
            out.append(float(ch))  # an arc's flags may be written without separators: `a5 5 0 011 1`
            pos += 1
            index += 1
        else:
            match = _NUMBER.match(d, pos)
            if match is None:
                raise PathSyntaxError(f"unexpected `{ch}` at {pos}")
            out.append(float(match.group()))
            pos = match.end()
            index += 1
    return out


def parse(d: str) -> list[Segment]:
    """SVG path data as absolute segments; H and V keep their one coordinate, A its seven numbers."""
    tokens = _tokens(d)
    out: list[Segment] = []
    x = y = start_x = start_y = 0.0
    i, command = 0, None
    while i < len(tokens):
        token = tokens[i]
        if isinstance(token, str):
            command = token
            i += 1
        if command is None:
            raise PathSyntaxError("path data must start with a command")
        op, relative = command.upper(), command.islower()
        if op == "Z":
            out.append(("Z",))
            x, y = start_x, start_y
            command = None if i >= len(tokens) or isinstance(tokens[i], str) else command
            if command is not None:
                raise PathSyntaxError("numbers after Z")
            continue
        count = _ARGS[op]
        args = [a for a in tokens[i:i + count] if not isinstance(a, str)]
        if len(args) < count:
            raise PathSyntaxError(f"`{command}` needs {count} numbers")
        i += count
        if op == "H":
            x = args[0] + (x if relative else 0)
            out.append(("H", x))
        elif op == "V":
            y = args[0] + (y if relative else 0)
            out.append(("V", y))
        elif op == "A":
            x, y = args[5] + (x if relative else 0), args[6] + (y if relative else 0)
            out.append(("A", abs(args[0]), abs(args[1]), args[2], int(args[3] != 0), int(args[4] != 0), x, y))
        else:
            points: list[float] = []
            for j in range(0, count, 2):
                points += [args[j] + (x if relative else 0), args[j + 1] + (y if relative else 0)]
            out.append((op, *points))
            x, y = points[-2], points[-1]
            if op == "M":
                start_x, start_y = x, y
                command = "l" if relative else "L"  # numbers after a move are lines
    return out


# ---- the stored form ---------------------------------------------------------------------------


def _varint(value: int, out: bytearray) -> None:
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


def _signed(value: int, out: bytearray) -> None:
    _varint((value << 1) if value >= 0 else ((-value << 1) - 1), out)


def _q(value: float) -> int:
    return round(value * SCALE)


def encode(paths: list[list[Segment]]) -> bytes:
    """Many parsed paths in the stored form (a zlib stream)."""
    streams = [bytearray() for _ in range(_STREAMS)]
    index, ops, xs, ys, ctrl, arcs = streams
    for segments in paths:
        marks = [len(s) for s in streams[1:]]
        x = y = start_x = start_y = 0
        for seg in segments:
            op = seg[0]
            if op == "Z":
                ops.append(_CODES["Z"])
                x, y = start_x, start_y
                continue
            if op == "A":
                ops.append(_CODES["A"] | (seg[4] << 4) | (seg[5] << 5))
                _varint(_q(seg[1]), arcs)
                _varint(_q(seg[2]), arcs)
                _signed(round(seg[3] * 10), arcs)
                ex, ey = _q(seg[6]), _q(seg[7])
                _signed(ex - x, xs)
                _signed(ey - y, ys)
                x, y = ex, ey
                continue
            ops.append(_CODES[op])
            if op == "H":
                ex = _q(seg[1])
                _signed(ex - x, xs)
                x = ex
                continue
            if op == "V":
                ey = _q(seg[1])
                _signed(ey - y, ys)
                y = ey
                continue
            points = [(_q(seg[j]), _q(seg[j + 1])) for j in range(1, len(seg), 2)]
            ex, ey = points[-1]
            _signed(ex - x, xs)
            _signed(ey - y, ys)
            controls = points[:-1]
            for k, (cx, cy) in enumerate(controls):
                ox, oy = (ex, ey) if op in "CS" and k == len(controls) - 1 else (x, y)
                _signed(cx - ox, ctrl)
                _signed(cy - oy, ctrl)
            x, y = ex, ey
            if op == "M":
                start_x, start_y = x, y
        ops.append(_END)
        for mark, stream in zip(marks, streams[1:]):
            _varint(len(stream) - mark, index)
    body = bytearray()
    for stream in streams:
        _varint(len(stream), body)
        body += stream
    return zlib.compress(bytes(body), 9)


class _Reader:
    __slots__ = ("data", "pos")

    def __init__(self, data: memoryview, pos: int = 0):
        self.data, self.pos = data, pos

    def unsigned(self) -> int:
        data, pos, shift, value = self.data, self.pos, 0, 0
        while True:
            byte = data[pos]
            pos += 1
            value |= (byte & 0x7F) << shift
            if byte < 0x80:
                self.pos = pos
                return value
            shift += 7


class Outlines:
    """The stored form read back: `segments(i)` decodes icon number i alone."""

    def __init__(self, blob: bytes):
        data = memoryview(zlib.decompress(blob))
        reader, spans = _Reader(data), []
        for _ in range(_STREAMS):
            size = reader.unsigned()
            spans.append((reader.pos, reader.pos + size))
            reader.pos += size
        self._data = data
        # the index: per icon, the byte length of its part of each of the five other streams;
        # decoded in one pass, each stream's starts summed up at C speed (4,134 icons)
        lengths = _numbers(data, *spans[0], signed=False)
        streams = len(spans) - 1
        columns = [list(accumulate(lengths[k::streams], initial=begin)) for k, (begin, _end) in enumerate(spans[1:])]
        bounds = list(zip(*columns))  # per icon its starts, then the end of the last
        self._starts: list[tuple[int, ...]] = bounds[:-1]
        self._ends = bounds[1:]

    def __len__(self) -> int:
        return len(self._starts)

    def segments(self, number: int) -> list[Segment]:
        """Icon `number`'s path as absolute segments in icon units (what `parse` gave, rounded)."""
        data = self._data
        (ops, *begins), ends = self._starts[number], self._ends[number]
        # each stream's numbers decoded in one pass, then taken in order (a call per number was
        # most of the time an icon took to read)
        xs, ys, ctrl, arcs = (iter(_numbers(data, b, e, signed=k < 3)).__next__
                              for k, (b, e) in enumerate(zip(begins, ends[1:])))
        out: list[Segment] = []
        x = y = start_x = start_y = 0
        s = float(SCALE)
        while True:
            code = data[ops]
            ops += 1
            if code == _END:
                return out
            op = _OPS[code & 0x0F]
            if op == "Z":
                out.append(("Z",))
                x, y = start_x, start_y
            elif op == "A":
                rx, ry, rot = arcs(), arcs(), _unzigzag(arcs()) / 10
                x += xs()
                y += ys()
                out.append(("A", rx / s, ry / s, rot, (code >> 4) & 1, (code >> 5) & 1, x / s, y / s))
            elif op == "H":
                x += xs()
                out.append(("H", x / s))
            elif op == "V":
                y += ys()
                out.append(("V", y / s))
            else:
                ex, ey = x + xs(), y + ys()
                controls = []
                count = _ARGS[op] // 2 - 1
                for k in range(count):
                    ox, oy = (ex, ey) if op in "CS" and k == count - 1 else (x, y)
                    controls += [(ox + ctrl()) / s, (oy + ctrl()) / s]
                out.append((op, *controls, ex / s, ey / s))
                x, y = ex, ey
                if op == "M":
                    start_x, start_y = x, y

    def drawing(self, number: int) -> tuple[str, list[float]]:
        """Icon `number` as a PDF path draws it: its segments' letters (M, L, C and Z, one each)
        and their numbers in order (x, y pairs in icon units, y down), what `drawing_segments`
        makes of `segments(number)`, number for number, in one pass from the stored streams
        without a tuple per segment (those two passes were most of the time a pack's icons took
        to make, 141 of them on a first run of Boss Fight's kit). A coordinate is a sum of
        halves, exact in a float, so the sums here are the same floats as the integer sums
        halved there; quadratic curves and arcs go through what drawing_segments uses."""
        data = self._data
        (ops, xs_at, ys_at, ctrl_at, arcs_at), (ops_end, xs_end, ys_end, ctrl_end, arcs_end) = \
            self._starts[number], self._ends[number]
        xs, ys, ctrl = (iter(_numbers(data, begin, end, True, 1 / SCALE)).__next__  # (exact: a power of two)
                        for begin, end in ((xs_at, xs_end), (ys_at, ys_end), (ctrl_at, ctrl_end)))
        letters: list[str] = []
        out: list[float] = []
        put, more = letters.append, out.extend
        x = y = start_x = start_y = 0.0
        cubic = quad = None  # the previous segment's last control point, for S (cubic) and T (quad)
        arcs = None
        for code in data[ops:ops_end - 1]:  # (the last byte ends the icon)
            op = code & 0x0F
            if op == 4:  # C
                x1, y1 = x + ctrl(), y + ctrl()
                x, y = x + xs(), y + ys()
                cubic, quad = (x + ctrl(), y + ctrl()), None
                put("C")
                more((x1, y1, *cubic, x, y))
            elif op == 1:  # L
                x, y = x + xs(), y + ys()
                put("L")
                more((x, y))
                cubic = quad = None
            elif op == 0:  # M
                x, y = start_x, start_y = x + xs(), y + ys()
                put("M")
                more((x, y))
                cubic = quad = None
            elif op == 9:  # Z
                x, y = start_x, start_y
                put("Z")
                cubic = quad = None
            elif op == 2 or op == 3:  # H, V
                if op == 2:
                    x += xs()
                else:
                    y += ys()
                put("L")
                more((x, y))
                cubic = quad = None
            elif op == 5:  # S: its first control point the previous curve's second, reflected
                x1, y1 = (2 * x - cubic[0], 2 * y - cubic[1]) if cubic else (x, y)
                x, y = x + xs(), y + ys()
                cubic, quad = (x + ctrl(), y + ctrl()), None
                put("C")
                more((x1, y1, *cubic, x, y))
            elif op == 8:  # A
                if arcs is None:
                    arcs = iter(_numbers(data, arcs_at, arcs_end, signed=False)).__next__
                rx, ry, rotation = arcs() / SCALE, arcs() / SCALE, _unzigzag(arcs()) / 10
                ex, ey = x + xs(), y + ys()
                for piece in arc_cubics(x, y, rx, ry, rotation, (code >> 4) & 1, (code >> 5) & 1, ex, ey):
                    put(piece[0])
                    more(piece[1:])
                x, y = ex, ey
                cubic = quad = None
            else:  # Q, T: a quadratic curve (T's control point the previous one's, reflected)
                if op == 6:
                    qx, qy = x + ctrl(), y + ctrl()
                else:
                    qx, qy = (2 * x - quad[0], 2 * y - quad[1]) if quad else (x, y)
                ex, ey = x + xs(), y + ys()
                put("C")
                more(quad_controls(x, y, qx, qy, ex, ey))
                x, y, cubic, quad = ex, ey, None, (qx, qy)
        return "".join(letters), out


def _numbers(data: memoryview, begin: int, end: int, signed: bool, unit: float = 1) -> list[Any]:
    """The varints of data[begin:end] in order, zigzag-decoded when `signed`, each times `unit`
    (1: ints; 1 / SCALE: coordinates in icon units, exact floats). Most are one byte: those are
    looked up in a table of the 128 (half the time the decoding took, as a sum per byte)."""
    short = _short(signed, unit)
    out: list[Any] = []
    append = out.append
    value = shift = 0
    for byte in data[begin:end]:
        if byte < 0x80 and not shift:
            append(short[byte])
        elif byte < 0x80:
            value |= byte << shift
            append((((value >> 1) if not value & 1 else -((value + 1) >> 1)) if signed else value) * unit)
            value = shift = 0
        else:
            value |= (byte & 0x7F) << shift
            shift += 7
    return out


def _unzigzag(value: int) -> int:
    return (value >> 1) if not value & 1 else -((value + 1) >> 1)


@cache
def _short(signed: bool, unit: float) -> tuple[Any, ...]:
    """The values of the 128 one-byte varints (_numbers)."""
    return tuple((_unzigzag(byte) if signed else byte) * unit for byte in range(0x80))


# ---- what a PDF path draws ---------------------------------------------------------------------

_DRAWN_ARGS = {"M": 2, "L": 2, "C": 6, "Z": 0}


def drawn_segments(letters: str, numbers: list[float]) -> list[Segment]:
    """Outlines.drawing's letters and numbers as segments: ("M", x, y), ("C", x1, y1, x2, y2, x, y)..."""
    out: list[Segment] = []
    at = 0
    for op in letters:
        count = _DRAWN_ARGS[op]
        out.append((op, *numbers[at:at + count]))
        at += count
    return out


def drawing_segments(segments: list[Segment]) -> list[Segment]:
    """Absolute segments as M, L, C (cubic) and Z alone: what ReportLab's path object draws."""
    out: list[Segment] = []
    x = y = start_x = start_y = 0.0
    last_cubic = last_quad = None  # the previous segment's control point, for S and T
    for seg in segments:
        op = seg[0]
        cubic = quad = None
        if op == "M":
            x, y = start_x, start_y = seg[1], seg[2]
            out.append(("M", x, y))
        elif op == "Z":
            out.append(("Z",))
            x, y = start_x, start_y
        elif op in ("L", "H", "V"):
            x, y = (seg[1], seg[2]) if op == "L" else (seg[1], y) if op == "H" else (x, seg[1])
            out.append(("L", x, y))
        elif op in ("C", "S"):
            if op == "C":
                x1, y1, x2, y2, ex, ey = seg[1:]
            else:
                x1, y1 = (2 * x - last_cubic[0], 2 * y - last_cubic[1]) if last_cubic else (x, y)
                x2, y2, ex, ey = seg[1:]
            out.append(("C", x1, y1, x2, y2, ex, ey))
            cubic, x, y = (x2, y2), ex, ey
        elif op in ("Q", "T"):
            if op == "Q":
                qx, qy, ex, ey = seg[1:]
            else:
                qx, qy = (2 * x - last_quad[0], 2 * y - last_quad[1]) if last_quad else (x, y)
                ex, ey = seg[1:]
            out.append(("C", *quad_controls(x, y, qx, qy, ex, ey)))
            quad, x, y = (qx, qy), ex, ey
        elif op == "A":
            ex, ey = seg[6], seg[7]
            out.extend(arc_cubics(x, y, seg[1], seg[2], seg[3], seg[4], seg[5], ex, ey))
            x, y = ex, ey
        last_cubic, last_quad = cubic, quad
    return out


def quad_controls(x: float, y: float, qx: float, qy: float, ex: float, ey: float) -> tuple[float, ...]:
    """The numbers of the cubic curve that draws the quadratic one from (x, y) through the control
    point (qx, qy) to (ex, ey): its two control points, then its end."""
    return (x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y), ex + 2 / 3 * (qx - ex), ey + 2 / 3 * (qy - ey), ex, ey)


def arc_cubics(x1: float, y1: float, rx: float, ry: float, rotation: float, large: int, sweep: int,
               x2: float, y2: float) -> list[Segment]:
    """An SVG elliptical arc from (x1, y1) to (x2, y2) as cubic curves (a line when a radius is 0)."""
    if (x1, y1) == (x2, y2):
        return []
    if rx == 0 or ry == 0:
        return [("L", x2, y2)]
    phi = math.radians(rotation % 360)
    cos_p, sin_p = math.cos(phi), math.sin(phi)
    dx, dy = (x1 - x2) / 2, (y1 - y2) / 2
    xp, yp = cos_p * dx + sin_p * dy, -sin_p * dx + cos_p * dy
    grow = (xp * xp) / (rx * rx) + (yp * yp) / (ry * ry)
    if grow > 1:  # radii too small to reach: scaled up until they just do (F.6.6)
        rx, ry = rx * math.sqrt(grow), ry * math.sqrt(grow)
    num = rx * rx * ry * ry - rx * rx * yp * yp - ry * ry * xp * xp
    den = rx * rx * yp * yp + ry * ry * xp * xp
    factor = math.sqrt(max(0.0, num / den)) if den else 0.0
    if large == sweep:
        factor = -factor
    cxp, cyp = factor * rx * yp / ry, -factor * ry * xp / rx
    cx = cos_p * cxp - sin_p * cyp + (x1 + x2) / 2
    cy = sin_p * cxp + cos_p * cyp + (y1 + y2) / 2

    def angle(ux: float, uy: float, vx: float, vy: float) -> float:
        return math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)

    start = angle(1, 0, (xp - cxp) / rx, (yp - cyp) / ry)
    extent = angle((xp - cxp) / rx, (yp - cyp) / ry, (-xp - cxp) / rx, (-yp - cyp) / ry)
    if not sweep and extent > 0:
        extent -= 2 * math.pi
    elif sweep and extent < 0:
        extent += 2 * math.pi
    pieces = max(1, math.ceil(abs(extent) / (math.pi / 2) - 1e-9))
    step = extent / pieces
    k = 4 / 3 * math.tan(step / 4)
    out: list[Segment] = []
    t = start

    def point(a: float) -> tuple[float, float]:
        ex, ey = rx * math.cos(a), ry * math.sin(a)
        return cos_p * ex - sin_p * ey + cx, sin_p * ex + cos_p * ey + cy

    def tangent(a: float) -> tuple[float, float]:
        ex, ey = -rx * math.sin(a), ry * math.cos(a)
        return cos_p * ex - sin_p * ey, sin_p * ex + cos_p * ey

    px, py = x1, y1
    for n in range(pieces):
        t2 = t + step
        qx, qy = (x2, y2) if n == pieces - 1 else point(t2)
        d1, d2 = tangent(t), tangent(t2)
        out.append(("C", px + k * d1[0], py + k * d1[1], qx - k * d2[0], qy - k * d2[1], qx, qy))
        px, py, t = qx, qy, t2
    return out
