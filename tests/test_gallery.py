"""The README's gallery (issue #40, item 8) is what `make gallery` makes: the same pictures in the
same order with the same words, every one of them on disk, and a picture drawn twice is the same
bytes (so a redrawn gallery changes only where the packs did)."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tools"))

import gallery  # noqa: E402

IMAGE = re.compile(r"!\[([^\]]*)\]\((docs/images/gallery/[^)]+)\)")


def test_the_readme_shows_exactly_the_gallery_the_target_makes():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    shown = IMAGE.findall(readme)
    assert shown == [(p.alt, f"docs/images/gallery/{p.file}") for p in gallery.GALLERY]
    section = readme.split("## Gallery", 1)[1].split("\n## ", 1)[0]
    assert len(IMAGE.findall(section)) == len(shown)  # all of them in the Gallery section


def test_every_picture_is_on_disk_and_nothing_else_is():
    folder = REPO / "docs" / "images" / "gallery"
    assert sorted(p.name for p in folder.glob("*")) == sorted(p.file for p in gallery.GALLERY)
    for picture in gallery.GALLERY:
        assert (folder / picture.file).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_make_gallery_runs_the_gallery_script():
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    target = re.search(r"^gallery:.*\n((?:\t.*\n)+)", makefile, re.M)
    assert target and "tools/gallery.py" in target.group(1)
    assert re.search(r"^\.PHONY:.*\bgallery\b", makefile, re.M)


def test_a_picture_drawn_twice_is_the_same_bytes(tmp_path):
    picture = next(p for p in gallery.GALLERY if p.file == "stepfall-cards.png")
    first, second = tmp_path / "a.png", tmp_path / "b.png"
    gallery.save(picture.make(tmp_path), first)
    gallery.save(picture.make(tmp_path), second)
    assert first.read_bytes() == second.read_bytes()
    from PIL import Image
    with Image.open(io.BytesIO(first.read_bytes())) as image:
        assert image.info.keys() <= {"dpi", "gamma"}  # no time stamp or software tag in the file
        assert image.width > 2 * image.height * 0.6  # a unit's front and its back, side by side
