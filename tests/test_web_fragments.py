"""The editor's rows and charts drawn once and used again (generator.web.fragments): an answer
made with them is the answer drawn afresh, byte for byte, for every preset of every pack and
over edits that add and take away violations; a row that gains a violation is drawn with it,
and loses it again."""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from generator.web.fragments import Fragments  # noqa: E402
from generator.web.memo import Recent  # noqa: E402
from web_support import PACKS, doc_of  # noqa: E402


@pytest.fixture(scope="module")
def clients(tmp_path_factory):
    """Two apps over the same packs, neither keeping whole answers: one keeps its rows and
    charts, the other draws every one afresh."""
    from fastapi.testclient import TestClient

    from generator.web.app import create_app
    from generator.web.site import Site
    site = Site.load([PACKS], tmp_path_factory.mktemp("builds"), tmp_path_factory.mktemp("cache"))
    kept, fresh = create_app(site), create_app(site)
    for app in (kept, fresh):
        app.state.recent = Recent(max_bytes=0, max_entry=0)
    fresh.state.jinja.globals["kept"] = Fragments(fresh.state.jinja, max_bytes=0, max_entry=0)
    return (TestClient(kept, base_url="http://localhost"), TestClient(fresh, base_url="http://localhost"),
            kept.state.jinja.globals["kept"], site)


def both(clients, pack_id, doc, op=None, target=None):
    kept, fresh, _, _ = clients
    body = {"build": doc, "op": op or {"op": "view"}, "target": target or {}}
    a = kept.post(f"/p/{pack_id}/edit/apply", json=body, headers={"x-pnp-fragment": "1"})
    b = fresh.post(f"/p/{pack_id}/edit/apply", json=body, headers={"x-pnp-fragment": "1"})
    assert (a.status_code, a.text) == (b.status_code, b.text), f"kept parts changed the answer: {pack_id} {op}"
    return a.status_code, a.text


def test_every_preset_of_every_pack_is_drawn_as_afresh(clients):
    from generator.web.common import preset_docs
    _, _, fragments, site = clients
    seen = 0
    for pack_id, pack in site.packs.items():
        for doc, _ in preset_docs(pack).values():
            for name in ("a", "b"):  # the second time, every row and chart is a kept one
                status, _ = both(clients, pack_id, dict(doc, name=f"{doc['name']} {name}"))
                assert status == 200
            seen += 1
    assert seen >= 10
    assert fragments.kept.hits > 0 and len(fragments.kept) > 0


def test_edits_that_break_and_mend_rules_are_drawn_as_afresh(clients):
    from generator.web.common import preset_docs
    _, _, _, site = clients
    for pack_id in ("boss_fight", "raid_boss", "final_boss", "tactics", "battle_bosses"):
        pack = site.packs[pack_id]
        for doc in [d for d, _ in preset_docs(pack).values()][:2]:
            doc = json.loads(json.dumps(doc))
            char = doc["characters"][0] if doc["characters"] else {}
            cards = list(char.get("deck", {}))[:2]
            ops = [{"op": "deck", "char": 0, "card": c, "delta": d} for c in cards for d in (5, -5, 1)] \
                + [{"op": "add", "card": c, "char": 0} for c in list(pack.cards)[:4]] \
                + [{"op": "remove_char", "char": 0}, {"op": "set_limit", "value": "1"}]
            for op in ops:
                status, text = both(clients, pack_id, doc, op)
                if status == 200:
                    doc = doc_of(text)


def deck_row(text: str, card_id: str) -> str:
    m = re.search(r'<li class="item[^"]*" data-path="characters\[0\]\.deck\.' + re.escape(card_id) + r'".*?</li>',
                  text, re.S)
    assert m, f"no row for {card_id}"
    return m.group(0)


def test_a_row_gains_its_violation_and_loses_it(clients):
    from generator.web.common import preset_docs
    _, _, _, site = clients
    pack = site.packs["boss_fight"]
    doc = json.loads(json.dumps(next(d for d, _ in preset_docs(pack).values() if d["characters"][0].get("deck"))))
    card = next(iter(doc["characters"][0]["deck"]))
    _, legal = both(clients, "boss_fight", doc)
    assert 'class="item "' in deck_row(legal, card) and "data-rule" not in deck_row(legal, card)
    _, over = both(clients, "boss_fight", doc, {"op": "deck", "char": 0, "card": card, "delta": 20})
    row = deck_row(over, card)
    assert 'class="item has-error"' in row and 'data-rule="' in row
    _, back = both(clients, "boss_fight", doc_of(over), {"op": "deck", "char": 0, "card": card, "delta": -20})
    assert deck_row(back, card) == deck_row(legal, card)


def test_a_part_is_kept_by_all_its_arguments(clients):
    _, _, _, site = clients
    from jinja2 import Environment

    from generator.web.pages import templates
    env: Environment = templates()
    kept = Fragments(env)
    args = ("boss_fight", 0, "characters[0].deck.x", "x", "A <card>", "Move", 2, False, "")
    one = kept("_rows.html", "deck", *args)
    assert kept("_rows.html", "deck", *args) is one and kept.kept.hits == 1
    assert "A &lt;card&gt;" in one and '"char": 0' in one
    other = kept("_rows.html", "deck", *args[:1], 1, *args[2:])
    assert other != one and '"char": 1' in other
    assert kept("_rows.html", "deck", *args[:7], True, "") != one  # read-only: a count, no buttons
