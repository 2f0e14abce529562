"""`hexwar render` of a cross-system scenario: the shared ground's boards laid over each other (a
coarser board as a grid over the host's map, a finer one inset where it covers host hexes), units
of each system in their own counter style (core/render.py; docs/cross-system.md)."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from hexwar.core.cli import cli
from hexwar.core.ground import Ground
from hexwar.core.render import COUNTER_STYLES, render_game
from hexwar.core.scenario import Scenario
from hexwar.core.testing import make_game


def test_the_cli_draws_all_three_boards_of_the_shared_ground(tmp_path: Path) -> None:
    out = tmp_path / "block.svg"
    done = CliRunner().invoke(cli, ["render", "firefight_firepower:versbach-block", "-o", str(out)])
    assert done.exit_code == 0, done.output
    svg = out.read_text(encoding="utf-8")
    # the MBT board of 100 m hexes over Firefight's 50 m map
    assert re.search(r'<g id="board-mbt" class="ground-board" data-system="mbt" '
                     r'data-hex-size-m="100">', svg)
    # the Firepower board inset in the Town hexes where the squads stand, ~120 of its 5-yard
    # hexes inside each 50 m hex ((50 / 4.572)^2 * 0.866 / 0.866 = 119.6)
    insets = re.findall(r'<g class="inset" data-host-hex="(\d{4})" data-hexes="(\d+)">', svg)
    assert sorted(h for h, _n in insets) == ["1916", "1917", "2016"]
    assert all(100 <= int(n) <= 140 for _h, n in insets), insets
    assert "shared ground: firefight 50 m hexes (host)" in svg


def test_each_system_has_its_own_counter_style() -> None:
    g = make_game(Path("plugins/adapters/firefight_firepower/scenarios/versbach_block.toml"))
    svg = render_game(g)
    for system, style in COUNTER_STYLES.items():
        assert f'data-system="{system}"' in svg, system
        if style != "square":
            assert f'counter-{style}' in svg, style
    assert svg.count('class="counter-round"') == 3  # the three Firepower squads
    assert svg.count('class="counter-framed"') == 4  # the four MBT tanks


def test_the_inset_hexes_are_the_finer_boards_hexes_inside_the_host_hex() -> None:
    scenario = Scenario.load("plugins/adapters/firefight_firepower/scenarios/versbach_block.toml")
    ground = Ground.from_mapping(scenario.raw["ground"])
    g = make_game(scenario)
    svg = render_game(g)
    h = g.board.parse("1916")
    fp, ff = ground.layer("firepower"), ground.layer("firefight")
    start = fp.hex_at(*ff.centre(h))
    inside = sum(1 for dq in range(-14, 15) for dr in range(-14, 15)
                 if ff.hex_at(*fp.centre((start.q + dq, start.r + dr))) == h)
    assert f'data-host-hex="1916" data-hexes="{inside}"' in svg


def test_a_one_system_picture_is_unchanged_by_the_ground_code() -> None:
    g = make_game("firefight:scenario-1")
    svg = render_game(g)
    assert "ground-board" not in svg and "data-system" not in svg and "ground-key" not in svg
