"""Scenario files (TOML): the system, its optional rules, the board, the forces, the victory rules.

A scenario is read in two passes. :meth:`Scenario.from_text` checks the file's structure and reports
every problem at once with its file, key and line. :func:`validate_scenario` then checks it against
the installed plugins: the system and rules exist, every unit type is known, every hex is on the
board, and the system's own checks (victory, special rules) pass.

The format is documented in ``docs/scenario-format.md``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexwar.core.errors import DataError, HexwarError, PluginError
from hexwar.core.types import Problem

if TYPE_CHECKING:
    from hexwar.core.board import Board
    from hexwar.core.engine.state import Unit
    from hexwar.core.manager import Hooks
    from hexwar.core.types import UnitType


# Boards are read-only during a game (changing state such as smoke or wrecks lives in the game
# state), so every game whose board has the same content shares one assembled board: the same
# [board] table over panel files with the same bytes. Assembly (and its validation) is the
# costliest part of starting a game.
_BOARDS: dict[tuple[Any, ...], Board] = {}
_BOARD_CACHE_SIZE = 64
_DIGESTS: dict[tuple[str, int, int], str] = {}


def _content_digest(path: Path | str) -> str:
    """The SHA-256 of a panel file's bytes, remembered while its size and mtime stay the same."""
    p = Path(path)
    try:
        st = p.stat()
    except OSError:
        return "missing"
    key = (str(p.resolve()), st.st_mtime_ns, st.st_size)
    found = _DIGESTS.get(key)
    if found is None:
        found = hashlib.sha256(p.read_bytes()).hexdigest()
        _DIGESTS[key] = found
    return found


class ScenarioError(DataError):
    """A scenario has one or more problems; ``problems`` lists them all."""

    def __init__(self, problems: list[Problem], path: str) -> None:
        self.problems = problems
        text = f"{len(problems)} problem(s) in scenario:\n" + "\n".join(f"  {p}" for p in problems)
        super().__init__(text)
        self.path = path

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class UnitSetup:
    """One unit as the scenario places it."""

    id: str
    type: str
    side: str
    hex: str | None
    facing: int
    state: Mapping[str, Any]
    enter: Mapping[str, Any] | None
    line: int | None


