"""The maps page answers, per map, whether the build on the page fits (issue 26, item 6), with
the engine's own footprint check: each answer matches the map page's, and a boss too large for
a map says why."""

from __future__ import annotations

import copy
import re

import pytest
import yaml

from web_support import PACKS, make_client


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    c, _ = make_client(tmp_path_factory.mktemp("builds"), tmp_path_factory.mktemp("cache"))
    return c


def _code(client, doc) -> str:
    return client.post("/api/boss_fight/share", json=doc).json()["code"]


def _answers(page: str) -> list[tuple[str, str, str]]:
    return re.findall(r'<a href="/p/boss_fight/maps/([^"?]+)\?code=[^"]+"><strong>[^<]+</strong></a><span>[^<]+</span>\s*'
                      r'<p class="mapverdict"><strong class="verdict[^"]*">([^<]+)</strong> ([^<]+)</p>', page)


def test_each_map_says_fits_or_not_as_its_own_page_does(client):
    doc = yaml.safe_load((PACKS / "boss_fight" / "presets" / "boss-ashen-behemoth.yaml").read_text())
    from generator.pack.load import load_pack
    pack = load_pack(PACKS / "boss_fight")
    huge = copy.deepcopy(doc)  # every boss piece of the pack at once: the union of their hexes
    huge["characters"][0]["pieces"] = [{"piece": c.id} for c in pack.cards.values() if c.type == "boss-piece"]
    seen = set()
    for build in (doc, huge):
        code = _code(client, build)
        page = client.get(f"/p/boss_fight/maps?code={code}").text
        answers = _answers(page)
        assert len(answers) == page.count('<p class="mapverdict">') > 0
        for map_id, verdict, reason in answers:
            seen.add(verdict)
            one = client.get(f"/p/boss_fight/maps/{map_id}?code={code}").text
            fits_there = 'data-rule="map.' not in one
            assert (verdict == "Fits") == fits_there, (map_id, verdict, reason)
            if verdict == "Fits":
                assert re.match(r"\d+ places? to start", reason)
    assert seen == {"Fits", "Does not fit"}


def test_a_party_is_not_checked_and_says_why(client):
    doc = yaml.safe_load((PACKS / "boss_fight" / "presets" / "party-oathsworn.yaml").read_text())
    page = client.get(f"/p/boss_fight/maps?code={_code(client, doc)}").text
    answers = _answers(page)
    assert answers and all(v == "Not checked" and "no footprint" in r for _, v, r in answers)
