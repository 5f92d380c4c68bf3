"""Accessibility (#26 item 8): axe-core, as bundled by the axe-playwright-python package (no
download), run in Debian's Chromium over every page of every pack at desktop and phone
width: 0 violations, and one <h1> per page (axe does not require it). Labels and 24 px targets
at 390 px: test_web_builder.py (test_every_page_has_one_heading_labelled_inputs_and_fits_a_phone)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from test_web_browser import WIDTHS, browser, server  # noqa: F401
from test_web_builder import _pack, _pages, _sides

axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright",
                               reason="axe-playwright-python (the `test` extra) is not installed")
pytestmark = pytest.mark.browser

PACK_IDS = sorted({p for p, _ in _sides()})


def all_pages(pack_id: str) -> list[str]:
    pack = _pack(pack_id)
    urls = _pages(pack_id)
    if pack.preset_files:
        urls.append(f"/p/{pack_id}/edit?preset={Path(pack.preset_files[0]).stem}")
    if pack.rule_files:
        urls += [f"/p/{pack_id}/rules/{chapter_slug(f)}" for f in pack.rule_files[:2]]
    if pack.map_files:
        urls.append(f"/p/{pack_id}/maps/{Path(pack.map_files[0]).stem}")
    urls.append(f"/p/{pack_id}/help/search")
    return urls


def chapter_slug(path) -> str:
    stem = Path(path).stem
    return re.sub(r"[^a-z0-9]+", "-", stem.split("-", 1)[-1].casefold()).strip("-")


def describe(results) -> list[str]:
    out = []
    for v in results.response["violations"]:
        for node in v["nodes"][:3]:
            out.append(f'{v["id"]} ({v["impact"]}): {node["target"]} {node.get("failureSummary", "")[:160]}')
    return out


@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize("pack_id", PACK_IDS)
def test_axe_finds_no_violation_on_any_page(server, browser, pack_id, width):  # noqa: F811
    base, _ = server
    axe = axe_sync.Axe()
    context = browser.new_context(viewport={"width": WIDTHS[width], "height": 844})
    pg = context.new_page()
    found = {}
    for url in all_pages(pack_id):
        r = pg.goto(base + url)
        assert r.status == 200, url
        assert pg.locator("h1").count() == 1, url
        bad = describe(axe.run(pg))
        if bad:
            found[url] = bad
    context.close()
    assert not found, found