@dataclass(frozen=True)
class Scenario:
    """A parsed scenario. ``raw`` keeps the whole TOML for the system's own sections."""

    id: str
    title: str
    system: str
    rules: tuple[str, ...]
    turns: int
    sides: Mapping[str, Mapping[str, Any]]
    units: tuple[UnitSetup, ...]
    board: Mapping[str, Any]
    victory: Mapping[str, Any]
    notes: str
    text: str
    path: str
    raw: Mapping[str, Any] = field(repr=False)
    #: the text of each ``[board]`` panel ``file`` as written in the scenario, when the scenario
    #: comes from a save or a log that embeds them (CORE-57); empty: read beside the scenario
    files: Mapping[str, str] = field(default_factory=dict, repr=False)

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()

    @classmethod
    def load(cls, path: str | Path) -> Scenario:
        from hexwar.core.safeload import read_text

        p = Path(path)
        try:
            text = read_text(p, what="scenario")
        except DataError as exc:
            raise ScenarioError([Problem(exc.message, str(p), exc.key or "", exc.line, exc.hint or "")],
                                str(p)) from None
        return cls.from_text(text, path=str(p))

    @classmethod
    def from_text(cls, text: str, *, path: str = "<scenario>",
                  files: Mapping[str, str] | None = None) -> Scenario:
        """Parse a scenario. ``files``: the text of panel files it names (``[board]`` panels'
        ``file``), as a save or a log embeds them; those are never read from disk."""
        from hexwar.core.safeload import parse_toml

        try:
            raw = parse_toml(text, path=path, what="scenario")
        except DataError as exc:
            raise ScenarioError([Problem(exc.message, path, exc.key or "", exc.line, exc.hint or "")],
                                path) from None
        problems: list[Problem] = []
        loc = _Locator(text, path)

        head = raw.get("scenario")
        if not isinstance(head, dict):
            problems.append(loc.problem("missing the [scenario] table", "scenario",
                                        hint="start the file with [scenario] and id, system, turns"))
            head = {}
        problems.extend(unknown_key_problems(head, _HEAD_KEYS, path, "scenario", loc))
        sid = _get(head, "id", str, problems, loc, "scenario")
        system = _get(head, "system", str, problems, loc, "scenario")
        title = _get(head, "title", str, problems, loc, "scenario", default=sid or "")
        turns = _get(head, "turns", int, problems, loc, "scenario")
        if isinstance(turns, int) and not 1 <= turns <= MAX_TURNS:
            problems.append(loc.problem(f"turns must be 1 to {MAX_TURNS}, not {turns}",
                                        "scenario.turns"))
        rules = _get(head, "rules", list, problems, loc, "scenario", default=[])
        for i, r in enumerate(rules or []):
            if not isinstance(r, str):
                problems.append(loc.problem(f"rule names are strings, not {r!r}", f"scenario.rules[{i}]"))
        notes = _get(head, "notes", str, problems, loc, "scenario", default="")

        sides = raw.get("sides", {})
        if not isinstance(sides, dict) or not sides:
            problems.append(loc.problem("no sides: add a [sides.NAME] table for each side", "sides"))
            sides = {}
        for name, spec in sides.items():
            if not isinstance(spec, dict):
                problems.append(loc.problem("a side is a table", f"sides.{name}"))

        board = raw.get("board", {})
        if not isinstance(board, dict):
            problems.append(loc.problem("[board] must be a table", "board"))
            board = {}

        units: list[UnitSetup] = []
        seen: dict[str, int] = {}
        raw_units = raw.get("units", [])
        if not isinstance(raw_units, list):
            problems.append(loc.problem("units must be an array of tables: [[units]]", "units"))
            raw_units = []
        for i, u in enumerate(raw_units):
            key = f"units[{i}]"
            line = loc.array_line("units", i)
            if not isinstance(u, dict):
                problems.append(Problem("each unit is a table", path, key, line))
                continue
            problems.extend(unknown_key_problems(u, _UNIT_KEYS, path, key, loc, line=line))
            uid = _get(u, "id", str, problems, loc, key, line=line)
            if isinstance(uid, str) and not _UNIT_ID.fullmatch(uid):
                problems.append(Problem(
                    f"unit id {uid[:40]!r} is not 1-{MAX_ID_LENGTH} letters, digits, '-', '_' "
                    "or '.'", path, f"{key}.id", loc.line_in_block(line, "id"),
                    hint='e.g. id = "N1" or id = "dummy-su9"'))
                uid = None
            utype = _get(u, "type", str, problems, loc, key, line=line)
            side = _get(u, "side", str, problems, loc, key, line=line)
            hexlabel = _get(u, "hex", str, problems, loc, key, line=line, default=None)
            facing = _get(u, "facing", int, problems, loc, key, line=line, default=1)
            state = _get(u, "state", dict, problems, loc, key, line=line, default={})
            enter = _get(u, "enter", dict, problems, loc, key, line=line, default=None)
            if isinstance(utype, str) and ":" not in utype:
                problems.append(Problem(
                    f"unit type {utype!r} must name its system", path, f"{key}.type", line,
                    hint=f"write '{system or 'system'}:{utype}'"))
            if isinstance(enter, dict):
                problems.extend(_enter_problems(enter, path, f"{key}.enter",
                                                loc.line_in_block(line, "enter")))
            if isinstance(facing, int) and not 1 <= facing <= 6:
                problems.append(Problem(f"facing {facing} is not a direction 1-6", path,
                                        f"{key}.facing", line))
            if isinstance(side, str) and sides and side not in sides:
                problems.append(Problem(f"side {side!r} is not one of {', '.join(sides)}", path,
                                        f"{key}.side", line))
            if isinstance(uid, str):
                if uid in seen:
                    problems.append(Problem(f"duplicate unit id {uid!r} (first at line {seen[uid]})",
                                            path, f"{key}.id", line))
                else:
                    seen[uid] = line or 0
            if uid and utype and side:
                units.append(UnitSetup(uid, utype, side, hexlabel, facing or 1, state or {}, enter,
                                       line))
        victory = raw.get("victory", {})
        if not isinstance(victory, dict):
            problems.append(loc.problem("[victory] must be a table", "victory"))
            victory = {}
        problems.extend(unknown_key_problems(raw, _TOP_KEYS, path, "", loc))
        for part in ("setup", "special", "reinforcements"):
            if part in raw and not isinstance(raw[part], dict):
                problems.append(loc.problem(f"[{part}] must be a table, not "
                                            f"{_brief(raw[part])}", part))
        if problems:
            raise ScenarioError(problems, path)
        return cls(
            id=sid or "", title=title or "", system=system or "", rules=tuple(rules or ()),
            turns=turns or 1, sides=sides, units=tuple(units), board=board, victory=victory,
            notes=notes or "", text=text, path=path, raw=raw, files=dict(files or {}),
        )

    # -- used by the engine --------------------------------------------------------------------
    def side_names(self) -> tuple[str, ...]:
        return tuple(self.sides)

    def guest_systems(self) -> tuple[str, ...]:
        """Systems other than the host whose units this scenario fields."""
        return tuple(sorted({u.type.split(":", 1)[0] for u in self.units} - {self.system}))

    def panel_files(self) -> list[str]:
        """The ``file`` of every ``[board]`` panel entry that names one, in order."""
        entries = self.board.get("panels", [])
        return [str(e["file"]) for e in entries if isinstance(entries, list)
                and isinstance(e, Mapping) and isinstance(e.get("file"), str)] \
            if isinstance(entries, list) else []

    def embedded_files(self) -> dict[str, dict[str, str]]:
        """Every panel file the board is built from, for a save's or a log's header (CORE-57):
        ``{file as written: {"sha256": ..., "text": ...}}``, so that the record rebuilds the same
        board on a machine without the files."""
        from hexwar.core.safeload import confined, read_text

        base = Path(self.path).parent if self.path else Path(".")
        out: dict[str, dict[str, str]] = {}
        for name in self.panel_files():
            if name in out:
                continue
            if name in self.files:
                text = self.files[name]
            else:
                where = confined(base, name, key="board.panels.file", path=self.path)
                text = read_text(where, what="panel")
            out[name] = {"sha256": hashlib.sha256(text.encode()).hexdigest(), "text": text}
        return out

    def build_board(self, hooks: Hooks) -> Board:
        """Assemble the board; with a ``[board.geo]`` table it is also placed on the Earth
        (``board.geo``, a :class:`~hexwar.core.geo.GeoReference`)."""
        from hexwar.core.board import board_from_spec
        from hexwar.core.geo import GeoReference

        key = self._board_key(hooks)
        board = _BOARDS.get(key)
        if board is None:
            board = board_from_spec(self.board, hooks, path=self.path, files=self.files)
            geo = self.board.get("geo")
            board.geo = None if geo is None else GeoReference.from_mapping(geo, path=self.path)
            if len(_BOARDS) >= _BOARD_CACHE_SIZE:
                _BOARDS.pop(next(iter(_BOARDS)))
            _BOARDS[key] = board
        return board

    def _board_key(self, hooks: Hooks) -> tuple[Any, ...]:
        """What the assembled board depends on: the ``[board]`` table, the bytes of every panel
        file it names, and the terrain types the plugins register."""
        from hexwar.core.board import panel_path

        sources = {s.name: s for s in hooks.data_sources("panel")}
        base = Path(self.path).parent if self.path else Path(".")
        entries = self.board.get("panels", [])
        panels: list[str] = []
        for e in entries if isinstance(entries, list) else []:
            if isinstance(e, str):
                e = {"panel": e}
            if not isinstance(e, Mapping):
                continue
            if isinstance(e.get("file"), str) and e["file"] in self.files:
                panels.append(hashlib.sha256(self.files[e["file"]].encode()).hexdigest())
                continue
            try:
                where = panel_path(e, sources, base, key="board.panels", path=self.path)
            except DataError:
                panels.append("refused")  # board_from_spec reports it
                continue
            panels.append("unknown" if where is None else _content_digest(where))
        spec = json.dumps(self.board, sort_keys=True, default=str)
        return (spec, tuple(panels), tuple(sorted(hooks.terrain_types())))

    def build_units(self, board: Board, unit_types: Mapping[str, UnitType]) -> dict[str, Unit]:
        from hexwar.core.engine.state import Unit

        units: dict[str, Unit] = {}
        for u in self.units:
            if u.type not in unit_types:
                raise HexwarError(f"{self.path}: unknown unit type {u.type!r} for unit {u.id!r}")
            where = board.parse(u.hex) if u.hex else None
            state = dict(u.state)
            if u.enter is not None:
                state["enter"] = dict(u.enter)
            units[u.id] = Unit(u.id, u.type, u.side, where, u.facing, state)
        return units

    def locate(self, key: str) -> int | None:
        return _Locator(self.text, self.path).line_of_key(key)



