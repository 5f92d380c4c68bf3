"""Hex geometry: properties that must hold for every hex (hypothesis), plus a few fixed
facts from /work/shared/PRINT-SPECS.md (Red Blob Games' conventions)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.grids import hexgrid as hg
from generator.grids.hexgrid import Hex

coord = st.integers(min_value=-40, max_value=40)
hexes = st.builds(Hex, coord, coord)
small = st.integers(min_value=0, max_value=12)
shapes = st.lists(st.builds(Hex, st.integers(-3, 3), st.integers(-3, 3)), min_size=1, max_size=8)
orientation = st.sampled_from(["pointy", "flat"])


# ---- distance is a metric ------------------------------------------------------------------


@given(hexes, hexes)
def test_distance_is_symmetric_and_zero_only_on_itself(a, b):
    assert hg.distance(a, b) == hg.distance(b, a)
    assert (hg.distance(a, b) == 0) == (a == b)
    assert hg.distance(a, b) >= 0


@given(hexes, hexes, hexes)
def test_distance_obeys_the_triangle_inequality(a, b, c):
    assert hg.distance(a, c) <= hg.distance(a, b) + hg.distance(b, c)


@given(hexes)
def test_neighbours_are_six_hexes_at_distance_one(h):
    around = hg.neighbours(h)
    assert len(set(around)) == 6
    assert all(hg.distance(h, n) == 1 for n in around)


def test_neighbour_order_matches_the_cube_directions_of_the_spec():
    cube = [(d.q, d.r, d.s) for d in hg.DIRECTIONS]
    assert cube == [(1, 0, -1), (1, -1, 0), (0, -1, 1), (-1, 0, 1), (-1, 1, 0), (0, 1, -1)]


# ---- ranges and rings ----------------------------------------------------------------------


@given(hexes, small)
def test_a_range_of_n_holds_3n2_3n_1_hexes_all_within_n(center, n):
    area = hg.hex_range(center, n)
    assert len(area) == len(set(area)) == 3 * n * n + 3 * n + 1
    assert all(hg.distance(center, h) <= n for h in area)


@given(hexes, small)
def test_a_ring_holds_6n_hexes_at_exactly_n_and_walks_edge_to_edge(center, n):
    ring = hg.ring(center, n)
    assert len(ring) == len(set(ring)) == max(1, 6 * n)
    assert all(hg.distance(center, h) == n for h in ring)
    if n > 0:
        assert all(hg.distance(ring[i], ring[(i + 1) % len(ring)]) == 1 for i in range(len(ring)))


@given(hexes, small)
def test_rings_partition_the_range(center, n):
    rings = [h for k in range(n + 1) for h in hg.ring(center, k)]
    assert sorted(rings) == sorted(hg.hex_range(center, n))


@given(st.integers(1, 20), st.integers(1, 20), orientation)
def test_rectangle_has_rows_times_columns_hexes_and_offsets_round_trip(cols, rows, orient):
    cells = hg.rectangle(cols, rows, orient)
    assert len(set(cells)) == cols * rows
    for h in cells:
        col, row = hg.axial_to_offset(h, orient)
        assert 0 <= col < cols and 0 <= row < rows
        assert hg.offset_to_axial(col, row, orient) == h
    assert len(hg.connected_components(cells)) == 1


# ---- lines and line of sight ---------------------------------------------------------------


@given(hexes, hexes, st.sampled_from([1, -1]))
def test_a_line_is_contiguous_from_end_to_end(a, b, nudge):
    line = hg.line(a, b, nudge)
    assert line[0] == a and line[-1] == b
    assert len(line) == hg.distance(a, b) + 1
    assert all(hg.distance(line[i], line[i + 1]) == 1 for i in range(len(line) - 1))


@given(hexes, hexes, st.sampled_from([1, -1]))
def test_a_line_is_symmetric(a, b, nudge):
    assert hg.line(b, a, nudge) == list(reversed(hg.line(a, b, nudge)))


def test_a_line_along_an_edge_is_a_tie_the_two_nudges_break_both_ways():
    # from (0,0) to (1,1) (distance 2) the line runs along the edge between (1,0) and (0,1)
    plus, minus = hg.line((0, 0), (1, 1), 1), hg.line((0, 0), (1, 1), -1)
    assert {plus[1], minus[1]} == {Hex(1, 0), Hex(0, 1)}


def test_permissive_sight_passes_a_single_edge_blocker_and_strict_does_not():
    one_side = {Hex(1, 0)}
    both_sides = {Hex(1, 0), Hex(0, 1)}
    assert hg.line_of_sight((0, 0), (1, 1), one_side, "permissive")
    assert not hg.line_of_sight((0, 0), (1, 1), one_side, "strict")
    assert not hg.line_of_sight((0, 0), (1, 1), both_sides, "permissive")
    assert hg.line_of_sight((0, 0), (2, 0), set(), "strict")
    assert not hg.line_of_sight((0, 0), (2, 0), {Hex(1, 0)}, "permissive")


@settings(max_examples=60)
@given(hexes, hexes, st.sets(st.builds(Hex, st.integers(-6, 6), st.integers(-6, 6)), max_size=25))
def test_strict_sight_implies_permissive_sight_and_both_are_symmetric(a, b, blockers):
    strict = hg.line_of_sight(a, b, blockers, "strict")
    permissive = hg.line_of_sight(a, b, blockers, "permissive")
    assert not strict or permissive
    assert strict == hg.line_of_sight(b, a, blockers, "strict")
    assert permissive == hg.line_of_sight(b, a, blockers, "permissive")


@given(hexes, hexes)
def test_the_end_hexes_never_block_sight(a, b):
    assert hg.line_of_sight(a, b, {a, b}, "strict")


# ---- rotation, reflection, orientations ----------------------------------------------------


@given(hexes, hexes)
def test_six_rotations_are_the_identity(h, center):
    assert hg.rotate(h, 6, center) == h
    turned = h
    for _ in range(6):
        turned = hg.rotate(turned, 1, center)
    assert turned == h


@given(hexes, hexes, st.integers(0, 5))
def test_rotation_keeps_distances_from_the_centre(h, center, k):
    assert hg.distance(hg.rotate(h, k, center), center) == hg.distance(h, center)


def test_rotation_is_the_cube_rule_of_the_spec():
    # (q, r, s) -> (-r, -s, -q)
    h = Hex(2, -3)
    turned = hg.rotate(h)
    assert (turned.q, turned.r, turned.s) == (-h.r, -h.s, -h.q)
    assert hg.reflect(Hex(2, -3)) == Hex(2, 1)  # (q, s, r)


@given(hexes)
def test_reflecting_twice_is_the_identity(h):
    assert hg.reflect(hg.reflect(h)) == h


@given(shapes)
def test_a_shape_has_at_most_12_orientations_all_congruent(shape):
    shape = hg.shape_of(shape)
    found = hg.orientations(shape)
    assert 1 <= len(found) <= 12
    assert len(hg.orientations(shape, mirror=False)) <= 6
    keys = {hg.normalize(o) for o in found}
    assert len(keys) == len(found)
    for o in found:
        assert len(o) == len(shape)
        assert sorted(hg.distance(a, b) for a in o for b in o) == sorted(hg.distance(a, b) for a in shape for b in shape)
    # closed under rotation: every turn of an orientation is one of them (up to translation)
    for o in found:
        assert hg.normalize(hg.rotate_shape(o, 1)) in keys


def test_orientation_counts_of_known_shapes():
    assert len(hg.orientations([(0, 0)])) == 1
    assert len(hg.orientations([(0, 0), (1, 0)])) == 3  # a domino has three directions
    assert len(hg.orientations(hg.hexagon(1))) == 1
    # an L-shaped tetromino-like shape without symmetry has all 12
    assert len(hg.orientations([(0, 0), (1, 0), (2, 0), (2, 1)])) == 12


@given(shapes)
def test_shape_center_is_one_of_its_hexes(shape):
    assert hg.shape_center(shape) in hg.shape_of(shape)


# ---- layout: hex to page -------------------------------------------------------------------


@given(hexes, orientation, st.floats(min_value=5, max_value=60))
def test_page_position_round_trips(h, orient, f2f):
    layout = hg.Layout.from_flat_to_flat(orient, f2f, (12.5, -7.0))
    assert layout.to_hex(*layout.center(h)) == h


@given(hexes, orientation, st.floats(min_value=5, max_value=60))
def test_neighbour_centres_are_one_flat_to_flat_apart(h, orient, f2f):
    layout = hg.Layout.from_flat_to_flat(orient, f2f)
    cx, cy = layout.center(h)
    for n in hg.neighbours(h):
        nx, ny = layout.center(n)
        assert math.isclose(math.hypot(nx - cx, ny - cy), f2f, rel_tol=1e-9)


@pytest.mark.parametrize("orient", ["pointy", "flat"])
def test_corners_are_size_from_the_centre_and_flats_are_flat_to_flat_apart(orient):
    layout = hg.Layout.from_flat_to_flat(orient, 25.4)
    assert math.isclose(layout.size, 25.4 / math.sqrt(3))  # 14.665 mm, PRINT-SPECS.md
    corners = layout.corners(Hex(3, -1))
    cx, cy = layout.center(Hex(3, -1))
    assert all(math.isclose(math.hypot(x - cx, y - cy), layout.size) for x, y in corners)
    # opposite edges: midpoints of edge i and edge i+3 are flat_to_flat apart
    mids = [((corners[i][0] + corners[(i + 1) % 6][0]) / 2, (corners[i][1] + corners[(i + 1) % 6][1]) / 2)
            for i in range(6)]
    assert math.isclose(math.hypot(mids[0][0] - mids[3][0], mids[0][1] - mids[3][1]), 25.4)
    if orient == "pointy":  # a pointy hex has a corner straight up: (x, y - size)
        assert any(math.isclose(x, cx, abs_tol=1e-9) and math.isclose(y, cy - layout.size) for x, y in corners)
    else:
        assert any(math.isclose(y, cy, abs_tol=1e-9) and math.isclose(x, cx + layout.size) for x, y in corners)


def test_pixel_centres_follow_the_spec_formulas():
    size = 10.0
    pointy, flat = hg.Layout("pointy", size), hg.Layout("flat", size)
    q, r = 2, -1
    s3 = math.sqrt(3)
    assert pointy.center((q, r)) == pytest.approx((size * (s3 * q + s3 / 2 * r), size * 1.5 * r))
    assert flat.center((q, r)) == pytest.approx((size * 1.5 * q, size * (s3 / 2 * q + s3 * r)))


@given(st.sets(st.builds(Hex, st.integers(-5, 5), st.integers(-5, 5)), max_size=40))
def test_connected_components_partition_and_are_connected(cells):
    groups = hg.connected_components(cells)
    assert sorted(h for g in groups for h in g) == sorted(cells)
    for g in groups:
        assert len(hg.connected_components(g)) == 1
    for i, g in enumerate(groups):  # no edge joins two groups
        others = {h for j, o in enumerate(groups) if j != i for h in o}
        assert not any(n in others for h in g for n in hg.neighbours(h))
