"""Test helpers: a synthetic mini-map game (for FF-n cases that need particular terrain).

``mini_game(tmp_path, units=[...], hexes=[...], hexsides=[...])`` writes a column-row panel and a
scenario to ``tmp_path`` and returns the :class:`Game` built by ``hexwar.core.testing.make_game``,
stopped at its first decision. Hexes are
``{"at": "1005", "terrain": "forest", "height": 460, "features": [...]}``; hexsides
``{"between": ["1005", "1006"], "features": ["stream"]}``; units ``{"id", "type" (short, e.g.
"US-TM"), "side", "hex", "state"}``. The optional-rule helper's tests may use it too.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{json.dumps(str(k))} = {_toml_value(x)}"
                                for k, x in v.items()) + " }"
    raise TypeError(v)


def mini_panel(path: Path, hexes: Iterable[Mapping[str, Any]] = (),
               hexsides: Iterable[Mapping[str, Any]] = (), columns: tuple[int, int] = (0, 40),
               rows: tuple[int, int] = (1, 40)) -> Path:
    lines = ["[panel]", 'id = "ff-test"', 'system = "firefight"', 'labels = "column-row"',
             'shifted = "even"', f"columns = [{columns[0]}, {columns[1]}]",
             f"rows = [{rows[0]}, {rows[1]}]", "hex_size_m = 50", "default_height = 440", ""]
    for h in hexes:
        lines.append("[[hex]]")
        lines += [f"{k} = {_toml_value(v)}" for k, v in h.items()]
        lines.append("")
    for s in hexsides:
        lines.append("[[hexside]]")
        lines += [f"{k} = {_toml_value(v)}" for k, v in s.items()]
        lines.append("")
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def mini_game(tmp_path: Path, units: Iterable[Mapping[str, Any]],
              hexes: Iterable[Mapping[str, Any]] = (),
              hexsides: Iterable[Mapping[str, Any]] = (), *, turns: int = 5, seed: int = 1,
              special: Mapping[str, Any] | None = None, victory: str | None = None,
              rules: Iterable[str] = (), panel: str | None = None,
              local_plugins: Iterable[object] = ()) -> Game:
    """``panel``: a registered panel (``firefight:map-b``) instead of the synthetic one."""
    mini_panel(tmp_path / "panel.toml", hexes, hexsides)
    board = f'{{ panel = "{panel}" }}' if panel else '{ file = "panel.toml" }'

    sp = {"dragons": 0, "rpg7": 0, **(special or {})}
    text = [
        "[scenario]", 'id = "ff-test"', 'title = "test"', 'system = "firefight"',
        f"rules = {_toml_value(list(rules))}", f"turns = {turns}", "",
        "[sides.US]", "[sides.SU]", "",
        "[board]", f"panels = [{board}]", "",
        "[victory]", victory or 'kind = "exit_more"\nside = "US"\nother = "SU"\nedge = "north"',
        "", "[special]", *[f"{k} = {_toml_value(v)}" for k, v in sp.items()], "",
    ]
    for u in units:
        text.append("[[units]]")
        for k, v in u.items():
            if k == "type":
                v = f"firefight:{v}"
            text.append(f"{k} = {_toml_value(v)}")
        text.append("")
    path = tmp_path / "scenario.toml"
    path.write_text("\n".join(text), encoding="utf-8")
    from hexwar.core.testing import make_game

    game: Game = make_game(path, seed=seed, local_plugins=local_plugins)
    return game


_games_made = [0]


def fresh_mini_game(tmp_path: Path, *args: Any, **kwargs: Any) -> Game:
    """:func:`mini_game` in a new sub-folder of ``tmp_path``, so one test can build several."""
    _games_made[0] += 1
    folder = tmp_path / f"g{_games_made[0]}"
    folder.mkdir()
    return mini_game(folder, *args, **kwargs)


def unit_spec(uid: str, unit_type: str, side: str, hx: str, **state: Any) -> dict[str, Any]:
    """A unit table for :func:`mini_game`: id, type, side, hex and any starting state."""
    spec: dict[str, Any] = {"id": uid, "type": unit_type, "side": side, "hex": hx}
    if state:
        spec["state"] = state
    return spec
