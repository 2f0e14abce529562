"""Tables for the web tests: a built-in scenario (optionally cut to fewer turns), its seats."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from hexwar.core.cli import _resolve_scenario_path
from hexwar.core.engine.controllers import make_controller
from hexwar.core.engine.decisions import canonical
from hexwar.core.scenario import Scenario, validate_scenario
from hexwar.core.web.seats import Seat
from hexwar.core.web.table import Table


def scenario(name: str, *, turns: int | None = None, options: tuple[str, ...] = ()) -> Scenario:
    """A built-in scenario; with ``turns``, the same scenario lasting only that many turns (a
    whole game that ends sooner)."""
    text = _resolve_scenario_path(name).read_text(encoding="utf-8")
    if turns is not None:
        text = re.sub(r"(?m)^turns = \d+", f"turns = {turns}", text, count=1)
    sc = Scenario.from_text(text, path=f"<{name}>")
    assert not validate_scenario(sc, options=options)
    return sc


def table(tmp_path: Path, name: str, players: dict[str, str], *, turns: int | None = None,
          options: tuple[str, ...] = (), seed: int = 3, **kwargs: Any) -> Table:
    return Table.new(scenario(name, turns=turns, options=options), seed=seed, options=options,
                     players=players, save_path=tmp_path / "game.json", **kwargs)


def seat_of(t: Table, name: str) -> Seat:
    return next(s for s in t.seats.values() if s.name == name)


class Picker:
    """Chooses for a human seat what the side's AI would (the index of that choice in the
    seat's form, else the first choice), so a test game goes somewhere sensible."""

    def __init__(self, t: Table) -> None:
        offered = t.game.hooks.controllers()
        self.ais = {s: make_controller("ai", s, t.game.seed, offered) for s in t.game.state.sides}
        self.table = t

    def index(self, seat: Seat) -> int:
        t = self.table
        d = t.pending_for(seat)
        presentation = t.presentation(seat)
        assert d is not None and presentation is not None
        wanted = canonical(self.ais[d.side].choose(d, t.game.view(d.side)))
        for i, c in enumerate(presentation["choices"]):
            if canonical(c["choice"]) == wanted:
                return i
        return 0
