"""Deterministic, atomic PDF output shared by every renderer."""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from pathlib import Path

from reportlab import rl_config
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas as rl_canvas

from generator import staging
from generator.render.fonts import register_fonts

MM = mm  # points per millimetre

# Binary (Flate-only) streams: ASCII85 makes every page stream 25 % larger and costs a
# pure-Python pass over it; no viewer or print service needs it. ReportLab reads this
# setting when it writes streams, so it is set once, before any document is made.
rl_config.useA85 = 0


def source_date() -> float | None:
    """SOURCE_DATE_EPOCH when set: dates inside PDFs then follow it (reproducible builds)."""
    value = os.environ.get("SOURCE_DATE_EPOCH")
    if value and value.strip().isdigit():
        return float(value)
    return None


def new_canvas(target, page_size_pt: tuple[float, float], title: str, subject: str = "") -> rl_canvas.Canvas:
    """A canvas whose bytes depend only on what is drawn: invariant mode, no timestamps
    unless SOURCE_DATE_EPOCH asks for one, fonts registered and embedded."""
    register_fonts()
    epoch = source_date()
    c = rl_canvas.Canvas(target, pagesize=page_size_pt, invariant=1, pageCompression=1,
                         initialFontName="PnpSans")
    if epoch is not None:
        c._doc._timeStamp.t = epoch  # invariant mode pins the date; SOURCE_DATE_EPOCH replaces it
        c._doc._timeStamp.lt = time.gmtime(epoch)
        c._doc._timeStamp.tzname = "UTC"
        c._doc._timeStamp.dhh = 0
        c._doc._timeStamp.dmm = 0
    c.setTitle(title)
    c.setAuthor("pnp")
    c.setCreator("pnp print-and-play generator")
    c.setSubject(subject)
    return c


@contextlib.contextmanager
def atomic_output(path: Path, suffix: str = ".pdf"):
    """Yield a temporary path beside `path`; rename it into place only if the block succeeds
    (during a build: only if the whole build succeeds, see generator/staging.py), so a failed
    build never leaves a half-written file or loses the previous one."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=staging.temp_prefix(path.name), suffix=suffix, dir=path.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes files private; outputs are ordinary files
        staging.finish(Path(tmp), path)  # now, or with every other output when the build succeeds
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
