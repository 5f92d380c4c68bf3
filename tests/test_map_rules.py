"""Map rules a pack declares in game.yaml (generator.maps.pack_rules), on Battle Bosses' arena
boards: every space in a fog-of-war region (`regions_cover`), every boss start space beside its
own team's base (`zone_beside`). Each holds on the shipped boards, and one edit of a copy
breaks it with an error at the map file's line; a duel tile, with no regions and no base, is
not the kind of map they speak of."""

from __future__ import annotations

import re
import shutil

import pytest

from generator.core.errors import InputError
from generator.maps import load_pack_maps, validate_map
from generator.pack.load import load_pack
from click.testing import CliRunner

from generator.cli import main

from conftest import REPO

BB = REPO / "card_data" / "battle_bosses"


@pytest.fixture
def arena(tmp_path):
    root = tmp_path / "battle_bosses"
    shutil.copytree(BB, root)
    return root


def _line(path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


def _rules(report, rule):
    return [v for v in report.violations if v.rule == rule]


def test_the_shipped_boards_and_tiles_hold_the_map_rules():
    pack = load_pack(BB)
    assert {r.id: r.check for r in pack.spec.rules if r.check in ("regions_cover", "zone_beside")} == {
        "arena.regions": "regions_cover", "arena.spawn": "zone_beside"}
    for m in load_pack_maps(pack):
        report = validate_map(pack, m.file)
        assert not _rules(report, "arena.regions") and not _rules(report, "arena.spawn"), m.file
    arenas = [m for m in load_pack_maps(pack) if m.regions]
    assert len(arenas) == 2 and all(set(m.region_teams.values()) == {"alpha", "omega"} for m in arenas)


@pytest.mark.parametrize("board", ["arena-6p", "arena-4p"])
def test_a_space_left_out_of_every_region_is_an_error_at_its_line(arena, board):
    path = arena / "maps" / f"{board}.yaml"
    text = path.read_text()
    head, regions = text.split("\nregions:\n")
    wastes = regions.split("  the-wastes:\n")[1].split("hexes: [")[1]
    first = wastes.split("]", 1)[0] + "]"  # the Wastes' first space, e.g. [-5, -1]
    path.write_text(head + "\nregions:\n" + regions.replace("hexes: [" + first + ", ", "hexes: [", 1))
    q, r = (int(v) for v in first.strip("[]").split(","))
    report = validate_map(load_pack(arena), path)
    (v,) = _rules(report, "arena.regions")
    assert v.severity == "error" and not report.legal
    assert v.observed == [q, r] and f"hex ({q},{r}) is in no region" in v.message
    assert v.location.file.endswith(f"{board}.yaml") and v.location.line == _line(path, "regions:")
    assert "the-wastes" in v.fix  # the region round it
    # `pnp validate` on the pack says the same, at the same line, and exits 1
    result = CliRunner().invoke(main, ["validate", str(arena)])
    assert result.exit_code == 1
    assert re.search(rf"{board}\.yaml:{v.location.line}:\d+: error arena\.regions hex \({q},{r}\)", result.output)


def test_a_start_space_away_from_its_base_is_an_error_at_its_line(arena):
    path = arena / "maps" / "arena-6p.yaml"
    text = path.read_text()
    # Alpha's spawn space [1, -5] moved to [1, -4], two steps from the base
    path.write_text(text.replace("zones:\n  boss: [[1, -6], [5, -6], [1, -5],", "zones:\n  boss: [[1, -6], [5, -6], [1, -4],", 1))
    report = validate_map(load_pack(arena), path)
    (v,) = _rules(report, "arena.spawn")
    assert v.severity == "error" and v.observed == [1, -4]
    assert "start space (1,-4) of zone `boss` is not next to a Team Base space" in v.message
    assert v.location.file.endswith("arena-6p.yaml") and v.location.line == _line(path, "  boss: [[")
    assert v.location.column > 20  # at the moved hex, not the start of the list


def test_a_start_space_beside_the_other_teams_base_is_an_error(arena):
    path = arena / "maps" / "arena-6p.yaml"
    text = path.read_text()
    # Omega's base space [-4, 6] handed to Alpha's base region: the Omega spawn spaces beside
    # only that space now touch the other team's base
    text = text.replace("    hexes: [[2, -6], [3, -6], [4, -6]]", "    hexes: [[2, -6], [3, -6], [4, -6], [-4, 6]]", 1)
    text = text.replace("    hexes: [[-4, 6], [-3, 6], [-2, 6]]", "    hexes: [[-3, 6], [-2, 6]]", 1)
    path.write_text(text)
    report = validate_map(load_pack(arena), path)
    found = _rules(report, "arena.spawn")
    assert [tuple(v.observed) for v in found] == [(-4, 5), (-5, 6)]  # the two that touch only [-4, 6]
    assert "not next to a Team Base space of its own team (omega)" in found[0].message


def test_a_duel_tile_is_not_checked_and_a_rule_without_its_terrain_is_refused(arena):
    pack = load_pack(arena)
    tile = arena / "maps" / "tile-a1.yaml"
    assert validate_map(pack, tile).legal  # a start space and no base: not an arena
    game = arena / "game.yaml"
    game.write_text(game.read_text().replace("    terrain: base\n", "    terrain: bsae\n", 1))
    with pytest.raises(InputError) as err:
        load_pack(arena)
    (p,) = err.value.problems
    assert p.code == "pack.reference" and p.fix == "did you mean `base`?"
    assert p.location.line == _line(game, "terrain: bsae")