def adapter_section(scenario: Scenario, adapter: str,
                    keys: tuple[str, ...] = ("tables",)) -> dict[str, Any]:
    """A scenario's ``[adapters.<adapter>]`` table (empty when absent), refused with the key
    named when it holds anything but ``keys``: the one reader every adapter shares."""
    section = scenario.raw.get("adapters", {})
    mine = section.get(adapter) if isinstance(section, dict) else None
    if mine is None:
        return {}
    key = f"adapters.{adapter}"
    if not isinstance(mine, dict) or set(mine) - set(keys):
        raise DataError(f"[{key}] takes only {', '.join(sorted(keys))}"
                        + (" (a folder of replacement tables)" if keys == ("tables",) else ""),
                        path=scenario.path, key=key)
    return mine


def adapter_table_pack(scenario: Scenario, adapter: str,
                       keys: tuple[str, ...] = ("tables",)) -> str | None:
    """The folder of an adapter's replacement tables, ``[adapters.<adapter>] tables = "folder"``
    (inside the scenario's folder, like MBT's ``[special] tables``), or ``None`` for the shipped
    tables. Raises :class:`DataError` naming the key."""
    from hexwar.core.safeload import confined

    mine = adapter_section(scenario, adapter, keys)
    if "tables" not in mine:
        return None
    key = f"adapters.{adapter}.tables"
    base = Path(scenario.path).parent if scenario.path else Path(".")
    where = confined(base, mine["tables"], key=key, path=scenario.path, folder=True)
    if not where.is_dir():
        raise DataError("the adapter's tables must be a folder", path=scenario.path, key=key)
    return str(where)


