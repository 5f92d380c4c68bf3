"""Footprint placement in integer arithmetic (generator/maps/placing.py) gives the same
placements, moves and free hexes as the plain Hex-set definitions it replaced."""

from generator.grids import hexgrid
from generator.grids.hexgrid import Hex
from generator.maps import checks, placing


def _shapes(cells):
    return hexgrid.orientations(frozenset(Hex(*c) for c in cells), mirror=True)


def test_hex_ints_round_trip_and_add_like_hexes():
    for q, r in [(0, 0), (-200, 200), (200, -200), (-1, -1), (37, -5)]:
        assert placing.hex_of(placing.key((q, r))) == Hex(q, r)
        for d in hexgrid.DIRECTIONS:
            assert placing.hex_of(placing.key((q, r)) + placing.key(d)) == Hex(q, r) + d


def test_placements_match_the_set_definition():
    allowed = frozenset(hexgrid.hexagon(4)) - {Hex(0, 0), Hex(2, -1), Hex(-3, 1)}
    shapes = _shapes([(0, 0), (1, 0), (0, 1), (-1, 1)])
    expected = [(a, hexgrid.translate(s, a)) for s in shapes for a in sorted(allowed)
                if hexgrid.translate(s, a) <= allowed]
    got = [(p.anchor, p.cells) for p in checks.placements(allowed, shapes)]
    assert got == expected and len(got) > 10


def test_moves_and_free_hexes_match_the_set_definition():
    # a corridor two hexes wide, and apart from it a pocket just the size of the triangle:
    # placements in the corridor can move, the one in the pocket cannot
    pocket = {Hex(20, 0), Hex(21, 0), Hex(20, 1)}
    walkable = frozenset(Hex(q, r) for q in range(8) for r in range(2)) | {Hex(8, 0)} | pocket
    walk = placing.keys(walkable)
    outcomes = set()
    for cells in ([(0, 0), (1, 0), (0, 1)], [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1)]):
        for shape in _shapes(cells):
            fast = placing.Shape(shape, checks.MIN_DISTANCE)
            for p in checks.placements(walkable, [shape]):
                k = placing.key(p.anchor)
                slow = checks.can_move(p, walkable)
                assert placing.can_move(fast, k, walk) == slow
                outcomes.add(slow)
                assert placing.free_after(fast, k, walk) == len(walkable - hexgrid.dilate(p.cells, checks.MIN_DISTANCE))
    assert outcomes == {True, False}
