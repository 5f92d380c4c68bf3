"""No dead ends in the editor (issue 26, item 1): for every side of every pack, from an empty
build and from one character, each place the page leaves on takes its first card with a 200
answer (the copy buttons send `deck` changes, the others `add`), and each place it turns off
says why in the side's words."""

from __future__ import annotations

import json
import re

import pytest

from web_support import PACKS, editor_state, make_client


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    c, _ = make_client(tmp_path_factory.mktemp("builds"), tmp_path_factory.mktemp("cache"))
    return c


def _sides():
    from generator.pack.load import load_pack
    return [(load_pack(d), s) for d in sorted(PACKS.iterdir()) if (d / "game.yaml").exists()
            for s in load_pack(d).spec.sides]


def _apply(client, pack_id, doc, op, target):
    return client.post(f"/p/{pack_id}/edit/apply", json={"build": doc, "op": op, "target": target},
                       headers={"x-pnp-fragment": "1"})


def _state(page):
    doc, target = editor_state(page)
    blocked = json.loads(re.search(r"data-blocked='([^']*)'", page).group(1).replace("&#34;", '"'))
    return doc, target, blocked


@pytest.mark.parametrize("pack, side_id", _sides(), ids=[f"{p.spec.id}-{s}" for p, s in _sides()])
def test_every_place_left_on_takes_a_card(client, pack, side_id):
    from generator.web.state import place_of, side_cards
    first = {}
    for card in side_cards(pack, side_id):
        first.setdefault(place_of(pack, side_id, card.type), card)
    doc = {"pack": pack.spec.id, "name": "x", "side": side_id, "characters": []}
    for step in range(2):  # an empty build, then one with a character
        page = _apply(client, pack.spec.id, doc, {"op": "view"}, {}).text
        doc, target, blocked = _state(page)
        for place, card in first.items():
            if blocked.get(place):
                assert re.search(r"first|remove one", blocked[place]), blocked[place]
                continue
            op = ({"op": "deck", "char": target["char"], "card": card.id, "delta": 1}
                  if place == "deck" else {"op": "add", "card": card.id})
            r = _apply(client, pack.spec.id, doc, op, target)
            assert r.status_code == 200, (step, place, r.text[:300])
        if step == 0:
            r = _apply(client, pack.spec.id, doc, {"op": "add", "card": first["base"].id}, target)
            assert r.status_code == 200
            doc = _state(r.text)[0]
            assert doc["characters"], "the first base card makes a character"