def validate_scenario(scenario: Scenario, *, options: tuple[str, ...] = (),
                      local_plugins: tuple[object, ...] = ()) -> list[Problem]:
    """Check a parsed scenario against the installed plugins (and ``local_plugins``, modules
    carrying a manifest); returns every problem found."""
    from hexwar.core.manager import Hooks, build_plugin_manager, local_plugin

    path = scenario.path
    loc = _Locator(scenario.text, path)
    try:
        pm = build_plugin_manager(scenario.system, set(scenario.rules) | set(options),
                                  guests=scenario.guest_systems(),
                                  local=[local_plugin(m) for m in local_plugins])
    except PluginError as exc:
        return [Problem(str(exc), path, "scenario.rules" if scenario.system else "scenario.system",
                        loc.line_of_key("scenario.rules") or loc.line_of_key("scenario.system"),
                        hint="`hexwar systems` and `hexwar options SYSTEM` list what is installed")]
    from hexwar.core.board import MapValidationError

    hooks = Hooks(pm)
    problems: list[Problem] = []
    unit_types = hooks.unit_types()
    board = None
    try:
        board = scenario.build_board(hooks)
    except (ScenarioError, MapValidationError) as exc:
        problems.extend(exc.problems)
    except HexwarError as exc:
        problems.append(Problem(str(exc), path, "board", loc.line_of_key("board")))
    from hexwar.core.manager import unknown_message

    unknown_types: dict[str, str] = {}  # each unknown type's message, worked out once
    for i, u in enumerate(scenario.units):
        key = f"units[{i}]"
        if u.type not in unit_types:
            message = unknown_types.get(u.type)
            if message is None:
                system_types = sorted(t for t in unit_types
                                      if t.split(":")[0] == u.type.split(":")[0])
                message = unknown_message("unit type", u.type, system_types)
                unknown_types[u.type] = message
            problems.append(Problem(message, path, f"{key}.type",
                                    loc.line_in_block(u.line, "type")))
        if u.hex is not None and board is not None:
            try:
                h = board.parse(u.hex)
                if not board.contains(h):
                    raise ValueError(f"hex {u.hex!r} is off the board")
            except (ValueError, HexwarError) as exc:
                problems.append(Problem(str(exc), path, f"{key}.hex", loc.line_in_block(u.line, "hex"),
                                        hint="labels look like the board's own (see `hexwar render`)"))
        if u.hex is None and u.enter is None and not scenario.raw.get("setup"):
            problems.append(Problem("unit has neither a hex nor an 'enter' table", path, key, u.line,
                                    hint="give hex = \"...\" or enter = { turn = 1, ... }"))
    problems.extend(_adapter_problems(scenario, options, local_plugins, loc))
    try:
        problems.extend(hooks.validate_scenario(scenario))
    except (TypeError, AttributeError, KeyError, ValueError, IndexError) as exc:
        # a system's check that cannot read a malformed part still reports, never crashes
        problems.append(Problem(f"a system's check of this file failed: {type(exc).__name__}: "
                                f"{str(exc)[:120]}", path, "",
                                hint="check the types of the system's tables ([victory], "
                                     "[setup], [special])"))
    return problems


