"""What a player meets on the builder's pages (#42): no Python value, no file path, no "(s)",
the game's own words; the character cards go to follows the one being worked on; the site
has an icon. Browser-free: the pages as the server sends them."""

from __future__ import annotations

import copy
import io
import re

import pytest
from PIL import Image

from fastapi.testclient import TestClient

from generator.community.app import community_app
from generator.core.words import counted
from generator.web.common import card_fields, preset_docs
from generator.web.site import Site
from web_support import PACKS, Editor, make_client, text

from generator.pack.load import load_pack

PYTHON_VALUE = re.compile(r"\{'|'\}|\bNone\b|\bTrue\b|\bFalse\b|\[\[|\]\]|\[\d")


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("words")
    client, site = make_client(tmp / "builds", tmp / "cache")
    return client, site


def test_every_card_field_of_every_pack_reads_as_words(env):
    """Envenom's page said `Requires {'stat': 'agility', 'field': None, 'value': None, 'min': 4}`."""
    _, site = env
    seen = 0
    for pack in site.packs.values():
        for card in pack.cards.values():
            for label, words in card_fields(pack, card):
                seen += 1
                assert "_" not in label, (card.id, label)
                assert not PYTHON_VALUE.search(words), (pack.spec.id, card.id, label, words)
    assert seen > 1000


def test_a_card_page_says_a_requirement_as_its_picture_does(env):
    client, _ = env
    page = text(client.get("/p/boss_fight/cards/envenom").text)
    assert re.search(r"Requires\s+Agility 4\+", page), page
    assert "stat" not in page.split("Requires", 1)[1][:60]
    raid = text(client.get("/p/raid_boss/cards/gearhold-piston-punch").text)
    assert re.search(r"Boss\s+Gearhold", raid)  # a card it refers to, by its name


def test_counted_words():
    assert counted("add 21 card(s)") == "add 21 cards"
    assert counted("Vexa's deck has 1 Upgrade card(s); it needs 4") == "Vexa's deck has 1 Upgrade card; it needs 4"
    assert counted("a piece with 2 free slot(s) (Titan Arm)") == "a piece with 2 free slots (Titan Arm)"
    assert counted("the kit prints 1 Torva Greymantle card(s)") == "the kit prints 1 Torva Greymantle card"
    assert counted("one http(s) address") == "one http(s) address"  # no number: not a count


def test_no_rule_message_in_any_preset_or_broken_build_says_s(env):
    """Every violation the editor shows for the presets of every pack, and for each of them
    emptied (decks short, parties small: the counting messages), reads without "(s)"."""
    client, site = env
    for pack in site.packs.values():
        for stem, (doc, _) in preset_docs(pack).items():
            emptied = copy.deepcopy(doc)
            for char in emptied["characters"]:
                if char.get("deck"):
                    char["deck"] = dict(list(char["deck"].items())[:1])
            for build in (doc, emptied):
                page = Editor(client, pack.spec.id, copy.deepcopy(build)).op(op="view").page
                assert "(s)" not in text(page), (pack.spec.id, stem)


def test_a_misspelled_card_in_a_pasted_deck_list_is_named_with_its_fix(env):
    """The side defaulted to Boss, so `Hero: Pip Talow` answered "the Boss side has no section
    hero"; the unknown card said `expected: None`."""
    client, _ = env
    r = client.post("/p/boss_fight/import", data={"decklist": "Hero: Pip Talow\nDeck:\n3x Walk\n", "side": ""})
    assert r.status_code == 422
    page = text(r.text)
    assert "no card named Pip Talow" in page and "did you mean Pip Tallow?" in page, page
    assert "None" not in page and "pnp list" not in page and "no section" not in page
    assert "the Cards page lists them all" in page
    assert '<option value="">as the list shows</option>' in client.get("/p/boss_fight/new").text


def test_saving_names_the_build_not_a_file(env, tmp_path):
    client, site = env
    doc = copy.deepcopy(preset_docs(site.packs["boss_fight"])["party-ember-circle"][0])
    said = client.post("/p/boss_fight/builds/save", json={"build": doc, "stem": None}).json()["message"]
    assert said == f"Saved “{doc['name']}”.", said
    community = community_app(Site.load([PACKS / "boss_fight"], tmp_path / "b", tmp_path / "c"),
                              f"sqlite:///{tmp_path / 'site.sqlite3'}", accounts=False)
    client = TestClient(community, base_url="http://localhost")
    client.post("/p/boss_fight/builds/save", json={"build": doc, "stem": None})
    for url in ("/p/boss_fight/builds", "/p/boss_fight/new", "/p/boss_fight/edit?preset=party-ember-circle",
                "/p/boss_fight/edit?file=the-ember-circle"):
        page = client.get(url).text
        assert doc["name"] in page or "edit" in url
        assert ".yaml" not in text(page) and "pnp builds" not in page and "builds folder" not in page, url
    community.state.community_store.engine.dispose()


