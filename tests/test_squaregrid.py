"""Square-grid geometry: properties that must hold for every tile (hypothesis): distance is a
metric, neighbours are the four orthogonal tiles, lines of sight are symmetric under both tie
rules and with heights; plus fixed facts about areas, corner ties and the page layout."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.grids import squaregrid as sg
from generator.grids.squaregrid import Square

coord = st.integers(min_value=-30, max_value=30)
tiles = st.builds(Square, coord, coord)
near = st.builds(Square, st.integers(0, 9), st.integers(0, 9))
blocker_sets = st.frozensets(near, max_size=30)
rules = st.sampled_from(["permissive", "strict"])
height_maps = st.dictionaries(near, st.one_of(st.none(), st.integers(0, 6)), max_size=60)


# ---- distance is a metric ------------------------------------------------------------------


@given(tiles, tiles)
def test_distance_is_symmetric_non_negative_and_zero_only_on_itself(a, b):
    assert sg.distance(a, b) == sg.distance(b, a) >= 0
    assert (sg.distance(a, b) == 0) == (a == b)


@given(tiles, tiles, tiles)
def test_distance_obeys_the_triangle_inequality(a, b, c):
    assert sg.distance(a, c) <= sg.distance(a, b) + sg.distance(b, c)


@given(tiles, tiles)
def test_distance_counts_orthogonal_steps(a, b):
    # a shortest walk of neighbour steps has exactly `distance` steps, never fewer
    steps, here = 0, a
    while here != b:
        here = min(sg.neighbours(here), key=lambda n: sg.distance(n, b))
        steps += 1
    assert steps == sg.distance(a, b)
    assert sg.chebyshev(a, b) <= sg.distance(a, b) <= 2 * sg.chebyshev(a, b)


@given(tiles)
def test_neighbours_are_the_four_orthogonal_tiles_at_distance_one(t):
    around = sg.neighbours(t)
    assert len(set(around)) == 4
    assert all(sg.distance(t, n) == 1 for n in around)
    assert not any(t + d in around for d in sg.DIAGONALS)  # no diagonals
    assert all(t in sg.neighbours(n) for n in around)


@given(tiles, st.integers(0, 8))
def test_diamond_is_every_tile_within_n_steps(t, n):
    ball = sg.diamond(t, n)
    assert len(ball) == len(set(ball)) == 2 * n * n + 2 * n + 1
    assert all(sg.distance(t, u) <= n for u in ball)


# ---- line of sight -----------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(near, near, blocker_sets, rules)
def test_line_of_sight_is_symmetric(a, b, blockers, rule):
    assert sg.line_of_sight(a, b, blockers, rule) == sg.line_of_sight(b, a, blockers, rule)


@settings(max_examples=300, deadline=None)
@given(near, near, height_maps, blocker_sets, rules)
def test_line_of_sight_over_heights_is_symmetric(a, b, heights, blockers, rule):
    def height(t):
        return heights.get(t, 0)

    assert sg.line_of_sight_3d(a, b, height, blockers, rule=rule) == \
        sg.line_of_sight_3d(b, a, height, blockers, rule=rule)


@given(near, near, blocker_sets)
def test_strict_sight_implies_permissive_sight(a, b, blockers):
    if sg.line_of_sight(a, b, blockers, "strict"):
        assert sg.line_of_sight(a, b, blockers, "permissive")


@given(near, blocker_sets, rules)
def test_a_tile_sees_itself_and_its_neighbours_and_the_ends_never_block(t, blockers, rule):
    everything = blockers | {t}
    assert sg.line_of_sight(t, t, everything, rule)
    for n in sg.neighbours(t):
        assert sg.line_of_sight(t, n, everything | {n}, rule)


@given(near, near)
def test_the_line_runs_from_end_to_end_through_touching_tiles(a, b):
    crossed = sg.crossings(a, b)
    assert crossed[0].tile == a and crossed[-1].tile == b
    assert crossed[0].t_in == 0 and crossed[-1].t_out == 1
    ties = {tie.t for tie in sg.corner_ties(a, b)}
    for first, second in zip(crossed, crossed[1:]):
        assert first.t_out == second.t_in  # no gaps along the line
        step = second.tile - first.tile
        # consecutive tiles share an edge, or meet at a corner the line passes exactly through
        assert step in sg.DIRECTIONS or (step in sg.DIAGONALS and first.t_out in ties)
    assert [c.tile for c in sg.crossings(b, a)] == [c.tile for c in reversed(crossed)]


def test_a_straight_row_is_blocked_by_any_tile_on_it():
    assert not sg.line_of_sight((0, 0), (4, 0), {(2, 0)})
    assert sg.line_of_sight((0, 0), (4, 0), {(2, 1)})


def test_a_diagonal_through_a_corner_uses_the_tie_rule():
    # (0,0) -> (2,2) passes exactly through the corners at (1,1) and (2,2)
    ties = sg.corner_ties((0, 0), (2, 2))
    assert [t.tiles for t in ties] == [(Square(0, 1), Square(1, 0)), (Square(1, 2), Square(2, 1))]
    one_side = {(1, 0)}
    assert sg.line_of_sight((0, 0), (2, 2), one_side, "permissive")
    assert not sg.line_of_sight((0, 0), (2, 2), one_side, "strict")
    assert not sg.line_of_sight((0, 0), (2, 2), {(1, 0), (0, 1)}, "permissive")
    assert not sg.line_of_sight((0, 0), (2, 2), {(1, 1)}, "permissive")


def test_height_blocks_sight_only_when_it_rises_above_the_line():
    flat = {Square(1, 0): 1}

    def h(t):
        return flat.get(t, 0)

    # both ends on the ground, eyes half a level up: a 1-level wall between blocks
    assert not sg.line_of_sight_3d((0, 0), (2, 0), h)
    # from 2 levels up, the line passes over the wall
    high = {Square(1, 0): 1, Square(0, 0): 2}
    assert sg.line_of_sight_3d((0, 0), (2, 0), lambda t: high.get(t, 0))
    # open air never blocks
    assert sg.line_of_sight_3d((0, 0), (2, 0), lambda t: None if t == Square(1, 0) else 0)


# ---- areas and layout --------------------------------------------------------------------------


@pytest.mark.parametrize("spec, count", [("+", 5), ("1", 5), ("2", 13), ("3x3", 9), ("2x3", 6), ("5x1", 5)])
def test_areas_written_as_text(spec, count):
    cells = sg.area(spec, Square(4, 4))
    assert len(cells) == len(set(cells)) == count
    assert Square(4, 4) in cells


def test_a_block_is_centred_on_its_tile():
    assert sg.area("3x3") == sorted(Square(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1))


@pytest.mark.parametrize("bad", ["", "x", "0", "3x", "10x10", "++", "B2"])
def test_anything_else_is_not_an_area(bad):
    with pytest.raises(ValueError):
        sg.area(bad)


def test_disc_is_a_rough_circle():
    assert len(sg.disc((0, 0), 1)) == 9
    three = sg.disc((0, 0), 3)
    assert Square(3, 1) in three and Square(2, 2) in three and Square(3, 2) not in three


@given(tiles, st.floats(min_value=5, max_value=80))
def test_layout_places_tiles_edge_to_edge(t, size):
    layout = sg.Layout(size)
    corners = layout.corners(t)
    sides = [abs(corners[i][0] - corners[(i + 1) % 4][0]) + abs(corners[i][1] - corners[(i + 1) % 4][1])
             for i in range(4)]
    assert all(abs(s - size) < 1e-6 for s in sides)
    right = layout.corners(t + (1, 0))
    assert right[0] == pytest.approx(corners[1]) and right[3] == pytest.approx(corners[2])
    assert layout.to_square(*layout.center(t)) == t


def test_fractions_make_corner_ties_exact():
    ties = sg.corner_ties((0, 0), (3, 1))
    assert [(tie.t, tie.tiles) for tie in ties] == [(Fraction(1, 2), (Square(1, 1), Square(2, 0)))]