def _adapter_problems(scenario: Scenario, options: tuple[str, ...], local_plugins: tuple[object, ...],
                      loc: _Locator) -> list[Problem]:
    """Units of a guest system may only share a board with the host's through an adapter plugin
    that the scenario enables; an interaction with no adapter is never guessed."""
    from hexwar.core.manager import installed_plugins, local_plugin

    available = {**installed_plugins(), **{p.manifest.name: p for p in map(local_plugin, local_plugins)}}
    enabled = set(scenario.rules) | set(options)
    adapters = sorted(n for n in enabled
                      if n in available and available[n].manifest.kind == "adapter")
    bridges = [set(available[n].manifest.bridges) for n in adapters]
    problems = []
    # two adapters for one pair would each claim the same interactions: refuse, never pick one
    for i, a in enumerate(adapters):
        for b in adapters[i + 1:]:
            pair = set(available[a].manifest.bridges) & set(available[b].manifest.bridges)
            if len(pair) >= 2:
                problems.append(Problem(
                    f"adapters {a!r} and {b!r} both bridge {' and '.join(sorted(pair))}; "
                    "enable one", scenario.path, "scenario.rules",
                    loc.line_of_key("scenario.rules") or loc.line_of_key("scenario")))
    for guest in scenario.guest_systems():
        if not any({scenario.system, guest} <= b for b in bridges):
            problems.append(Problem(
                f"units of system {guest!r} share the board with host system {scenario.system!r}, "
                "but no enabled adapter plugin bridges the two", scenario.path, "scenario.rules",
                loc.line_of_key("scenario.rules") or loc.line_of_key("scenario"),
                hint="enable an adapter (`hexwar plugins` lists kind 'adapter') or field one system"))
    return problems


def load_and_validate(path: str | Path, *, options: tuple[str, ...] = ()) -> Scenario:
    """Load a scenario and raise :class:`ScenarioError` with every problem if it is not playable."""
    scenario = Scenario.load(path)
    problems = validate_scenario(scenario, options=options)
    if problems:
        raise ScenarioError(problems, scenario.path)
    return scenario


