"""The web app through its HTTP interface (no browser): every page and API endpoint, the
editor's changes, the builds folder, imports, printing, maps, and every kind of bad input
getting a 4xx with a clear message, never a 500 or a traceback."""

from __future__ import annotations

import html
import json
import os
import threading
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from generator.pack.load import load_build  # noqa: E402
from generator.rules.engine import validate_build  # noqa: E402
from generator.core.report import SCHEMA_ID, reports_document  # noqa: E402
from generator.validate.target import validate_target  # noqa: E402
from web_support import PACKS, Editor, all_rules, doc_of, make_client, rules_at, text  # noqa: E402

BF = "boss_fight"


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    builds = tmp_path_factory.mktemp("builds")
    client, site = make_client(builds, tmp_path_factory.mktemp("cache"))
    return client, site, builds


@pytest.fixture
def client(env):
    return env[0]


def preset(site, pack_id, stem):
    from generator.web.common import preset_docs
    return json.loads(json.dumps(preset_docs(site.packs[pack_id])[stem][0]))


def assert_clean_error(r, status=None):
    assert 400 <= r.status_code < 500, (r.status_code, r.text[:500])
    if status:
        assert r.status_code == status
    assert "Traceback" not in r.text and 'File "' not in r.text


# ---- pages -------------------------------------------------------------------------------------


def test_start_page_lists_every_pack(client):
    r = client.get("/")
    assert r.status_code == 200
    for name in ("Boss Fight", "Raid Boss", "Final Boss", "Battle Bosses"):
        assert name in r.text


@pytest.mark.parametrize("pack_id", ["boss_fight", "raid_boss", "final_boss", "battle_bosses", "tactics"])
def test_each_pack_has_home_cards_and_card_pages(client, env, pack_id):
    pack = env[1].packs[pack_id]
    assert client.get(f"/p/{pack_id}").status_code == 200
    r = client.get(f"/p/{pack_id}/cards")
    assert r.status_code == 200
    first = next(iter(pack.cards.values()))
    assert f"/p/{pack_id}/cards/{first.id}.png" in r.text
    r = client.get(f"/p/{pack_id}/cards/{first.id}")
    assert r.status_code == 200 and first.name in text(r.text)


def test_card_browser_filters(client, env):
    pack = env[1].packs[BF]
    r = client.get("/p/boss_fight/cards", params={"q": "titan arm"})
    assert "Titan Arm" in r.text and "Basalt Jaw" not in r.text
    r = client.get("/p/boss_fight/cards", params={"type": "boss-piece", "min": "10"})
    shown = {c.id for c in pack.cards.values() if f'/cards/{c.id}"' in r.text}
    assert shown == {c.id for c in pack.cards.values() if c.type == "boss-piece" and c.points >= 10}
    r = client.get("/p/boss_fight/cards", params={"side": "hero", "set": "boss"})
    assert "No card matches" in r.text
    r = client.get("/p/boss_fight/cards", params={"min": "abc", "q": "x" * 301})
    assert_clean_error(r, 422)


def test_card_page_shows_text_stats_and_presets(client):
    r = client.get("/p/boss_fight/cards/titan-arm")
    body = text(r.text)
    assert "Titan Arm" in body and "In presets" in body and "The Ashen Behemoth" in body


def test_card_image_is_a_png_and_cached(client, env):
    r = client.get("/p/boss_fight/cards/titan-arm.png")
    assert r.status_code == 200 and r.content[:8] == b"\x89PNG\r\n\x1a\n"
    assert list((env[1].cache_dir / BF).glob("titan-arm.front.*.png"))
    assert client.get("/p/boss_fight/cards/titan-arm.png?face=back").content[:4] == b"\x89PNG"
    assert_clean_error(client.get("/p/boss_fight/cards/titan-arm.png?face=../x"), 422)
    assert_clean_error(client.get("/p/boss_fight/cards/no-such.png"), 404)


def test_unknown_pack_and_card_are_404_with_a_hint(client):
    assert_clean_error(client.get("/p/nope/cards"), 404)
    r = client.get("/p/boss_fight/cards/titan-arn")
    assert_clean_error(r, 404)
    assert "titan-arm" in r.text
    r = client.get("/api/boss_fight/cards/titan-arn")
    assert r.status_code == 404 and "did you mean `titan-arm`" in r.json()["detail"]


def test_packs_without_sides_say_so(tmp_path):
    """Every shipped pack has builds now; a fresh `pnp new` pack has none until it declares sides."""
    from generator.pack.scaffold import create_pack
    create_pack("Blank Slate", tmp_path / "packs")
    from fastapi.testclient import TestClient
    from generator.web.app import create_app
    from generator.web.site import Site
    client = TestClient(create_app(Site.load([tmp_path / "packs"], tmp_path / "builds", tmp_path / "cache")),
                        base_url="http://localhost")
    r = client.get("/p/blank_slate/edit?side=x")
    assert_clean_error(r, 422)
    assert "declares no sides" in r.text
    assert "declares no sides to build" in client.get("/p/blank_slate").text


# ---- the editor --------------------------------------------------------------------------------


