"""Builds a choice decides, made in one click (#42 item 4): a Raid Boss boss leaves one legal
21-card boss deck (its own cards, each as often as the kit prints it), so choosing the boss
offers to fill it, and the picker shows that boss's own cards by default. Found from the
pack's own rules (rules/decided.py), so no other pack's deck is filled for it."""

from __future__ import annotations

import pytest

from generator.rules.decided import decided_deck
from generator.web.common import preset_docs
from test_web_browser import browser, changes, expect, page, server, shoot  # noqa: F401
from web_support import Editor, make_client


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("decided")
    return make_client(tmp / "builds", tmp / "cache")


def test_every_raid_boss_deck_is_decided_and_matches_its_preset(env):
    _, site = env
    pack = site.packs["raid_boss"]
    presets = {doc["characters"][0]["boss"]: doc for doc, _ in preset_docs(pack).values() if doc["side"] == "boss"}
    bosses = [c.id for c in pack.cards.values() if c.type == "boss"]
    assert len(bosses) == 6
    for boss in bosses:
        decided = decided_deck(pack, "boss", boss)
        assert decided is not None and sum(decided.deck.values()) == 21, boss
        assert all(pack.cards[c].fields["boss"] == boss for c in decided.deck)
        if boss in presets:
            assert decided.deck == presets[boss]["characters"][0]["deck"], boss  # the kit's own deck
    for other in ("boss_fight", "battle_bosses", "final_boss", "tactics"):
        p = site.packs[other]
        assert not any(decided_deck(p, s, c) for s in p.spec.sides for c in p.cards), other


def test_choosing_a_boss_offers_the_deck_and_one_click_fills_it(env):
    client, site = env
    doc = client.get("/p/raid_boss/edit?side=boss")
    ed = Editor(client, "raid_boss", {"pack": "raid_boss", "name": "Gear", "side": "boss", "characters": []})
    ed.op(op="add_char", card="gearhold")
    assert "Fill the deck: Gearhold&#39;s 21 cards (Easy 6, Medium 6, Hard 6, Last Stand 3)" in ed.page
    assert not ed.legal
    ed.op(op="fill_deck", char=0)
    assert ed.legal and sum(ed.doc["characters"][0]["deck"].values()) == 21
    assert "Fill the deck" not in ed.page  # it is that deck now
    r = client.post("/p/raid_boss/edit/apply", json={"build": ed.doc, "op": {"op": "fill_deck", "char": 5}},
                    headers={"x-pnp-fragment": "1"})
    assert r.status_code == 422
    party = {"pack": "raid_boss", "name": "P", "side": "party", "characters": [{"hero": "brannoc-stonehide"}]}
    r = client.post("/p/raid_boss/edit/apply", json={"build": party, "op": {"op": "fill_deck", "char": 0}},
                    headers={"x-pnp-fragment": "1"})
    assert r.status_code == 422 and doc.status_code == 200


@pytest.mark.browser
def test_a_raid_boss_in_three_clicks(server, page, tmp_path):  # noqa: F811
    """It took 21 clicks and other bosses' cards could be added."""
    base, _ = server
    clicks = 0
    page.goto(f"{base}/p/raid_boss/new")
    page.get_by_role("link", name="New Boss").click()
    clicks += 1
    gearhold = page.locator('.pick li[data-card="gearhold"] button[data-op]')
    changes(page, gearhold.click)
    clicks += 1
    expect(page.locator('.pick li[data-card="karrun-tail-sweep"]')).to_be_hidden()  # another boss's card
    expect(page.locator('.pick li[data-card="gearhold-piston-punch"]')).to_be_visible()
    fill = page.get_by_role("button", name="Fill the deck: Gearhold's 21 cards (Easy 6, Medium 6, Hard 6, Last Stand 3)")
    changes(page, fill.click)
    clicks += 1
    expect(page.locator("#verdict")).to_have_text("LEGAL")
    assert clicks == 3
    shoot(page, tmp_path, "raid-boss-filled")
