"""Tabletop Simulator: deck sheets, the maps as images with their hex pitch, and the save."""

from __future__ import annotations

from generator.core import staging
from generator.export.raster import export_tts
from generator.export.tts_save import save_name, write_tts_save
from generator.render.maps.document import export_map_pngs

NAME = "tts"


def write(job):
    pack, folder = job.pack, job.out / "tts"
    # written at once, not staged: the TTS save is made from the deck index and map
    # sidecars on disk (export/tts_save.py)
    with staging.unstaged():
        yield job.timed(folder, export_tts, pack, job.faces, folder, job.shared)
        if pack.map_files and job.build is None:  # maps for the virtual table too, with their hex pitch
            yield job.timed(folder / "maps", export_map_pngs, pack, folder / "maps")
        yield job.timed(folder / f"{save_name(pack)}.json", write_tts_save, pack, folder, job.opt.tts_url_base,
                        job.build)