def boss_from_scratch(client, pack) -> Editor:
    """The Ashen Behemoth preset rebuilt by editor changes, one card at a time."""
    r = client.get("/p/boss_fight/edit?side=boss")
    ed = Editor(client, BF, doc_of(r.text))
    for piece in ("basalt-jaw", "coal-ribcage", "pillar-leg", "anchor-foot", "titan-arm"):
        ed.op(op="add", card=piece, char=0)
    ed.op(op="add", card="bone-cleaver", char=0, piece=4)
    return ed


def fill_deck(ed: Editor, deck: dict):
    for card_id, n in deck.items():
        for _ in range(n):
            ed.op(op="deck", char=0, card=card_id, delta=1)


def test_boss_from_scratch_becomes_legal_then_copies_and_limit_show_in_place(client, env):
    site = env[1]
    ed = boss_from_scratch(client, site.packs[BF])
    assert ed.doc["characters"][0]["pieces"][4] == {"piece": "titan-arm", "equipment": ["bone-cleaver"]}
    assert not ed.legal and "deck.size" in all_rules(ed.page)
    deck = preset(site, BF, "boss-ashen-behemoth")["characters"][0]["deck"]
    fill_deck(ed, deck)
    assert ed.legal, all_rules(ed.page)
    assert '<dd class="deckcount">30/30</dd>' in ed.page
    three = next(cid for cid, n in deck.items() if n == 3)
    ed.op(op="deck", char=0, card=three, delta=1)
    assert "deck.copies" in rules_at(ed.page, f"characters[0].deck.{three}")
    assert not ed.legal
    ed.op(op="deck", char=0, card=three, delta=-1)
    assert ed.legal
    ed.op(op="set_limit", value="20")
    assert 'class="bar over"' in ed.page and "points.limit" in all_rules(ed.page)
    assert "set in this build" in ed.page
    ed.op(op="set_limit", value="")
    assert "the pack default: beginner (100)" in ed.page and 'class="bar "' in ed.page
    # the page's answer is the validator's own
    from generator.web.state import to_build
    report = validate_build(site.packs[BF], to_build(ed.doc, site.packs[BF]))
    assert report.legal and f"<strong>{report.points.total}</strong>" in ed.page


def test_equipment_violation_sits_on_its_piece(client, env):
    ed = boss_from_scratch(client, env[1].packs[BF])
    for _ in range(4):  # more weapons than the arm has slots
        ed.op(op="add", card="bone-cleaver", char=0, piece=4)
    assert "equipment.slots" in rules_at(ed.page, "characters[0].pieces[4]")
    ed.op(op="remove", char=0, place="equipment", piece=4, index=0)
    assert ed.doc["characters"][0]["pieces"][4]["equipment"] == ["bone-cleaver"] * 4
    ed.op(op="remove", char=0, place="base", index=0)
    assert [p["piece"] for p in ed.doc["characters"][0]["pieces"]][0] == "coal-ribcage"


def test_hero_party_characters_abilities_and_stats(client, env):
    r = client.get("/p/boss_fight/edit?side=hero")
    ed = Editor(client, BF, doc_of(r.text))
    assert ed.doc["characters"] == []
    ed.op(op="add", card="torva-greymantle")  # a hero card with no character chosen starts one
    ed.target = {"char": None}  # "Add cards to: a new character"
    ed.op(op="add", card="wren-ashby")
    assert [c["hero"] for c in ed.doc["characters"]] == ["torva-greymantle", "wren-ashby"]
    ed.op(op="add", card="knights-longsword", char=0)
    assert ed.doc["characters"][0]["equipment"] == ["knights-longsword"]
    ed.op(op="rename_char", char=1, value="Wren the Swift")
    assert ed.doc["characters"][1]["name"] == "Wren the Swift"
    assert "Slots used" in ed.page and "Health" in ed.page
    ed.op(op="move_char", char=1, delta=-1)
    assert ed.doc["characters"][0]["name"] == "Wren the Swift"
    ed.op(op="remove_char", char=0)
    assert len(ed.doc["characters"]) == 1
    ed.op(op="set_name", value="  My Party ")
    assert ed.doc["name"] == "My Party"


def test_preset_opens_with_charts(client):
    r = client.get("/p/boss_fight/edit?preset=boss-ashen-behemoth")
    assert r.status_code == 200
    assert "Points per card type" in r.text and "Footprint:" in r.text and "cards by copies" in r.text
    assert "<polygon" in r.text


OTHER_PRESETS = [("battle_bosses", None), ("tactics", None), ("raid_boss", "party-first-raid"),
                 ("raid_boss", "boss-karrun"), ("final_boss", "quick-game")]


@pytest.mark.parametrize("pack_id, stem", OTHER_PRESETS)
def test_other_packs_build_legal_builds_in_the_editor(client, env, pack_id, stem):
    from generator.web.common import preset_docs
    pack = env[1].packs[pack_id]
    docs = preset_docs(pack)
    doc, _ = docs[stem] if stem else next(iter(docs.values()))
    r = client.get(f"/p/{pack_id}/edit", params={"side": doc["side"]})
    ed = Editor(client, pack_id, doc_of(r.text))
    side = pack.spec.sides[doc["side"]]
    for i, char in enumerate(doc["characters"]):  # rebuild the preset by the editor's own changes
        base = char[side.base.key]
        if not side.base.many:
            ed.target = {"char": None}  # "Add cards to: a new character"
        ed.op(op="add", card=base if isinstance(base, str) else base[0], char=None if not side.base.many else i)
        for place in ("equipment", "abilities"):
            for cid in char.get(place, []):
                ed.op(op="add", card=cid, char=i)
        for cid, n in char.get("deck", {}).items():
            for _ in range(n):
                ed.op(op="deck", char=i, card=cid, delta=1)
    if "points_limit" in doc:
        ed.op(op="set_limit", value=str(doc["points_limit"]))
    assert ed.legal, all_rules(ed.page)


