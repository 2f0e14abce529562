"""MBT 21.3 Multi-Player Rules for the optional rule ``mbt.command_control``: personal commanders,
conferences and written radio messages between the players of one side (its hooks are in
:mod:`~hexwar.plugins.mbt.rules.command_control`).

They apply when the game's record splits a side among players (``seating``, CORE-102; MBT
21.3.1). Each side's first player is its overall commander (CORE-81, MBT 21.3.1); a side with one
player has that player as its overall commander (named after the side).

* MBT 21.3.2: at the first Command Points step each player's personal commander is a CO of the
  highest echelon among his units (battalion, then company headquarters, then any; a decision
  when several tie). It is an officer, not a unit: he follows a transfer (MBT 21.1.3). When his
  unit is knocked out, his XO, else the player's highest-ranking CO, takes over three Turns after
  the Turn of the loss; a player with neither has none for the rest of the game.
* MBT 21.3.3: a player without a personal commander sends and receives nothing.
* MBT 21.3.3.1: players whose personal commanders share a hex confer: a talk is delivered at
  once, free, without a radio.
* MBT 21.3.3.2: otherwise both personal commanders' units need a radio (every unit has one unless
  its state says ``radio = false``; data cards' radio notes are not in the card data,
  docs/decisions.md MBTD-101). A message is written in one Mark Orders Step (here the Command
  Points step before it) and due at the next (MBT 21.3.3.2.1); one free a Turn, two for the
  overall commander, each further one a command point of the personal commander's organization
  (two under communications disruption, MBT 21.2.2; MBT 21.3.3.2.2); one addressee each.
* MBT 21.3.3.2.3: a message of more than 20 words or numbers is in the clear: when it is due, the
  overall commanders each roll a die; the enemy's at least 4 higher intercepts it (its overall
  commander reads it), unless the enemy has no overall commander with a radio.
* MBT 21.3.3.2.4: then the addressee rolls a die: 1-7 received, 8-9 delayed a Turn (rolled again
  then), 10 lost.

What is hidden from whom: the message's text is in the sender's decision (his side's, his own
in a player's log, CORE-81) and in the reports the umpire's seat tells the addressee (and an
intercepting overall commander): ``umpire_report`` records naming the player, which no other side
and no other player of the side is shown (:func:`hexwar.core.web.players.player_events`). The
dice are the umpire's (no side's log). A game with a split side and no umpire of its own gets a
pass-through umpire (:class:`RadioUmpire`) so that the per-player view applies (MBTD-100).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.umpire import Umpire, install, recorded_seating
from hexwar.core.errors import RulesError
from hexwar.plugins.mbt.rules import command_control_officers as officers
from hexwar.plugins.mbt.state import SIDES, Step, alive, data, enemy_of

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

PERSONAL = "mbt.personal_commander"
MESSAGE = "mbt.radio_message"
CODE_WORDS = 20  # MBT 21.3.3.2.3: at most this many words or numbers is "in code"
INTERCEPT_BY = 4  # MBT 21.3.3.2.3: the enemy's roll at least this much higher intercepts
RECEIVED_UP_TO, DELAYED_UP_TO = 7, 9  # MBT 21.3.3.2.4: 1-7 received, 8-9 delayed, 10 lost
REPLACEMENT_DELAY = 3  # MBT 21.3.2: Turns after the loss
MAX_TEXT = 500  # characters of a message (the umpire's messages' limit, CORE-83)
ECHELON = {"battalion": 0, "company": 1}  # MBT 12.8.3: the higher echelon first


class RadioError(RulesError):
    """A message the multi-player rules forbid (the message names the rule)."""


class RadioUmpire(Umpire):
    """A pass-through umpire for a game whose side is split among players without an umpire of
    its own: it screens nothing and shows each player his side's map (the players of a side
    share it, CORE-81), so that the per-player log (``umpire_report`` to one player) keeps each
    player's messages his own (docs/decisions.md MBTD-100)."""

    header_secrets = ()

    def player_units(self, side: str, player: str) -> dict[str, dict[str, Any]] | None:
        return dict(self.game.view(side).units)


def active_in(game: Game) -> bool:
    """MBT 21.3.1: the multi-player rules apply when the record splits a side among players."""
    return any(len(p) > 1 for p in recorded_seating(game).values())


def setup(game: Game) -> None:
    """Install the pass-through umpire when a side is split and the game has none."""
    if active_in(game) and game.umpire is None:
        install(game, RadioUmpire(game))


def players(game: Game, side: str) -> list[str]:
    """The side's players, its overall commander first (MBT 21.3.1, CORE-81)."""
    split = recorded_seating(game).get(side)
    return list(split) if split else [side]


