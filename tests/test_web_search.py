"""The card search language on the builder's pages (#42 item 3): the card browser, the JSON
API the picker asks, the help page made from each pack's own fields, and the picker in
Chromium narrowing to what a search finds, or saying why it cannot."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest

from test_web_browser import browser, expect, page, server, shoot  # noqa: F401
from web_support import make_client, text


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("search")
    return make_client(tmp / "builds", tmp / "cache")[0]


def test_the_card_browser_searches_and_says_where_a_search_stops(client):
    found = client.get("/p/boss_fight/cards?q=" + quote("kw:poison agility>=4")).text
    assert re.findall(r'<span class="cname">([^<]+)</span>', found) == ["Envenom"]
    bad = client.get("/p/boss_fight/cards?q=" + quote("kw:poison agilty>=4"))
    assert bad.status_code == 422
    said = text(bad.text)
    assert "no field agilty to search in this pack" in said and "at character 11" in said
    assert "did you mean agility?" in said and 'value="kw:poison agilty&gt;=4"' in bad.text  # the box keeps it
    assert 'href="/p/boss_fight/help/search"' in bad.text


def test_the_api_answers_the_ids_a_search_finds(client):
    r = client.get("/api/boss_fight/search", params={"q": "kw:poison", "side": "hero"})
    assert r.status_code == 200 and set(r.json()["ids"]) == {"envenom", "bandage-roll"}
    boss = client.get("/api/boss_fight/search", params={"q": "kw:poison", "side": "boss"}).json()["ids"]
    assert boss and "envenom" not in boss
    bad = client.get("/api/boss_fight/search", params={"q": "("})
    assert bad.status_code == 422 and bad.json()["errors"][0]["code"] == "query.syntax"
    assert client.get("/api/boss_fight/search", params={"q": "x" * 301}).status_code == 422
    cards = client.get("/api/boss_fight/cards", params={"q": "type:attack points<=3"}).json()
    assert cards and all(c["points"] <= 3 for c in cards)


@pytest.mark.parametrize("pack_id", ["battle_bosses", "boss_fight", "final_boss", "raid_boss", "tactics"])
def test_the_help_page_lists_the_pack_s_fields_and_examples_that_find_cards(client, pack_id):
    help_page = client.get(f"/p/{pack_id}/help/search").text
    fields = re.findall(r"<tr><td><code>([a-z0-9_]+)</code></td>", help_page)
    assert {"name", "type", "points", "kw", "side"} <= set(fields)
    examples = re.findall(r'<a href="/p/[a-z_]+/cards\?q=([^"]+)"><code>', help_page)
    assert len(examples) >= 4, pack_id
    for q in examples:
        found = client.get(f"/p/{pack_id}/cards?q={q}")
        assert found.status_code == 200 and 'class="cname"' in found.text, q


@pytest.mark.browser
def test_the_picker_finds_with_the_search_language(server, page, tmp_path):  # noqa: F811
    base, _ = server
    page.goto(f"{base}/p/boss_fight/edit?preset=party-knives-in-the-dark")
    find = page.get_by_label("Find")
    find.fill("kw:poison agility>=4")
    envenom = page.locator('.pick li[data-card="envenom"]')
    walk = page.locator('.pick li[data-card="walk"]')
    expect(walk).to_be_hidden()
    expect(envenom).to_be_visible()
    expect(page.locator("#picker-search-why")).to_be_hidden()
    find.fill("kw:poison agilty>=4")
    expect(page.locator("#picker-search-why")).to_contain_text("no field agilty to search in this pack")
    expect(page.locator("#picker-search-why")).to_contain_text("did you mean agility?")
    expect(envenom).to_be_hidden()
    shoot(page, tmp_path, "picker-search-problem")
    find.fill("")
    expect(walk).to_be_visible()