def test_raid_boss_and_final_boss_problems_show_next_to_their_card(client, env):
    """The packs' own rules through the editor: a hero twice in the line, a card of the kit
    once too often, a missing Final Boss (a build-wide count, shown with the build)."""
    party = preset(env[1], "raid_boss", "party-first-raid")
    party["characters"][3] = {"hero": "brannoc-stonehide"}
    ed = Editor(client, "raid_boss", party).op(op="view")
    assert not ed.legal and rules_at(ed.page, "characters[3].hero") == ["party.distinct"]
    assert "stands in the line twice" in text(ed.page)
    table = preset(env[1], "final_boss", "quick-game")
    ed = Editor(client, "final_boss", table).op(op="view")
    assert ed.legal
    ed.op(op="deck", char=2, card="cheat-code", delta=1)  # the kit prints one
    assert not ed.legal and "decks.copies" in rules_at(ed.page, "characters[2].deck.cheat-code")
    ed.op(op="deck", char=2, card="cheat-code", delta=-1).op(op="deck", char=1, card="barrelback", delta=-1)
    assert not ed.legal and "no Final Boss among its Enemies" in text(ed.page)
    assert all_rules(ed.page).count("decks.final-boss") >= 1


def stat_cells(page: str) -> dict[str, str]:
    """The statistics row of each character: label -> value, in page order (later ones win)."""
    import re
    return dict(re.findall(r"<div><dt>([^<]+)</dt><dd>(\d+)</dd></div>", page))


def test_games_without_points_show_no_points_and_only_the_numbers_their_cards_carry(client):
    """Raid Boss and Final Boss cost no points: no points bar, limit or `0 pts`; a hero shows
    the pack's totals (Base HP, Dice), a boss its HP, a Final Boss deck no stat at all. Boss
    Fight, which has points and stat blocks, keeps all of it."""
    party = client.get("/p/raid_boss/edit?side=party").text
    assert "makes a new hero." in party  # the side's own word (`called:`)
    assert "makes a new deck." in client.get("/p/final_boss/edit?side=table").text
    party = client.get("/p/raid_boss/edit?preset=party-first-raid").text
    assert 'id="points"' not in party and " pts</span>" not in party and "Points limit" not in party
    assert stat_cells(party) == {"Base HP": "10", "Dice": "2"}  # the last hero, Orrin Vale
    assert "<dt>HP</dt>" not in party and "Ability dice" not in party
    boss = client.get("/p/raid_boss/edit?preset=boss-karrun").text
    assert stat_cells(boss) == {"HP": "120"}
    assert "deck by tier" in boss
    table = client.get("/p/final_boss/edit?preset=quick-game").text
    assert stat_cells(table) == {}
    for title in ("Stages Deck: deck by kind", "Enemies Deck: deck by rank", "Drops Deck: deck by duration"):
        assert title in table
    bf = client.get("/p/boss_fight/edit?preset=party-oathsworn").text
    assert 'id="points"' in bf and " pts</span>" in bf and "Points limit" in bf
    assert {"Health", "Intelligence", "Strength", "Agility"} <= set(stat_cells(bf))


@pytest.mark.parametrize("bad", [
    {"build": "x", "op": {"op": "view"}},
    {"build": {"side": "dragon", "name": "x", "characters": []}, "op": {"op": "view"}},
    {"build": {"side": "boss", "name": "x", "characters": [], "evil": 1}, "op": {"op": "view"}},
    {"build": {"side": "boss", "name": "x", "characters": [{"pieces": [{"piece": 5}]}]}, "op": {"op": "view"}},
    {"build": {"side": "boss", "name": "x", "characters": [{"deck": {"walk": -1}}]}, "op": {"op": "view"}},
    {"build": {"side": "boss", "name": "x", "characters": []}, "op": {"op": "explode"}},
    {"build": {"side": "boss", "name": "x", "characters": []}, "op": {"op": "remove_char", "char": 3}},
    {"build": {"side": "boss", "name": "x", "characters": [{}]}, "op": {"op": "add", "card": "titan-arn", "char": 0}},
    {"build": {"side": "boss", "name": "x", "characters": [{}]}, "op": {"op": "add", "card": "bone-cleaver", "char": 0}},
    {"build": {"side": "boss", "name": "x", "characters": [{}]}, "op": {"op": "deck", "card": "walk", "char": "a"}},
    {"build": {"side": "boss", "name": "x", "points_limit": "huge", "characters": []}, "op": {"op": "view"}},
])
def test_bad_changes_are_refused_with_a_message(client, bad):
    r = client.post("/p/boss_fight/edit/apply", json=bad, headers={"x-pnp-fragment": "1"})
    assert_clean_error(r, 422)
    assert 'class="violation error"' in r.text