def overall(game: Game, side: str) -> str:
    return players(game, side)[0]


def units_of(game: Game, side: str, player: str) -> list[Unit]:
    split = recorded_seating(game).get(side)
    mine = split.get(player, frozenset()) if split else None
    return [u for u in game.state.units_of(side) if mine is None or u.id in mine]


def _st(game: Game) -> dict[str, Any]:
    st: dict[str, Any] = data(game).setdefault("radio", {})
    st.setdefault("pc", {})  # side -> player -> {"officer", "org"} or None
    st.setdefault("lost", {})  # side -> player -> Turn his personal commander was lost
    st.setdefault("queue", [])  # messages written and not yet received or lost
    st.setdefault("sent", {})  # side -> player -> messages written this Turn
    return st


def _rank(u: Unit) -> tuple[int, int, str]:
    """MBT 12.8.3, 21.3.2: highest echelon first (a CO before an XO among equals)."""
    notes = officers.carried(u) or [{"officer": None, "hq": None}]
    return min((ECHELON.get(str(n["hq"]), 2), 0 if n["officer"] == "CO" else 1, u.id)
               for n in notes)


def carrier(game: Game, side: str, pc: dict[str, str] | None) -> Unit | None:
    """The unit that carries the personal commander ``pc`` now (he follows transfers)."""
    if not pc:
        return None
    for u in game.state.units_of(side):
        if officers.carries(u, pc["officer"], pc["org"]) and alive(u):  # MBTD-167: any rider
            return u
    return None


def personal_commander(game: Game, side: str, player: str) -> Unit | None:
    """MBT 21.3.2: the unit with ``player``'s personal commander, ``None`` without one."""
    return carrier(game, side, _st(game)["pc"].get(side, {}).get(player))


def has_radio(u: Unit) -> bool:
    """MBT 21.3.3.2 (MBTD-101): a unit has a radio unless its state says not; a bailed out crew
    carries none (MBT 17.2.3.2.2.4)."""
    return bool(u.state.get("radio", True)) and not u.state.get("bailed_out")


def _pc_of(u: Unit, title: str = "CO", org: str | None = None) -> dict[str, str]:
    """The personal commander notation of the ``title`` ``u`` carries (of ``org`` if given; the
    highest-ranking such one, MBTD-167)."""
    notes = [n for n in officers.carried(u) if n["officer"] == title
             and (org is None or n["org"] == org)]
    n = min(notes, key=lambda m: ECHELON.get(str(m["hq"]), 2))
    return {"officer": str(n["officer"]), "org": str(n["org"])}


def commander_step(game: Game) -> Step:
    """MBT 21.3.2: choose each player's personal commander (the first Turn), note the ones lost
    and name their replacements three Turns after the loss."""
    st = _st(game)
    for side in SIDES:
        pcs = st["pc"].setdefault(side, {})
        lost = st["lost"].setdefault(side, {})
        for player in players(game, side):
            if player not in pcs:  # the first Turn: he selects one
                cands = sorted((u for u in units_of(game, side, player)
                                if officers.carries(u, "CO") and alive(u)), key=_rank)
                best = [u for u in cands if _rank(u)[:1] == _rank(cands[0])[:1]] if cands else []
                if len(best) > 1:
                    pick = yield Decision(side, PERSONAL, options=[u.id for u in best],
                                          rule="MBT 21.3.2",
                                          context={"player": player},
                                          prompt=f"{player}: which CO is your personal "
                                                 "commander?")
                    chosen: Unit | None = game.state.units[str(pick)]
                else:
                    chosen = best[0] if best else None
                pcs[player] = _pc_of(chosen) if chosen else None
                _tell(game, side, player, "personal commander", rule="MBT 21.3.2",
                      unit=chosen.id if chosen else None)
                continue
            pc = pcs[player]
            if pc and carrier(game, side, pc) is None:  # gone without a knock-out (left the map)
                _lose(game, st, side, player, pc)
            if pcs[player] is None and player in lost and \
                    game.state.turn >= lost[player] + REPLACEMENT_DELAY:
                old = st.get("next", {}).get(side, {}).get(player) or {}
                cands = [u for u in units_of(game, side, player) if alive(u)
                         and (officers.carries(u, "CO") or officers.carries(u, "XO"))]
                xo = [u for u in cands if officers.carries(u, "XO", old.get("org"))]
                cos = sorted((u for u in cands if officers.carries(u, "CO")), key=_rank)
                chosen = next(iter(xo or cos), None)
                del lost[player]
                if chosen is not None:
                    pcs[player] = (_pc_of(chosen, "XO", old.get("org")) if xo
                                   else _pc_of(chosen))
                    _tell(game, side, player, "personal commander", rule="MBT 21.3.2",
                          unit=chosen.id, replacement=True)


