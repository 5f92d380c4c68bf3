"""Card field types are one registry (generator.pack.fieldtypes): every registered type goes to
a spreadsheet and back unchanged, shows in `pnp list`, the card schema and the rulebook's card
list, and a type that leaves out one of its methods, or has no declared name, refuses to import."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from generator.pack import fieldtypes
from generator.pack.cardlist import render_card_list
from generator.pack.field_names import FIELD_TYPES
from generator.pack.fieldtypes import FIELD_KINDS, FieldKind, IntField, register, registry_matches
from generator.pack.load import load_pack
from generator.pack.model import FieldSpec
from generator.pack.schemas import card_models
from generator.pack.sheets.write import export_pack
from generator.render.rulebook.reference import card_columns

REPO = Path(__file__).resolve().parents[1]

# one field of every type, and a value for it that the list, schema and rulebook can show
PROBE = {
    "int": ({"type": "int"}, 7),
    "text": ({"type": "text", "pattern": "^[A-Z][0-9]$"}, "B2"),
    "choice": ({"type": "choice", "choices": ["Fire", "Ice"]}, "Ice"),
    "stats": ({"type": "stats"}, {"health": 4, "strength": 2}),
    "stat": ({"type": "stat"}, "agility"),
    "hexes": ({"type": "hexes"}, [[0, 0], [1, -1]]),
    "attacks": ({"type": "attacks"}, {"heavy": {"damage": 5, "range": 2, "text": "Crush"}}),
    "requirements": ({"type": "requirements"}, [{"stat": "strength", "min": 3}]),
    "feat": ({"type": "feat"}, {"name": "Stonehide", "text": "Ignore the first hit."}),
    "card-refs": ({"type": "card-refs"}, ["walk"]),
    "card-ref": ({"type": "card-ref"}, "walk"),
    "bool": ({"type": "bool"}, True),
    "pair": ({"type": "pair"}, "+4/2"),
    "counts": ({"type": "counts"}, {"Easy": 7, "Hard": 4}),
    "ability-list": ({"type": "ability-list"}, [{"name": "Surge", "cost": 2, "text": "Move 1.", "extra": ""}]),
}


def field_name(ftype: str) -> str:
    return "probe_" + ftype.replace("-", "_")


@pytest.fixture(scope="module")
def probe_pack(tmp_path_factory) -> Path:
    """boss_fight with a `probe` card type holding one field of every registered type."""
    root = tmp_path_factory.mktemp("probe") / "boss_fight"
    shutil.copytree(REPO / "card_data" / "boss_fight", root)
    game = yaml.safe_load((root / "game.yaml").read_text(encoding="utf-8"))
    game["card_types"]["probe"] = {"name": "Probe", "kit_copies": 0,
                                   "fields": {field_name(t): spec for t, (spec, _) in PROBE.items()}}
    (root / "game.yaml").write_text(yaml.safe_dump(game, sort_keys=False, allow_unicode=True), encoding="utf-8")
    card = {"id": "probe-card", "name": "Probe Card", "type": "probe", "set": "neutral", "points": 3,
            **{field_name(t): value for t, (_, value) in PROBE.items()}}
    (root / "cards" / "probe.yaml").write_text(yaml.safe_dump({"cards": [card]}, sort_keys=False), encoding="utf-8")
    return root


def test_every_declared_field_type_is_registered_and_is_the_models_field_type():
    assert set(FIELD_KINDS) == set(FIELD_TYPES) == set(PROBE)
    for name in FIELD_TYPES:
        assert FieldSpec(type=name).type == name
    with pytest.raises(ValueError):
        FieldSpec(type="colour")


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "ods"])
def test_every_field_type_goes_to_a_spreadsheet_and_back_unchanged(probe_pack, tmp_path, fmt):
    pack = load_pack(probe_pack)
    card = pack.cards["probe-card"]
    assert card.fields[field_name("stats")] == PROBE["stats"][1]
    copy = tmp_path / "copy"
    shutil.copytree(probe_pack, copy)
    for path in (copy / "cards").iterdir():
        path.unlink()
    export_pack(pack, copy / "cards" / f"cards.{fmt}")
    again = load_pack(copy)
    for ftype in PROBE:
        name = field_name(ftype)
        assert card.fields[name] not in (None, [], {}), ftype
        assert again.cards["probe-card"].fields[name] == card.fields[name], ftype


def test_every_field_type_is_in_the_card_schema(probe_pack):
    pack = load_pack(probe_pack)
    schema = card_models(pack.spec)["probe"].model_json_schema()
    for ftype in PROBE:
        assert field_name(ftype) in schema["properties"], ftype


# what `pnp list` shows for each type (free text and single card references are not statistics)
LISTED = {"int": {"probe_int": 7}, "text": {"probe_text": "B2"}, "choice": {"probe_choice": "Ice"},
          "stats": {"probe_stats_health": 4, "probe_stats_strength": 2}, "stat": {"probe_stat": "agility"},
          "hexes": {"probe_hexes": 2}, "attacks": {"heavy_damage": 5, "heavy_range": 2},
          "requirements": {"probe_requirements": "strength ≥ 3"}, "feat": {"probe_feat": "Stonehide"},
          "card-refs": {"probe_card_refs": "walk"}, "card-ref": {}, "bool": {"probe_bool": True},
          "pair": {"probe_pair": "+4/2"}, "counts": {"probe_counts": "Easy 7, Hard 4"}, "ability-list": {}}

# what the rulebook's card list shows (heading, cell) for each type
IN_BOOK = {"int": ("Probe int", "7"), "choice": ("Probe choice", "Ice"),
           "stats": ("Probe stats", "+4 :health: +2 :strength:"), "stat": ("Probe stat", ":agility: Agility"),
           "hexes": ("Probe hexes :hex:", "2"), "attacks": ("Heavy", ":damage:5 :range:2"),
           "requirements": ("Probe requirements", ":strength: Strength 3+"), "feat": ("Probe feat", "Stonehide"),
           "card-refs": ("Probe card refs", "Walk"), "bool": ("Probe bool", "yes")}


def test_every_field_type_shows_in_the_list_and_the_rulebook_as_its_class_says(probe_pack):
    pack = load_pack(probe_pack)
    rows = {r["id"]: r for r in json.loads(render_card_list(pack, "json"))["cards"]}
    row = rows["probe-card"]
    header, cells = card_columns(pack, "probe", [pack.cards["probe-card"]])
    book = dict(zip(header, cells[0]))
    for ftype in PROBE:
        for key, value in LISTED[ftype].items():
            assert row.get(key) == value, (ftype, key, row.get(key))
        if ftype in IN_BOOK:
            head, cell = IN_BOOK[ftype]
            assert book.get(head) == cell, (ftype, book)
        else:  # the type says it has no rulebook column
            assert FIELD_KINDS[ftype].rulebook_columns(pack, "x", FieldSpec(type=ftype), lambda c: None) == []


def test_a_field_type_without_one_of_its_methods_is_refused_at_import():
    with pytest.raises(TypeError, match="leaves out list_values"):
        @register
        class Colour(FieldKind):  # noqa: F811 (a type that forgets `pnp list`)
            name = "colour"
            sheet_text = True
            sheet_pair = False
            annotation = sheet_shape = sheet_offered = list_columns = audit_features = staticmethod(lambda *a: None)
            rulebook_columns = page_text = staticmethod(lambda *a: None)
    assert "colour" not in FIELD_KINDS


def test_a_registered_type_without_a_declared_name_or_a_twice_registered_one_is_refused():
    with pytest.raises(RuntimeError, match="field_names"):
        registry_matches(FIELD_TYPES, {**FIELD_KINDS, "colour": IntField})
    with pytest.raises(RuntimeError, match="field_names"):
        registry_matches(FIELD_TYPES + ("colour",), FIELD_KINDS)
    with pytest.raises(TypeError, match="registered twice"):
        register(type("Again", (IntField,), {}))
    assert fieldtypes.FIELD_KINDS["int"] is IntField


def test_what_a_sheet_offers_and_which_field_holds_stats_come_from_the_type_classes():
    """The spreadsheet's drop-down lists, the bare stat column alias and `pnp list`'s bonus
    columns ask the type class, not a type name."""
    choice = FieldSpec(type="choice", choices=["melee", "ranged"])
    assert FIELD_KINDS["choice"].sheet_choices(choice) == ["melee", "ranged"]
    assert FIELD_KINDS["choice"].sheet_choices(FieldSpec(type="choice")) is None
    assert [n for n, k in FIELD_KINDS.items() if k.sheet_choices(FieldSpec(type=n)) is not None] == []
    assert [n for n, k in FIELD_KINDS.items() if k.holds_stats] == ["stats"]


def test_paper_names_have_one_home():
    """core/papers.py names the papers; render/base/paper.py sizes exactly those (it refuses to
    load otherwise), and a sheet imposition's `paper:` accepts those and the press sheet."""
    from typing import get_args

    from generator.core.papers import PAPERS, SHEET_PAPERS
    from generator.render.base.paper import PAPERS_PT, PRESS_SHEETS_MM
    from generator.render.base.sheets import SheetSpec
    assert tuple(PAPERS_PT) == PAPERS and tuple(PAPERS_PT) + tuple(PRESS_SHEETS_MM) == SHEET_PAPERS
    assert get_args(SheetSpec.model_fields["paper"].annotation) == SHEET_PAPERS
