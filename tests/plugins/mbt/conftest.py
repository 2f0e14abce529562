"""Helpers for the MBT tests: a small all-clear test panel, games with units placed (built with
:func:`hexwar.core.testing.make_game`), a phase driver."""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable
from pathlib import Path
from typing import Any

import pytest

from hexwar.core.engine.decisions import Decision, Simultaneous
from hexwar.core.engine.game import Game
from hexwar.core.testing import make_game as core_make_game

TEST_PANEL = """[panel]
id = "9"
system = "mbt"
title = "MBT test panel (all clear unless a test says otherwise)"
labels = "letter-number"
shifted = "even"
columns = ["A", "T"]
rows = [1, 20]
hex_size_m = 100.0
default_terrain = "clear"
default_height = 0
source = "estimated"
"""


def _hexes(heights: dict[str, int], features: dict[str, list[str]]) -> str:
    out = []
    for lab in sorted(set(heights) | set(features)):
        out.append("[[hex]]")
        out.append(f'at = "{lab}"')
        if lab in heights:
            out.append(f"height = {heights[lab]}")
        if lab in features:
            out.append("features = [" + ", ".join(f'"{f}"' for f in features[lab]) + "]")
        out.append("")
    return "\n".join(out)


class Maker:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.n = 0

    def __call__(
        self,
        units: Iterable[tuple[str, str, str, str, int]],
        *,
        terrain: dict[str, str] | None = None,
        heights: dict[str, int] | None = None,
        features: dict[str, list[str]] | None = None,
        roads: Iterable[tuple[str, str]] = (),
        paths: Iterable[tuple[str, str]] = (),
        turns: int = 1,
        special: str = "",
        seed: int = 0,
        options: Iterable[str] = (),
        local_plugins: Iterable[object] = (),
    ) -> Game:
        panel = TEST_PANEL + "\n" + _hexes(
            {k.removeprefix("9"): v for k, v in (heights or {}).items()},
            {k.removeprefix("9"): v for k, v in (features or {}).items()})
        for a, b in roads:
            panel += f'\n[[hexside]]\nbetween = ["{a.removeprefix("9")}", "{b.removeprefix("9")}"]\n'
            panel += 'features = ["road"]\n'
        for a, b in paths:
            panel += f'\n[[hexside]]\nbetween = ["{a.removeprefix("9")}", "{b.removeprefix("9")}"]\n'
            panel += 'features = ["path"]\n'
        self.n += 1  # a new file name per game: boards are cached by scenario text and path
        panel_name = f"panel9-{self.n}.toml"
        (self.tmp / panel_name).write_text(panel, encoding="utf-8")
        terr = ", ".join(f'"{k}" = "{v}"' for k, v in (terrain or {}).items())
        lines = [
            "[scenario]", 'id = "mbt:test"', 'system = "mbt"', f"turns = {turns}", "",
            "[sides.NATO]", "", "[sides.Soviet]", "",
            "[board]", f'panels = [{{ file = "{panel_name}" }}]', f"terrain = {{ {terr} }}", "",
        ]
        if special:
            lines += ["[special]", special, ""]
        for uid, typ, side, hexlabel, facing in units:
            lines += ["[[units]]", f'id = "{uid}"', f'type = "mbt:{typ}"', f'side = "{side}"',
                      f'hex = "{hexlabel}"', f"facing = {facing}", ""]
        path = self.tmp / f"scenario-{self.n}.toml"
        path.write_text("\n".join(lines), encoding="utf-8")
        game: Game = core_make_game(path, seed=seed, options=options, local_plugins=local_plugins)
        game.state.data["mbt"]["first"] = "NATO"
        return game


@pytest.fixture
def make_game(tmp_path: Path) -> Maker:
    """``make_game(units, terrain=..., heights=..., options=..., local_plugins=...)``: a game on the
    test panel with the units placed (``(id, card, side, hex, facing)``)."""
    return Maker(tmp_path)


Answer = Callable[[Decision], Any]


def drive(gen: Generator[Any, Any, Any], answer: Answer | list[Any]) -> tuple[Any, list[Decision]]:
    """Run a phase generator to its end, answering each decision (checked like the engine does)."""
    queue = list(answer) if isinstance(answer, list) else None
    asked: list[Decision] = []

    def pick(d: Decision) -> Any:
        c = queue.pop(0) if queue is not None else answer(d)  # type: ignore[operator]
        d.check(c)
        asked.append(d)
        return c

    try:
        item = gen.send(None)
        while True:
            if isinstance(item, Simultaneous):
                item = gen.send([pick(d) for d in item.decisions])
            else:
                item = gen.send(pick(item))
    except StopIteration as stop:
        return stop.value, asked


@pytest.fixture
def run() -> Callable[..., tuple[Any, list[Decision]]]:
    return drive


def passer(d: Decision) -> Any:
    """Answer 'pass' (or 'done', 'stay', the first option)."""
    for o in ("pass", "done", "stay"):
        if d.options and o in d.options:
            return o
    return next(iter(d.options or []))


@pytest.fixture
def pass_all() -> Answer:
    return passer


def faces(*rolls: int) -> list[int]:
    """Two-dice rolls (01-100) as the faces Dice.force wants (white, coloured)."""
    out: list[int] = []
    for r in rolls:
        v = r % 100
        out += [v // 10, v % 10]
    return out


@pytest.fixture
def dice_faces() -> Callable[..., list[int]]:
    return faces