def note_lost(game: Game, unit: Unit) -> None:
    """MBT 21.3.2: a knocked-out unit carrying a personal commander: note the Turn of the loss."""
    st = data(game).get("radio")
    if not st:
        return
    for player, pc in list(st.get("pc", {}).get(unit.side, {}).items()):
        if pc and officers.carries(unit, pc["officer"], pc["org"]):
            _lose(game, st, unit.side, player, pc)


def _lose(game: Game, st: dict[str, Any], side: str, player: str, pc: dict[str, str]) -> None:
    """MBT 21.3.2: ``player``'s personal commander ``pc`` is lost this Turn; his XO (same
    organization), else the player's next CO, is chosen three Turns after the Turn of the loss."""
    st["pc"][side][player] = None
    st["lost"].setdefault(side, {})[player] = game.state.turn
    st.setdefault("next", {}).setdefault(side, {})[player] = pc
    _tell(game, side, player, "personal commander lost", rule="MBT 21.3.2",
          since=game.state.turn)


def _tell(game: Game, side: str, player: str, what: str, *, rule: str, **payload: Any) -> None:
    """Report to one player alone (the side when it has one player)."""
    umpire = game.umpire
    if umpire is None:
        return
    to = {"player": player} if recorded_seating(game).get(side) else {}
    umpire.tell(side, what, rule=rule, **to, **payload)


def words(text: str) -> int:
    """MBT 21.3.3.2.3: the words and numbers of a message."""
    return len(text.split())


def free_messages(game: Game, side: str, player: str) -> int:
    """MBT 21.3.3.2.2: one free message a Turn, two for the overall commander."""
    return 2 if player == overall(game, side) else 1


def in_conference(game: Game, side: str, a: str, b: str) -> bool:
    """MBT 21.3.3.1: both players' personal commanders in one hex."""
    ua, ub = personal_commander(game, side, a), personal_commander(game, side, b)
    return ua is not None and ub is not None and ua.hex == ub.hex


def message_error(game: Game, side: str, player: str, choice: Any,
                  budget: dict[tuple[str, str], int], cost_of: Any) -> str | None:
    """MBT 21.3.3-21.3.3.2.2: why ``player`` may not send ``choice`` (``{"to", "text"}``)."""
    if not isinstance(choice, dict) or set(choice) != {"to", "text"}:
        return 'a message is {"to": PLAYER, "text": TEXT} or "done" (MBT 21.3.3.2)'
    to, text = choice["to"], choice["text"]
    if not isinstance(text, str) or not text.strip():
        return "a message must be a text (MBT 21.3.3.2)"
    if len(text) > MAX_TEXT:
        return f"a message is at most {MAX_TEXT} characters"
    if to == player:
        return "a message goes to another commander (MBT 21.3.3.2.2)"
    if to not in players(game, side):
        return f"{to!r} is not a player of {side} ({', '.join(players(game, side))}; MBT 21.3.3.2.2)"
    mine = personal_commander(game, side, player)
    if mine is None:
        return (f"{player} has no personal commander and may not communicate with the other "
                "players (MBT 21.3.3)")
    theirs = personal_commander(game, side, str(to))
    if theirs is None:
        return f"{to} has no personal commander: no one can reach him (MBT 21.3.3)"
    if in_conference(game, side, player, str(to)):
        return None  # MBT 21.3.3.1: a talk, free and without a radio
    if not has_radio(mine) or not has_radio(theirs):
        return (f"both personal commanders need a radio ({mine.id}, {theirs.id}) unless they "
                "share a hex (MBT 21.3.3.1-21.3.3.2)")
    sent = _st(game)["sent"].get(side, {}).get(player, 0)
    if sent >= free_messages(game, side, player):
        org = officers.officer_org(mine) or ""
        need = cost_of(mine)
        if budget.get((side, org), 0) < need:
            return (f"{player} has sent his {free_messages(game, side, player)} free message(s) "
                    f"this Turn and {org} has {budget.get((side, org), 0)} command point(s), "
                    f"not {need} (MBT 21.3.3.2.2)")
    return None


