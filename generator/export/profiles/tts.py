"""Tabletop Simulator: deck sheets, the maps as images with their hex pitch, the counters and
bases, and the save. All of it is made in one temporary folder, staged and swapped in with
the build's other outputs; the save is made from what the deck and map exports returned,
not from the files they wrote."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from generator.core import staging
from generator.export.credits import write_credits
from generator.export.raster import export_tts
from generator.export.tts_save import save_name, write_tts_save
from generator.render.maps.document import export_map_pngs

if TYPE_CHECKING:
    from generator.export.profiles import ProfileJob

NAME = "tts"


def _inside(fn, *args, **kw):
    """Run an export into the staged folder: its own files are written at once (the folder
    as a whole is what the build stages)."""
    with staging.unstaged():
        return fn(*args, **kw)


def write(job: ProfileJob) -> Iterator[str]:
    pack, final = job.pack, job.out / "tts"
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=staging.temp_prefix(final.name), dir=final.parent))
    try:
        made: dict = {}

        def decks(*args):
            made["decks"] = info = _inside(export_tts, *args)
            return info

        def maps(*args):
            made["maps"] = info = _inside(export_map_pngs, *args)
            return info

        yield job.timed(final, decks, pack, job.faces, tmp, job.shared)
        if pack.map_files and job.build is None:  # maps for the virtual table too, with their hex pitch
            yield job.timed(final / "maps", maps, pack, tmp / "maps")
        yield job.timed(final / f"{save_name(pack)}.json", _inside, write_tts_save, pack, tmp, job.opt.tts_url_base,
                        job.build, decks=made["decks"]["index"],
                        maps=made["maps"]["sidecars"] if "maps" in made else None, link_folder=final)
        write_credits(tmp, pack)
        staging.finish(tmp, final, folder=True)  # with the rest, when the whole build succeeds
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
