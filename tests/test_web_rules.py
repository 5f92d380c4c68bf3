"""The rules in the browser (#26 item 7): every pack's chapters, reference pages and quick
reference as HTML from the same Markdown and glossary as rulebook.pdf, a contents page, a
search that works as a plain GET form, and card text whose keywords link to the glossary."""

from __future__ import annotations

import html as htmllib
import re
from pathlib import Path

import pytest

from web_support import PACKS, make_client, text

PACK_IDS = sorted(p.name for p in PACKS.iterdir() if (p / "game.yaml").is_file())


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    base = tmp_path_factory.mktemp("rules")
    c, site = make_client(base / "builds", base / "cache")
    return c, site


def links(page: str, prefix: str) -> list[str]:
    return sorted(set(re.findall(r'href="(' + re.escape(prefix) + r'[^"#?]*)', page)))


@pytest.mark.parametrize("pack_id", PACK_IDS)
def test_every_chapter_is_a_page_with_one_h1_linked_from_the_contents(client, pack_id):
    c, site = client
    pack = site.packs[pack_id]
    index = c.get(f"/p/{pack_id}/rules")
    assert index.status_code == 200
    pages = [u for u in links(index.text, f"/p/{pack_id}/rules/") if not u.endswith("/search")]
    # every chapter file, the glossary and the quick reference
    assert len(pages) >= len(pack.rule_files) + 2
    assert f"/p/{pack_id}/rules/glossary" in pages and f"/p/{pack_id}/rules/quick-reference" in pages
    for url in pages:
        r = c.get(url)
        assert r.status_code == 200, url
        assert r.text.count("<h1") == 1, url
        assert "{{" not in r.text and "{%" not in r.text, f"{url}: Jinja left in the page"
    # a chapter's words are those of its Markdown: the first paragraph's first words appear
    first = Path(pack.rule_files[0]).read_text(encoding="utf-8")
    para = next(line for line in first.splitlines() if line.strip() and not line.startswith(("#", "{", "|", "-", ">")))
    words = " ".join(re.sub(r"[*_`]", "", para).split()[:4])
    if "{{" not in words:
        shown = " ".join(text(c.get(f"/p/{pack_id}/rules/{_slug(pack.rule_files[0])}").text).split())
        assert words in shown


def _slug(path) -> str:
    stem = Path(path).stem
    return re.sub(r"[^a-z0-9]+", "-", stem.split("-", 1)[-1].casefold()).strip("-")


@pytest.mark.parametrize("pack_id", PACK_IDS)
def test_glossary_has_every_keyword_with_an_anchor(client, pack_id):
    c, site = client
    pack = site.packs[pack_id]
    page = c.get(f"/p/{pack_id}/rules/glossary").text
    for k in pack.spec.keywords.values():
        if k.text:
            slug = re.sub(r"[^a-z0-9]+", "-", k.name.casefold()).strip("-")
            assert f'id="term-{slug}"' in page, k.name


def test_search_is_a_get_form_and_finds_a_status_in_its_section(client):
    c, site = client
    pack = site.packs["boss_fight"]
    status = next(k for k in pack.spec.keywords.values() if k.kind == "status")
    index = c.get("/p/boss_fight/rules").text
    assert re.search(r'<form[^>]*method="get"[^>]*action="/p/boss_fight/rules/search"', index)
    r = c.get("/p/boss_fight/rules/search", params={"q": status.name.lower()})
    assert r.status_code == 200
    hits = re.findall(r'<li><a href="(/p/boss_fight/rules/[^"]+)"', r.text)
    assert hits, "a status effect is found"
    assert any("glossary#term-" in h for h in hits)
    for h in hits[:5]:
        page, _, anchor = h.partition("#")
        target = c.get(htmllib.unescape(page)).text
        assert not anchor or f'id="{anchor}"' in target
    # nothing found says so; an empty query lists nothing
    none = c.get("/p/boss_fight/rules/search", params={"q": "zzqqxx"}).text
    assert "Nothing found" in none
    assert "<ol class=\"hits\">" not in c.get("/p/boss_fight/rules/search").text
    # too long a query is refused with a message, not a crash
    assert c.get("/p/boss_fight/rules/search", params={"q": "x" * 201}).status_code == 422


def test_hostile_query_and_unknown_page_are_escaped_and_refused(client):
    c, _ = client
    evil = '<script>alert(1)</script>"><img src=x onerror=alert(1)>'
    r = c.get("/p/boss_fight/rules/search", params={"q": evil})
    assert r.status_code == 200
    assert "<script>alert" not in r.text and "<img src=x" not in r.text
    assert "&lt;script&gt;" in r.text
    assert c.get("/p/boss_fight/rules/nope").status_code == 404
    assert c.get("/p/boss_fight/rules/..%2F..%2Fgame.yaml").status_code == 404


