"""Helpers for the Firepower tests: small games on a test panel with chosen terrain, and the Basic
Game Scenario, all built through ``hexwar.core.testing.make_game``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.scenario import Scenario
from hexwar.core.testing import make_game

PANEL_HEAD = """[panel]
id = "1"
system = "firepower"
title = "test panel"
stand_in = true
labels = "letter-number"
columns = ["A", "P"]
rows = [1, 15]
default_terrain = "clear"
source = "estimated"
"""

GameFactory = Callable[..., Game]


@pytest.fixture
def fp_game(tmp_path: Path) -> GameFactory:
    """``fp_game(units, hexes=[...], seed=0, options=(), local_plugins=())``: a Firepower game on
    a 16x15 test panel.

    ``units`` are tuples (id, weapon, side, hex, facing[, state]); ``hexes`` are [[hex]] tables of
    the panel (dicts with at, terrain, height, features). The set-up phases have nothing to place,
    so the game waits at the choice of board side; tests drive the rules functions directly.
    """

    count = [0]

    def make(units: list[tuple[Any, ...]], hexes: list[dict[str, Any]] | None = None,
             seed: int = 0, turns: int = 1, options: tuple[str, ...] = (),
             local_plugins: tuple[object, ...] = ()) -> Game:
        panel = [PANEL_HEAD]
        for h in hexes or []:
            panel.append("[[hex]]")
            for k, v in h.items():
                panel.append(f"{k} = {v!r}".replace("'", '"'))
        count[0] += 1  # a new file each time: panels may be cached by path
        name = f"panel{count[0]}.toml"
        (tmp_path / name).write_text("\n".join(panel) + "\n", encoding="utf-8")
        lines = [
            "[scenario]", 'id = "test"', 'system = "firepower"', f"turns = {turns}",
            "[sides.A]", "sequence_units = 3", "impulses = 2",
            "[sides.B]", "sequence_units = 3", "impulses = 2",
            "[board]", f'panels = [{{ file = "{name}" }}]',
            "[special]", 'fold = "H"',
        ]
        for u in units:
            uid, weapon, side, hx, facing = u[:5]
            lines += ["[[units]]", f'id = "{uid}"', f'type = "firepower:{weapon}"',
                      f'side = "{side}"', f'hex = "1{hx}"', f"facing = {facing}"]
            if len(u) > 5:
                st = ", ".join(f'{k} = "{v}"' if isinstance(v, str) else f"{k} = {v}"
                               for k, v in u[5].items())
                lines.append(f"state = {{ {st} }}")
        text = "\n".join(lines) + "\n"
        scenario = Scenario.from_text(text, path=str(tmp_path / f"s{count[0]}.toml"))
        game: Game = make_game(scenario, seed=seed, options=options, local_plugins=local_plugins)
        return game

    return make
