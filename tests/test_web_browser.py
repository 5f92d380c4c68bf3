"""The deck builder in a real browser (Debian's chromium driven by Playwright), used as a new
player would: one `pnp serve` for the module, started and stopped (Ctrl-C) like a person does.

Screenshots of the steps go to tmp_path, and also to $PNP_SCREENSHOTS when it is set
(tools/web_images.py uses that for the README pictures)."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

playwright_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    pytest.skip("Debian's chromium is not installed (make test installs it: apt-get install chromium)",
                allow_module_level=True)

from generator.community.store import Store  # noqa: E402
from web_support import REPO, start_serve, stop_serve  # noqa: E402

expect = playwright_api.expect
WIDTHS = {"desktop": 1280, "phone": 390}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    builds = tmp_path_factory.mktemp("builds")
    cache = tmp_path_factory.mktemp("cache")
    url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'site.sqlite3'}"  # pnp serve saves builds here
    proc, port, first = start_serve("card_data", "--port", "0", "--builds", str(builds), "--cache", str(cache),
                                    "--db", url)
    assert f"at http://localhost:{port}/" in first
    store = Store(url)
    yield f"http://127.0.0.1:{port}", store
    stop_serve(proc)  # Ctrl-C: exit 0, no traceback
    store.engine.dispose()


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": WIDTHS["desktop"], "height": 900})
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    # what the Content-Security-Policy blocked (generator.web.guard): nothing the pages need
    pg.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    yield pg
    context.close()
    assert not errors, errors


def shoot(pg, tmp_path, name: str) -> None:
    """A full-page screenshot at desktop and phone width."""
    folders = [tmp_path] + ([Path(os.environ["PNP_SCREENSHOTS"])] if os.environ.get("PNP_SCREENSHOTS") else [])
    old = pg.viewport_size
    for label, width in WIDTHS.items():
        pg.set_viewport_size({"width": width, "height": 900})
        pg.evaluate("() => window.scrollTo(0, 0)")  # sticky bars drawn where they stand at the top
        for folder in folders:
            folder.mkdir(parents=True, exist_ok=True)
            pg.screenshot(path=str(folder / f"{name}-{label}.png"), full_page=True)
    pg.set_viewport_size(old)


def doc_text(pg) -> str:
    return pg.locator("#build-doc").text_content()


def changes(pg, action) -> None:
    """Do `action` and wait until the editor shows the changed build. Under a full parallel
    suite a click has been seen to wait past Playwright's 30 s once in several runs: the wait
    is 60 s, and a build that never changes fails with what the page said and how many of its
    changes were still on their way (window.pnpBusy), not a bare timeout."""
    before = doc_text(pg)
    action()
    try:
        pg.wait_for_function("prev => document.getElementById('build-doc').textContent !== prev", arg=before,
                             timeout=60_000)
    except playwright_api.TimeoutError:
        busy, said = pg.evaluate("() => [window.pnpBusy, (document.getElementById('flash')?.textContent || '').trim()]")
        raise AssertionError(f"the build did not change within 60 s; changes on their way: {busy}; "
                             f"the page said: {said!r}") from None


def add(pg, name: str) -> None:
    """One more copy of a card from the picker: its + button, or, where the picker shows the
    copies as buttons 0..most, the button one above the copies held."""
    button = pg.get_by_role("button", name=f"Add {name}", exact=True)
    zero = pg.get_by_role("button", name=f"0 × {name}", exact=True)
    # count() does not wait: right after a link's click the editor may not be there yet,
    # so wait for one of the two kinds of picker button before choosing between them
    button.or_(zero).first.wait_for()
    if not button.count():
        li = pg.locator(".pick li", has=zero)
        have = int(li.get_attribute("data-have") or 0)
        button = li.get_by_role("button", name=f"{have + 1} × {name}", exact=True)
    changes(pg, button.click)


def share_code_of(base: str, pack_id: str, doc: dict) -> str:
    import urllib.request
    req = urllib.request.Request(f"{base}/api/{pack_id}/share", data=json.dumps(doc).encode(),
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())["code"]


def preset(pack_id: str, stem: str) -> dict:
    from generator.pack.load import load_pack
    from generator.web.common import preset_docs
    return preset_docs(load_pack(REPO / "card_data" / pack_id))[stem][0]


def names(pack_id: str) -> dict:
    from generator.pack.load import load_pack
    return {c.id: c.name for c in load_pack(REPO / "card_data" / pack_id).cards.values()}


def test_new_player_builds_a_boss_shares_it_and_imports_a_deck_list(server, page, tmp_path):
    base, builds = server
    card = names("boss_fight")
    page.goto(base + "/")
    page.get_by_role("link", name="Boss Fight").click()
    page.get_by_role("link", name="Make a build").click()
    page.get_by_role("link", name="New Boss").click()
    expect(page.locator("#verdict")).to_have_text("NOT LEGAL")

    # a boss from scratch, by clicking: pieces, then a weapon attached to the arm
    for piece in ("basalt-jaw", "coal-ribcage", "pillar-leg", "anchor-foot", "titan-arm", "knuckle-club"):
        add(page, card[piece])
    page.locator("#target-piece").select_option(label="Titan Arm")
    add(page, "Bone Cleaver")
    arm = page.locator('li.item[data-path="characters[0].pieces[4]"]')
    expect(arm.locator(".attached")).to_contain_text("Bone Cleaver")

    # fill the 30-card deck from the list of cards, then see it become legal
    deck = preset("boss_fight", "boss-ashen-behemoth")["characters"][0]["deck"]
    for card_id, n in deck.items():
        for _ in range(n):
            add(page, card[card_id])
    expect(page.locator(".stats .deckcount")).to_have_text("30/30")
    expect(page.locator("#verdict")).to_have_text("LEGAL")
    expect(page.locator(".summary.legal")).to_be_visible()
    shoot(page, tmp_path, "editor-legal")

    # a fourth copy: the deck.copies message appears next to that card
    three = next(cid for cid, n in deck.items() if n == 3)
    row = page.locator(f'li.item[data-path="characters[0].deck.{three}"]')
    changes(page, lambda: row.get_by_role("button", name=f"One more {card[three]}").click())
    expect(row.locator('.violation[data-rule="deck.copies"]')).to_contain_text(card[three])
    expect(page.locator("#verdict")).to_have_text("NOT LEGAL")
    # by keyboard: Enter on the row's − takes the fourth copy out again
    changes(page, lambda: row.get_by_role("button", name=f"One fewer {card[three]}").press("Enter"))
    expect(row.locator(".violation")).to_have_count(0)

    # the points bar goes red over the limit
    limit = page.get_by_label("Points limit as a number")
    changes(page, lambda: (limit.fill("40"), limit.press("Tab")))
    bar = page.locator(".bar.over span")
    expect(bar).to_be_visible()
    assert bar.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(161, 20, 27)"
    expect(page.locator('.build-errors .violation[data-rule="points.limit"]')).to_be_visible()
    shoot(page, tmp_path, "editor-over-limit")
    changes(page, lambda: page.get_by_label("Points limit", exact=True).select_option(""))
    expect(page.locator("#verdict")).to_have_text("LEGAL")

    # save it into the builds folder
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator("#flash")).to_contain_text("Saved “")
    saved = builds.builds(0)  # the one local person's saved builds, in the server's database
    assert len(saved) == 1 and "titan-arm" in saved[0].text

    # the share link, opened in a new page, shows the same build, read-only
    href = page.locator("#share-link").get_attribute("href")
    built = json.loads(doc_text(page))
    other = page.context.new_page()
    other.goto(base + href)
    expect(other.locator("#make-copy")).to_be_visible()
    expect(other.locator("#verdict")).to_have_text("LEGAL")
    shown = json.loads(other.locator("#build-doc").text_content())
    assert shown["characters"] == built["characters"]
    for card_id in deck:
        expect(other.locator(f'li.item[data-path="characters[0].deck.{card_id}"] .count')).to_have_text(
            f"{deck[card_id]}×")
    assert other.locator("svg.qr").count() == 1
    shoot(other, tmp_path, "shared")
    other.close()

    # a text deck list with one misspelled name: the did-you-mean
    page.goto(base + "/p/boss_fight/new")
    page.get_by_label("or a deck list").fill("Side: boss\n\n## Brute\nPieces:\nTitan Arm\nDeck:\n3x Lumbering Strid\n")
    page.get_by_role("button", name="Import").click()
    expect(page.locator(".problems")).to_contain_text("did you mean")
    expect(page.locator(".problems")).to_contain_text("Lumbering Stride")
    shoot(page, tmp_path, "import-did-you-mean")


def test_find_narrows_the_card_picker_and_names_signature_cards(server, page, tmp_path):
    """Typing in Find hides the cards that do not match (their name, text, id or tag), and a
    card that belongs to one boss says whose it is, so it can be found by that name too."""
    base, _ = server
    page.goto(f"{base}/p/raid_boss/edit?preset=boss-karrun")
    veyl = page.get_by_role("button", name="1 × Moth Swarm", exact=True)
    karrun = page.get_by_role("button", name="1 × Tail Sweep", exact=True)
    expect(karrun).to_be_visible()
    expect(veyl).to_be_hidden()  # by default the picker shows Karrun's own cards and no one's (#42 item 4)
    page.get_by_label("Belongs to").select_option("")
    expect(veyl).to_be_visible()
    expect(page.locator(".pick li", has=veyl).locator(".muted")).to_have_text("Easy · Mother Veyl only")
    page.get_by_label("Find").fill("mother veyl")
    expect(karrun).to_be_hidden()
    expect(veyl).to_be_visible()
    expect(page.locator("details[data-place=deck] .count")).to_have_text("(18 of 98)")  # the six boss decks' cards
    shoot(page, tmp_path, "picker-find")
    page.get_by_label("Find").fill("")
    expect(karrun).to_be_visible()


def test_print_buttons_download_the_build_on_the_page(server, page, tmp_path):
    """The print buttons send the build as it stands on the page (the script fills the form at
    the click): change it, then the roster PDF and the card PDF are of the changed build."""
    from pypdf import PdfReader
    base, _ = server
    page.goto(f"{base}/p/boss_fight/edit?preset=boss-ashen-behemoth")
    name = page.get_by_label("Build name")
    changes(page, lambda: (name.fill("Printed From The Page"), name.press("Enter")))
    with page.expect_download() as roster:
        page.get_by_role("button", name="Roster sheet (PDF)").click()
    path = tmp_path / "roster.pdf"
    roster.value.save_as(path)
    text = " ".join(p.extract_text() for p in PdfReader(path).pages)
    assert path.read_bytes().startswith(b"%PDF") and "Printed From The Page" in text
    with page.expect_download() as cards:
        page.get_by_role("button", name="Cards (PDF)").click()
    cards.value.save_as(tmp_path / "cards.pdf")
    assert len(PdfReader(tmp_path / "cards.pdf").pages) >= 2  # fronts and backs


def test_without_javascript_the_editor_says_what_still_works(server, browser):
    base, _ = server
    context = browser.new_context(java_script_enabled=False)
    try:
        pg = context.new_page()
        pg.goto(f"{base}/p/boss_fight/edit?preset=boss-ashen-behemoth")
        notice = pg.locator("noscript > p.notice")  # (text locators do not look inside <noscript>)
        expect(notice).to_be_visible()
        assert "buttons need JavaScript" in notice.inner_text()
        expect(pg.locator("#verdict")).to_be_visible()  # the build and its verdict are still shown
    finally:
        context.close()
    page = browser.new_page()  # with it on, the notice is not shown
    page.goto(f"{base}/p/boss_fight/edit?preset=boss-ashen-behemoth")
    expect(page.locator("#verdict")).to_be_visible()
    expect(page.locator("noscript > p.notice")).to_have_count(0)  # unparsed text while scripts run
    page.close()


def test_a_map_page_checks_where_a_boss_fits(server, page, tmp_path):
    """Pick a preset boss on a map's page, press Check: the verdict, the hexes it can start on
    highlighted on the map, and the legend beside it."""
    base, _ = server
    page.goto(f"{base}/p/boss_fight/maps/ash-pit")
    expect(page.locator("ul.legend li")).to_have_count(5)  # rubble, embers, obstacle, two zones
    page.get_by_label("Build").select_option(label="The Ashen Behemoth")
    page.get_by_role("button", name="Check").click()
    expect(page.locator(".verdict")).to_contain_text("It fits")
    expect(page.locator("svg.pnp-map polygon.highlight").first).to_be_visible()
    shoot(page, tmp_path, "map-fit")


def test_card_browser_and_phone_width(server, page, tmp_path):
    base, _ = server
    page.goto(base + "/p/boss_fight/cards")
    expect(page.locator(".cardgrid img").first).to_be_visible()
    page.get_by_label("Search").fill("arm")
    page.get_by_role("button", name="Filter").click()
    expect(page.locator(".cardgrid")).to_contain_text("Titan Arm")
    page.wait_for_function("() => [...document.querySelectorAll('.cardgrid img')].every(i => i.complete && i.naturalWidth > 0)")
    shoot(page, tmp_path, "cards")
    page.set_viewport_size({"width": WIDTHS["phone"], "height": 800})
    page.goto(base + "/p/boss_fight/edit?preset=boss-ashen-behemoth")
    # nothing wider than the phone's screen
    assert page.evaluate("() => document.documentElement.scrollWidth") <= WIDTHS["phone"]
    # keyboard: Tab reaches the editor's controls, with a visible focus ring
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.tagName") in ("A", "INPUT", "BUTTON", "SELECT")


CONTRAST = """() => {
  // WCAG contrast of every visible piece of text against the background it sits on
  const lum = (c) => { const [r, g, b] = c.match(/[\\d.]+/g).slice(0, 3).map(Number).map((v) => {
    v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const bg = (el) => { for (; el; el = el.parentElement) { const c = getComputedStyle(el).backgroundColor;
    if (c && !c.startsWith("rgba(0, 0, 0, 0)") && c !== "transparent") return c; } return "rgb(255, 255, 255)"; };
  const worst = [];
  for (const el of document.querySelectorAll("body *")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.offsetParent) continue;
    const a = lum(getComputedStyle(el).color), b = lum(bg(el));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 4.5) worst.push(el.tagName + "." + el.className + ": " + ratio.toFixed(2));
  }
  return worst;
}"""


def test_keyboard_and_contrast(server, page):
    base, _ = server
    page.goto(base + "/p/boss_fight/edit?side=boss")
    assert page.evaluate(CONTRAST) == []
    # Enter on a card's "1 ×" takes one copy; then + and − on the focused card add and take one
    button = page.get_by_role("button", name="1 × Walk", exact=True)
    button.focus()
    changes(page, lambda: page.keyboard.press("Enter"))
    assert page.evaluate("() => document.activeElement.getAttribute('aria-label')") == "1 × Walk"
    expect(button).to_have_attribute("aria-pressed", "true")
    changes(page, lambda: page.keyboard.press("+"))
    changes(page, lambda: page.keyboard.press("+"))
    expect(page.locator('li.item[data-path="characters[0].deck.walk"] .count')).to_have_text("3")
    changes(page, lambda: page.keyboard.press("-"))
    expect(page.locator('li.item[data-path="characters[0].deck.walk"] .count')).to_have_text("2")
    expect(page.get_by_role("button", name="2 × Walk", exact=True)).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("/")  # the search box
    assert page.evaluate("() => document.activeElement.id") == "picker-filter"
    page.goto(base + "/p/boss_fight/edit?preset=boss-ashen-behemoth")
    changes(page, lambda: page.get_by_label("Points limit as a number").fill("10") or page.keyboard.press("Tab"))
    assert page.evaluate(CONTRAST) == []  # violations and the red bar are readable too
    page.goto(base + "/p/boss_fight/cards")
    assert page.evaluate(CONTRAST) == []


@pytest.mark.parametrize("pack_id, stem", [("battle_bosses", None), ("tactics", None),
                                           ("raid_boss", "party-first-raid"), ("raid_boss", "boss-karrun"),
                                           ("final_boss", "quick-game")])
def test_other_packs_build_a_legal_build_by_clicking(server, page, tmp_path, pack_id, stem):
    """A preset rebuilt from an empty build by clicking, as a player would: nothing in the
    server names these games, the pack's `sides:` and `rules:` drive the page."""
    from generator.pack.load import load_pack
    from generator.web.common import preset_docs
    base, _ = server
    pack = load_pack(REPO / "card_data" / pack_id)
    docs = preset_docs(pack)
    doc, _ = docs[stem] if stem else next(iter(docs.values()))
    side = pack.spec.sides[doc["side"]]
    card = {c.id: c.name for c in pack.cards.values()}
    page.goto(f"{base}/p/{pack_id}/new")
    page.get_by_role("link", name=f"New {side.name}").click()
    page.wait_for_url("**/edit**")
    for _i, char in enumerate(doc["characters"]):
        base_cards = char[side.base.key]
        if side.base.many:
            for item in base_cards:
                add(page, card[item if isinstance(item, str) else item[side.base.item_key or "card"]])
        else:
            add(page, card[base_cards])  # a base card starts a new character while the side has room
        for place in ("equipment", "abilities"):
            for cid in char.get(place, []):
                add(page, card[cid])
        for cid, n in char.get("deck", {}).items():
            for _ in range(n):
                add(page, card[cid])
    if "points_limit" in doc:
        limit = page.get_by_label("Points limit", exact=True)
        changes(page, lambda: limit.select_option(str(doc["points_limit"])))
    expect(page.locator("#verdict")).to_have_text("LEGAL")
    if stem:  # the packs added by issue 17's last point: look at them at both widths
        shoot(page, tmp_path, f"{pack_id}-{stem}")


@pytest.mark.parametrize("pack_id, stem, target, card_id, rule", [
    ("raid_boss", "party-first-raid", "swap", "brannoc-stonehide", "party.distinct"),  # the fourth hero out, the first twice
    ("final_boss", "quick-game", "2", "cheat-code", "decks.copies"),  # the Drops deck; the kit prints one
])
def test_a_rule_of_these_packs_shows_next_to_its_card(server, page, tmp_path, pack_id, stem, target, card_id,
                                                      rule):
    """Open a preset: the picker offers no copy over the pack's own limit (the button is off and
    says so); a build that holds one anyway (a build file, a share code) shows the pack's own
    rule at that card."""
    base, _ = server
    name = names(pack_id)[card_id]
    page.goto(f"{base}/p/{pack_id}/edit?preset={stem}")
    expect(page.locator("#verdict")).to_have_text("LEGAL")
    doc = json.loads(doc_text(page))
    if target == "swap":  # a full side takes no more: its hero buttons say so until one leaves
        expect(page.get_by_role("button", name=f"Add {name}", exact=True)).to_be_disabled()
        changes(page, lambda: page.locator("li.char").last.locator("header button[aria-label^=Remove]").click())
        # the rule's own limit (one of each hero) keeps a hero in the party off too, saying why
        expect(page.get_by_role("button", name=f"Add {name}", exact=True)).to_be_disabled()
        expect(page.get_by_role("button", name=f"Add {name}", exact=True)).to_have_attribute("title", "at most 1")
        doc["characters"][-1] = dict(doc["characters"][0])
    else:
        page.locator("#target-char").select_option(target)
        expect(page.get_by_role("button", name=f"1 × {name}", exact=True)).to_have_attribute("aria-pressed", "true")
        expect(page.get_by_role("button", name=f"2 × {name}", exact=True)).to_have_count(0)  # the most is 1
        doc["characters"][int(target)]["deck"][card_id] += 1
    page.goto(f"{base}/p/{pack_id}/edit?code=" + share_code_of(base, pack_id, doc))
    expect(page.locator("#verdict")).not_to_have_text("LEGAL")
    expect(page.locator(f'[data-rule="{rule}"]').first).to_be_visible()
    shoot(page, tmp_path, f"{pack_id}-{rule}")


@pytest.mark.parametrize("pack_id", ["raid_boss", "final_boss"])
def test_packs_with_builds_list_their_presets_and_cards(server, page, pack_id):
    base, _ = server
    page.goto(f"{base}/p/{pack_id}")
    expect(page.locator("main")).not_to_contain_text("no sides to build")
    page.get_by_role("link", name="Browse the cards").click()
    expect(page.locator(".cardgrid img").first).to_be_visible()


def test_character_names_are_not_cut_off_on_a_phone(server, page):
    """At 390 px a character's name (an input, so it cannot wrap) has a row of its own: beside
    its move and remove buttons "Brannoc Stonehide" was cut to "Brannoc Stonehid"."""
    base, _ = server
    page.set_viewport_size({"width": WIDTHS["phone"], "height": 844})
    page.goto(f"{base}/p/raid_boss/edit?preset=party-first-raid")
    cut = page.evaluate("""() => [...document.querySelectorAll('.char .cname')].filter((i) => {
        const style = getComputedStyle(i), ctx = document.createElement('canvas').getContext('2d');
        ctx.font = style.font;
        const room = i.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return ctx.measureText(i.value || i.placeholder).width > room;
    }).map((i) => i.value || i.placeholder)""")
    names = page.locator(".char .cname").count()
    assert names == 4 and cut == [], cut


def test_the_editor_in_german_writes_its_own_words_in_german(server, page, tmp_path):
    """Under ?lang=de the words the editor's script writes itself are German too (web/words.py,
    JS_WORDS): a group's count while filtering, the note after Duplicate."""
    base, _store = server
    page.goto(f"{base}/p/boss_fight/edit?preset=party-oathsworn&lang=de")
    expect(page.locator("#verdict")).to_have_text("GÜLTIG")
    page.fill("#picker-filter", "zzzz-nichts")
    expect(page.locator("details[data-place] .count").first).to_have_text(re.compile(r"^\(0 von \d+\)$"))
    page.fill("#picker-filter", "")
    shoot(page, tmp_path, "editor-german")  # docs/images/web-editor-de.png (tools/web_images.py)
    page.click("button[data-duplicate]")
    expect(page.locator("#flash")).to_have_text("Das ist eine Kopie: Speichere sie, um sie zu behalten.")
    expect(page.locator(".bname input")).to_have_value("Die Eidgebundenen (Kopie) (Kopie)")


# the text's lines where a word's first and third characters are drawn, for each width of the
# element holding it: a word kept whole is on one line at every width
_SPLIT_AT = """([selector, word]) => {
  const box = document.querySelector(selector);
  const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  let t; while ((t = walker.nextNode()) && t.data.indexOf(word) < 0) {}
  const i = t.data.indexOf(word), r = document.createRange(), split = [];
  const top = k => { r.setStart(t, k); r.setEnd(t, k + 1); return r.getClientRects()[0].top; };
  for (let w = 60; w <= 390; w += 2) {
    box.style.width = w + 'px';
    if (top(i) !== top(i + 2)) split.push(w);
  }
  box.style.width = '';
  return split;
}"""


def test_a_german_count_label_does_not_break_at_its_hyphen(server, page, tmp_path):
    """"0-mal kopiert" under a published build: German writes the count and its word with a
    hyphen, and a line broken there leaves "0-" alone at a line's end. The German catalogue
    writes it with a non-breaking hyphen (U+2011): at no width from 60 to 390 px does the
    line break inside "0‑mal", and the hyphen is drawn as wide as an ASCII one (a glyph, not a box)."""
    base, store = server
    store.publish(1, "ada", "boss_fight", "Die Eidgebundenen", "hero", 98, 100, "pack: boss_fight\n", "PNP1-x",
                  {}, set())
    page.set_viewport_size({"width": WIDTHS["phone"], "height": 900})
    page.goto(f"{base}/p/boss_fight/published?lang=de")
    label = page.locator("ul.published li .muted").first
    expect(label).to_contain_text("0\u2011mal kopiert")
    shoot(page, tmp_path, "published-german")
    assert page.evaluate(_SPLIT_AT, ["ul.published li", "0\u2011mal"]) == []
    widths = page.evaluate("""() => ['\u2011', '-'].map(h => {
        const s = document.createElement('span'); s.textContent = h; document.body.append(s);
        const w = s.getBoundingClientRect().width; s.remove(); return w; })""")
    assert abs(widths[0] - widths[1]) < 1.5, widths
    # the guard sees the break it is there for: the same label with an ASCII hyphen breaks at some width
    page.evaluate("() => { const t = document.querySelector('ul.published li .muted');"
                  " t.innerHTML = t.innerHTML.replace('0\u2011mal', '0-mal'); }")
    assert page.evaluate(_SPLIT_AT, ["ul.published li", "0-mal"]) != []