def send(game: Game, side: str, player: str, choice: dict[str, Any],
         budget: dict[tuple[str, str], int], cost_of: Any) -> None:
    """MBT 21.3.3.1-21.3.3.2.2: a talk is told at once; a radio message is queued for the next
    Turn's Mark Orders Step (a point spent beyond the free ones)."""
    err = message_error(game, side, player, choice, budget, cost_of)
    if err:
        raise RadioError(err)
    to, text = str(choice["to"]), str(choice["text"])
    st = _st(game)
    if in_conference(game, side, player, to):
        _tell(game, side, to, "conference", rule="MBT 21.3.3.1", sender=player, message=text)
        return
    sent = st["sent"].setdefault(side, {})
    cost = 0
    if sent.get(player, 0) >= free_messages(game, side, player):
        mine = personal_commander(game, side, player)
        assert mine is not None
        org = officers.officer_org(mine) or ""
        cost = cost_of(mine)
        budget[(side, org)] -= cost
    sent[player] = sent.get(player, 0) + 1
    st["count"] = n = int(st.get("count", 0)) + 1
    st["queue"].append({"id": f"m{n}", "side": side, "from": player, "to": to, "text": text,
                        "written": game.state.turn, "due": game.state.turn + 1})
    _tell(game, side, player, "radio message sent", rule="MBT 21.3.3.2.1", to=to,
          due=game.state.turn + 1, command_points=cost, words=words(text),
          in_code=words(text) <= CODE_WORDS)


def deliver_step(game: Game) -> None:
    """MBT 21.3.3.2.1, 21.3.3.2.3-21.3.3.2.4: the messages due this Turn: interception of long
    ones, then each addressee's receipt roll."""
    st = _st(game)
    umpire = game.umpire
    if umpire is None:
        return
    due = [m for m in st["queue"] if m["due"] <= game.state.turn]
    for m in due:
        side, to = m["side"], m["to"]
        if words(m["text"]) > CODE_WORDS:
            _intercept(game, m)
        if personal_commander(game, side, to) is None:
            st["queue"].remove(m)  # MBT 21.3.3: he may no longer be reached
            continue
        roll = umpire.roll("d10", f"radio message receipt ({m['id']})", for_side=side)
        result = ("received" if roll <= RECEIVED_UP_TO
                  else "delayed" if roll <= DELAYED_UP_TO else "lost")
        extra = {"message": m["text"]} if result == "received" else {}
        _tell(game, side, to, f"radio message {result}", rule="MBT 21.3.3.2.4",
              sender=m["from"], written=m["written"], roll=roll, **extra)
        if result == "delayed":
            m["due"] = game.state.turn + 1
        else:
            st["queue"].remove(m)


def _intercept(game: Game, m: dict[str, Any]) -> None:
    """MBT 21.3.3.2.3: both overall commanders roll; the enemy's at least 4 higher reads it."""
    umpire = game.umpire
    assert umpire is not None
    side = m["side"]
    enemy = enemy_of(side)
    listener = personal_commander(game, enemy, overall(game, enemy))
    if listener is None or not has_radio(listener):
        return  # no interception by a side without its overall commander on a radio
    own = umpire.roll("d10", f"radio interception, sender's side ({m['id']})", for_side=side)
    theirs = umpire.roll("d10", f"radio interception ({m['id']})", for_side=enemy)
    hit = theirs >= own + INTERCEPT_BY
    extra = {"message": m["text"], "sender": m["from"], "to": m["to"]} if hit else {}
    _tell(game, enemy, overall(game, enemy), "radio intercepted" if hit else
          "radio not intercepted", rule="MBT 21.3.3.2.3", roll=theirs, their_roll=own, **extra)


def report_text(game: Game, side: str, player: str) -> str:
    """A short situation report from what ``player``'s own units know (at most 20 words, so in
    code): the AI's message to its overall commander."""
    mine = [u for u in units_of(game, side, player) if alive(u)]
    seen = {str(e) for u in mine for e in data(game).get("sighted", {}).get(u.id, [])}
    return (f"turn {game.state.turn} {player}: {len(mine)} units fighting, "
            f"{len(seen)} enemy in sight")


