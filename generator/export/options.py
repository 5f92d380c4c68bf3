"""BuildOptions: what a build is asked to make, checked and made once, by the command line
(`pnp build`, `watch`, `calibrate`, `preflight`) and the web alike, then passed on as one
value. It loads no renderer: the names it accepts come from the light tables (papers,
duplex modes, output profiles, print-service presets) and the one back-offset parser is
core/calibration.py's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from generator.core.calibration import parse_offset, resolve_back_offset
from generator.core.duplex import DUPLEX_MODES
from generator.core.errors import InputError, Location, Problem
from generator.core.papers import DEFAULT_PAPER, PAPERS, Paper
from generator.export.profile_table import PROFILES
from generator.export.service_table import resolve_service

DUPLEX_CHOICES = (*DUPLEX_MODES, "none")
PNG_SIZES = ("mpc", "tgc")
COLORS = ("rgb", "cmyk")
CUT_MACHINES = ("silhouette", "cricut")
ONLY_CHOICES = ("cards", "maps", "rulebook", "pieces", "all")
INK_CHOICES = ("colour", "saver")  # maps in full colour, or the low-ink black-and-white look (render/maps/palette.py)
INK_LIMIT = (100.0, 400.0)  # percent, C+M+Y+K
DEFAULT_INK_LIMIT = 240.0
CUT_INSET = (0.0, 3.0)  # mm inside the trim


def _bad(code: str, where: str, found, expected: str) -> InputError:
    return InputError([Problem(code, f"`{found}` is not a choice for {where}", Location(where), found=str(found),
                               expected=expected)])


def _choice(value, choices, where: str):
    if value not in choices:
        raise _bad("build.option", where, value, f"one of: {', '.join(choices)}")
    return value


def _bounded(value, bounds, where: str) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = None
    if number is None or not bounds[0] <= number <= bounds[1]:
        raise _bad("build.option", where, value, f"a number from {bounds[0]:g} to {bounds[1]:g}")
    return number


@dataclass(frozen=True)
class BuildOptions:
    profile: str = "home"
    paper: Paper = DEFAULT_PAPER
    duplex: str = "long-edge"
    back_offset: tuple[float, float] | None = (0.0, 0.0)  # None: the saved calibration's (with_calibration)
    png_size: str = "mpc"
    only: str = "all"
    ink: str = "colour"
    # print services, CMYK, cutting machines, TTS (generator/export/profiles/)
    color: str = "rgb"
    icc: str | None = None
    ink_limit: float = DEFAULT_INK_LIMIT
    cut: str | None = None
    cut_inset: float = 0.0
    tts_url_base: str | None = None

    @classmethod
    def make(cls, profile: str = "home", *, service: str | None = None, paper: str = DEFAULT_PAPER,
             duplex: str = "long-edge", back_offset=None, png_size: str = "mpc", only: str = "all",
             ink: str = "colour", color: str | None = None, icc=None, ink_limit: float = DEFAULT_INK_LIMIT, cut: str | None = None,
             cut_inset: float = 0.0, tts_url_base: str | None = None) -> BuildOptions:
        """The effective options after a print-service preset and the shortcuts (`--cut`
        implies the cut profile), every name and bound checked. `back_offset` is the typed
        `DX,DY` text or a reading already parsed; the saved calibration is applied by
        `with_calibration`."""
        chosen: dict[str, Any] = {"profile": profile, "color": color, "png_size": png_size, "ink_limit": ink_limit}
        if service:
            preset = resolve_service(service).options
            chosen.update({k: v for k, v in preset.items() if not (k == "color" and color)})
        if cut:
            chosen["profile"] = "cut"
        row = PROFILES.get(chosen["profile"])
        if row is None:
            raise _bad("build.profile", "--profile", chosen["profile"], f"one of: {', '.join(PROFILES)}")
        chosen["color"] = _choice(chosen["color"] or row.colors[0], COLORS, "--color")
        if chosen["color"] not in row.colors:
            # home printers, PNG services and Tabletop Simulator want RGB (TTS refuses CMYK images)
            takes = " or ".join(n for n, r in PROFILES.items() if "cmyk" in r.colors)
            raise InputError([Problem("build.color", f"--color cmyk is for --profile {takes}, not "
                                      f"`{chosen['profile']}`, which stays RGB", Location("--color"),
                                      found=chosen["color"], expected=f"--profile {takes}, or no --color")])
        offset = parse_offset(back_offset, "--back-offset") if isinstance(back_offset, str) else back_offset
        return cls(profile=chosen["profile"], paper=_choice(paper, PAPERS, "--paper"),
                   duplex=_choice(duplex, DUPLEX_CHOICES, "--duplex"),
                   back_offset=tuple(offset) if offset is not None else None,
                   png_size=_choice(chosen["png_size"], PNG_SIZES, "--size"),
                   only=_choice(only, ONLY_CHOICES, "--only"), ink=_choice(ink, INK_CHOICES, "--ink"),
                   color=chosen["color"],
                   icc=str(icc) if icc else None, ink_limit=_bounded(chosen["ink_limit"], INK_LIMIT, "--ink-limit"),
                   cut=_choice(cut, (None, *CUT_MACHINES), "--cut") if cut else None,
                   cut_inset=_bounded(cut_inset, CUT_INSET, "--cut-inset"), tts_url_base=tts_url_base)

    def with_calibration(self, config_path: Path | None = None) -> tuple[BuildOptions, str | None]:
        """The options with the back-offset reading a build uses (the explicit one, else the
        saved calibration for duplex sheets printed at home) and a line saying where it came
        from. Print services get none."""
        duplex = self.duplex if PROFILES[self.profile].calibrated else "none"
        reading, note = resolve_back_offset(self.back_offset, duplex, config_path)
        return replace(self, back_offset=(reading[0], reading[1])), note

    def part(self, only: str) -> BuildOptions:
        return replace(self, only=_choice(only, ONLY_CHOICES, "--only"))
