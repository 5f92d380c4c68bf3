"""Player flows in Debian's Chromium for every pack at desktop and phone width (#26): a build
made click by click from an empty editor with undo after each step giving back the build
before it byte for byte, and the rules pages used as a player would (contents, next chapter,
search without a script, a keyword of a card to its glossary entry). Every answer is watched:
no enabled control may answer 4xx/5xx. The four-heroes, fix-button and picker-filter flows are
in test_web_builder.py."""

from __future__ import annotations

import re

import pytest

from test_web_browser import WIDTHS, browser, changes, doc_text, expect, server, shoot  # noqa: F401
from test_web_builder import _pack, _sides, watched  # noqa: F401

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("pack_id, side_id", _sides())
def test_a_build_click_by_click_and_undo_after_each_step(server, watched, tmp_path, pack_id, side_id):  # noqa: F811
    pg, bad = watched
    base, _ = server
    pack = _pack(pack_id)
    pg.goto(f"{base}/p/{pack_id}/edit?side={side_id}")
    texts = [doc_text(pg)]

    def step(locator) -> bool:
        if not locator.count():
            return False
        changes(pg, locator.click)
        texts.append(doc_text(pg))
        # undo gives back the build before, byte for byte; redo the build after
        changes(pg, pg.locator("#undo").click)
        assert doc_text(pg) == texts[-2], f"undo of step {len(texts) - 1}"
        changes(pg, pg.locator("#redo").click)
        assert doc_text(pg) == texts[-1], f"redo of step {len(texts) - 1}"
        return True

    side = pack.spec.sides[side_id]
    bases = min(side.characters.max or 2, 2)
    for _ in range(bases):
        step(pg.locator("details[data-place=base] button.add:enabled:not([aria-pressed=true])").first)
    for place in ("equipment", "abilities"):
        step(pg.locator(f"details[data-place={place}] button.add:enabled:not([aria-pressed=true])").first)
    for i in range(3):
        picks = pg.locator("details[data-place=deck] .pick li:not([hidden]) button[data-count='1']:enabled")
        if not step(picks.nth(i)):
            step(pg.locator("details[data-place=deck] button.add:enabled").nth(i))
    assert len(texts) >= 3, "at least two steps were possible"
    assert len(set(texts)) == len(texts), "every step changed the build"
    # and back to the start, one undo at a time
    for i in range(len(texts) - 1, 0, -1):
        changes(pg, pg.locator("#undo").click)
        assert doc_text(pg) == texts[i - 1]
    expect(pg.locator("#undo")).to_be_disabled()
    assert not bad, bad


def _slug(path) -> str:
    from pathlib import Path
    stem = Path(path).stem
    return re.sub(r"[^a-z0-9]+", "-", stem.split("-", 1)[-1].casefold()).strip("-")