def test_markdown_html_is_escaped_not_rendered():
    from generator.web.rulebook import markdown_page
    p = markdown_page("# T\n\nA <b>bold</b> claim <script>x()</script> [l](javascript:alert(1)) :poison:\n\n"
                      "## Sub\n\nMore", "t", None, "Chapter 1")
    assert p.title == "T"
    assert "<b>" not in p.html and "<script>" not in p.html and "href=\"javascript" not in p.html
    assert "&lt;b&gt;" in p.html
    assert '<h2 id="sub">Sub</h2>' in p.html
    assert '<span class="icon">poison</span>' in p.html
    assert [s.title for s in p.sections] == ["", "Sub"]


def test_icons_in_rules_pages_are_the_pictures_the_cards_print(client):
    """`:hit:` (Battle Bosses' own SVG) and `:energy:` (built in) show as pictures, served as
    PNGs drawn by the cards' icon sheet; a name no icon has is no picture and no route."""
    from PIL import Image
    import io
    c, _site = client
    page = c.get("/p/battle_bosses/rules/dashboards-and-minions").text
    assert ":hit:" not in page
    srcs = dict((alt, src) for src, alt in re.findall(r'<img class="icon" src="([^"]+)" alt="([^"]+)"', page))
    assert srcs.get("hit") == "/p/battle_bosses/icons/hit.png" and "energy" in srcs
    for src in srcs.values():
        r = c.get(src)
        assert r.status_code == 200 and r.headers["content-type"] == "image/png"
        image = Image.open(io.BytesIO(r.content)).convert("RGBA")
        assert image.size == (64, 64)
        raw = image.tobytes()
        red = sum(1 for i in range(0, len(raw), 4) if raw[i + 3] > 200 and raw[i] > 150 and raw[i + 2] < 90)
        if src.endswith("hit.png"):
            assert red > 200  # the red burst, not a blank square
    glossary = c.get("/p/battle_bosses/rules/glossary").text
    assert 'src="/p/battle_bosses/icons/hit.png"' in glossary
    assert c.get("/p/battle_bosses/icons/nope.png").status_code == 404
    assert c.get("/p/boss_fight/icons/hit.png").status_code == 404  # another pack's own icon


def test_card_text_links_its_keywords_to_the_glossary(client):
    c, site = client
    pack = site.packs["boss_fight"]
    names = {k.name for k in pack.spec.keywords.values() if k.text}
    card = next(cd for cd in pack.cards.values()
                if cd.text and any(re.search(r"(?<![\w-])" + re.escape(n) + r"(?![\w-])", cd.text) for n in names))
    page = c.get(f"/p/boss_fight/cards/{card.id}").text
    kw = re.findall(r'<a class="kw" href="(/p/boss_fight/rules/glossary#term-[a-z0-9-]+)">', page)
    assert kw, card.id
    glossary = c.get("/p/boss_fight/rules/glossary").text
    for href in kw:
        assert f'id="{href.split("#")[1]}"' in glossary
    # a card without a keyword gets no link
    plain = next((cd for cd in pack.cards.values() if cd.text and not any(n in cd.text for n in names)), None)
    if plain is not None:
        assert 'class="kw"' not in c.get(f"/p/boss_fight/cards/{plain.id}").text


def test_the_picker_links_each_cards_keywords_to_the_glossary(client):
    c, site = client
    pack = site.packs["boss_fight"]
    page = c.get("/p/boss_fight/edit", params={"preset": "boss-ashen-behemoth"}).text
    glossary = c.get("/p/boss_fight/rules/glossary").text
    items = re.findall(r'<li tabindex="-1" data-card="([^"]+)"(.*?)</li>', page, re.S)
    assert items
    linked = 0
    for card_id, body in items:
        hrefs = re.findall(r'<a class="kw" href="/p/boss_fight/rules/glossary#([a-z0-9-]+)"', body)
        text = pack.cards[card_id].text or ""
        for anchor in hrefs:
            assert f'id="{anchor}"' in glossary
            term = re.search(r'<dt id="' + anchor + r'">(?:<span[^>]*>[^<]*</span> )?([^<]+)</dt>', glossary).group(1)
            assert htmllib.unescape(term) in text, (card_id, term)
        linked += bool(hrefs)
    assert linked >= 5