def test_unknown_card_in_a_build_is_a_violation_with_did_you_mean(client):
    doc = {"side": "boss", "name": "x", "characters": [{"pieces": [{"piece": "titan-arn"}]}]}
    r = client.post("/p/boss_fight/edit/apply", json={"build": doc, "op": {"op": "view"}})
    assert r.status_code == 200
    assert "card.unknown" in rules_at(r.text, "characters[0].pieces[0]") and "titan-arm" in r.text


# ---- the builds folder -------------------------------------------------------------------------


def test_save_writes_what_the_cli_reads(client, env, monkeypatch):
    site, builds = env[1], env[2]
    doc = preset(site, BF, "boss-ashen-behemoth")
    doc["name"] = "Saved Behemoth"
    r = client.post("/p/boss_fight/builds/save", json={"build": doc})
    assert r.status_code == 200 and r.json()["stem"] == "saved-behemoth"
    path = builds / "saved-behemoth.yaml"
    from generator.web.state import clean_document, to_yaml
    assert path.read_bytes() == to_yaml(clean_document(doc, site.packs[BF])).encode()
    monkeypatch.chdir(PACKS.parent)  # pnp validate finds the pack by `pack:` from the repository
    [report] = validate_target(path)
    assert report.legal and report.name == "Saved Behemoth"
    # a second save of a new build with the same name gets its own file; saving by stem overwrites
    assert client.post("/p/boss_fight/builds/save", json={"build": doc}).json()["stem"] == "saved-behemoth-2"
    doc["name"] = "Saved Behemoth v2"
    assert client.post("/p/boss_fight/builds/save", json={"build": doc, "stem": "saved-behemoth"}).status_code == 200
    assert "name: Saved Behemoth v2" in path.read_text()
    r = client.get("/p/boss_fight/edit?file=saved-behemoth")
    assert doc_of(r.text)["name"] == "Saved Behemoth v2"
    assert client.get("/p/boss_fight/builds/saved-behemoth.yaml").text == path.read_text()


def test_a_build_the_cli_could_not_read_is_not_saved(client, env):
    doc = {"side": "hero", "name": "x", "characters": [{"equipment": []}]}  # a hero without its hero card
    assert_clean_error(client.post("/p/boss_fight/builds/save", json=doc and {"build": doc}), 422)
    assert not (env[2] / "x.yaml").exists()


def test_list_rename_duplicate_delete(client, env):
    site, builds = env[1], env[2]
    doc = preset(site, BF, "party-shieldwall")
    doc["name"] = "Walls"
    client.post("/p/boss_fight/builds/save", json={"build": doc})
    assert "Walls" in client.get("/p/boss_fight/builds").text
    r = client.post("/p/boss_fight/builds/walls/rename", data={"new_name": "Great Walls"}, follow_redirects=False)
    assert r.status_code == 303 and (builds / "great-walls.yaml").exists() and not (builds / "walls.yaml").exists()
    assert "name: Great Walls" in (builds / "great-walls.yaml").read_text()
    client.post("/p/boss_fight/builds/great-walls/duplicate")
    assert (builds / "great-walls-copy.yaml").exists()
    assert_clean_error(client.post("/p/boss_fight/builds/great-walls/rename", data={"new_name": "great walls copy"}), 409)
    r = client.get("/p/boss_fight/builds/great-walls-copy/delete")
    assert r.status_code == 200 and "cannot be undone" in r.text and (builds / "great-walls-copy.yaml").exists()
    client.post("/p/boss_fight/builds/great-walls-copy/delete")
    assert not (builds / "great-walls-copy.yaml").exists()
    assert_clean_error(client.post("/p/boss_fight/builds/great-walls-copy/delete"), 404)


@pytest.mark.parametrize("stem", ["..%2F..%2Fetc%2Fpasswd", "%2Fetc%2Fpasswd", "Upper", "a..b", "-x", "x" * 100,
                                  "..", "a%00b"])
def test_paths_out_of_the_builds_folder_are_refused(client, stem):
    for url in (f"/p/boss_fight/builds/{stem}.yaml", f"/p/boss_fight/edit?file={stem}",
                f"/p/boss_fight/builds/{stem}/delete"):
        assert_clean_error(client.get(url))
    assert_clean_error(client.post(f"/p/boss_fight/builds/{stem}/delete"))


def test_links_out_of_the_builds_folder_are_refused(client, env, tmp_path):
    builds = env[2]
    secret = tmp_path / "secret.yaml"
    secret.write_text("pack: boss_fight\nname: Secret\nside: boss\ncharacters: []\n")
    os.symlink(secret, builds / "sneaky.yaml")
    try:
        assert_clean_error(client.get("/p/boss_fight/builds/sneaky.yaml"), 403)
        assert_clean_error(client.get("/p/boss_fight/edit?file=sneaky"), 403)
        assert_clean_error(client.post("/p/boss_fight/builds/sneaky/delete"), 403)
        assert "Secret" not in client.get("/p/boss_fight/builds").text
        doc = {"side": "boss", "name": "sneaky", "characters": []}
        assert_clean_error(client.post("/p/boss_fight/builds/save", json={"build": doc, "stem": "sneaky"}), 403)
        assert "Secret" in secret.read_text()
    finally:
        (builds / "sneaky.yaml").unlink()


