"""Firefight 13 height and contour: the Height/LOS Display, Firefight 13.21-13.23, Firefight 13.3."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.labels import offset_to_hex
from hexwar.plugins.firefight import fire as FI
from hexwar.plugins.firefight import sighting as SI
from hexwar.plugins.firefight.rules import height as HT
from hexwar.plugins.firefight.testing import mini_game as _mini_game

_N = [0]


def mini_game(tmp_path: Path, *a: Any, **kw: Any) -> Game:
    """A fresh folder per game (boards are cached per scenario file)."""
    _N[0] += 1
    d = tmp_path / f"g{_N[0]}"
    d.mkdir()
    return _mini_game(d, *a, **kw)

RULES = ["firefight.height"]


def U(uid: str, t: str, side: str, hx: str) -> dict[str, Any]:
    return {"id": uid, "type": t, "side": side, "hex": hx}


def los(g: Game, a: str, b: str) -> bool:
    return SI.has_los(g, g.board.parse(a), g.board.parse(b))


def _line(tmp_path: Path, heights: dict[str, int], terrain: dict[str, str] | None = None,
          rules: list[str] = RULES, a: str = "1001", b: str = "1010") -> Game:
    hexes = [{"at": k, "height": v} for k, v in heights.items()]
    for k, t in (terrain or {}).items():
        hexes.append({"at": k, "terrain": t})
    return mini_game(tmp_path, [U("a", "SU-T62", "SU", a), U("b", "US-M60A1", "US", b)], hexes,
                     rules=rules)


def test_display_arithmetic_pure() -> None:
    """Firefight 13.2: step 4, Firefight 13.22, Firefight 13.23 on plain numbers (FF-29, FF-30,
    FF-31 values)."""
    assert not HT.blocks(440, 500, 1, 2, 460)  # the line is exactly 460: not blocked
    assert HT.blocks(440, 500, 1, 2, 480)
    assert HT.blocks(440, 500, 1, 3, 460)  # line 455 < 460
    assert HT.blocks(480, 460, 2, 5, 500)  # higher than both (Firefight 13.22)
    assert not HT.blocks(440, 480, 2, 2, 460)  # equidistant: not nearer the lower unit
    assert not HT.blocks(460, 440, 1, 7, 460)  # nearer the higher unit (Firefight 13.23)
    assert HT.blocks(460, 440, 2, 1, 460)  # nearer the lower unit, line 446.7 < 460
    assert not HT.blocks(440, 440, 1, 1, 440)  # level ground


def test_ff_23_hill_between_blocks_only_under_ff2(tmp_path: Path) -> None:
    """Firefight 13.0: commentary: A:1944 -> A:1946 over 1945, 20 m higher (stand-in Map A holds the
    disclosed heights)."""
    g1 = mini_game(tmp_path, [U("a", "SU-T62", "SU", "1944"), U("b", "US-M60A1", "US", "1946")],
                   panel="firefight:map-a")
    g2 = mini_game(tmp_path, [U("a", "SU-T62", "SU", "1944"), U("b", "US-M60A1", "US", "1946")],
                   panel="firefight:map-a", rules=RULES)
    assert g2.board.height_of[g2.board.parse("1945")] == 460
    assert los(g1, "1944", "1946") and not los(g2, "1944", "1946")


def test_ff_24_map_b_heights(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("a", "SU-T62", "SU", "2951")], panel="firefight:map-b",
                  rules=RULES)
    assert HT.ground(g.board, g.board.parse("2951")) == 440
    assert HT.ground(g.board, g.board.parse("3050")) == 460


def test_ff_25_town_blocks_at_460_but_sights_from_440(tmp_path: Path) -> None:
    g = _line(tmp_path, {}, {"1005": "town"})
    h = g.board.parse("1005")
    assert HT.ground(g.board, h) == 440 and HT.block_height(g.board, h) == 460
    assert not los(g, "1001", "1010")  # 460 over two 440 units
    g2 = _line(tmp_path, {"1001": 480, "1010": 480}, {"1005": "town"})
    assert los(g2, "1001", "1010")  # both units above the town's 460


def test_ff_26_1304_1307(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("a", "SU-T62", "SU", "1304"), U("b", "US-M60A1", "US", "1307")],
                  panel="firefight:map-a", rules=RULES)
    assert not los(g, "1304", "1307")
    g2 = _line(tmp_path, {"1002": 460, "1003": 460}, a="1001", b="1004")  # synthetic copy
    assert not los(g2, "1001", "1004")


def test_ff_27_obstruction_near_the_higher_unit(tmp_path: Path) -> None:
    g = _line(tmp_path, {"1001": 460, "1002": 460}, a="1001", b="1009")
    assert los(g, "1001", "1009")


def test_ff_28_3307_3109_blocked(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("a", "SU-T62", "SU", "3307"), U("b", "US-M60A1", "US", "3109")],
                  panel="firefight:map-a", rules=RULES)
    assert not los(g, "3307", "3109") and not los(g, "3109", "3307")
    g2 = _line(tmp_path, {"1001": 460, "1003": 460}, a="1001", b="1004")  # 3208 analogue
    assert not los(g2, "1001", "1004") and not los(g2, "1004", "1001")


def test_ff_29_equality_is_clear(tmp_path: Path) -> None:
    g = _line(tmp_path, {"1001": 440, "1002": 460, "1004": 500}, a="1001", b="1004")
    assert los(g, "1001", "1004")  # line exactly 460
    g = _line(tmp_path, {"1001": 440, "1002": 480, "1004": 500}, a="1001", b="1004")
    assert not los(g, "1001", "1004")
    g = _line(tmp_path, {"1001": 440, "1002": 460, "1005": 500}, a="1001", b="1005")
    assert not los(g, "1001", "1005")  # line 455


def test_ff_30_higher_than_both(tmp_path: Path) -> None:
    for pos in ("1002", "1005", "1008"):
        g = _line(tmp_path, {"1001": 480, "1009": 460, pos: 500}, a="1001", b="1009")
        assert not los(g, "1001", "1009")


def test_ff_31_equidistant(tmp_path: Path) -> None:
    g = _line(tmp_path, {"1001": 440, "1005": 460, "1009": 480}, a="1001", b="1009")
    assert los(g, "1001", "1009")


def _defilade(target: str, toward: str) -> str:
    a = offset_to_hex(int(target[:2]), int(target[2:]), "even")
    b = offset_to_hex(int(toward[:2]), int(toward[2:]), "even")
    return f"defilade:{a.direction_to(b)}"


@pytest.mark.parametrize(("firer_h", "expect"), [(480, False), (460, True)])
def test_ff_32_higher_firer_ignores_defilade(tmp_path: Path, firer_h: int, expect: bool) -> None:
    hexes = [{"at": "1001", "height": firer_h},
             {"at": "1005", "height": 460, "features": [_defilade("1005", "1004")]},
             {"at": "1002", "height": 460}, {"at": "1003", "height": 460},
             {"at": "1004", "height": 460}]
    g = mini_game(tmp_path, [U("a", "SU-T62", "SU", "1001"), U("b", "US-M60A1", "US", "1005")],
                  hexes, rules=RULES)
    t = g.state.units["b"]
    assert ("defilade" in FI.terrain_filters(g, g.board, g.board.parse("1001"), t)) is expect


def test_ff_32_map_a_example(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("a", "SU-T62", "SU", "3507"), U("b", "US-M60A1", "US", "3206")],
                  panel="firefight:map-a", rules=RULES)
    t = g.state.units["b"]
    assert t.hex is not None and HT.firer_higher(g.board, g.board.parse("3507"), t.hex)
    assert "defilade" not in FI.terrain_filters(g, g.board, g.board.parse("3507"), t)


def test_ff_33_defilade_no_longer_blocks(tmp_path: Path) -> None:
    hexes = [{"at": "1005", "features": [_defilade("1005", "1004")]}]
    g1 = mini_game(tmp_path, [U("a", "SU-T62", "SU", "1001"), U("b", "US-M60A1", "US", "1009")],
                   hexes)
    g2 = mini_game(tmp_path, [U("a", "SU-T62", "SU", "1001"), U("b", "US-M60A1", "US", "1009")],
                   hexes, rules=RULES)
    assert not los(g1, "1001", "1009") and los(g2, "1001", "1009")
