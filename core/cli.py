"""The ``hexwar`` command line.

Commands that a program would read take ``--json``. Long work (many games, long replays) shows a
progress bar on a terminal. Each installed system may add its own group (``hexwar mbt ...``).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table as RichTable

from hexwar.core.errors import HexwarError
from hexwar.core.types import GameResult

console = Console(soft_wrap=True)
err_console = Console(stderr=True, soft_wrap=True)


def _emit_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, sort_keys=True, default=str))


@contextmanager
def _progress(total: int | None, description: str, *, enabled: bool) -> Iterator[Progress]:
    progress = Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), console=err_console, disable=not enabled, transient=False,
    )
    with progress:
        progress.add_task(description, total=total)
        yield progress


class HexwarGroup(click.Group):
    """The root group: turns hexwar's own errors into a clean message and exit code 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except HexwarError as exc:
            err_console.print(f"[bold red]error:[/] {escape(str(exc))}", highlight=False)
            ctx.exit(2)


@click.group(cls=HexwarGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="hexwar", prog_name="hexwar")
def cli() -> None:
    """hexwar adjudicates hex-and-counter tactical wargames.

    Play a built-in scenario AI against AI:

        hexwar play firefight:scenario-1 --players ai,ai --seed 1

    Explain a line of sight on a scenario's map:

        hexwar los mbt:basic-a 2EE3 1G7
    """


# -- listings ----------------------------------------------------------------------------------


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def systems(as_json: bool) -> None:
    """List the installed game systems."""
    from hexwar.core.manager import Hooks, discovery_manager, installed_plugins, systems

    hooks = Hooks(discovery_manager())
    infos = {s.name: s for s in hooks.systems()}
    rows: list[dict[str, Any]] = []
    for name, plugin in sorted(systems().items()):
        info = infos.get(name)
        rows.append({
            "name": name, "title": plugin.manifest.title, "version": plugin.version,
            "distribution": plugin.distribution,
            "publisher": info.publisher if info else "",
            "options": sum(1 for p in installed_plugins().values()
                           if p.manifest.kind != "system" and p.manifest.system == name),
        })
    if as_json:
        _emit_json(rows)
        return
    table = RichTable("system", "title", "publisher", "optional rules", "package")
    for r in rows:
        table.add_row(r["name"], r["title"], r["publisher"], str(r["options"]),
                      f"{r['distribution']} {r['version']}")
    console.print(table)


@cli.command()
@click.argument("system")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def options(system: str, as_json: bool) -> None:
    """List the optional rules of SYSTEM, with what each requires and conflicts with."""
    from hexwar.core.manager import options_of

    rows: list[dict[str, Any]] = [
        {"name": n, "title": p.manifest.title, "summary": p.manifest.summary,
         "implements": list(p.manifest.implements), "requires": list(p.manifest.requires),
         "conflicts": list(p.manifest.conflicts)}
        for n, p in sorted(options_of(system).items())
    ]
    if as_json:
        _emit_json(rows)
        return
    if not rows:
        console.print(f"{system} has no optional rules installed.")
        return
    table = RichTable(show_lines=False)
    table.add_column("option", no_wrap=True, style="bold")
    table.add_column("what it does (rules)")
    table.add_column("needs / excludes", no_wrap=True)
    for r in rows:
        rules = " ".join(r["implements"][:6]) + (" ..." if len(r["implements"]) > 6 else "")
        needs = "\n".join([*(f"+ {x}" for x in r["requires"]), *(f"- {x}" for x in r["conflicts"])])
        table.add_row(r["name"], f"{escape(r['summary'])} [dim]({escape(rules)})[/]", escape(needs))
    console.print(table)