def test_two_tabs_saving_at_once_leave_one_whole_file(client, env):
    site, builds = env[1], env[2]
    texts = []
    docs = []
    for stem in ("boss-ashen-behemoth", "boss-brood-matron"):
        d = preset(site, BF, stem)
        d["name"] = "Race"
        docs.append(d)
        from generator.web.state import clean_document, to_yaml
        texts.append(to_yaml(clean_document(d, site.packs[BF])))
    errors = []

    def save(d):
        for _ in range(15):
            r = client.post("/p/boss_fight/builds/save", json={"build": d, "stem": "race"})
            if r.status_code != 200:
                errors.append(r.status_code)

    threads = [threading.Thread(target=save, args=(d,)) for d in docs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert (builds / "race.yaml").read_text() in texts
    assert not [p for p in builds.iterdir() if p.name.startswith(".race")]  # no temporary files left


# ---- imports -----------------------------------------------------------------------------------


def test_import_upload_code_and_decklist(client, env):
    site = env[1]
    text_yaml = (PACKS / BF / "presets" / "boss-skitterfang.yaml").read_bytes()
    r = client.post("/p/boss_fight/import", files={"upload": ("skitterfang.yaml", text_yaml, "application/yaml")})
    assert r.status_code == 200 and doc_of(r.text)["name"] == "The Skitterfang"
    code = client.post("/api/boss_fight/share", json=doc_of(r.text)).json()["code"]
    r = client.post("/p/boss_fight/import", data={"code": code})
    assert r.status_code == 200 and doc_of(r.text)["name"] == "The Skitterfang"
    from generator.share.decklist import format_decklist
    pack = site.packs[BF]
    deck = format_decklist(load_build(PACKS / BF / "presets" / "boss-skitterfang.yaml", pack), pack)
    r = client.post("/p/boss_fight/import", data={"decklist": deck})
    assert r.status_code == 200 and doc_of(r.text)["characters"][0]["deck"]


def test_import_decklist_with_a_misspelled_name_says_did_you_mean(client):
    deck = "Side: boss\n\n## Brute\nPieces:\nTitan Arm\nDeck:\n3x Lumbering Strid\n"
    r = client.post("/p/boss_fight/import", data={"decklist": deck})
    assert_clean_error(r, 422)
    assert "Lumbering Stride" in text(r.text) and "did you mean" in text(r.text)
    assert "3x Lumbering Strid" in text(r.text)  # what was pasted is kept in the form


def test_import_decklist_takes_the_side_from_the_form(client):
    deck = "## Torva\nHero: Torva Greymantle\nDeck:\n3x Walk\n"
    r = client.post("/p/boss_fight/import", data={"decklist": deck, "side": "hero"})
    assert r.status_code == 200 and doc_of(r.text)["side"] == "hero"
    assert doc_of(r.text)["characters"][0]["deck"] == {"walk": 3}


def test_import_bad_inputs(client):
    r = client.post("/p/boss_fight/import", files={"upload": ("big.yaml", b"a" * (1024 * 1024 + 10), "text/yaml")})
    assert_clean_error(r, 413)
    r = client.post("/p/boss_fight/import", files={"upload": ("big.yaml", b"a" * (3 * 1024 * 1024), "text/yaml")})
    assert_clean_error(r, 413)
    bomb = b'a: &a ["x","x","x","x","x","x","x","x","x"]\n' + b"".join(
        f'{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)}]\n'.encode()
        for i in range(8))
    r = client.post("/p/boss_fight/import", files={"upload": ("bomb.yaml", bomb, "text/yaml")})
    assert_clean_error(r, 422)
    assert "yaml.aliases" in r.text or "yaml." in r.text
    r = client.post("/p/boss_fight/import", files={"upload": ("x.yaml", b"\xff\xfe\x00", "text/yaml")})
    assert_clean_error(r, 422)
    r = client.post("/p/boss_fight/import", files={"upload": ("x.yaml", b"name: [unclosed\n", "text/yaml")})
    assert_clean_error(r, 422)
    assert "x.yaml:" in text(r.text)
    for code in ("PNP1-XXXX", "hello", "PNP1-" + "A" * 50, "<script>alert(1)</script>"):
        r = client.post("/p/boss_fight/import", data={"code": code})
        assert_clean_error(r, 422)
        assert "<script>alert" not in r.text
    assert_clean_error(client.post("/p/boss_fight/import", data={}), 422)


def test_request_bodies_over_the_limit_are_refused_even_without_a_length(client):
    def chunks():
        for _ in range(40):
            yield b"x" * 65536

    r = client.post("/api/boss_fight/validate", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["errors"][0]["code"] == "upload.size"


def test_changes_from_other_sites_are_refused(client, env):
    (env[2] / "keep-me.yaml").write_text("pack: boss_fight\nname: Keep\nside: boss\ncharacters: []\n")
    r = client.post("/p/boss_fight/builds/keep-me/delete", headers={"origin": "https://evil.example"})
    assert_clean_error(r, 403)
    assert (env[2] / "keep-me.yaml").exists()
    r = client.post("/p/boss_fight/builds/keep-me/delete", headers={"origin": "http://localhost"})
    assert r.status_code in (200, 303) and not (env[2] / "keep-me.yaml").exists()


# ---- sharing -----------------------------------------------------------------------------------


def test_share_page_is_read_only_with_code_qr_and_copy(client, env):
    doc = preset(env[1], BF, "boss-ashen-behemoth")
    code = client.post("/api/boss_fight/share", json=doc).json()["code"]
    r = client.get(f"/b/{code}")
    assert r.status_code == 200
    assert code in r.text and 'class="qr"' in r.text and f"/p/boss_fight/edit?code={code}" in r.text
    assert "data-op" not in r.text and "The Ashen Behemoth" in r.text
    r = client.get(f"/p/boss_fight/edit?code={code}")
    assert doc_of(r.text)["characters"] == json.loads(json.dumps(doc["characters"]))


@pytest.mark.parametrize("code", ["nonsense", "PNP1-AAAA", "PNP1-" + "Z" * 5000, "PNP9-ABCD"])
def test_malformed_share_codes(client, code):
    r = client.get(f"/b/{code}")
    assert_clean_error(r)
    r = client.post("/api/boss_fight/unshare", json={"code": code[:3999]})
    assert_clean_error(r, 422)
    assert r.json()["errors"][0]["code"].startswith(("share.", "request."))


# ---- the JSON API ------------------------------------------------------------------------------


def test_api_packs_and_cards(client, env):
    packs = client.get("/api/packs").json()
    assert {p["id"] for p in packs} == set(env[1].packs)
    cards = client.get("/api/boss_fight/cards", params={"type": "boss-piece", "max": 5}).json()
    assert cards and all(c["type"] == "boss-piece" and c["points"] <= 5 for c in cards)
    card = client.get("/api/boss_fight/cards/titan-arm").json()
    assert card["name"] == "Titan Arm" and card["image"].endswith("titan-arm.png")
    assert_clean_error(client.get("/api/boss_fight/cards", params={"min": -1}), 422)


def test_api_validate_is_the_cli_document(client, env):
    pack = env[1].packs[BF]
    path = PACKS / BF / "presets" / "boss-ashen-behemoth.yaml"
    doc = preset(env[1], BF, "boss-ashen-behemoth")
    answer = client.post("/api/boss_fight/validate", json=doc).json()
    expected = reports_document([validate_build(pack, load_build(path, pack))])
    assert answer["schema"] == expected["schema"] and answer["legal"] is True
    strip = lambda d: [{k: v for k, v in r.items() if k != "file"} for r in d["results"]]  # noqa: E731
    assert strip(answer) == strip(expected)
    answer = client.post("/api/boss_fight/validate", json=doc, params={"points": 10}).json()
    assert answer["legal"] is False and answer["results"][0]["violations"][0]["rule"] == "points.limit"
    doc["characters"][0]["deck"]["walkk"] = 1
    answer = client.post("/api/boss_fight/validate", json=doc).json()
    assert any(v["rule"] == "card.unknown" for v in answer["results"][0]["violations"])


@pytest.mark.parametrize("pack_id, stem, change, rule", [
    ("raid_boss", "party-first-raid", lambda d: d["characters"].__setitem__(1, {"hero": "orrin-vale"}),
     "party.distinct"),
    ("raid_boss", "boss-mother-veyl", lambda d: d["characters"][0]["deck"].pop("veyl-unbound"), "boss.deck-tiers"),
    ("final_boss", "whole-kit", lambda d: d["characters"][1]["deck"].pop("pixel-lich"), None),  # two bosses left
    ("final_boss", "quick-game", lambda d: d["characters"][1]["deck"].pop("barrelback"), "decks.final-boss"),
])
def test_api_validate_and_share_the_packs_without_points(client, env, pack_id, stem, change, rule):
    doc = preset(env[1], pack_id, stem)
    answer = client.post(f"/api/{pack_id}/validate", json=doc).json()
    assert answer["legal"] is True and answer["results"][0]["violations"] == []
    shared = client.post(f"/api/{pack_id}/share", json=doc).json()
    back = client.post(f"/api/{pack_id}/unshare", json={"code": shared["code"]}).json()
    assert back["build"]["characters"] == doc["characters"]
    change(doc)
    answer = client.post(f"/api/{pack_id}/validate", json=doc).json()
    rules = [v["rule"] for v in answer["results"][0]["violations"]]
    assert answer["legal"] is (rule is None) and (rule in rules if rule else rules == [])


@pytest.mark.parametrize("body", ["[1, 2]", '"x"', "{not json", '{"side": "boss"}', '{"side":"boss","name":"x","characters":7}'])
def test_api_validate_bad_bodies(client, body):
    r = client.post("/api/boss_fight/validate", content=body, headers={"content-type": "application/json"})
    assert_clean_error(r, 422)
    data = r.json()
    assert data.get("schema") == SCHEMA_ID and data["legal"] is False and data["errors"]


def test_api_share_unshare_round_trip(client, env):
    doc = preset(env[1], "tactics", next(iter(env[1].presets["tactics"])))
    shared = client.post("/api/tactics/share", json=doc).json()
    assert shared["code"].startswith("PNP1-") and shared["url"] == f"/b/{shared['code']}"
    back = client.post("/api/tactics/unshare", json={"code": shared["code"]}).json()
    assert back["build"]["characters"] == doc["characters"] and back["yaml"].startswith("pack: tactics")
    doc["characters"][0]["unit"] = "no-such-unit"
    assert_clean_error(client.post("/api/tactics/share", json=doc), 422)


def test_api_decklist_both_ways(client, env):
    doc = preset(env[1], BF, "party-oathsworn")
    listing = client.post("/api/boss_fight/decklist/text", json=doc).json()["text"]
    assert "Oathsworn" in listing or doc["name"] in listing
    back = client.post("/api/boss_fight/decklist", json={"text": listing}).json()["build"]
    assert back["characters"] == doc["characters"]
    r = client.post("/api/boss_fight/decklist", json={"text": "Side: boss\n## X\nDeck:\n3x Lumbering Strid\n"})
    assert_clean_error(r, 422)
    assert "Lumbering Stride" in json.dumps(r.json()["errors"])


def test_openapi_and_api_page(client):
    spec = client.get("/openapi.json").json()
    for path in ("/api/packs", "/api/{pack_id}/cards", "/api/{pack_id}/validate", "/api/{pack_id}/share",
                 "/api/{pack_id}/unshare", "/api/{pack_id}/decklist"):
        assert path in spec["paths"]
    page = client.get("/api").text
    assert "POST /api/{pack_id}/validate" in page and "cdn" not in page.lower()


# ---- printing and maps -------------------------------------------------------------------------


def test_roster_and_cards_pdfs(client, env):
    from io import BytesIO

    from pypdf import PdfReader
    doc = preset(env[1], BF, "boss-ashen-behemoth")
    r = client.post("/p/boss_fight/print/roster.pdf", data={"build": json.dumps(doc)})
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    assert "The Ashen Behemoth" in PdfReader(BytesIO(r.content)).pages[0].extract_text()
    assert 'filename="the-ashen-behemoth-roster.pdf"' in r.headers["content-disposition"]
    code = client.post("/api/boss_fight/share", json=doc).json()["code"]
    r = client.post("/p/boss_fight/print/cards.pdf", data={"code": code})
    assert r.status_code == 200 and len(PdfReader(BytesIO(r.content)).pages) >= 2
    r = client.post("/p/boss_fight/print/pieces.pdf", data={"build": json.dumps(doc)})
    assert r.status_code == 200 and r.content[:5] == b"%PDF-"
    r = client.post("/p/boss_fight/print/decklist.txt", data={"code": code})
    assert r.status_code == 200 and "Titan Arm" in r.text and r.headers["content-type"].startswith("text/plain")
    assert_clean_error(client.post("/p/boss_fight/print/rulebook.pdf", data={"build": json.dumps(doc)}), 422)
    assert_clean_error(client.post("/p/boss_fight/print/roster.pdf", data={"build": "{oops"}), 422)
    assert_clean_error(client.post("/p/boss_fight/print/roster.pdf", data={"build": json.dumps(doc), "paper": "a0"}), 422)


def test_map_pages_and_boss_fit(client, env):
    pack = env[1].packs[BF]
    mid = Path(pack.map_files[0]).stem
    r = client.get(f"/p/boss_fight/maps/{mid}")
    assert r.status_code == 200 and "<svg" in r.text
    r = client.get(f"/p/boss_fight/maps/{mid}", params={"build": "preset:boss-ashen-behemoth"})
    assert "It fits" in r.text and "starting place" in r.text
    # every boss piece at once: a footprint too wide for the narrow maps
    huge = {"pack": BF, "name": "Everything", "side": "boss",
            "characters": [{"pieces": [{"piece": c.id} for c in pack.cards_of("boss-piece")]}]}
    code = client.post("/api/boss_fight/share", json=huge).json()["code"]
    mid = "the-narrows"
    r = client.get(f"/p/boss_fight/maps/{mid}", params={"code": code})
    assert "does not fit" in r.text and "map.boss-fit" in r.text
    assert_clean_error(client.get("/p/boss_fight/maps/nope"), 404)
    assert_clean_error(client.get(f"/p/boss_fight/maps/{mid}", params={"build": "saved:../x"}), 404)
    tactics = env[1].packs["tactics"]
    r = client.get(f"/p/tactics/maps/{Path(tactics.map_files[0]).stem}")
    assert r.status_code == 200 and "<svg" in r.text


def test_the_worker_factory_reads_its_packs_from_the_environment(monkeypatch, tmp_path):
    from fastapi.testclient import TestClient

    from generator.web.app import app_from_env
    monkeypatch.setenv("PNP_PACKS", os.pathsep.join([str(PACKS / "tactics"), str(PACKS / "battle_bosses")]))
    monkeypatch.setenv("PNP_BUILDS", str(tmp_path / "b"))
    monkeypatch.delenv("PNP_ALLOWED_HOSTS", raising=False)
    client = TestClient(app_from_env(), base_url="http://localhost")
    assert {p["id"] for p in client.get("/api/packs").json()} == {"tactics", "battle_bosses"}
    assert client.get("/", follow_redirects=False).status_code == 200  # two packs: the start page


def test_serve_command_is_registered():
    from click.testing import CliRunner

    from generator.cli import main
    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0 and "--builds" in result.output and "127.0.0.1" in result.output
    result = CliRunner().invoke(main, ["serve", "/no/such/pack"])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_no_request_gives_a_server_error(client):
    """A sweep of odd requests: all answered, none with a 500."""
    urls = ["/p/boss_fight/edit?preset=nope", "/p/boss_fight/edit?code=%00", "/p/boss_fight/cards?page=0",
            "/p/boss_fight/cards?page=99999", "/b/" + "%2F" * 10, "/p/boss_fight/maps?code=x",
            "/api/boss_fight/cards?q=" + "a" * 201, "/static/../generator/web/app.py", "/p/%2e%2e/cards"]
    for url in urls:
        r = client.get(url)
        assert r.status_code < 500, (url, r.status_code)
        assert "Traceback" not in r.text


def test_print_buttons_use_the_saved_duplex_calibration(client, env, private_calibration):
    """`pnp calibrate` once, and the builder's card PDFs carry the same back correction as the
    CLI's: the back pages move, the fronts stay where they were."""
    from io import BytesIO

    from pypdf import PdfReader

    from generator.core.calibration import save_back_offset
    doc = preset(env[1], BF, "boss-ashen-behemoth")
    code = client.post("/api/boss_fight/share", json=doc).json()["code"]

    def pages():
        r = client.post("/p/boss_fight/print/cards.pdf", data={"code": code})
        assert r.status_code == 200
        reader = PdfReader(BytesIO(r.content))
        return [page.get_contents().get_data() for page in reader.pages[:2]]

    front, back = pages()
    save_back_offset((1.5, -0.5), "long-edge", private_calibration)
    front_cal, back_cal = pages()
    assert front_cal == front and back_cal != back


def test_the_card_picker_names_whose_signature_cards_are(client, env):
    """A card the pack's `owner` rule ties to one character says so in the picker (and the
    Find box matches it), so a player building Karrun sees Mother Veyl's cards are not his."""
    import re
    page = client.get("/p/raid_boss/edit?preset=boss-karrun").text
    picker = page[page.index('id="picker-filter"'):]
    tags = dict(re.findall(r'>([^<>]+)</a>\s*<span class="muted">([^<]*)</span>', picker))
    assert tags["Moth Swarm"] == "Easy · Mother Veyl only"
    assert tags["Burrow"].endswith("Karrun only")
    assert "Mother Veyl only" in picker  # the Find box asks the server (/api/PACK/search), which reads it too
    heroes = client.get("/p/raid_boss/edit?preset=party-first-raid").text
    assert " only</span>" not in heroes  # heroes belong to no one: no tag
    # Battle Bosses: an upgrade names its boss, an effect open to all does not
    from generator.web.common import preset_docs
    stem = next(iter(preset_docs(env[1].packs["battle_bosses"])))
    bb = client.get(f"/p/battle_bosses/edit?preset={stem}").text
    bb_tags = dict(re.findall(r'>([^<>]+)</a>\s*<span class="muted">([^<]*)</span>', bb[bb.index('id="picker-filter"'):]))
    owned = [t for t in bb_tags.values() if t.endswith(" only")]
    assert owned and len(owned) < len(bb_tags)


@pytest.mark.parametrize("pack_id", ["boss_fight", "tactics", "battle_bosses"])
def test_a_map_page_explains_its_markings(client, env, pack_id):
    """Beside the picture, a legend: every terrain the map uses (name and rule text, drawn with
    its own pattern), obstacles, each start zone, and for a square map heights and open air;
    nothing the map does not have."""
    import re

    from generator.maps.load import load_map
    pack = env[1].packs[pack_id]
    for path in sorted((pack.root / "maps").glob("*.yaml")):
        m = load_map(pack, path)
        page = client.get(f"/p/{pack_id}/maps/{path.stem}").text
        keys = re.findall(r'<li data-key="([^"]+)">', page)
        square = getattr(m, "grid", "hex") == "square"
        expected = [f"terrain-{t}" for t in m.terrain_ids_in_use()]
        if square and m.heights:
            expected.append("height")
        if square and any(c not in m.heights for c in m.board):
            expected.append("air")
        if m.obstacles:
            expected.append("obstacle")
        expected += [f"zone-{z}" for z in sorted(m.zones) if m.zones[z]]
        assert keys == expected, path.name
        for tid in m.terrain_ids_in_use():
            spec = m.terrain_specs[tid]
            entry = page[page.index(f'data-key="terrain-{tid}"'):].split("</li>")[0]
            assert f"<strong>{spec.name}</strong>" in entry
            if spec.pattern != "none":  # drawn with the map's pattern for it
                assert "url(#legend-" in entry
            assert (spec.text or "") in html.unescape(entry)


def test_print_buttons_print_from_the_pack_the_app_holds(client, env, monkeypatch):
    """The cards PDF is made from the loaded Pack and the page's build: no build file is
    written for it and nothing of the pack is read again from disk."""
    from io import BytesIO

    from pypdf import PdfReader

    import generator.build as build_module
    import generator.pack.load as pack_load

    def refuse(*args, **kw):
        raise AssertionError("the print route read the pack or a build file from disk")
    for module, name in ((build_module, "load_pack"), (build_module, "load_build_file"), (pack_load, "load_pack")):
        monkeypatch.setattr(module, name, refuse)
    doc = preset(env[1], BF, "boss-ashen-behemoth")
    r = client.post("/p/boss_fight/print/cards.pdf", data={"build": json.dumps(doc)})
    assert r.status_code == 200, r.text
    assert len(PdfReader(BytesIO(r.content)).pages) >= 2
    assert 'filename="the-ashen-behemoth-cards.pdf"' in r.headers["content-disposition"]
