"""The movement hooks no rule implements yet: ``firefight_move_cost`` (a step's MP cost,
Firefight 7.0, 7.1) and ``firefight_movement_allowance`` (a unit's Movement Allowance,
Firefight 7.0). A local plugin proves each is called and that its answer takes effect."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.game import Game
from hexwar.core.errors import RulesError
from hexwar.core.markers import hookimpl
from hexwar.core.types import Modifier, PluginManifest
from hexwar.plugins.firefight import movement as MV
from hexwar.plugins.firefight.testing import mini_game
from hexwar.plugins.firefight.testing import unit_spec as U

#: a T-62 (Movement Allowance 3) in clear terrain, the enemy far away
UNITS = [U("t62", "SU-T62", "SU", "1005"), U("x", "US-TM", "US", "2020")]


class _Mud:
    """Every step costs one MP more."""

    PLUGIN = PluginManifest(name="firefight.test_mud", system="firefight", kind="rule",
                            title="test mud", summary="test")

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, str, float]] = []

    @hookimpl
    def firefight_move_cost(self, game: Game, unit_id: str, src: str, dst: str,
                            base: float) -> Sequence[Modifier]:
        self.calls.append((unit_id, src, dst, base))
        return [Modifier("mud", 1.0, "Firefight 7.1")]


class _Tired:
    """Every unit's Movement Allowance is one less."""

    PLUGIN = PluginManifest(name="firefight.test_tired", system="firefight", kind="rule",
                            title="test tired", summary="test")

    def __init__(self) -> None:
        self.calls: list[tuple[str, float]] = []

    @hookimpl
    def firefight_movement_allowance(self, game: Game, unit_id: str, base: float) -> float | None:
        self.calls.append((unit_id, base))
        return base - 1.0


def _drive(game: Game, path: Sequence[str]) -> list[str]:
    """Move the T-62 along ``path`` through the real sub-procedure (:func:`MV.move_unit`): each
    ``firefight.step`` takes the next hex while it is offered, then stops; any other decision
    (opportunity fire) passes. Returns the hexes entered."""
    gen = MV.move_unit(game, game.state.units["t62"])
    entered: list[str] = []
    todo = list(path)
    answer: Any = None
    try:
        d: Decision = next(gen)
        while True:
            if d.kind == "firefight.step":
                if todo and {"to": todo[0]} in list(d.options or ()):
                    answer = {"to": todo.pop(0)}
                    entered.append(answer["to"])
                else:
                    answer = "stop"
            else:
                answer = "pass"
            d = gen.send(answer)
    except StopIteration:
        pass
    return entered


def test_move_cost_hook_adds_to_each_step(tmp_path: Path) -> None:
    mud = _Mud()
    g = mini_game(tmp_path, UNITS, rules=["firefight.test_mud"], local_plugins=[mud])
    u = g.state.units["t62"]
    assert MV.step_cost(g, g.board, u, g.board.parse("1005"), g.board.parse("1006")) == 2.0
    assert mud.calls == [("t62", g.board.label(g.board.parse("1005")),
                          g.board.label(g.board.parse("1006")), 1.0)]
    # with MA 3, one clear hex (2 MP) leaves 1 MP: the second is refused (Firefight 7.23)
    assert _drive(g, ["1006", "1007", "1008"]) == ["1006"]
    assert u.hex == g.board.parse("1006") and u.state["mp"] == 1.0
    u.state.update(moved=True, mp=3.0, steps=0)
    assert MV.do_step(g, u, "1007") == 2.0
    with pytest.raises(RulesError) as exc:
        MV.do_step(g, u, "1008")
    assert exc.value.rule == "Firefight 7.23"


def test_move_cost_hook_not_live_costs_the_base(tmp_path: Path) -> None:
    g = mini_game(tmp_path, UNITS)
    assert _drive(g, ["1006", "1007", "1008"]) == ["1006", "1007", "1008"]


def test_movement_allowance_hook_replaces_the_ma(tmp_path: Path) -> None:
    tired = _Tired()
    g = mini_game(tmp_path, UNITS, rules=["firefight.test_tired"], local_plugins=[tired])
    u = g.state.units["t62"]
    assert MV.movement_allowance(u) == 3.0  # without the game no hook is asked
    assert MV.movement_allowance(u, g) == 2.0
    assert ("t62", 3.0) in tired.calls
    # the T-62 moves two clear hexes instead of three
    assert _drive(g, ["1006", "1007", "1008"]) == ["1006", "1007"]
    assert u.hex == g.board.parse("1007") and u.state["mp"] == 0.0