def test_the_character_cards_go_to_is_the_one_worked_on(env):
    """After opening a party from a share code the cards went to character 1, whichever one
    the player was changing: equipment went to the wrong hero."""
    client, site = env
    doc = copy.deepcopy(preset_docs(site.packs["boss_fight"])["party-ember-circle"][0])
    ed = Editor(client, "boss_fight", doc).op(op="view")
    assert ed.target["char"] == 0
    third = doc["characters"][2]
    card = next(iter(third["deck"]))
    ed.op(op="deck", char=2, card=card, delta=-1)
    assert ed.target["char"] == 2
    ed.op(op="add", card="quick-reflexes")
    assert "quick-reflexes" in ed.doc["characters"][2]["abilities"]
    ed.op(op="rename_char", char=1, value="Second")
    assert ed.target["char"] == 1
    ed.op(op="move_char", char=1, delta=1)
    assert ed.target["char"] == 2 and ed.doc["characters"][2]["name"] == "Second"
    ed.op(op="remove_char", char=0)
    assert ed.target["char"] == 1 and ed.doc["characters"][1]["name"] == "Second"
    assert re.search(r'id="vbar-char"', ed.page), "the phone's bar offers the choice too"


def test_the_maps_check_is_offered_only_to_a_build_it_can_place(env):
    client, _ = env
    party = client.get("/p/boss_fight/edit?preset=party-ember-circle").text
    boss = client.get("/p/boss_fight/edit?preset=boss-ashen-behemoth").text
    assert "Check on the maps" not in party and "Check on the maps" in boss


def test_the_picker_does_not_repeat_its_tag_as_a_keyword(env):
    client, _ = env
    page = client.get("/p/boss_fight/edit?preset=party-ember-circle").text
    walk = re.search(r'<li tabindex="-1" data-card="walk".*?</li>', page, re.S).group(0)
    assert "Move" in walk and not re.search(r'class="kw"[^>]*>Move<', walk), walk


def test_the_site_has_an_icon(env, tmp_path):
    """#40 item 7: a game's pages show its emblem as their icon, white on its first set's colour
    as its card backs show it; `/favicon.ico` is the one game's emblem where one is served, the
    builder's own mark where several are."""
    client, _ = env
    r = client.get("/favicon.ico")  # five games: the builder's mark
    assert r.status_code == 200 and r.headers["content-type"] == "image/x-icon"
    icon = Image.open(io.BytesIO(r.content))
    assert icon.format == "ICO" and icon.size[0] >= 16
    assert '<link rel="icon" href="/favicon.ico">' in client.get("/").text
    page = client.get("/p/boss_fight").text
    assert '<link rel="icon" type="image/png" href="/p/boss_fight/emblem.png">' in page
    r = client.get("/p/boss_fight/emblem.png")
    assert r.status_code == 200 and r.headers["content-type"] == "image/png"
    emblem = Image.open(io.BytesIO(r.content)).convert("RGBA")
    pack = load_pack(PACKS / "boss_fight")
    ground = next(iter(pack.spec.sets.values())).color.lstrip("#")
    colours = {c for _, c in emblem.getcolors(1 << 16)}
    assert (*bytes.fromhex(ground), 255) in colours and (255, 255, 255, 255) in colours  # white on the set's colour
    assert emblem.getpixel((0, 0))[3] == 0  # rounded corners: the tab's own colour shows there
    assert client.get("/p/nope/emblem.png").status_code == 404

    one, _ = make_client_for([PACKS / "tactics"], tmp_path)
    r = one.get("/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"] == "image/x-icon"
    icon = Image.open(io.BytesIO(r.content))
    assert icon.format == "ICO" and {(16, 16), (32, 32), (48, 48)} <= set(icon.info["sizes"])
    tactics = load_pack(PACKS / "tactics")
    ground = next(iter(tactics.spec.sets.values())).color.lstrip("#")
    assert (*bytes.fromhex(ground), 255) in {c for _, c in icon.convert("RGBA").getcolors(1 << 16)}

def make_client_for(folders, tmp_path):
    """The builder serving these pack folders only."""
    from generator.web.app import create_app
    site = Site.load(folders, tmp_path / "builds", tmp_path / "cache")
    return TestClient(create_app(site), base_url="http://localhost"), site
