"""What one server serves: its packs (loaded once per worker), the builds folder and the
image cache. Nothing else is kept between requests, so any number of workers can serve."""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from pathlib import Path

from fastapi import HTTPException

from generator.pack.load import load_pack
from generator.pack.model import Pack
from generator.pack.translations.catalog import readable_languages
from generator.web.language import LANG, SHOWN
from generator.web.storage import Builds

ENV_PACKS = "PNP_PACKS"      # pack folders, separated by os.pathsep (unset: the current folder)
ENV_BUILDS = "PNP_BUILDS"    # the builds folder
ENV_CACHE = "PNP_CACHE"      # the card image cache
ICON = Path(__file__).parent / "static" / "favicon.ico"


def pack_dirs(targets: list[Path]) -> list[Path]:
    """Pack folders from the arguments: a pack folder itself, or a folder of packs."""
    out = []
    for target in targets:
        target = Path(target)
        if (target / "game.yaml").is_file():
            out.append(target)
        elif target.is_dir():
            found = sorted(p for p in target.iterdir() if _holds_game(p))
            out.extend(found or [target])  # a folder of no packs: load_pack says it is no pack
        else:
            out.append(target)  # load_pack names what is wrong with it
    return out


def _holds_game(folder: Path) -> bool:
    try:
        return (folder / "game.yaml").is_file()
    except OSError:  # a folder it may not look into (/proc/1/...): no pack
        return False


@dataclass
class Site:
    packs: dict[str, Pack]
    builds: Builds
    cache_dir: Path
    presets: dict = field(default_factory=dict)  # pack id -> {preset id: Path}
    community: bool = False  # saved builds in a database (generator.community): pages show history, publishing
    translated: dict = field(default_factory=dict)  # (pack id, language) -> the pack in it (`?lang=`)
    _translating: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def load(cls, targets: list[Path], builds_dir: Path, cache_dir: Path | str | None = None) -> "Site":
        packs: dict[str, Pack] = {}
        for folder in pack_dirs(targets):
            pack = load_pack(folder)
            packs.setdefault(pack.spec.id, pack)
        cache = Path(cache_dir) if cache_dir else Path("output") / ".web-cache"
        site = cls(packs, Builds(builds_dir), cache)
        for pid, pack in packs.items():
            site.presets[pid] = {Path(p).stem: Path(p) for p in pack.preset_files}
        return site

    @classmethod
    def from_env(cls) -> "Site":
        packs = [Path(p) for p in os.environ.get(ENV_PACKS, ".").split(os.pathsep) if p]
        return cls.load(packs, Path(os.environ.get(ENV_BUILDS, "builds")), os.environ.get(ENV_CACHE) or None)

    def pack(self, pack_id: str) -> Pack:
        """The pack, in the language the request asked for (`?lang=`, web/language.py) when it
        has a translation for it; loaded once per language and kept, as the packs are."""
        pack = self.packs.get(pack_id)
        if pack is None:
            raise HTTPException(404, f"no pack `{pack_id}` is served here")
        lang = LANG.get()
        if lang and lang != pack.spec.language and lang in readable_languages(pack.root):
            with self._translating:  # one load per language, whichever worker thread asks first
                if (pack_id, lang) not in self.translated:
                    self.translated[(pack_id, lang)] = load_pack(Path(pack.root), pack.documents, lang=lang)
                pack = self.translated[(pack_id, lang)]
        SHOWN.set(pack.spec.language)  # the page's own words follow the pack's (web/words.py)
        return pack

    def icon(self) -> tuple[Path, str]:
        """The builder's own mark (a card with a fold line) and its media type: the site's icon
        where no one game's emblem stands for it (web/routes_pages.py)."""
        return ICON, "image/x-icon"

    def preset_path(self, pack_id: str, preset: str) -> Path:
        path = self.presets.get(pack_id, {}).get(preset)
        if path is None:
            raise HTTPException(404, f"no preset `{preset}` in this pack")
        return path
