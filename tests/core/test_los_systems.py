"""Every system's LOS rules answered from bit sets (core/losgrid.py) give exactly the answers of
the per-pair trace (``line_of_sight(..).clear``) on random boards with heights, blocking terrain,
defilade hexsides, fence and hedge pictures: Firefight 5.1, 5.2, 13.2 (Firefight), MBT 6.1.4
(MBT), Firepower 6.3.4 (Firepower). The lines of sight the AIs ask in batch are symmetric."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.core import losgrid, losjit
from hexwar.core.board import Board
from hexwar.core.hexgrid import Hex, trace
from hexwar.core.los import line_of_sight
from hexwar.core.losgrid import MaskKernel, bits, sight_kernel
from hexwar.plugins.firefight.rules.height import HeightLayer
from hexwar.plugins.firefight.sighting import FirefightLos, defilade_sides
from hexwar.plugins.firepower.los import FirepowerLos
from hexwar.plugins.firepower.terrain import FpMap
from hexwar.plugins.mbt.terrain import BasicLos, map_info
from tests.core.test_los_fast import assert_same, pairs_of, random_board, undecided

SEEDS = st.integers(0, 10**6)
DEFILADE = tuple(f"defilade:{d}" for d in range(1, 7))


def ff_board(seed: int) -> Board:
    return random_board(seed, terrain=("clear", "clear", "clear", "forest", "town"),
                        heights=(440, 440, 460, 480, 500), features=DEFILADE)


@settings(max_examples=20, deadline=None)
@given(SEEDS)
def test_firefight_basic(seed: int) -> None:
    """Firefight 5.1 Forest and Town between block; Firefight 5.2 defilade hexsides of a position
    between block (not a two-sided one at an end, FFD-5); leaving the board blocks."""
    board = ff_board(seed)
    assert any(defilade_sides(board, h) for h in board.hexes)
    ps = pairs_of(board, seed)
    assert_same(board, FirefightLos(), None, ps)
    k = sight_kernel(board, FirefightLos())
    if isinstance(k, MaskKernel) and k.compiled is not None:
        # the C query leaves to the rules only a defilade hexside at an end hex (FFD-5)
        g = k.grid

        def end_side(a: Hex, b: Hex) -> bool:
            shift, t = g.ray(a, b)
            return any({a, b} & set(g.side_of_bit(shift, bit))
                       for bit in bits((k.side_maybe >> (3 * shift)) & t.sides))

        assert all(end_side(a, b) for a, b in undecided(k, ps))


@settings(max_examples=20, deadline=None)
@given(SEEDS)
def test_firefight_heights(seed: int) -> None:
    """Firefight 13.2, 13.22, 13.23 (the height layer, Forest and Town at ground + 20) with the
    options the height rule sets, and the impassable hexsides of the Addenda."""
    board = ff_board(seed)
    cells = sorted(board.hexes)
    walls = frozenset(frozenset((h, n)) for h in cells[::7] for n in board.neighbors_of[h][:1])
    rules = FirefightLos([HeightLayer()], {"defilade_blocks": False, "forest_town_block": False,
                                           "blocking_sides": walls})
    assert_same(board, rules, None, pairs_of(board, seed))
    assert_same(board, FirefightLos([HeightLayer()]), None, pairs_of(board, seed + 1, 60))


def test_firefight_unknown_layer_walks_each_line() -> None:
    class Fog:
        name = "fog"

        def hex_effect(self, *args: Any) -> None:
            return None

        def hexside_effect(self, *args: Any) -> None:
            return None

    board = ff_board(5)
    assert not isinstance(sight_kernel(board, FirefightLos([Fog()])), MaskKernel)


@settings(max_examples=20, deadline=None)
@given(SEEDS)
def test_mbt_basic(seed: int) -> None:
    """MBT 6.1.4.3-6.1.4.5: woods and buildings, hills, depressions; corners ignored (6.1.4.1)."""
    board = random_board(seed, terrain=("clear", "clear", "scrub", "woods", "brick", "stone"),
                         heights=(0, 0, 0, 1, 2, -1))
    info = map_info(board)
    rules = BasicLos(info)
    ps = pairs_of(board, seed)
    assert_same(board, rules, None, ps)
    if info.kernel.compiled is not None:
        assert undecided(info.kernel, ps) == []  # every line decided in C
    assert [info.los(a, b) for a, b in ps] == \
        [line_of_sight(board, min(a, b), max(a, b), rules).clear for a, b in ps]


POSTURES = ("prone", "crouch", "stand")


@settings(max_examples=20, deadline=None)
@given(SEEDS, st.sampled_from(POSTURES), st.sampled_from((*POSTURES, None)),
       st.sampled_from((None, 1, 2, 3, 4, 5, 6)))
def test_firepower_basic(seed: int, firer: str, target: str | None, side: int | None) -> None:
    """Firepower 6.3.4.1 hills, 6.3.4.2 fences with a Prone unit (in the end hexes too),
    6.3.4.3 friendly soldiers; trees and hedges only hinder."""
    board = random_board(seed, terrain=("clear", "clear", "tree", "rough", "scrub"),
                         heights=(0, 0, 0, 1, -1),
                         features=("fence:1-4", "fence:2-5", "hedge:3-6", "hedge:1-3"))
    m = FpMap.from_board(board)
    cells = sorted(board.hexes)
    friendly = {h: POSTURES[i % 3] for i, h in enumerate(cells[3::5])}
    data = {"firer_posture": firer, "target_posture": target, "firer_side": side,
            "target_side": side, "friendly": friendly}
    ps = pairs_of(board, seed)
    assert_same(board, FirepowerLos(m), data, ps)
    k = sight_kernel(board, FirepowerLos(m), data)
    if isinstance(k, MaskKernel) and k.compiled is not None:
        assert undecided(k, ps) == []  # fences with a Prone unit too: losgrid.Chords in C
    if losjit.AVAILABLE:
        # every line is decided in the compiled loop, Prone fences included (losgrid.Chords):
        # none goes back to the Python path, which is what kept such batches slow
        k = sight_kernel(board, FirepowerLos(m), data)
        assert isinstance(k, MaskKernel)
        asked: list[tuple[Hex, Hex]] = []
        single = k.clear

        def spy(a: Hex, b: Hex) -> bool:
            asked.append((a, b))
            return single(a, b)

        k.clear = spy  # type: ignore[method-assign]
        assert losjit.run(k, ps) == [line_of_sight(board, a, b, FirepowerLos(m), data).clear
                                     for a, b in ps]
        assert asked == []


def test_every_system_without_the_extension(monkeypatch: Any) -> None:
    """The fallback (no C extension): each system's kernel answers through the pure-Python
    closure alone, as the trace: Firefight 5.1-5.2 and 13.2, MBT 6.1.4, Firepower 6.3.4 with a
    Prone unit."""
    monkeypatch.setattr(losgrid, "COMPILED", None)
    board = ff_board(31)
    walls = frozenset(frozenset((h, n)) for h in sorted(board.hexes)[::7]
                      for n in board.neighbors_of[h][:1])
    mbt = random_board(31, terrain=("clear", "woods", "brick"), heights=(0, 1, -1))
    fp = random_board(31, terrain=("clear", "tree", "rough"), heights=(0, 0, 1, -1),
                      features=("fence:1-4", "fence:2-5", "hedge:3-6"))
    prone = {"firer_posture": "stand", "target_posture": "prone", "firer_side": None,
             "target_side": 2}
    for b, rules, data in ((board, FirefightLos(), None),
                           (board, FirefightLos([HeightLayer()], {"blocking_sides": walls}), None),
                           (mbt, BasicLos(map_info(mbt)), None),
                           (fp, FirepowerLos(FpMap.from_board(fp)), prone)):
        k = sight_kernel(b, rules, data)
        assert isinstance(k, MaskKernel) and k.compiled is None and k.clear is k.clear_python
        assert_same(b, rules, data, pairs_of(b, 31, 60))


def test_fence_geometry_in_integers() -> None:
    """The compiled loop's integer geometry of a picture (core/losjit.py) answers as
    terrain.Picture's float geometry: lines crossing, touching and running along a chord, and a
    fence between a unit on either part (or an unknown part) of its hex and another hex."""
    from hexwar.plugins.firepower.terrain import Picture

    chords = [(x, y) for x in range(1, 7) for y in range(1, 7) if (y - x) % 6 in (2, 3, 4)]
    offsets = [(dq, dr) for dq in range(-7, 8) for dr in range(-7, 8) if (dq, dr) != (0, 0)]
    crossed = along = 0
    for sa, sb in chords:
        code = 8 * sa + sb
        for hq, hr in [(0, 0), (1, 0), (2, -1), (-1, 3), (3, 1), (0, -2), (-2, 1)]:
            pic = Picture("fence", Hex(hq, hr), sa, sb)
            for dq, dr in offsets:
                want = pic.crossed_by(Hex(0, 0), Hex(dq, dr))
                assert losjit._chord_crossed(dq, dr, hq, hr, code) == want, (sa, sb, hq, hr, dq, dr)
                crossed += want
                along += want and trace(Hex(0, 0), Hex(dq, dr)).along_hexside
        home = Picture("fence", Hex(0, 0), sa, sb)
        for part in (None, 1, 2, 3, 4, 5, 6):
            for dq, dr in offsets:
                assert losjit._chord_between(code, part or 0, dq, dr) == \
                    home.between(part, Hex(dq, dr)), (sa, sb, part, dq, dr)
    assert crossed > 1000 and along > 0


@settings(max_examples=15, deadline=None)
@given(SEEDS)
def test_batch_lines_are_symmetric(seed: int) -> None:
    """The AIs ask "what can this hex see" from the viewer's or the target's end; Firefight and MBT
    lines of sight read the same both ways (each system's has_los/los orders the ends)."""
    board = ff_board(seed)
    mbt = random_board(seed, terrain=("clear", "woods", "brick"), heights=(0, 1, -1))
    for b, rules in ((board, FirefightLos()), (board, FirefightLos([HeightLayer()])),
                     (mbt, BasicLos(map_info(mbt)))):
        k = sight_kernel(b, rules)
        for x, y in pairs_of(b, seed, 80):
            assert k.clear(x, y) == k.clear(y, x), (x, y)


def test_mbt_kernel_is_built_once_per_board() -> None:
    board = random_board(9, terrain=("clear", "woods"), heights=(0, 1))
    info = map_info(board)
    assert info.kernel is info.kernel
    assert sight_kernel(board, BasicLos(info)) is info.kernel
    a = Hex(1, 1)
    assert info.visible(a, board.hexes) == {b for b in board.hexes if info.los(a, b)}


def test_firefight_game_kernel_follows_smoke(tmp_path: Path) -> None:
    """Firefight 14.11 smoke blocks like Forest; placing and removing it bumps the LOS epoch and
    the game's kernel is rebuilt: has_los and visible_hexes agree with the exact trace each time."""
    from hexwar.plugins.firefight.rules.smoke import place_smoke
    from hexwar.plugins.firefight.sighting import has_los, los_rules, visible_hexes
    from hexwar.plugins.firefight.testing import mini_game, unit_spec

    hexes = [{"at": f"{c:02d}{r:02d}", "terrain": "forest"} for c, r in ((5, 5), (9, 12), (14, 7))]
    hexes += [{"at": "1010", "features": ["defilade:2"]}, {"at": "0808", "height": 480}]
    g = mini_game(tmp_path, [unit_spec("a", "US-TM", "US", "0210"),
                             unit_spec("b", "SU-TM", "SU", "2010")], hexes,
                  rules=["firefight.smoke", "firefight.height"])
    board = g.board
    cells = sorted(h for h in board.hexes if h.q <= 20 and 0 <= h.r + h.q // 2 <= 20)
    origin = board.parse("1010")

    def check() -> None:
        rules = los_rules(g)
        exact = {b for b in cells if line_of_sight(board, min(origin, b), max(origin, b), rules,
                                                   g).clear}
        assert {b for b in cells if has_los(g, origin, b)} == exact
        assert visible_hexes(g, origin, cells) == exact

    check()
    before = visible_hexes(g, origin, cells)
    place_smoke(g, "1310", "US", "a", "Firefight 14.0")
    check()
    assert visible_hexes(g, origin, cells) < before  # the smoke hides something
    from hexwar.plugins.firefight.rules._common import bump_los, rstate

    rstate(g, "smoke")["markers"] = []
    bump_los(g)
    check()
    assert visible_hexes(g, origin, cells) == before


def test_caches_are_bounded_by_the_board(monkeypatch: Any) -> None:
    """No per-pair LOS cache grows with queries: the kernel keeps one template per offset (at most
    (2W-1)(2H-1) for a board), MBT's map info holds no answers, Firepower's per-pair terrain
    summary starts afresh at its limit with the same answers."""
    import hexwar.plugins.firepower.terrain as fpt

    board = random_board(11, terrain=("clear", "woods"), heights=(0, 1), holes=False)
    info = map_info(board)
    cells = sorted(board.hexes)
    for a in cells:
        info.visible(a, cells)
    g = info.kernel.grid
    offsets = {(b.q - a.q, b.r - a.r) for a in cells for b in cells}
    assert len(g._templates) == len(offsets)
    for a in cells[:5]:
        for b in cells:
            info.los(a, b)
    assert len(g._templates) == len(offsets)
    assert not any(isinstance(v, dict) and len(v) > len(offsets) for v in vars(info).values())

    monkeypatch.setattr(fpt, "STATIC_LOS_LIMIT", 10)
    fboard = random_board(12, terrain=("clear", "tree"), heights=(0, 1),
                          features=("fence:1-4", "hedge:2-5"))
    m = FpMap.from_board(fboard)
    fresh = FpMap.from_board(fboard)
    fcells = sorted(fboard.hexes)
    for a, b in zip(fcells, reversed(fcells), strict=True):
        assert m.static_los(a, b) == FpMap.from_board(fboard).static_los(a, b)
        assert len(m._static) <= 10
    assert fresh._static == {}


def test_defilade_features_are_parsed_once_per_feature_set() -> None:
    """Firefight 5.2: a position's defilade hexsides come from its ``defilade:N`` features, parsed
    once per distinct feature set however often lines of sight ask."""
    from hexwar.plugins.firefight.sighting import _defilade_of

    board = ff_board(13)
    _defilade_of.cache_clear()
    for _ in range(50):
        for h in board.hexes:
            defilade_sides(board, h)
    distinct = {board.features_of[h] for h in board.hexes if board.features_of[h]}
    assert _defilade_of.cache_info().misses == len(distinct)
    h = next(h for h in sorted(board.hexes) if not defilade_sides(board, h))
    board.set_features(h, ["defilade:3"])
    assert defilade_sides(board, h) == (3,)  # a changed hex is read afresh


def test_firefight_unknown_layer_in_a_game_is_walked_and_remembered(tmp_path: Path) -> None:
    """A Firefight optional rule adding a LOS layer the kernel does not know: has_los walks each
    line exactly (the layer is asked) and remembers the answer, boundedly."""
    from hexwar.plugins.firefight import sighting
    from hexwar.plugins.firefight.testing import mini_game, unit_spec

    class Fog:
        name = "fog"

        def __init__(self, at: Hex) -> None:
            self.asked, self.at = 0, at

        def hex_effect(self, board: Board, h: Hex, ctx: Any) -> Any:
            self.asked += 1
            from hexwar.core.los import LosEffect

            return LosEffect("block", 0, "fog", "test") if h == self.at else None

        def hexside_effect(self, *args: Any) -> None:
            return None

    g = mini_game(tmp_path, [unit_spec("a", "US-TM", "US", "0510"),
                             unit_spec("b", "SU-TM", "SU", "1510")])
    a, b, c = g.board.parse("0510"), g.board.parse("1510"), g.board.parse("0515")
    fog = Fog(trace(a, b).intervening()[4])
    g.stash[sighting.LOS_RULES] = FirefightLos([fog])
    g.stash.pop(sighting.LOS_KERNEL)  # built for the game's own rules already
    assert not sighting.has_los(g, a, b)  # the fog hex lies between
    assert sighting.has_los(g, a, c)
    asked = fog.asked
    assert not sighting.has_los(g, b, a) and fog.asked == asked  # remembered
    assert sighting.visible_hexes(g, a, [b, c]) == {c}