@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize("pack_id", sorted({p for p, _ in _sides()}))
def test_the_rules_as_a_player_reads_them(server, browser, tmp_path, pack_id, width):  # noqa: F811
    base, _ = server
    pack = _pack(pack_id)
    bad = []
    context = browser.new_context(viewport={"width": WIDTHS[width], "height": 844})
    pg = context.new_page()
    pg.on("response", lambda r: bad.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    pg.goto(f"{base}/p/{pack_id}")
    pg.get_by_role("navigation", name="Pack").get_by_role("link", name="Rules").click()
    expect(pg.locator("h1")).to_have_text(f"{pack.spec.name}: rules")
    toc = pg.get_by_role("navigation", name="Contents")
    first = toc.locator(f'a[href="/p/{pack_id}/rules/{_slug(pack.rule_files[0])}"]')
    first.click()
    expect(pg.locator("h1")).to_have_count(1)
    title = pg.locator("h1").text_content()
    assert title and title in pg.title()
    assert pg.evaluate("() => document.documentElement.scrollWidth") <= WIDTHS[width]
    if width == "phone":
        shoot_to(pg, tmp_path, f"rules-{pack_id}-phone")
    pg.locator("a[rel=next]").click()
    expect(pg.locator("h1")).not_to_have_text(title)
    # a keyword of a card leads to its glossary entry
    names = {k.name for k in pack.spec.keywords.values() if k.text}
    card = next((c for c in pack.cards.values() if c.text and any(
        re.search(r"(?<![\w-])" + re.escape(n) + r"(?![\w-])", c.text) for n in names)), None)
    if card is not None:
        pg.goto(f"{base}/p/{pack_id}/cards/{card.id}")
        link = pg.locator("a.kw").first
        term = link.text_content()
        link.click()
        expect(pg.locator("dt:target")).to_have_text(re.compile(re.escape(term)))
        assert pg.locator("dt:target").is_visible()
    assert pg.evaluate("() => document.documentElement.scrollWidth") <= WIDTHS[width]
    context.close()
    # search works without a script: a plain GET form
    plain = browser.new_context(viewport={"width": WIDTHS[width], "height": 844}, java_script_enabled=False)
    pg = plain.new_page()
    pg.on("response", lambda r: bad.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    pg.goto(f"{base}/p/{pack_id}/rules")
    word = sorted(names)[0] if names else "turn"
    pg.get_by_label("Search the rules").fill(word)
    pg.get_by_role("button", name="Search").click()
    expect(pg.locator("h1")).to_have_text("Search the rules")
    hits = pg.locator("ol.hits > li > a")
    assert hits.count() > 0, word
    if width == "phone":
        shoot_to(pg, tmp_path, f"rules-search-{pack_id}-phone")
    hits.first.click()
    expect(pg.locator("h1")).to_have_count(1)
    plain.close()
    assert not bad, bad


def shoot_to(pg, tmp_path, name):
    import os
    from pathlib import Path
    for folder in [tmp_path] + ([Path(os.environ["PNP_SCREENSHOTS"])] if os.environ.get("PNP_SCREENSHOTS") else []):
        folder.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(folder / f"{name}.png"))


@pytest.mark.parametrize("pack_id, stem", [("boss_fight", "boss-ashen-behemoth"), ("battle_bosses", "sable")])
def test_the_draw_odds_show_without_a_script(server, browser, tmp_path, pack_id, stem):  # noqa: F811
    """The opening draw's odds are a table (percentages drawn as bars by CSS alone), so a
    page without JavaScript shows them; each row's figure is a percentage between 0 and 100."""
    base, _ = server
    context = browser.new_context(viewport={"width": 1280, "height": 900}, java_script_enabled=False)
    pg = context.new_page()
    pg.goto(f"{base}/p/{pack_id}/edit?preset={stem}")
    odds = pg.locator("figure.odds")
    expect(odds).to_be_visible()
    rows = odds.locator("tbody tr")
    assert rows.count() >= 2
    for text in rows.locator("td:nth-child(3)").all_text_contents():
        assert 0 <= float(text.strip().rstrip("%").strip()) <= 100, text
    shares = odds.locator(".pbar span").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().width / e.parentElement.getBoundingClientRect().width)")
    figures = [float(t.strip().rstrip("%").strip()) for t in rows.locator("td:nth-child(3)").all_text_contents()]
    for share, pct in zip(shares, figures):
        assert share == pytest.approx(pct / 100, abs=0.01)  # each bar is its percentage of the track
    shoot_element(pg.locator("section.charts"), tmp_path, f"odds-{pack_id}")
    context.close()


def shoot_element(locator, tmp_path, name):
    import os
    from pathlib import Path
    locator.scroll_into_view_if_needed()
    for folder in [tmp_path] + ([Path(os.environ["PNP_SCREENSHOTS"])] if os.environ.get("PNP_SCREENSHOTS") else []):
        folder.mkdir(parents=True, exist_ok=True)
        locator.screenshot(path=str(folder / f"{name}.png"))


@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize("pack_id, side_id", _sides())
def test_the_picker_filters_of_every_pack(server, browser, pack_id, side_id, width):  # noqa: F811
    """Each type and each set the picker offers narrows it to exactly those cards; the Find
    box to the cards whose name holds the words; clearing gives every card back."""
    base, _ = server
    context = browser.new_context(viewport={"width": WIDTHS[width], "height": 844})
    pg = context.new_page()
    pg.goto(f"{base}/p/{pack_id}/edit?side={side_id}")
    cards = pg.locator(".pick li")
    total = cards.count()
    shown = pg.locator(".pick li:not([hidden])")
    assert shown.count() == total > 0
    for select, attr in (("#pf-type", "type"), ("#pf-set", "set")):
        if not pg.locator(select).count():
            continue
        values = pg.locator(f"{select} option").evaluate_all("os => os.map(o => o.value).filter(Boolean)")
        for value in values:
            pg.locator(select).select_option(value)
            got = set(shown.evaluate_all(f"els => els.map(e => e.dataset.{attr})"))
            assert got <= {value}, (select, value, got)
            assert shown.count() == pg.locator(f'.pick li[data-{attr}="{value}"]').count()
        pg.locator(select).select_option("")
        assert shown.count() == total
    word = (cards.first.get_attribute("data-name") or cards.first.inner_text()).split()[0]
    pg.get_by_label("Find").fill(word)
    expect(shown.first).to_be_visible()
    assert 0 < shown.count() <= total
    pg.get_by_label("Find").fill("")
    expect(shown).to_have_count(total)
    context.close()
