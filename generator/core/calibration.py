"""The saved duplex calibration: what `pnp calibrate DX,DY` stores and every build reads.

A small JSON file in the user's config directory (click.get_app_dir: ~/.config/pnp/ on Linux,
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
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Callable
from typing import Annotated, Final, Literal, NoReturn

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from generator.core.duplex import DUPLEX_MODES, Axis, format_offset, printer_shift
from generator.core.errors import InputError, Location, Problem
from generator.core.files import atomic_output
from generator.core.yamlio import parse_yaml, read_text

APP_NAME = "pnp"
CONFIG_ENV = "PNP_CONFIG"
FormatName = Literal["pnp.calibration/1"]  # the schema's `format` value; mypy checks FORMAT is it
FORMAT: Final[FormatName] = "pnp.calibration/1"
MAX_OFFSET_MM = 20.0  # the calibration page's scales reach ±10 mm; more is a typo
# calibration pages are portrait, whatever the paper: the flip's axis follows from the name
_AXIS: dict[str, Axis] = {"long-edge": "columns", "short-edge": "rows"}


def default_config_path() -> Path:
    """PNP_CONFIG if set, else calibration.json in the user's config directory."""
    env = os.environ.get(CONFIG_ENV)
    if env:
        return Path(env)
    # click's own helper gives the same folders platformdirs did (XDG_CONFIG_HOME on Linux; roaming=False is
    # %LOCALAPPDATA% on Windows), so a saved reading is still found, and the install carries one package less
    from click import get_app_dir
    return Path(get_app_dir(APP_NAME, roaming=False)) / "calibration.json"


@dataclass(frozen=True)
class Calibration:
    readings: dict[str, tuple[float, float]]  # flip -> (dx, dy) as read on calibration.pdf (right, up), mm
    path: Path

    def reading(self, duplex: str) -> tuple[float, float] | None:
        return self.readings.get(duplex)

    def shift(self, duplex: str) -> tuple[float, float] | None:
        """The printer's shift of the back side, in the back page's frame (mm)."""
        reading = self.readings.get(duplex)
        return printer_shift(reading, _AXIS[duplex]) if reading else None


# A number as a person types it: no `1_0` (Python's float() reads 10), no nan or inf.
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)
Millimetres = Annotated[float, Field(strict=True, allow_inf_nan=False, ge=-MAX_OFFSET_MM, le=MAX_OFFSET_MM)]


class FlipEntry(BaseModel):
    """One flip's saved reading; `printer_shift_mm` is written for people and worked out
    again from the reading when read."""

    model_config = ConfigDict(extra="forbid")
    reading_mm: tuple[Millimetres, Millimetres]
    printer_shift_mm: tuple[Annotated[float, Field(strict=True, allow_inf_nan=False)],
                            Annotated[float, Field(strict=True, allow_inf_nan=False)]] | None = None


class CalibrationFile(BaseModel):
    """The calibration file, as `pnp calibrate` writes it (the schema every read goes through)."""

    model_config = ConfigDict(extra="forbid")
    format: FormatName
    flips: dict[Literal["long-edge", "short-edge"], FlipEntry]


def parse_offset(value: str, where: str = "--back-offset") -> tuple[float, float]:
    """`DX,DY` in mm as typed (`pnp calibrate`, `--back-offset`) -> (dx, dy), checked by the
    same schema as the saved file; a clear InputError for anything else."""
    parts = [p.strip() for p in str(value).split(",")]
    bad = next((p for p in parts if not _NUMBER.fullmatch(p)), None) if len(parts) == 2 else str(value)
    if bad is not None:
        finite = bad.lower().lstrip("+-") in ("nan", "inf", "infinity")
        message = (f"`{bad}` in `{value}` is not a finite number" if finite and len(parts) == 2
                   else f"`{value}` is not an offset")
        raise InputError([Problem("offset.syntax", message, Location(where), found=str(value),
                                  expected="DX,DY in millimetres, e.g. 1.5,-0.5",
                                  fix="type the two numbers read on calibration.pdf, separated by a comma")])
    reading = (float(parts[0]), float(parts[1]))
    try:
        FlipEntry(reading_mm=reading)
    except ValidationError:
        raise InputError([Problem("offset.range", f"`{value}` is out of range", Location(where), found=str(value),
                                  expected=f"each number between -{MAX_OFFSET_MM:g} and {MAX_OFFSET_MM:g} mm",
                                  fix="read the cross again on calibration.pdf's scales (they reach ±10 mm)")]) from None
    return reading