# -- the schema of the core part ---------------------------------------------------------------

MAX_TURNS = 1000
"""The most game-turns a scenario may last."""
MAX_ID_LENGTH = 64
_UNIT_ID = re.compile(rf"[A-Za-z0-9_.-]{{1,{MAX_ID_LENGTH}}}")
_TOP_KEYS = ("scenario", "sides", "board", "units", "victory", "setup", "special", "ground", "adapters",
             "reinforcements")
_HEAD_KEYS = ("id", "title", "system", "rules", "turns", "notes")
_UNIT_KEYS = ("id", "type", "side", "hex", "facing", "state", "enter")
_ENTER_KEYS = ("turn", "hex", "hexes")


def unknown_key_problems(table: Mapping[str, Any], known: tuple[str, ...], path: str,
                         prefix: str, loc: _Locator | None = None, *,
                         line: int | None = None) -> list[Problem]:
    """A problem for every key of ``table`` not in ``known``, with a "did you mean" hint."""
    import difflib

    problems = []
    for extra in sorted(str(k) for k in table if k not in known):
        key = f"{prefix}.{extra}" if prefix else extra
        close = difflib.get_close_matches(extra, known, n=1, cutoff=0.6)
        hint = f"did you mean {close[0]!r}?" if close else f"known keys: {', '.join(known)}"
        where = None
        if loc is not None:
            where = loc.line_in_block(line, extra) if line is not None else loc.line_of_key(key)
        text = (f"unknown key {extra[:40]!r} in [{prefix}]" if prefix
                else f"unknown top-level table [{extra[:40]}]")
        problems.append(Problem(text, path, key, where, hint))
    return problems


# -- shapes: a small schema language for the systems' parts of a scenario --------------------


@dataclass(frozen=True)
class Req:
    """A key a table must have."""

    shape: Any


@dataclass(frozen=True)
class MapOf:
    """A table of any keys (``keys``: only these), each value of ``shape``."""

    shape: Any
    keys: tuple[str, ...] | None = None


@dataclass(frozen=True)
class OneOf:
    """One of the listed values."""

    values: tuple[Any, ...]


@dataclass(frozen=True)
class IntRange:
    """An integer from ``lo`` to ``hi``."""

    lo: int
    hi: int


@dataclass(frozen=True)
class Either:
    """A value of any of the shapes (the first listed names it in a problem)."""

    shapes: tuple[Any, ...]


ANY = object()
NUMBER = (int, float)


