"""What the editor keeps: its recent answers (generator.web.memo), an answer served from them
being the answer made anew, byte for byte, over a run of edits with undos, and never served
for another pack, another document, another target or another saved file; and the card
picker, drawn once per side of a pack, never shown for another side or pack."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from generator.web.memo import Recent, digest  # noqa: E402
from web_support import PACKS, doc_of  # noqa: E402


@pytest.fixture(scope="module")
def clients(tmp_path_factory):
    """Two apps over the same packs: one keeps recent answers, one keeps none."""
    from fastapi.testclient import TestClient

    from generator.web.app import create_app
    from generator.web.site import Site
    site = Site.load([PACKS], tmp_path_factory.mktemp("builds"), tmp_path_factory.mktemp("cache"))
    kept, fresh = create_app(site), create_app(site)
    fresh.state.recent = Recent(max_bytes=0, max_entry=0)
    return (TestClient(kept, base_url="http://localhost"), TestClient(fresh, base_url="http://localhost"),
            kept.state.recent, site)


def post(client, pack_id, doc, op=None, target=None, stem=None):
    r = client.post(f"/p/{pack_id}/edit/apply", json={"build": doc, "op": op or {"op": "view"},
                                                      "target": target or {}, "stem": stem},
                    headers={"x-pnp-fragment": "1"})
    return r.status_code, r.text


def both(clients, *args, **kw):
    kept, fresh, _, _ = clients
    a, b = post(kept, *args, **kw), post(fresh, *args, **kw)
    assert a == b, f"the kept answer differs from the one made anew for {args[0]} {kw or args[2:]}"
    return a


def test_kept_answers_are_the_answers_made_anew_over_edits_and_undos(clients):
    from generator.web.common import preset_docs
    _, _, recent, site = clients
    hits = recent.hits
    for pack_id in ("boss_fight", "raid_boss", "final_boss"):
        pack = site.packs[pack_id]
        for doc in [d for d, _ in preset_docs(pack).values()][:3]:
            doc = json.loads(json.dumps(doc))
            history = [doc]
            char = doc["characters"][0] if doc["characters"] else {}
            cards = list(char.get("deck", {}))[:2] or list(pack.cards)[:2]
            ops = [{"op": "deck", "char": 0, "card": c, "delta": d} for c in cards for d in (1, -1)] \
                + [{"op": "add", "card": c} for c in list(pack.cards)[:3]] \
                + [{"op": "set_name", "value": "<b>x</b> & y"}, {"op": "remove_char", "char": 0}]
            for op in ops:
                status, page = both(clients, pack_id, history[-1], op)
                if status == 200:
                    history.append(doc_of(page))
            for earlier in reversed(history):  # undo, step by step: builds seen before
                assert both(clients, pack_id, earlier)[0] == 200
    assert recent.hits > hits, "the run came back to builds already answered"
    assert 0 < recent.size <= recent.max_bytes


def test_a_kept_answer_is_not_served_for_another_pack_document_target_or_file(clients):
    from generator.web.common import preset_docs
    site = clients[3]
    empty = {"name": "n", "side": "boss", "characters": []}  # both packs have a side `boss`
    status, first = both(clients, "battle_bosses", empty)
    assert status == 200 and "/p/battle_bosses/print/" in first
    status, other = both(clients, "boss_fight", empty)
    assert status == 200 and "/p/boss_fight/print/" in other and "/p/battle_bosses/" not in other

    doc = json.loads(json.dumps(preset_docs(site.packs["boss_fight"])["party-ember-circle"][0]))
    assert len(doc["characters"][0]["deck"]) > 1
    renamed = dict(doc, name="another name")
    _, a = both(clients, "boss_fight", doc)
    _, b = both(clients, "boss_fight", renamed)
    assert a != b and "another name" in b and "another name" not in a
    reordered = json.loads(json.dumps(doc))
    reordered["characters"][0]["deck"] = dict(reversed(list(doc["characters"][0]["deck"].items())))
    _, c = both(clients, "boss_fight", reordered)
    assert c != a, "a deck in another order is shown in that order"
    _, saved = both(clients, "boss_fight", doc, stem="my-build")
    assert saved != a and "Save as a new build" in saved and "Save as a new build" not in a
    _, second = both(clients, "boss_fight", doc, target={"char": 1})
    assert second != a and 'data-target-char="1"' in second and 'data-target-char="0"' in a


def test_recent_is_bounded_and_drops_the_least_recently_used():
    recent = Recent(max_bytes=30, max_entry=12)
    keys = [digest("p", i) for i in range(4)]
    for k in keys[:3]:
        recent.put(k, b"x" * 10)
    assert recent.get(keys[0]) == b"x" * 10  # used: the oldest now is keys[1]
    recent.put(keys[3], b"y" * 10)
    assert recent.size == 30 and len(recent) == 3
    assert recent.get(keys[1]) is None and recent.get(keys[0]) and recent.get(keys[3])
    recent.put(digest("big"), b"z" * 13)  # over max_entry: not kept
    assert recent.get(digest("big")) is None and recent.size == 30


def test_keys_tell_apart_what_the_answer_is_made_from():
    doc = {"name": "n", "side": "boss", "characters": [{"deck": {"a": 1, "b": 2}}]}
    swapped = {"name": "n", "side": "boss", "characters": [{"deck": {"b": 2, "a": 1}}]}
    keys = {digest("editor", "p", 1, doc, 0, None, None), digest("editor", "q", 1, doc, 0, None, None),
            digest("editor", "p", 2, doc, 0, None, None), digest("editor", "p", 1, swapped, 0, None, None),
            digest("editor", "p", 1, doc, 1, None, None), digest("editor", "p", 1, doc, 0, 0, None),
            digest("editor", "p", 1, doc, 0, None, "s"), digest("editor", "p", 1, doc, True, None, None)}
    assert len(keys) == 8
    assert digest("editor", "p", 1, doc, 0, None, None) == digest("editor", "p", 1, json.loads(json.dumps(doc)),
                                                                  0, None, None)


def test_the_card_picker_drawn_once_per_side_is_that_side_s_of_that_pack(clients):
    """The picker is kept per side of a pack: asked for in turn, each page lists exactly the
    cards its own side may use, linked under its own pack, as an app that drew it anew."""
    import re

    from generator.web.state import side_cards
    kept, fresh, _, site = clients
    for pack_id, side in (("battle_bosses", "boss"), ("boss_fight", "boss"), ("boss_fight", "hero"),
                          ("battle_bosses", "boss")):
        pack = site.packs[pack_id]
        page = kept.get(f"/p/{pack_id}/edit?side={side}").text
        assert page == fresh.get(f"/p/{pack_id}/edit?side={side}").text
        aside = page[page.index('<aside class="picker"'):page.index("</aside>")]
        assert set(re.findall(r'<li tabindex="-1" data-card="([^"]+)"', aside)) == \
            {c.id for c in side_cards(pack, side)}
        assert f"/p/{pack_id}/cards/" in aside and not re.search(r"/p/(?!%s/)\w+/cards/" % pack_id, aside)


@pytest.mark.parametrize("body", [
    '{"build": {"name": "n", "side": "boss", "characters": []}, "op": {"op": "view"}, "target": {"char": NaN}}',
    '{"build": {"name": "n", "side": "boss", "points_limit": Infinity, "characters": []}, "op": {"op": "view"}}',
])
def test_numbers_json_does_not_allow_are_answered_not_crashed_on(clients, body):
    """Python's JSON reader takes NaN and Infinity from a request: the key must not choke on them."""
    kept = clients[0]
    r = kept.post("/p/boss_fight/edit/apply", content=body, headers={"content-type": "application/json",
                                                                      "x-pnp-fragment": "1"})
    assert r.status_code in (200, 422) and "Traceback" not in r.text


def test_a_counted_cache_keeps_that_many_values_and_makes_each_once():
    """Recent.counted(n): at most n values of any size (the community's pack choices and
    published documents), the least recently used dropped first; get_or_make makes a value
    only when it is not kept."""
    from generator.web.memo import Recent
    kept = Recent.counted(2)
    made = []

    def make(key):
        made.append(key)
        return {"value": key, "big": "x" * 10_000}  # counted as one, whatever its size

    for key in ("a", "b", "a", "c", "a", "b"):
        assert kept.get_or_make(key, lambda k=key: make(k))["value"] == key
    assert made == ["a", "b", "c", "b"]  # "b" was the least recently used when "c" came
    assert len(kept) == 2 and kept.size == 2