def _damaged(path: Path, message: str, location: Location | None = None, found: str | None = None) -> InputError:
    return InputError([Problem("calibration.file", message, location or Location(str(path)), found=found,
                               expected=f"a {FORMAT} file written by `pnp calibrate`, each reading between "
                               f"-{MAX_OFFSET_MM:g} and {MAX_OFFSET_MM:g} mm",
                               fix="run `pnp calibrate DX,DY --duplex long-edge|short-edge` again, or delete the file")])


def _refuse_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a number")


def load_calibration(config_path: Path | None = None) -> Calibration | None:
    """The saved calibration, or None when there is none. A damaged file, a file out of the
    schema's bounds, or a path that is no file (a folder, under a file, unreadable) is an
    InputError naming the file and line, never a silent zero or a traceback."""
    path = Path(config_path) if config_path else default_config_path()
    file = str(path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _damaged(path, f"the calibration file {file} cannot be read: {exc.strerror}") from None
    if not stat.S_ISREG(mode):  # a folder, or a device or pipe that reading would hang on
        kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
        raise _damaged(path, f"the calibration file {file} is {kind}", found=kind)
    text = read_text(path, file)  # a folder, a device, too large, not UTF-8: one clear problem
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise _damaged(path, f"the calibration file is not JSON: {exc.msg}", Location(file, exc.lineno, exc.colno)) from None
    except ValueError as exc:
        raise _damaged(path, f"the calibration file holds {exc}") from None
    except RecursionError:
        raise _damaged(path, "the calibration file is nested too deeply to be read") from None
    where: Callable[[tuple[str | int, ...]], Location]
    try:
        where = parse_yaml(text, file).at  # JSON is YAML: the line and column of every value
    except InputError as exc:
        if exc.problems and exc.problems[0].code.startswith("yaml.too"):
            raise
        where = lambda loc: Location(file)  # noqa: E731 (JSON that YAML reads otherwise: the file only)
    try:
        parsed = CalibrationFile.model_validate(data)
    except ValidationError as exc:
        problems = []
        for err in exc.errors(include_url=False):
            path_in = tuple(err["loc"])
            name = ".".join(str(p) for p in path_in) or "the file"
            found = err.get("input")
            problems.append(_damaged(path, f"{name}: {err['msg']}", where(path_in),
                                     found=json.dumps(found)[:60] if not isinstance(found, dict) else None).problems[0])
        raise InputError(problems) from None
    return Calibration({flip: entry.reading_mm for flip, entry in parsed.flips.items()}, path)


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
    CalibrationFile.model_validate(doc)  # what is written reads back
    try:  # a temporary file of its own beside the file, renamed over it: parallel saves never collide
        with atomic_output(path, suffix=".json") as tmp:
            tmp.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        raise InputError([Problem("calibration.file", f"cannot write the calibration file {path}: "
                                  f"{exc.strerror or exc}", Location(str(path)),
                                  expected="a file in a folder you can write to",
                                  fix="pass --config FILE (or set PNP_CONFIG) to a writable place")]) from None
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
                         + (f", overriding the saved {format_offset(saved)} in {cal.path}" if cal and saved else ""))
    if cal is not None and saved is not None:
        return saved, f"back offset {format_offset(saved)} mm ({duplex}) from the saved calibration in {cal.path}"
    if cal is not None:
        other = ", ".join(sorted(cal.readings))
        return (0.0, 0.0), (f"no back offset: the saved calibration ({cal.path}) is for {other}, not {duplex}; "
                            f"print calibration.pdf with {duplex} and run `pnp calibrate DX,DY --duplex {duplex}`")
    return (0.0, 0.0), None
