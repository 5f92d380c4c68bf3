"""The saved duplex calibration: what `pnp calibrate DX,DY` stores and every build reads.

A small JSON file in the user's config directory (platformdirs: ~/.config/pnp/ on Linux,
~/Library/Application Support/pnp/ on macOS, %LOCALAPPDATA%\\pnp\\ on Windows), or the
file named by `--config` or the PNP_CONFIG environment variable (tests point it at a
temporary file so they never touch a real user's settings).

It keeps one reading per flip, as typed. A reading is not carried over from one flip to
the other: drivers often turn the back page half a turn for short-edge printing, which
reverses the printer's shift on that page, so each flip is measured with its own
calibration.pdf. `load_back_offset(duplex=...)` answers with the reading for that flip,
ready for `--back-offset` / `run_build(back_offset=...)`.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from pathlib import Path

from generator.core.duplex import DUPLEX_MODES, format_offset, printer_shift
from generator.core.errors import InputError, Location, Problem

APP_NAME = "pnp"
CONFIG_ENV = "PNP_CONFIG"
FORMAT = "pnp.calibration/1"
MAX_OFFSET_MM = 20.0  # the calibration page's scales reach ±10 mm; more is a typo
# calibration pages are portrait, whatever the paper: the flip's axis follows from the name
_AXIS = {"long-edge": "columns", "short-edge": "rows"}


def default_config_path() -> Path:
    """PNP_CONFIG if set, else calibration.json in the user's config directory."""
    env = os.environ.get(CONFIG_ENV)
    if env:
        return Path(env)
    from platformdirs import user_config_dir
    return Path(user_config_dir(APP_NAME, appauthor=False)) / "calibration.json"


@dataclass(frozen=True)
class Calibration:
    readings: dict  # flip -> (dx, dy) as read on calibration.pdf (right, up), mm
    path: Path

    def reading(self, duplex: str) -> tuple[float, float] | None:
        return self.readings.get(duplex)

    def shift(self, duplex: str) -> tuple[float, float] | None:
        """The printer's shift of the back side, in the back page's frame (mm)."""
        reading = self.readings.get(duplex)
        return printer_shift(reading, _AXIS[duplex]) if reading else None


def parse_offset(value: str, where: str = "--back-offset") -> tuple[float, float]:
    """`DX,DY` in mm -> (dx, dy); a clear InputError for anything else."""
    parts = [p.strip() for p in str(value).split(",")]
    try:
        if len(parts) != 2:
            raise ValueError
        dx, dy = (float(p) for p in parts)
    except ValueError:
        raise InputError([Problem("offset.syntax", f"`{value}` is not an offset", Location(where),
                                  found=str(value), expected="DX,DY in millimetres, e.g. 1.5,-0.5",
                                  fix="type the two numbers read on calibration.pdf, separated by a comma")]) from None
    if not all(math.isfinite(v) and abs(v) <= MAX_OFFSET_MM for v in (dx, dy)):
        raise InputError([Problem("offset.range", f"`{value}` is out of range", Location(where), found=str(value),
                                  expected=f"each number between -{MAX_OFFSET_MM:g} and {MAX_OFFSET_MM:g} mm",
                                  fix="read the cross again on calibration.pdf's scales (they reach ±10 mm)")])
    return dx, dy


def load_calibration(config_path: Path | None = None) -> Calibration | None:
    """The saved calibration, or None when there is none. A damaged file is an InputError
    naming it (with the fix: calibrate again), never a silent zero."""
    path = Path(config_path) if config_path else default_config_path()
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != FORMAT:
            raise ValueError
        readings = {}
        for duplex, entry in data["flips"].items():
            reading = tuple(float(v) for v in entry["reading_mm"])
            if duplex not in _AXIS or len(reading) != 2 or not all(math.isfinite(v) for v in reading):
                raise ValueError
            readings[duplex] = reading
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        raise InputError([Problem("calibration.file", "the saved duplex calibration cannot be read", Location(str(path)),
                                  expected=f"a {FORMAT} file written by `pnp calibrate`",
                                  fix="run `pnp calibrate DX,DY --duplex long-edge|short-edge` again, or delete the file")
                          ]) from None
    return Calibration(readings, path)


def load_back_offset(config_path: Path | None = None, duplex: str = "long-edge") -> tuple[float, float] | None:
    """The saved reading for builds printed with `duplex` (pass it as `--back-offset` /
    run_build(back_offset=...)), or None when that flip was never calibrated."""
    cal = load_calibration(config_path)
    return cal.reading(duplex) if cal else None


def save_back_offset(reading: tuple[float, float], duplex: str = "long-edge", config_path: Path | None = None) -> Path:
    """Store the reading of a calibration page printed with `duplex` (the other flip's
    reading, if saved, is kept); returns the file."""
    if duplex not in DUPLEX_MODES:
        raise InputError([Problem("calibration.duplex", f"`{duplex}` is not a duplex flip", Location("--duplex"),
                                  expected="long-edge or short-edge")])
    path = Path(config_path) if config_path else default_config_path()
    old = load_calibration(path)
    readings = dict(old.readings) if old else {}
    readings[duplex] = (float(reading[0]), float(reading[1]))
    doc = {"format": FORMAT, "flips": {
        flip: {"reading_mm": list(r), "printer_shift_mm": [round(v, 4) + 0.0 for v in printer_shift(r, _AXIS[flip])]}
        for flip, r in sorted(readings.items())}}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return path


def resolve_back_offset(explicit: str | tuple[float, float] | None, duplex: str, config_path: Path | None = None
                        ) -> tuple[tuple[float, float], str | None]:
    """The reading a build uses and a line saying where it came from: `--back-offset`
    when given (text, or already parsed; it overrides the saved one), else the saved
    calibration of that flip."""
    if isinstance(explicit, str):
        explicit = parse_offset(explicit)
    if duplex == "none":
        return (explicit if explicit is not None else (0.0, 0.0)), None
    cal = load_calibration(config_path)
    saved = cal.reading(duplex) if cal else None
    if explicit is not None:
        reading = explicit
        return reading, (f"back offset {format_offset(reading)} mm ({duplex}) from --back-offset"
                         + (f", overriding the saved {format_offset(saved)} in {cal.path}" if saved else ""))
    if saved is not None:
        return saved, f"back offset {format_offset(saved)} mm ({duplex}) from the saved calibration in {cal.path}"
    if cal is not None:
        other = ", ".join(sorted(cal.readings))
        return (0.0, 0.0), (f"no back offset: the saved calibration ({cal.path}) is for {other}, not {duplex}; "
                            f"print calibration.pdf with {duplex} and run `pnp calibrate DX,DY --duplex {duplex}`")
    return (0.0, 0.0), None