def shape_problems(value: Any, shape: Any, path: str, key: str, loc: _Locator | None = None
                   ) -> list[Problem]:
    """Every problem of ``value`` against ``shape``: a Python type (``str``, ``int``, ``bool``,
    :data:`NUMBER`), ``[shape]`` (an array of it), ``{key: shape}`` (a table with only these
    keys; :class:`Req` marks a required one), :class:`MapOf`, :class:`OneOf`,
    :class:`IntRange`, :class:`Either` or :data:`ANY`."""
    problems: list[Problem] = []

    def line() -> int | None:
        return loc.line_of_key(key) if loc is not None else None

    def bad(message: str, hint: str = "") -> list[Problem]:
        return [Problem(message, path, key, line(), hint)]

    if shape is ANY:
        return []
    if isinstance(shape, Req):
        shape = shape.shape
    if isinstance(shape, Either):
        for s in shape.shapes:
            if not shape_problems(value, s, path, key):
                return []
        return shape_problems(value, shape.shapes[0], path, key, loc)
    if isinstance(shape, OneOf):
        if isinstance(value, bool) != any(isinstance(v, bool) for v in shape.values) or \
                not _hashable(value) or value not in shape.values:
            return bad(f"must be one of {', '.join(map(repr, shape.values))}, not {_brief(value)}")
        return []
    if isinstance(shape, IntRange):
        if isinstance(value, bool) or not isinstance(value, int):
            return bad(f"must be an integer, not {_brief(value)}")
        if not shape.lo <= value <= shape.hi:
            return bad(f"must be {shape.lo} to {shape.hi}, not {value}")
        return []
    if isinstance(shape, type) or (isinstance(shape, tuple) and shape
                                   and all(isinstance(t, type) for t in shape)):
        kinds = shape if isinstance(shape, tuple) else (shape,)
        if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
            return bad(f"must be {_kind_name(kinds[0]) if len(kinds) == 1 else 'a number'}, "
                       f"not {_brief(value)}")
        return []
    if isinstance(shape, list):
        if not isinstance(value, list):
            return bad(f"must be an array, not {_brief(value)}")
        for i, item in enumerate(value):
            problems.extend(shape_problems(item, shape[0], path, f"{key}[{i}]", loc))
        return problems
    if isinstance(shape, MapOf):
        if not isinstance(value, dict):
            return bad(f"must be a table, not {_brief(value)}")
        if shape.keys is not None:
            problems.extend(unknown_key_problems(value, shape.keys, path, key, loc))
        for k, v in value.items():
            if shape.keys is None or k in shape.keys:
                problems.extend(shape_problems(v, shape.shape, path, f"{key}.{k}", loc))
        return problems
    if isinstance(shape, dict):
        if not isinstance(value, dict):
            return bad(f"must be a table, not {_brief(value)}")
        problems.extend(unknown_key_problems(value, tuple(shape), path, key, loc))
        for k, s in shape.items():
            if k in value:
                problems.extend(shape_problems(value[k], s, path, f"{key}.{k}", loc))
            elif isinstance(s, Req):
                problems.append(Problem(f"missing required key {k!r}", path, f"{key}.{k}",
                                        line()))
        return problems
    raise TypeError(f"not a shape: {shape!r}")


def shape_paths(shape: Any, prefix: str) -> set[str]:
    """The key paths a :func:`shape_problems` shape accepts below ``prefix``, in the notation of
    docs/scenario-format.md: ``a.b`` a key of a table, ``a[].b`` a key of each table of an array
    (an array of plain values is just ``a``), ``a.<name>`` any key, ``a.<US|SU>`` one of those
    keys. A table that takes no keys is its own path."""
    if isinstance(shape, Req):
        return shape_paths(shape.shape, prefix)
    if isinstance(shape, Either):
        return set().union(*(shape_paths(s, prefix) for s in shape.shapes))
    if isinstance(shape, list):
        inner = shape_paths(shape[0], f"{prefix}[]")
        return {prefix} if inner == {f"{prefix}[]"} else inner
    if isinstance(shape, MapOf):
        name = "<" + "|".join(shape.keys) + ">" if shape.keys is not None else "<name>"
        return shape_paths(shape.shape, f"{prefix}.{name}")
    if isinstance(shape, dict) and shape:
        return set().union(*(shape_paths(v, f"{prefix}.{k}") for k, v in shape.items()))
    return {prefix}


def core_key_paths() -> set[str]:
    """Every key path of the core's part of the scenario format (docs/scenario-format.md): the
    keys the core reads and refuses others of; ``sides`` and the system tables are open to the
    system (each system's ``scenario_shapes`` gives its own)."""
    from hexwar.core.board import _BOARD_KEYS, _PLACEMENT_KEYS

    systems = {"sides", "victory", "setup", "special", "reinforcements"}
    out = {f"scenario.{k}" for k in _HEAD_KEYS} | {"sides.<name>"}
    out |= {f"units[].{k}" for k in _UNIT_KEYS if k != "enter"}
    out |= {f"units[].enter.{k}" for k in _ENTER_KEYS}
    out |= {f"board.{k}" for k in _BOARD_KEYS if k != "panels"}
    out |= {f"board.panels[].{k}" for k in _PLACEMENT_KEYS}
    out |= {k for k in _TOP_KEYS if k in systems - {"sides"}}
    return out


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _brief(value: Any) -> str:
    text = repr(value)
    text = text if len(text) <= 40 else text[:37] + "..."
    return f"{_kind_name(type(value)).split(' ', 1)[-1]} {text}"