def writing_step(game: Game, budget: dict[tuple[str, str], int], cost_of: Any) -> Step:
    """MBT 21.3.3.2.1-21.3.3.2.2: each player with a personal commander writes messages until
    ``"done"``; the first listed choice is a report to the overall commander (what the AI
    sends, once a Turn)."""
    st = _st(game)
    st["sent"] = {}
    for side in SIDES:
        names = players(game, side)
        if len(names) < 2:
            continue
        for player in names:
            pc = personal_commander(game, side, player)
            if pc is None:
                continue
            for _ in range(8):  # a bound on one player's messages in one Turn
                offered: list[Any] = ["done"]
                boss = overall(game, side)
                report = {"to": boss, "text": report_text(game, side, player)}
                if player != boss and not st["sent"].get(side, {}).get(player) and \
                        message_error(game, side, player, report, budget, cost_of) is None:
                    offered.insert(0, report)
                choice = yield Decision(
                    side, MESSAGE, options=offered, rule="MBT 21.3.3.2",
                    validate=_validator(game, side, player, budget, cost_of),
                    # his own unit, so the decision is his (CORE-81) even when his personal
                    # commander rides a teammate's unit after a transfer (MBT 21.1.3)
                    context={"unit": _own_unit(game, side, player, pc), "player": player,
                             "free": max(0, free_messages(game, side, player)
                                         - st["sent"].get(side, {}).get(player, 0)),
                             "to": [p for p in names if p != player]},
                    prompt=f"{player}: write a radio message ({{\"to\": PLAYER, \"text\": "
                           f"TEXT}}; at most {CODE_WORDS} words is in code), or done")
                if choice == "done":
                    break
                send(game, side, player, dict(choice), budget, cost_of)


def _own_unit(game: Game, side: str, player: str, pc: Unit) -> str:
    mine = units_of(game, side, player)
    return next((u.id for u in mine if alive(u)), mine[0].id if mine else pc.id)


def _validator(game: Game, side: str, player: str, budget: dict[tuple[str, str], int],
               cost_of: Any) -> Any:
    def validate(choice: Any) -> str | None:
        return message_error(game, side, player, choice, budget, cost_of)

    return validate


def radio_step(game: Game, budget: dict[tuple[str, str], int], cost_of: Any) -> Step:
    """MBT 21.3 in the Command Points step: personal commanders, deliveries, then writing."""
    if not active_in(game):
        return
    yield from commander_step(game)
    deliver_step(game)
    yield from writing_step(game, budget, cost_of)


def _points(n: Any) -> str:
    """The command points a message cost, in words (none: nothing)."""
    return f", {n} command point{'' if n == 1 else 's'}" if n else ""


#: the umpire's reports of the multi-player rules, in words (``hexwar_describe_event``)
REPORT_WORDS: dict[str, Any] = {
    "personal commander": lambda r: (f"your personal commander is with {r.get('unit')}"
                                     if r.get("unit") else "you have no personal commander"),
    "personal commander lost": lambda r: (f"your personal commander was lost in Turn "
                                          f"{r.get('since')}"),
    "radio message sent": lambda r: (f"radio message to {r.get('to')} sent, due in Turn "
                                     f"{r.get('due')} ({r.get('words')} words, "
                                     f"{'in code' if r.get('in_code') else 'in the clear'}"
                                     f"{_points(r.get('command_points'))})"),
    "radio message received": lambda r: (f"radio message from {r.get('sender')} (Turn "
                                         f"{r.get('written')}, roll {r.get('roll')}): "
                                         f"{r.get('message')}"),
    "radio message delayed": lambda r: (f"a radio message from {r.get('sender')} is delayed a "
                                        f"Turn (roll {r.get('roll')})"),
    "radio message lost": lambda r: (f"a radio message from {r.get('sender')} is lost "
                                     f"(roll {r.get('roll')})"),
    "conference": lambda r: f"{r.get('sender')} says (in conference): {r.get('message')}",
    "radio intercepted": lambda r: (f"intercepted ({r.get('roll')} against {r.get('their_roll')})"
                                    f", {r.get('sender')} to {r.get('to')}: {r.get('message')}"),
    "radio not intercepted": lambda r: (f"an enemy message in the clear was not intercepted "
                                        f"({r.get('roll')} against {r.get('their_roll')})"),
}


def describe(record: dict[str, Any]) -> str | None:
    """An umpire's report of the multi-player rules in words, or ``None``."""
    if record.get("type") != "umpire_report":
        return None
    text = REPORT_WORDS.get(str(record.get("what")))
    if text is None:
        return None
    rule = f" ({record['rule']})" if record.get("rule") else ""
    return f"{text(record)}{rule}"


def present(decision: Decision) -> dict[str, Any] | None:
    """The web form of a message: typed (``{"to": PLAYER, "text": TEXT}`` or ``done``), since
    its text cannot be listed."""
    if decision.kind != MESSAGE:
        return None
    ctx = decision.context
    return {"widget": "text", "title": decision.prompt, "rule": decision.rule,
            "notes": [f"Type {{\"to\": \"NAME\", \"text\": \"...\"}} to one of "
                      f"{', '.join(ctx.get('to', []))}, or done. Free messages left this Turn: "
                      f"{ctx.get('free', 0)}; more cost a command point each (MBT 21.3.3.2.2). "
                      f"More than {CODE_WORDS} words is in the clear and may be intercepted "
                      "(MBT 21.3.3.2.3)."]}