@cli.command()
@click.argument("system", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def scenarios(system: str | None, as_json: bool) -> None:
    """List the built-in scenarios (of SYSTEM, or of every system)."""
    rows = []
    for source in _scenario_sources():
        if system and not source.name.startswith(f"{system}:"):
            continue
        from hexwar.core.scenario import Scenario

        try:
            sc = Scenario.load(source.path)
            rows.append({"name": source.name, "title": sc.title, "system": sc.system,
                         "turns": sc.turns, "rules": list(sc.rules), "path": str(source.path)})
        except HexwarError as exc:
            rows.append({"name": source.name, "title": f"(broken: {exc})", "system": "",
                         "turns": 0, "rules": [], "path": str(source.path)})
    if as_json:
        _emit_json(rows)
        return
    table = RichTable("scenario", "title", "turns", "optional rules")
    for r in rows:
        table.add_row(r["name"], r["title"], str(r["turns"]), ", ".join(r["rules"]))
    console.print(table)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def plugins(as_json: bool) -> None:
    """List every installed plugin: systems, optional rules and adapters.

    A plugin that cannot be loaded, or whose hooks fail validation (checked for each plugin on its
    own, beside its system), is listed as broken with the reason.
    """
    from hexwar.core.manager import broken_plugins, installed_plugins

    broken = broken_plugins()
    installed = installed_plugins()
    rows: list[dict[str, Any]] = [
        {"name": n, "kind": p.manifest.kind, "system": p.manifest.system, "title": p.manifest.title,
         "distribution": p.distribution, "version": p.version,
         "status": "broken" if n in broken else "ok", "reason": broken.get(n)}
        for n, p in sorted(installed.items())]
    rows += [{"name": n, "kind": "", "system": "", "title": "", "distribution": "",
              "version": "", "status": "broken", "reason": reason}
             for n, reason in sorted(broken.items()) if n not in installed]
    rows.sort(key=lambda r: r["name"])
    if as_json:
        _emit_json(rows)
        return
    table = RichTable("plugin", "kind", "system", "title", "package", "status")
    for r in rows:
        package = f"{r['distribution']} {r['version']}".strip()
        status = "[red]broken[/]" if r["status"] == "broken" else "ok"
        table.add_row(escape(r["name"]), r["kind"], r["system"], escape(r["title"]),
                      escape(package), status)
    console.print(table)
    for r in rows:
        if r["reason"]:
            console.print(f"[red]✗[/] {escape(r['name'])}: {escape(r['reason'])}", highlight=False)


def _scenario_sources() -> list[Any]:
    from hexwar.core.manager import Hooks, discovery_manager

    return Hooks(discovery_manager()).data_sources("scenario")


def _resolve_scenario_path(name: str) -> Path:
    """A scenario given by path or by its registered name (``mbt:basic-a``)."""
    path = Path(name)
    if path.exists():
        return path
    sources = {s.name: s for s in _scenario_sources()}
    if name in sources:
        return Path(sources[name].path)
    from hexwar.core.manager import unknown_message

    raise HexwarError(unknown_message("scenario (file or name)", name, sorted(sources)))


# -- validate ----------------------------------------------------------------------------------


@cli.command()
@click.argument("file")
@click.option("--option", "options_", multiple=True, help="Also enable this optional rule.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def validate(file: str, options_: tuple[str, ...], as_json: bool) -> None:
    """Check a scenario file and report every problem with its file, key, line and a hint."""
    from hexwar.core.scenario import Scenario, ScenarioError, validate_scenario

    path = _resolve_scenario_path(file)
    try:
        problems = validate_scenario(Scenario.load(path), options=options_)
    except ScenarioError as exc:
        problems = exc.problems
    if as_json:
        _emit_json([{"message": p.message, "path": p.path, "key": p.key, "line": p.line,
                     "hint": p.hint} for p in problems])
    elif problems:
        for p in problems:
            err_console.print(f"[red]✗[/] {escape(str(p))}", highlight=False)
        err_console.print(f"{len(problems)} problem(s)")
    else:
        console.print(f"[green]✓[/] {escape(str(path))} is a valid scenario")
    if problems:
        sys.exit(1)


# -- play, resume, replay ----------------------------------------------------------------------


def _controllers(game: Any, players: str, seed: int, *, terminal: Any = None,
                 umpire: str = "auto") -> tuple[dict[str, Any], dict[str, str]]:
    """The controller of each side from ``--players``; the humans share ``terminal`` (one is
    made when none is given: a hot-seat game when two sides are human). ``umpire`` other than
    "auto" also seats a player in the umpire's seat (else the automatic umpire sits there)."""
    from hexwar.core.engine.controllers import Terminal, make_controller

    words = [w.strip() for w in players.split(",") if w.strip()]
    sides = list(game.state.sides)
    if len(words) == 1:
        words = words * len(sides)
    if len(words) != len(sides):
        raise HexwarError(f"--players names {len(words)} player(s) but the scenario has "
                          f"{len(sides)} sides ({', '.join(sides)})")
    offered = game.hooks.controllers(game.scenario.system)
    if terminal is None:
        terminal = Terminal(humans=words.count("human") + (umpire == "human"))
    controllers = {side: make_controller(w, side, seed, offered, terminal=terminal)
                   for side, w in zip(sides, words, strict=True)}
    if umpire != "auto":  # the umpire's seat (core/engine/umpire.py)
        from hexwar.core.engine.umpire import UMPIRE

        controllers[UMPIRE] = make_controller(umpire, UMPIRE, seed, {}, terminal=terminal)
    return controllers, dict(zip(sides, words, strict=True))


def _play_to_end(game: Any, controllers: dict[str, Any], players: str, *,
                 on_decision: Any, new_log: Any = None, rebuilt: Any = None,
                 umpire: str = "auto") -> tuple[Any, Any]:
    """Play ``game`` to its end; a human's ``undo`` rebuilds it without their last decision
    (``replay_minus``: a fresh log from ``new_log()``, fresh AI players that remember only the
    replayed game) and play goes on. Returns the game that ended (a new one after an undo) and
    its result; ``rebuilt(game)`` is told of each new game (a quit raises ``QuitRequest``)."""
    from hexwar.core.engine.controllers import UndoRequest, replay_minus

    while True:
        try:
            return game, game.play(controllers, on_decision=on_decision)
        except UndoRequest as undo:
            game, controllers = replay_minus(
                game, undo.keep, log=new_log() if new_log is not None else None,
                remake=lambda g: _controllers(g, players, g.seed, umpire=umpire)[0],
                humans=controllers)
            if rebuilt is not None:
                rebuilt(game)


def _print_result(game: Any, result: GameResult, as_json: bool) -> None:
    if as_json:
        _emit_json({"scenario": game.scenario.id, "seed": game.seed, "turn": game.state.turn,
                    "decisions": len(game.decisions), "result": result.as_dict()})
        return
    who = result.winner or "nobody"
    console.print(f"[bold]{escape(game.scenario.title)}[/] ({game.scenario.id}), seed {game.seed}: "
                  f"{who} wins ({result.level}) after turn {game.state.turn}, "
                  f"{len(game.decisions)} decisions")
    if result.scores:
        console.print("  scores: " + ", ".join(f"{k} {v:g}" for k, v in result.scores.items()))
    for reason in result.reasons:
        console.print(f"  - {escape(reason)}", highlight=False)


_SIGN_KEY_HELP = ("Sign the record with HMAC-SHA256 under the key in FILE (default: the "
                  "HEXWAR_SIGNING_KEY environment variable, if set).")


def _signing_key(key_file: str | None) -> bytes | None:
    """The signing key: the bytes of ``key_file`` (a trailing newline dropped), else the
    ``HEXWAR_SIGNING_KEY`` environment variable, else ``None``."""
    if key_file is not None:
        try:
            key = Path(key_file).read_bytes().rstrip(b"\r\n")
        except OSError as exc:
            raise click.BadParameter(f"cannot read {key_file}: {exc.strerror}",
                                     param_hint="'--sign-key-file'") from exc
        if not key:
            raise click.BadParameter(f"{key_file} is empty", param_hint="'--sign-key-file'")
        return key
    env = os.environ.get("HEXWAR_SIGNING_KEY")
    return env.encode("utf-8") if env else None


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and a.samefile(b)
    except OSError:
        return a.resolve() == b.resolve()


def _check_outputs(outputs: list[tuple[str, str | None, str | None]], inputs: list[Path]) -> None:
    """Refuse, before any game is played, an output that cannot be written or would overwrite
    an input or another output. ``outputs`` lists (option, path, kind): ``kind`` ``"log"`` or
    ``"save"`` also refuses an existing file that is not a hexwar record of that kind."""
    from hexwar.core.engine.record import sniff_kind

    seen: list[tuple[str, Path]] = []
    for option, value, kind in outputs:
        if value is None:
            continue
        path = Path(value)
        hint = f"'{option}'"
        folder = path.resolve().parent
        if not folder.is_dir():
            raise click.BadParameter(f"cannot write {value}: the folder {folder} does not exist",
                                     param_hint=hint)
        if path.is_dir():
            raise click.BadParameter(f"{value} is a folder", param_hint=hint)
        if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
            raise click.BadParameter(f"cannot write {value}: permission denied", param_hint=hint)
        for source in inputs:
            if _same_file(path, source) or path.resolve() == source.resolve():
                raise click.BadParameter(f"{value} is this command's input ({source}); "
                                         f"it would be overwritten", param_hint=hint)
        for other_option, other in seen:
            if _same_file(path, other) or path.resolve() == other.resolve():
                raise click.BadParameter(f"{value} is also given to '{other_option}'",
                                         param_hint=hint)
        if kind is not None and path.is_file() and path.stat().st_size > 0:
            try:
                found = sniff_kind(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError):
                found = None
            if found != kind:
                raise click.BadParameter(f"{value} exists and is not a hexwar {kind}; refusing to "
                                         f"overwrite it", param_hint=hint)
        seen.append((option, path))


def _player_files(players: str) -> list[Path]:
    return [Path(w.strip().removeprefix("script:")) for w in players.split(",")
            if w.strip().startswith("script:")]


@cli.command()
@click.argument("scenario")
@click.option("--seed", type=int, default=None,
              help="Seed of the game's dice (default: a fresh secret one; a player who can guess "
                   "the seed can predict every roll, docs/decisions.md CORE-56).")
@click.option("--option", "options_", multiple=True, help="Enable an optional rule (repeatable).")
@click.option("--players", default="ai,ai", show_default=True,
              help="One player per side, comma-separated: ai, random, human or script:FILE.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False), help="Write the event log (JSON lines).")
@click.option("--save", "save_path", type=click.Path(dir_okay=False),
              help="Save the game here (after every decision when a human plays, else at the end).")
@click.option("--log-side", "log_sides", multiple=True, metavar="SIDE=FILE",
              help="Also write SIDE's own log to FILE, live: only what SIDE may know, without the "
                   "seed (repeatable).")
@click.option("--sign-key-file", type=click.Path(dir_okay=False), default=None, help=_SIGN_KEY_HELP)
@click.option("--umpire", "umpire_word", default="auto", show_default=True,
              help="Who sits in the umpire's seat of an umpired game (e.g. --option mbt.umpired): "
                   "auto (the automatic umpire), human, random or script:FILE (docs/umpire.md).")
@click.option("--final-svg", "final_svg", type=click.Path(dir_okay=False), default=None,
              help="Write the final position as an SVG picture (the umpire's, who sees all).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def play(scenario: str, seed: int | None, options_: tuple[str, ...], players: str,
         log_path: str | None, save_path: str | None, log_sides: tuple[str, ...],
         sign_key_file: str | None, umpire_word: str, final_svg: str | None,
         as_json: bool) -> None:
    """Play SCENARIO (a file or a built-in name) to its end, then print a summary of the game:
    the result, each side's losses, the objectives and the key events in words.

    A human player ("human") sees what happened since their last turn in words and the
    decision explained; many choices are made in two steps; 'board', 'log', 'undo', 'save',
    'quit' and 'help' are commands. Two humans at one terminal (--players human,human) pass
    the device between turns behind a blank screen."""
    if seed is None:
        import secrets

        seed = secrets.randbelow(10 ** 18)  # 18 digits: the most a log's integer may hold (CORE-21)
    from hexwar.core.engine.controllers import QuitRequest, Terminal
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.record import EventLog, save_game
    from hexwar.core.scenario import load_and_validate

    key = _signing_key(sign_key_file)
    scenario_path = _resolve_scenario_path(scenario)
    inputs = [scenario_path, *_player_files(players), *_player_files(umpire_word)]
    if sign_key_file is not None:
        inputs.append(Path(sign_key_file))
    side_paths = _parse_log_sides(log_sides)
    _check_outputs([("--log", log_path, "log"), ("--save", save_path, "save"),
                    ("--final-svg", final_svg, None),
                    *(("--log-side", path, "side-log") for path in side_paths.values())], inputs)
    sc = load_and_validate(scenario_path, options=options_)
    unknown = [s for s in side_paths if s not in sc.side_names()]
    if unknown:
        raise click.BadParameter(f"the scenario has no side {unknown[0]!r} (its sides: "
                                 f"{', '.join(sc.side_names())})", param_hint="'--log-side'")
    with _open_log(log_path) as stream, ExitStack() as side_files:
        side_streams = {side: side_files.enter_context(open(path, "w", encoding="utf-8"))
                        for side, path in side_paths.items()}
        def fresh_log() -> EventLog:
            # an undo replays the game from its start: its log is written again from the top
            for handle in (stream, *side_streams.values()):
                if handle is not None:
                    handle.seek(0)
                    handle.truncate()
            return EventLog(stream, signing_key=key, side_streams=side_streams)

        now: dict[str, Any] = {}  # the game being played (a new one after an undo), its log

        def save_to(g: Any, path: str | None) -> str:
            target = path or save_path or "hexwar-save.json"
            save_game(g, target, players=words, signing_key=key)
            return target

        now["log"] = log = EventLog(stream, signing_key=key, side_streams=side_streams)
        now["game"] = game = Game(sc, seed=seed, options=options_, log=log)
        terminal = Terminal(save=save_to)
        controllers, words = _controllers(game, players, seed, terminal=terminal,
                                          umpire=umpire_word)
        terminal.humans = list(words.values()).count("human") + (umpire_word == "human")
        human = terminal.humans > 0

        def after(g: Any) -> None:
            if save_path and human:
                save_game(g, save_path, players=words, signing_key=key)

        def new_log() -> EventLog:
            now["log"] = fresh_log()
            return now["log"]  # type: ignore[no-any-return]

        def rebuilt(g: Any) -> None:
            now["game"] = g
            after(g)

        try:
            with _progress(sc.turns, f"{sc.id}", enabled=not as_json and not human
                           and sys.stderr.isatty()) as bar:
                def step(g: Any) -> None:
                    after(g)
                    bar.update(bar.task_ids[0], completed=g.state.turn)
                game, result = _play_to_end(game, controllers, players, on_decision=step,
                                            new_log=new_log, rebuilt=rebuilt,
                                            umpire=umpire_word)
        except QuitRequest as stop:
            game = now["game"]
            where = f"saved to {save_path} (resume with: hexwar resume {save_path})" \
                if save_path else "not saved (type 'save' before 'quit', or play with --save)"
            # the side's own decisions: the game's count would include the others' secret ones
            # (docs/decisions.md CORE-63)
            own = sum(1 for d in game.decisions if d.get("side") == stop.side)
            console.print(f"{escape(stop.side)} quit after {own} of its decisions; the "
                          f"game is {escape(where)}", highlight=False)
            return
        finally:
            now["log"].close()
            if save_path:
                save_game(now["game"], save_path, players=words, signing_key=key)
    _finish_play(game, result, as_json, final_svg)


def _finish_play(game: Any, result: GameResult, as_json: bool, final_svg: str | None) -> None:
    """The end of ``play``: the result and the summary (``core/words.summarise``), and the
    final position as an SVG picture when asked."""
    from hexwar.core.words import summarise

    summary = summarise(game)
    if final_svg is not None:
        from hexwar.core.render import render_game

        Path(final_svg).write_text(render_game(game, None), encoding="utf-8")
    if as_json:
        _emit_json({"scenario": game.scenario.id, "seed": game.seed, "turn": game.state.turn,
                    "decisions": len(game.decisions), "result": result.as_dict(),
                    "summary": summary.as_dict()})
        return
    _print_result(game, result, False)
    for line in summary.details():
        console.print(f"  {escape(line)}", highlight=False)
    if final_svg is not None:
        console.print(f"final position: {escape(final_svg)}", highlight=False)


def _parse_log_sides(values: tuple[str, ...]) -> dict[str, str]:
    """``--log-side SIDE=FILE`` values as side -> file; a side named twice is refused."""
    out: dict[str, str] = {}
    for value in values:
        side, sep, path = value.partition("=")
        if not sep or not side.strip() or not path.strip():
            raise click.BadParameter(f"{value!r} is not SIDE=FILE", param_hint="'--log-side'")
        if side.strip() in out:
            raise click.BadParameter(f"side {side.strip()!r} is given twice",
                                     param_hint="'--log-side'")
        out[side.strip()] = path.strip()
    return out


@contextmanager
def _open_log(path: str | None) -> Iterator[Any]:
    if path is None:
        yield None
        return
    with open(path, "w", encoding="utf-8") as handle:
        yield handle


def _version_drift(header: dict[str, Any]) -> str:
    """Which recorded versions (hexwar, plugins) differ from the installed ones, as text."""
    from importlib.metadata import PackageNotFoundError, version

    from hexwar.core.manager import installed_plugins

    differ: list[str] = []
    try:
        mine = version("hexwar")
    except PackageNotFoundError:
        mine = None
    if header.get("hexwar") not in (None, mine):
        differ.append(f"hexwar {header.get('hexwar')} (installed: {mine})")
    installed = installed_plugins()
    plugins = header.get("plugins")
    for name, recorded in (plugins.items() if isinstance(plugins, dict) else []):
        now = installed[name].version if name in installed else "not installed"
        if recorded != now:
            differ.append(f"{name} {recorded} (installed: {now})")
    return ", ".join(differ)


def _print_notes(saved: Any) -> None:
    for note in saved.notes:
        err_console.print(f"[yellow]note:[/] {escape(saved.path)}: {escape(note)}", highlight=False)


@cli.command()
@click.argument("save", type=click.Path(exists=True, dir_okay=False))
@click.option("--players", default=None, help="Players for the rest of the game (default: as saved).")
@click.option("--save", "save_path", type=click.Path(dir_okay=False), help="Save here (default: SAVE).")
@click.option("--log-side", "log_sides", multiple=True, metavar="SIDE=FILE",
              help="Write SIDE's own log of the whole game to FILE, live as play goes on: only "
                   "what SIDE may know, without the seed (repeatable).")
@click.option("--sign-key-file", type=click.Path(dir_okay=False), default=None, help=_SIGN_KEY_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def resume(save: str, players: str | None, save_path: str | None, log_sides: tuple[str, ...],
           sign_key_file: str | None, as_json: bool) -> None:
    """Resume a saved game (a save, or a log) and play it to its end."""
    from hexwar.core.engine.controllers import QuitRequest, TerminalController
    from hexwar.core.engine.record import load_saved, save_game
    from hexwar.core.engine.replay import rebuild

    key = _signing_key(sign_key_file)
    saved = load_saved(save)
    if saved.kind == "log" and save_path is None:
        raise click.UsageError(f"{save} is a log, which resume does not overwrite: name the save "
                               f"to write with --save FILE")
    target = save_path or save
    inputs = [Path(save), *_player_files(players or ",".join(saved.players.values()))]
    if saved.kind == "save" and _same_file(Path(target), Path(save)):
        inputs = inputs[1:]  # a save goes on in itself
    side_paths = _parse_log_sides(log_sides)
    _check_outputs([("--save", target, "save"),
                    *(("--log-side", path, "side-log") for path in side_paths.values())],
                   inputs)  # a side log on the save itself is "also given to '--save'"
    _print_notes(saved)
    built: dict[str, Any] = {}

    def players_of(g: Any) -> dict[str, Any]:
        # built for the fresh game and asked every replayed decision (replay.rebuild), so an AI
        # remembers what it would have had the game never stopped
        words_text = players or ",".join(saved.players.get(s, "ai") for s in g.state.sides)
        built["controllers"], built["words"] = _controllers(g, words_text, g.seed)
        return built["controllers"]  # type: ignore[no-any-return]

    game = rebuild(saved, verify=True, controllers=players_of)
    unknown = [s for s in side_paths if s not in game.state.sides]
    if unknown:
        raise click.BadParameter(f"the game has no side {unknown[0]!r} (its sides: "
                                 f"{', '.join(game.state.sides)})", param_hint="'--log-side'")
    controllers, words = built["controllers"], built["words"]
    if game.pending is None:
        console.print("the saved game is already over")
    now = {"game": game}

    def save_to(g: Any, path: str | None) -> str:
        save_game(g, path or target, players=words, signing_key=key)
        return path or target

    for c in controllers.values():
        if isinstance(c, TerminalController):
            c.terminal.save = save_to

    def rebuilt(g: Any) -> None:
        now["game"] = g

    with ExitStack() as side_files:
        for side, path in side_paths.items():
            game.log.add_side_stream(side, side_files.enter_context(
                open(path, "w", encoding="utf-8")))
        try:
            game, result = _play_to_end(
                game, controllers, ",".join(words[s] for s in game.state.sides),
                on_decision=lambda g: save_game(g, target, players=words, signing_key=key)
                if "human" in words.values() else None, rebuilt=rebuilt)
        except QuitRequest as stop:
            console.print(f"{escape(stop.side)} quit; the game is saved to {escape(target)} "
                          f"(resume with: hexwar resume {escape(target)})", highlight=False)
            return
        finally:
            if side_paths:
                now["game"].log.close()
            save_game(now["game"], target, players=words, signing_key=key)
    _print_result(game, result, as_json)


@cli.command()
@click.argument("log", type=click.Path(exists=True, dir_okay=False))
@click.option("--verify", is_flag=True,
              help="Check every state hash and every recorded event, that the log is complete, "
                   "and its signature when a key is given.")
@click.option("--sign-key-file", type=click.Path(dir_okay=False), default=None,
              help="Check the record's HMAC-SHA256 signature under the key in FILE (default: the "
                   "HEXWAR_SIGNING_KEY environment variable, if set).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def replay(log: str, verify: bool, sign_key_file: str | None, as_json: bool) -> None:
    """Re-run a game from its log or save (its seed and decisions).

    With --verify, a failed check exits with status 1."""
    from hexwar.core.engine.record import check_signature, load_saved
    from hexwar.core.engine.replay import rebuild
    from hexwar.core.errors import DataError, ReplayMismatch

    key = _signing_key(sign_key_file)
    saved = load_saved(log)
    if not verify:
        _print_notes(saved)
    signed = False
    try:
        if verify and saved.kind == "log" and saved.end is None:
            cut = "its last line is torn" if saved.torn else "it has no closing record"
            raise ReplayMismatch(f"{saved.path}: the log is incomplete ({cut}): the game was cut "
                                 f"short after {len(saved.decisions)} decisions, or the log was "
                                 f"truncated")
        if verify and key is not None:
            check_signature(saved, key)
            signed = True
        with _progress(len(saved.decisions), "replay",
                       enabled=not as_json and sys.stderr.isatty()) as bar:
            game = rebuild(saved, verify=verify,
                           on_step=lambda i, n: bar.update(bar.task_ids[0], completed=i))
    except (ReplayMismatch, DataError) as exc:
        if not verify:
            raise
        err_console.print(f"[bold red]verification failed:[/] {escape(str(exc))}", highlight=False)
        drift = _version_drift(saved.header)
        if drift:
            err_console.print(f"[yellow]note:[/] the game was recorded with {escape(drift)}; a "
                              f"different version may adjudicate differently", highlight=False)
        sys.exit(1)
    data = {"decisions": len(saved.decisions), "verified": verify, "signed": signed,
            "complete": saved.kind == "save" or saved.end is not None,
            "hash": game.state.digest(), "turn": game.state.turn, "over": game.result is not None,
            "result": game.result.as_dict() if game.result else None}
    if as_json:
        _emit_json(data)
    else:
        state = "over" if game.result else "in progress"
        if verify:
            check = ("every state hash and every recorded event matched"
                     + (", and the signature is valid" if signed else
                        "; the signature was not checked (no key)" if saved.signature else ""))
        else:
            check = "not verified"
        console.print(f"replayed {len(saved.decisions)} decisions: {check}; game {state} at turn "
                      f"{game.state.turn}")
        if game.result:
            _print_result(game, game.result, False)


# -- the web table -----------------------------------------------------------------------------


@cli.command()
@click.argument("game_file", metavar="SCENARIO|SAVE")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="Port to listen on (0: any free port).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (0.0.0.0: every network interface, for a network game).")
@click.option("--players", default=None,
              help="One player per side, comma-separated: human, ai or random (default: "
                   "human against the computer; a save keeps its own).")
@click.option("--seed", type=int, default=None, help="Seed of the game's dice (default: fresh dice).")
@click.option("--option", "options_", multiple=True, help="Enable an optional rule (repeatable).")
@click.option("--save", "save_path", type=click.Path(dir_okay=False), default=None,
              help="Where the game is saved after every decision (default: a new file here).")
@click.option("--hotseat", is_flag=True,
              help="Every human side plays on one screen, with a 'pass the device' screen between.")
@click.option("--umpire", is_flag=True, help="Also open an umpire's seat that sees everything.")
@click.option("--player", "split", multiple=True, metavar="SIDE:NAME=UNIT,...",
              help="Split a side of people among players, a seat each: the units NAME commands "
                   "(ids or patterns such as 'm60-1*'); repeat for each player.")
@click.option("--max-snapshots", "max_snapshots", type=int, default=20, show_default=True,
              help="The most snapshots of the save kept beside it; a new one removes the oldest.")
def serve(game_file: str, port: int, host: str, players: str | None, seed: int | None,
          options_: tuple[str, ...], save_path: str | None, hotseat: bool, umpire: bool,
          split: tuple[str, ...], max_snapshots: int) -> None:
    """Open a web table for SCENARIO (a file or a built-in name) or a SAVE, and print each
    seat's URL. The game is saved after every decision; `hexwar serve SAVE` goes on with it."""
    if max_snapshots < 1:  # a resume must always be able to keep the game it gives up (CORE-105)
        raise click.BadParameter(f"must be at least 1, got {max_snapshots}",
                                 param_hint="'--max-snapshots'")
    try:
        import uvicorn

        from hexwar.core.web.server import create_app, seat_urls
        from hexwar.core.web.table import Table
    except ImportError as exc:
        raise HexwarError(f"the web table needs the 'web' extra ({exc.name} is not installed): "
                          f"pip install 'hexwar[web]'") from None
    import secrets as _secrets

    from hexwar.core.engine.record import sniff_kind
    from hexwar.core.scenario import load_and_validate

    path = Path(game_file)
    kind = None
    told_seed = False
    if path.is_file():
        try:
            kind = sniff_kind(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            kind = None
    if kind == "save":
        if seed is not None or options_ or save_path is not None or split:
            raise click.UsageError("a save keeps its own seed, rules, players and file: give only "
                                   "--players, --hotseat, --umpire, --host, --port or --max-snapshots")
        table = Table.resume(path, players=_serve_players(players, None), hotseat=hotseat,
                             umpire=umpire)
    else:
        scenario_path = _resolve_scenario_path(game_file)
        sc = load_and_validate(scenario_path, options=options_)
        # a fresh seed as long as play's (a 31-bit one could be found by trying every seed
        # against the rolls a seat sees); the default file name does not hold it, for the name
        # is shown to the seats (CORE-64)
        told_seed = seed is not None
        seed = seed if seed is not None else _secrets.randbelow(10 ** 18)
        target = Path(save_path) if save_path else Path(
            f"hexwar-{sc.id.replace(':', '-')}-{_secrets.token_hex(4)}.json")
        _check_outputs([("--save", str(target), "save")], [scenario_path])
        if target.exists():
            raise click.BadParameter(f"{target} holds a game already: go on with it with "
                                     f"'hexwar serve {target}', or name another file",
                                     param_hint="'--save'")
        from hexwar.core.web.players import parse_player_option

        table = Table.new(sc, seed=seed, options=options_,
                          players=_serve_players(players, sc.side_names()) or {},
                          save_path=target, hotseat=hotseat, umpire=umpire,
                          split=parse_player_option(split))
    table.max_snapshots = max_snapshots  # a setting of this server, not of the game (CORE-103)
    sockets = None
    if port == 0:  # any free port: bound now, so that the URLs printed name the real one
        import socket as _socket

        family = _socket.AF_INET6 if ":" in host else _socket.AF_INET
        sock = _socket.socket(family, _socket.SOCK_STREAM)
        try:
            sock.bind((host, 0))
        except OSError as exc:
            sock.close()
            raise HexwarError(f"--host {host}: cannot listen there ({exc.strerror})") from None
        port = int(sock.getsockname()[1])
        sockets = [sock]
    config = uvicorn.Config(create_app(table), host=host, port=port, log_level="warning",
                            ws_max_size=64 * 1024)
    server = uvicorn.Server(config)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    # the seed keys every die, hidden ones included: shown only when the host chose it
    seed_text = f", seed {table.game.seed}" if told_seed else ""
    console.print(f"[bold]{escape(table.game.scenario.title)}[/]{seed_text}; "
                  f"saved to {escape(str(table.save_path))} after every decision")
    for side, word in table.players.items():
        console.print(f"  {escape(side)}: {'a person' if word == 'human' else escape(word)}")
    if not table.seats:
        console.print("no human seat: every side is played by the computer")
    for seat, url in seat_urls(table, f"http://{shown}:{port}"):
        console.print(f"  open for {escape(seat.name)}: {url}", highlight=False, soft_wrap=True)
    if host in ("0.0.0.0", "::"):
        console.print("  (from another machine, put this machine's address in place of 127.0.0.1)")
    console.print(f"resume later with: hexwar serve {escape(str(table.save_path))}  (Ctrl-C stops)")
    try:
        server.run(sockets=sockets)
    finally:
        for sock in sockets or ():
            sock.close()


def _serve_players(players: str | None, sides: tuple[str, ...] | None) -> dict[str, str] | None:
    """``--players`` of ``serve`` as side -> word; by default the first side is a person and the
    others the computer."""
    if players is None:
        if sides is None:
            return None
        return {s: ("human" if i == 0 else "ai") for i, s in enumerate(sides)}
    words = [w.strip() for w in players.split(",") if w.strip()]
    if words and all("=" in w for w in words):
        return {w.split("=", 1)[0].strip(): w.split("=", 1)[1].strip() for w in words}
    if sides is None:
        raise click.UsageError("to change a save's players name them as SIDE=WORD,SIDE=WORD")
    if len(words) == 1:
        words = words * len(sides)
    if len(words) != len(sides):
        raise click.BadParameter(f"names {len(words)} player(s) but the scenario has "
                                 f"{len(sides)} sides ({', '.join(sides)})", param_hint="'--players'")
    return dict(zip(sides, words, strict=True))


# -- many games --------------------------------------------------------------------------------


def _log_line(record: dict[str, Any], text: str, where: tuple[Any, Any] = (None, None),
              game: Any = None) -> str:
    """One record as a line: its game-turn and phase, then the record in words (``text``); a
    record without turn and phase (a decision) is shown at ``where``, those of the record
    before it."""
    from hexwar.core.words import phase_title

    if record.get("type") == "header":
        return text
    turn = record.get("turn", where[0])
    phase = record.get("phase", where[1])
    at = f"T{turn if turn is not None else '-'} {phase_title(game, phase) if phase else '-'}"
    return f"{at:<22} {text}"


@cli.command("log")
@click.argument("log_file", metavar="LOG", type=click.Path(exists=True, dir_okay=False))
@click.option("--side", default=None, help="Show only what this side may know (default: the "
                                          "umpire, who sees everything).")
@click.option("--json", "as_json", is_flag=True, help="Print the records as JSON, one a line.")
def log_command(log_file: str, side: str | None, as_json: bool) -> None:
    """Print a game's log in words, one line per record with its game-turn, phase and rule:
    the umpire's whole log, or with --side what one side may know (no seed, no other side's
    secrets). A side's own log (play --log-side) is printed as it is."""
    from hexwar.core.engine.record import load_log, load_side_log, side_events, sniff_kind

    try:
        kind = sniff_kind(Path(log_file).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        kind = None
    if kind == "side-log":
        header, records = load_side_log(log_file)
        if side is not None and side != header.get("side"):
            raise click.BadParameter(f"{log_file} is {header.get('side')}'s log, not {side}'s",
                                     param_hint="'--side'")
        shown = [header, *records]
    else:
        saved = load_log(log_file)
        _print_notes(saved)
        sides = sorted({str(s) for e in saved.events for s in
                        ([e["side"]] if e.get("type") == "decision" else []) + e.get("visible_to", [])})
        if side is not None and sides and side not in sides:
            raise click.BadParameter(f"the game has no side {side!r} (its sides: "
                                     f"{', '.join(sides)})", param_hint="'--side'")
        shown = side_events([{"type": "header", **saved.header}, *saved.events], side)
    if as_json:
        for record in shown:
            click.echo(json.dumps(record, sort_keys=True))
        return
    from hexwar.core.words import context_game, generic_description

    game = context_game(shown[0])
    where: tuple[Any, Any] = (None, None)
    for record in shown:
        text = game.hooks.describe_event(game, record) if game is not None else \
            generic_description(record)
        click.echo(_log_line(record, text, where, game), nl=True)
        if "turn" in record or "phase" in record:
            where = (record.get("turn", where[0]), record.get("phase", where[1]))


def _simulation_options(command: Any) -> Any:
    """The options ``simulate`` and ``balance`` share."""
    for option in reversed([
        click.option("--games", "n_games", type=click.IntRange(min=1), default=20,
                     show_default=True, help="How many games (at least 1); with --resume, the "
                                             "run's total."),
        click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True,
                     help="Games at once, each in its own process on this machine."),
        click.option("--scheduler", metavar="ADDRESS", default=None,
                     help="Play on a Dask cluster: the address of its scheduler "
                          "(tcp://HOST:8786; needs hexwar[sim])."),
        click.option("--connect-timeout", type=click.FloatRange(min=0.1), default=10.0,
                     show_default=True, metavar="SECONDS",
                     help="How long to wait for the --scheduler and its first worker."),
        click.option("--seed", type=int, default=1, show_default=True,
                     help="Seed of the first game; game i has seed SEED+i."),
        click.option("--option", "options_", multiple=True,
                     help="Enable an optional rule (repeatable)."),
        click.option("--players", default="ai,ai", show_default=True,
                     help="One player per side (ai, random, script:FILE), or one for all."),
        click.option("--records", "records_path", type=click.Path(dir_okay=False), default=None,
                     help="Write each game's record here as it finishes: JSON Lines, or Parquet "
                          "if FILE ends .parquet (needs hexwar[sim])."),
        click.option("--resume", is_flag=True,
                     help="Continue the run whose --records FILE is given, without playing a "
                          "finished game again."),
        click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default=None,
                     help="Draw the win rates and scores to FILE.svg or FILE.png "
                          "(needs hexwar[sim])."),
        click.option("--json", "as_json", is_flag=True, help="Print JSON."),
    ]):
        command = option(command)
    return command


def _run_simulation(scenario: str, parameter: str | None, n_games: int, jobs: int,
                    scheduler: str | None, connect_timeout: float, seed: int,
                    options_: tuple[str, ...], players: str, records_path: str | None,
                    resume: bool, plot_path: str | None, as_json: bool) -> Any:
    """Play the games (core/simulation/session.py) with a progress bar, and print the result;
    returns the run's plan."""
    import signal

    from rich.progress import TimeRemainingColumn

    from hexwar.core.simulation import report, session
    from hexwar.core.simulation.plot import check_target, plot_balance, plot_summary

    if plot_path is not None:
        check_target(plot_path)
        if records_path is not None and Path(plot_path).resolve() == Path(records_path).resolve():
            raise click.BadParameter(f"{plot_path} is also the --records file",
                                     param_hint="'--plot'")
    request = session.Request(_resolve_scenario_path(scenario), n_games, seed, options_, players,
                              jobs, scheduler, records_path, resume, parameter, connect_timeout)
    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                        report.GamesPerSecond(), TimeElapsedColumn(), TextColumn("ETA"),
                        TimeRemainingColumn(), console=err_console,
                        disable=as_json or not sys.stderr.isatty())

    def started(total: int, already: int) -> None:
        progress.add_task("games", total=total, completed=already)

    def finished(_record: Any) -> None:
        progress.advance(progress.task_ids[0])

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt  # a kill ends the run as Ctrl-C does: finished games are kept

    import threading

    main = threading.current_thread() is threading.main_thread()  # only it may set handlers
    old = signal.signal(signal.SIGTERM, stop) if main else None
    try:
        with progress:
            outcome = session.execute(request, on_start=started, on_record=finished)
    finally:
        if main:
            signal.signal(signal.SIGTERM, old)
    plan = outcome.plan
    if plot_path is not None and outcome.records:
        if plan.parameter:
            plot_balance(plot_path, plan.parameter, outcome.values,
                         session.variant_summaries(outcome))
        else:
            scores = {side: [r.scores[side] for r in outcome.records if side in r.scores]
                      for side in plan.base.side_names()}
            plot_summary(plot_path, f"{plan.base.title} ({plan.base.id})", outcome.summaries[""],
                         scores)
    if as_json:
        _emit_json(session.as_json(outcome))
    else:
        if plan.parameter:
            console.print(report.balance_view(plan.parameter, outcome.summaries, outcome.values))
        else:
            report.print_summary(console, f"{plan.base.title} ({plan.base.id}), "
                                          f"{len(outcome.records)} games", outcome.summaries[""])
        resumed = f" (and {outcome.resumed} from {records_path})" if outcome.resumed else ""
        console.print(f"{outcome.played} games{resumed} in {outcome.seconds:.1f}s on "
                      f"{escape(outcome.backend)}: {outcome.games_per_second:.2f} games/s"
                      + (f"; {outcome.restarts} worker failure(s), their games played again"
                         if outcome.restarts else ""))
    if outcome.interrupted:
        where = (f"; the finished games are in {records_path}: add --resume to go on"
                 if records_path else "; name a --records FILE to keep games across runs")
        err_console.print(f"[yellow]interrupted[/] after {len(outcome.records)} of "
                          f"{plan.games * len(plan.variants)} games{escape(where)}",
                          highlight=False)
        sys.exit(130)
    return plan


@cli.command()
@click.argument("scenario")
@_simulation_options
@click.option("--final-svg", "final_svg", type=click.Path(dir_okay=False), default=None,
              help="Play the last game again (its seed), print its summary in words (key "
                   "events, casualties, objectives) and write its final position as SVG.")
def simulate(scenario: str, n_games: int, jobs: int, scheduler: str | None,
             connect_timeout: float, seed: int,
             options_: tuple[str, ...], players: str, records_path: str | None, resume: bool,
             plot_path: str | None, as_json: bool, final_svg: str | None) -> None:
    """Play many games of SCENARIO (seeds SEED, SEED+1, ...) and report the win rates with 95%
    intervals, scores and margins, game length, casualties, objectives and what decided them.

    The same seeds give the same games whatever --jobs or --scheduler."""
    if final_svg is not None:
        _check_outputs([("--final-svg", final_svg, None), ("--records", records_path, None),
                        ("--plot", plot_path, None)], [_resolve_scenario_path(scenario)])
    plan = _run_simulation(scenario, None, n_games, jobs, scheduler, connect_timeout, seed,
                           options_, players, records_path, resume, plot_path, as_json)
    if final_svg is not None:
        _last_game(plan, final_svg, quiet=as_json)


def _last_game(plan: Any, final_svg: str, *, quiet: bool) -> None:
    """``simulate --final-svg``: the run's last game played again from its seed (the same game,
    core/simulation/runner.py), its summary in words and its final position."""
    from hexwar.core.engine.controllers import make_controller
    from hexwar.core.engine.game import Game
    from hexwar.core.render import render_game
    from hexwar.core.simulation.runner import MAX_DECISIONS, _scenario_of
    from hexwar.core.words import summarise

    task = plan.tasks()[-1]
    game = Game(_scenario_of(task), seed=task.seed, options=task.options)
    sides = tuple(game.state.sides)
    words = [w.strip() for w in task.players.split(",") if w.strip()]
    words = words * len(sides) if len(words) == 1 else words
    offered = game.hooks.controllers()
    game.play({side: make_controller(w, side, task.seed, offered)
               for side, w in zip(sides, words, strict=True)}, max_decisions=MAX_DECISIONS)
    Path(final_svg).write_text(render_game(game, None), encoding="utf-8")
    if quiet:  # --json: stdout holds the JSON alone
        return
    console.print(f"the last game, {task.describe()}:", highlight=False)
    for line in summarise(game).lines(events=8):
        console.print(f"  {escape(line)}", highlight=False)
    console.print(f"final position: {escape(final_svg)}", highlight=False)


@cli.command()
@click.argument("scenario")
@click.option("--parameter", required=True, metavar="KEY=V1,V2,...",
              help="A key of the scenario file and the values to try: victory.margin=20,30,40, "
                   "scenario.turns=8,10,12, force.US=10,14,17 (the first N units of a side).")
@_simulation_options
def balance(scenario: str, parameter: str, n_games: int, jobs: int, scheduler: str | None,
            connect_timeout: float, seed: int, options_: tuple[str, ...], players: str,
            records_path: str | None, resume: bool, plot_path: str | None, as_json: bool) -> None:
    """Play SCENARIO --games times for each value of one parameter and show how the win rates
    move, with 95% intervals. Every value plays the same seeds."""
    _run_simulation(scenario, parameter, n_games, jobs, scheduler, connect_timeout, seed, options_, players,
                    records_path, resume, plot_path, as_json)


# -- pictures and line of sight ----------------------------------------------------------------


def _load_situation(source: str) -> Any:
    """A game from a save/log, or a fresh game at set-up from a scenario."""
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.record import load_saved
    from hexwar.core.engine.replay import rebuild
    from hexwar.core.scenario import load_and_validate

    path = Path(source)
    if path.exists() and path.suffix in {".json", ".jsonl", ".log", ".save"}:
        return rebuild(load_saved(path), verify=False)
    return Game(load_and_validate(_resolve_scenario_path(source)), seed=0)


@cli.command()
@click.argument("source")
@click.option("-o", "--output", type=click.Path(dir_okay=False), required=True,
              help="File to write: .svg for one picture, .html for a replay of a saved game.")
@click.option("--side", default=None, help="Draw only what this side may see.")
def render(source: str, output: str, side: str | None) -> None:
    """Draw a scenario's board or a saved game as SVG, or a saved game as an HTML replay
    (every event in words beside the board, stepped one by one, by phase or by game-turn)."""
    _check_outputs([("--output", output, None)], [Path(source)])
    if output.endswith(".html"):
        from hexwar.core.engine.record import load_saved
        from hexwar.core.replay_html import replay_html

        saved = load_saved(source)
        with _progress(len(saved.decisions), "replay", enabled=sys.stderr.isatty()) as bar:
            page = replay_html(saved, side=side,
                               on_step=lambda i, n: bar.update(bar.task_ids[0], completed=i))
        Path(output).write_text(page, encoding="utf-8")
    else:
        from hexwar.core.render import render_game

        game = _load_situation(source)
        if side is not None and side not in game.state.sides:
            raise HexwarError(f"unknown side {side!r} (sides: {', '.join(game.state.sides)})")
        Path(output).write_text(render_game(game, side), encoding="utf-8")
    console.print(f"wrote {escape(output)}")


@cli.command()
@click.argument("source")
@click.argument("from_hex")
@click.argument("to_hex")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def los(source: str, from_hex: str, to_hex: str, as_json: bool) -> None:
    """Explain the line of sight between two hexes (labels as on the map) of a scenario or save."""
    from hexwar.core.los import line_of_sight

    game = _load_situation(source)
    hexes = []
    for name, label in (("FROM_HEX", from_hex), ("TO_HEX", to_hex)):
        try:
            hexes.append(game.board.parse(label))
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint=f"'{name}'") from exc
    a, b = hexes
    result = line_of_sight(game.board, a, b, game.los_rules, data=game, exhaustive=True)
    reasons = result.reasons(game.board)
    if as_json:
        _emit_json({
            "from": from_hex, "to": to_hex, "clear": result.clear, "modifier": result.modifier,
            "distance": a.distance(b),
            "crossed": [game.board.label(h) for h in result.trace.hexes() if game.board.contains(h)],
            "findings": [{"kind": f.effect.kind, "modifier": f.effect.modifier,
                          "reason": f.effect.reason, "rule": f.effect.rule, "what": f.what,
                          "where": [game.board.label(h) if game.board.contains(h) else repr(h)
                                    for h in f.where]} for f in result.findings],
        })
        return
    verdict = "[green]clear[/]" if result.clear else "[red]blocked[/]"
    console.print(f"line of sight {from_hex} → {to_hex} ({a.distance(b)} hexes): {verdict}"
                  + (f", modifier {result.modifier:+d}" if result.modifier else ""))
    for line in reasons:
        console.print(f"  {escape(line)}", highlight=False)
    if not reasons:
        console.print("  nothing along the line blocks or hinders it", highlight=False)


# -- data --------------------------------------------------------------------------------------


@cli.group()
def data() -> None:
    """Inspect the shipped data: tables, cards, and how much of it is still estimated."""


@data.command("check")
@click.argument("system")
@click.option("--pack", type=click.Path(exists=True, file_okay=False),
              help="A folder of your own tables that replace shipped ones by name.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--all", "show_all", is_flag=True, help="List every estimated value, not the first 50.")
def data_check(system: str, pack: str | None, as_json: bool, show_all: bool) -> None:
    """Validate SYSTEM's data (and a table pack), compare every number the rulebook discloses,
    and report what is still estimated."""
    from hexwar.core.manager import Hooks, build_plugin_manager
    from hexwar.core.tables import TableSet, check_disclosed

    hooks = Hooks(build_plugin_manager(system, ()))
    tables = TableSet()
    for source in hooks.data_sources("tables"):
        if source.name.split(":")[0] == system:
            loaded = TableSet.load_dir(source.path)
            tables = TableSet([*tables.values(), *loaded.values()])
    if pack:
        tables = tables.with_pack(pack)
    problems = check_disclosed(tables, hooks.disclosed())
    summaries = tables.provenance()
    card_rows = _card_provenance(hooks, system)
    if as_json:
        _emit_json({
            "system": system, "pack": pack,
            "tables": [{"table": s.name, "cited": s.cited, "estimated": s.estimated,
                        "transcription": s.transcription} for s in summaries],
            "cards": card_rows, "problems": [str(p) for p in problems],
        })
    else:
        console.print(tables.report(list_estimated=True, limit=10_000 if show_all else 50),
                      highlight=False)
        if card_rows:
            table = RichTable("card file", "cited", "estimated", "transcription")
            for r in card_rows:
                table.add_row(r["name"], str(r["cited"]), str(r["estimated"]), str(r["transcription"]))
            console.print(table)
        if problems:
            for p in problems:
                err_console.print(f"[red]✗[/] {escape(str(p))}", highlight=False)
        else:
            console.print(f"[green]✓[/] every disclosed number agrees "
                          f"({len(hooks.disclosed())} checked)")
    if problems:
        sys.exit(1)


def _card_provenance(hooks: Any, system: str) -> list[dict[str, Any]]:
    from hexwar.core.provenance import SourceKind, load_records

    rows = []
    for source in hooks.data_sources("cards"):
        if source.name.split(":")[0] != system:
            continue
        folder = Path(source.path)
        for path in sorted(folder.glob("*.toml")) if folder.is_dir() else [folder]:
            records = load_records(path)
            rows.append({"name": path.name, "cited": records.count(SourceKind.CITED),
                         "estimated": records.count(SourceKind.ESTIMATED),
                         "transcription": records.count(SourceKind.TRANSCRIPTION)})
    return rows


# -- system commands ---------------------------------------------------------------------------


def _add_system_commands() -> None:
    """Let every installed plugin add its commands; one broken plugin never hides the others'."""
    from hexwar.core.manager import discovery_manager

    try:
        pm = discovery_manager()
    except Exception as exc:
        err_console.print(f"[yellow]warning:[/] plugin commands unavailable: {escape(str(exc))}")
        return
    for impl in pm.hook.hexwar_register_commands.get_hookimpls():
        try:
            impl.function(group=cli)
        except Exception as exc:  # report the plugin by name and go on
            err_console.print(f"[yellow]warning:[/] plugin {escape(impl.plugin_name)!r} could not "
                              f"add its commands: {escape(f'{type(exc).__name__}: {exc}')}")


def main() -> None:
    _add_system_commands()
    cli(prog_name="hexwar")


if __name__ == "__main__":
    main()
