"""Sample hands (#42 item 2): a character's opening hand dealt as the game deals it (the side's
declared draw: its size and the card types it is dealt from), the next card, a new shuffle; the
same seed deals the same hand; the odds beside it; and the page in Chromium."""

from __future__ import annotations

import re
from collections import Counter
from urllib.parse import parse_qs, urlparse

import pytest

from generator.rules.draw_odds import opening_size, pile_counts, sample_draw
from generator.share.codes import share_code
from generator.web.common import preset_docs
from generator.web.state import side_of, to_build
from test_web_browser import browser, expect, page, server, shoot  # noqa: F401
from web_support import make_client


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hand")
    return make_client(tmp / "builds", tmp / "cache")


def _code(site, pack_id, stem):
    pack = site.packs[pack_id]
    doc = preset_docs(pack)[stem][0]
    return pack, doc, share_code(pack, to_build(doc, pack))


def _dealt(html: str) -> list[str]:
    return re.findall(r'<a href="/p/[a-z_]+/cards/([a-z0-9-]+)"><img src=', html)


def test_the_hand_is_dealt_from_the_deck_as_the_game_deals(env):
    client, site = env
    pack, doc, code = _code(site, "boss_fight", "party-knives-in-the-dark")
    r = client.get("/p/boss_fight/hand", params={"code": code, "char": 1}, follow_redirects=False)
    assert r.status_code == 303
    url = r.headers["location"]
    seed = int(parse_qs(urlparse(url).query)["seed"][0])
    first = client.get(url).text
    hand = _dealt(first)
    side = side_of(pack, doc)
    deck = doc["characters"][1]["deck"]
    assert len(hand) == opening_size(side) == 4
    assert hand == sample_draw(pack, side, deck, seed, 4)
    assert not Counter(hand) - Counter(deck)  # only the deck's cards, never more copies than it holds
    assert _dealt(client.get(url).text) == hand  # the same seed, the same hand
    more = re.search(r'href="([^"]+)">Draw the next card', first).group(1).replace("&amp;", "&")
    assert _dealt(client.get(more).text)[:4] == hand and len(_dealt(client.get(more).text)) == 5
    assert "opening draw of 4 from 30 cards" in first  # the odds beside it
    again = re.search(r'href="([^"]+)">Shuffle and deal again', first).group(1).replace("&amp;", "&")
    assert client.get(again, follow_redirects=False).status_code == 303


def test_a_draw_of_some_types_deals_only_those(env):
    """Final Boss deals its opening hand of seven from the Drop cards alone."""
    client, site = env
    pack = site.packs["final_boss"]
    for doc, _ in preset_docs(pack).values():
        side = side_of(pack, doc)
        for i, char in enumerate(doc["characters"]):
            pile = pile_counts(pack, side, char.get("deck") or {})
            if not pile:
                continue
            assert {pack.cards[c].type for c in pile} == {"drop"}
            code = share_code(pack, to_build(doc, pack))
            html = client.get("/p/final_boss/hand", params={"code": code, "char": i, "seed": 7}).text
            dealt = _dealt(html)
            assert len(dealt) == min(7, sum(pile.values())) and set(dealt) <= set(pile)
            return
    pytest.fail("no Final Boss preset has Drop cards")


def test_hostile_requests_are_bounded(env):
    client, site = env
    _, _, code = _code(site, "boss_fight", "party-knives-in-the-dark")
    assert client.get("/p/boss_fight/hand", params={"code": code, "char": 9, "seed": 1}).status_code == 404
    assert client.get("/p/boss_fight/hand", params={"code": "PNP1-XYZ", "seed": 1}).status_code == 422
    big = client.get("/p/boss_fight/hand", params={"code": code, "seed": 1, "drawn": 100000})
    assert big.status_code == 200 and len(_dealt(big.text)) == 30  # never more than the deck
    assert client.get("/p/boss_fight/hand", params={"code": code, "seed": -1}).status_code == 422
    assert client.get("/p/boss_fight/hand", params={"code": "x" * 5000}).status_code == 422


@pytest.mark.browser
def test_a_player_deals_a_hand_from_the_editor(server, page, tmp_path):  # noqa: F811
    base, _ = server
    page.goto(f"{base}/p/boss_fight/edit?preset=party-knives-in-the-dark")
    with page.context.expect_page() as opened:
        page.get_by_role("link", name="Deal Cassia Thorne a sample hand").click()
    hand = opened.value
    hand.wait_for_load_state()
    expect(hand.locator("h1")).to_contain_text("Sample hand")
    expect(hand.locator(".hand li")).to_have_count(4)
    hand.get_by_role("link", name="Draw the next card").click()
    expect(hand.locator(".hand li")).to_have_count(5)
    expect(hand.locator(".hand li.drawn")).to_have_count(1)
    shoot(hand, tmp_path, "sample-hand")