def _enter_problems(enter: Mapping[str, Any], path: str, key: str,
                    line: int | None) -> list[Problem]:
    """The core checks of a unit's ``enter`` table: its keys and their types."""
    problems = unknown_key_problems(enter, _ENTER_KEYS, path, key)
    turn = enter.get("turn", 1)
    if isinstance(turn, bool) or not isinstance(turn, int) or not 1 <= turn <= MAX_TURNS:
        problems.append(Problem(f"enter.turn must be a turn number, not {turn!r}"[:120], path,
                                f"{key}.turn", line, hint="enter = { turn = 3, hex = \"1A1\" }"))
    if "hex" in enter and not isinstance(enter["hex"], str):
        problems.append(Problem("enter.hex must be a hex label", path, f"{key}.hex", line))
    hexes = enter.get("hexes", [])
    if not (isinstance(hexes, list) and all(isinstance(h, str) for h in hexes)):
        problems.append(Problem("enter.hexes must be a list of hex labels", path, f"{key}.hexes",
                                line))
    return [Problem(p.message, p.path, p.key, p.line if p.line is not None else line, p.hint)
            for p in problems]


# -- helpers -----------------------------------------------------------------------------------

_MISSING = object()


def _get(table: Mapping[str, Any], name: str, kind: type, problems: list[Problem], loc: _Locator,
         prefix: str, *, default: Any = _MISSING, line: int | None = None) -> Any:
    key = f"{prefix}.{name}"
    if name not in table:
        if default is _MISSING:
            problems.append(Problem(f"missing required key {name!r}", loc.path, key,
                                    line if line is not None else loc.line_of_key(prefix)))
            return None
        return default
    value = table[name]
    if (kind is int and isinstance(value, bool)) or not isinstance(value, kind):
        problems.append(Problem(
            f"{name!r} must be {_kind_name(kind)}, not {type(value).__name__} {value!r}",
            loc.path, key, loc.line_in_block(line, name) if line else loc.line_of_key(key)))
        return None
    return value


def _kind_name(kind: type) -> str:
    return {str: "a string", int: "an integer", list: "an array", dict: "a table",
            bool: "a boolean", float: "a number"}.get(kind, kind.__name__)


def _toml_error_line(message: str) -> int | None:
    m = re.search(r"line (\d+)", message)
    return int(m.group(1)) if m else None


class _Locator:
    """Finds the line of a key in the TOML text (tomllib keeps no positions)."""

    def __init__(self, text: str, path: str) -> None:
        self.lines = text.splitlines()
        self.path = path
        self._arrays: dict[str, list[int]] = {}

    def problem(self, message: str, key: str, *, hint: str = "") -> Problem:
        return Problem(message, self.path, key, self.line_of_key(key), hint)

    def array_line(self, name: str, index: int) -> int | None:
        """The line of the ``index``-th ``[[name]]`` header (the headers are found once, so a
        file of many units is located in linear time)."""
        found = self._arrays.get(name)
        if found is None:
            pattern = re.compile(rf"^\s*\[\[\s*{re.escape(name)}\s*\]\]")
            found = [i for i, line in enumerate(self.lines, start=1) if pattern.match(line)]
            self._arrays[name] = found
        return found[index] if 0 <= index < len(found) else None

    def line_in_block(self, start: int | None, name: str) -> int | None:
        if start is None:
            return None
        pattern = re.compile(rf"^\s*{re.escape(name)}\s*=")
        for i in range(start, len(self.lines) + 1):
            line = self.lines[i - 1]
            if i > start and line.lstrip().startswith("["):
                break
            if pattern.match(line):
                return i
        return start

    def line_of_key(self, key: str) -> int | None:
        parts = key.replace("]", "").replace("[", ".").split(".")
        table, last = parts[0], parts[-1]
        header = re.compile(rf"^\s*\[+\s*{re.escape(table)}\b")
        start = next((i for i, line in enumerate(self.lines, 1) if header.match(line)), None)
        if start is None:
            return None
        if len(parts) == 1:
            return start
        return self.line_in_block(start, last)
