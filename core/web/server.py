"""The web table's server: Starlette on uvicorn, one WebSocket per open page.

Routes: ``/`` (a page that asks for a seat's URL), ``/seat/{token}`` (the table, for that seat),
``/static/...`` (the page's script and style), ``/ws/{token}`` (the seat's WebSocket). The server
is authoritative: a page only ever sends the index of a choice of its own form (or a composed
answer that the rules check), and receives only what :meth:`Table.message` builds from its own
side's view. A bad token, a malformed message, an illegal choice or a flood of messages gets an
error in words and changes nothing.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from hexwar.core.errors import HexwarError
from hexwar.core.web.protocol import ProtocolError, error, parse
from hexwar.core.web.seats import Seat
from hexwar.core.web.table import Table

log = logging.getLogger("hexwar.web")
STATIC = Path(__file__).parent / "static"
#: flood control per connection: a burst of this many messages, refilled at RATE a second
BURST, RATE = 30, 10.0
#: a connection that keeps flooding past this many refused messages is closed
MAX_REFUSED = 200
#: WebSocket close code of an unknown seat (4000-4999: the application's own)
CLOSE_UNKNOWN_SEAT = 4404

_PAGE = (STATIC / "table.html").read_text(encoding="utf-8")
_LANDING = """<!doctype html><html lang="en"><meta charset="utf-8"><title>hexwar table</title>
<body style="font-family:sans-serif;max-width:40em;margin:3em auto">
<h1>hexwar table</h1><p>{text}</p></body></html>"""
_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
            "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; "
                                       "img-src 'self' data:; connect-src 'self'"}


@dataclass(eq=False)
class _Connection:
    socket: WebSocket
    seat: Seat
    log_sent: int = 0
    tokens: float = float(BURST)
    stamp: float = field(default_factory=time.monotonic)
    refused: int = 0
    warned: float = 0.0
    #: the hash of the board picture last sent: an unchanged board is not sent again
    svg_sent: str = ""

    def allow(self) -> bool:
        """Token bucket: refill, then take one token if there is one."""
        now = time.monotonic()
        self.tokens = min(float(BURST), self.tokens + (now - self.stamp) * RATE)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.refused += 1
        return False


class TableServer:
    """The ASGI app of one :class:`Table`."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.connections: set[_Connection] = set()
        self.app = Starlette(routes=[
            Route("/", self.landing),
            Route("/favicon.ico", self.no_icon),
            Route("/seat/{token}", self.page),
            Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
            WebSocketRoute("/ws/{token}", self.socket),
        ])

    # -- HTTP ------------------------------------------------------------------------------------
    async def landing(self, request: Request) -> Response:
        return HTMLResponse(_LANDING.format(text="Open the URL of your seat, as "
                                                 "<code>hexwar serve</code> printed it."),
                            headers=_HEADERS)

    async def no_icon(self, request: Request) -> Response:
        return Response(status_code=204)

    async def page(self, request: Request) -> Response:
        seat = self.table.seat(str(request.path_params["token"]))
        if seat is None:
            return HTMLResponse(_LANDING.format(text="There is no seat with this URL at this "
                                                     "table. Check the URL that "
                                                     "<code>hexwar serve</code> printed."),
                                status_code=404, headers=_HEADERS)
        return HTMLResponse(_PAGE, headers=_HEADERS)

    # -- WebSocket -------------------------------------------------------------------------------
    async def socket(self, websocket: WebSocket) -> None:
        await websocket.accept()
        seat = self.table.seat(str(websocket.path_params["token"]))
        if seat is None:
            await websocket.send_json(error("there is no seat with this URL at this table"))
            await websocket.close(code=CLOSE_UNKNOWN_SEAT)
            return
        conn = _Connection(websocket, seat)
        self.connections.add(conn)
        try:
            await websocket.send_json(await self._run(self.table.hello, seat))
            await self._send_state(conn)
            while True:
                raw = await websocket.receive()
                if raw["type"] == "websocket.disconnect":
                    break
                if not conn.allow():
                    if conn.refused > MAX_REFUSED:
                        await websocket.send_json(error("too many messages: disconnected"))
                        await websocket.close(code=1008)
                        break
                    now = time.monotonic()
                    if now - conn.warned > 1.0:
                        conn.warned = now
                        await websocket.send_json(error("too many messages: slow down (this one "
                                                        "was ignored)"))
                    continue
                text = raw.get("text")
                await self._handle(conn, text if text is not None else raw.get("bytes") or b"")
        except WebSocketDisconnect:
            pass
        finally:
            self.connections.discard(conn)

    async def _run(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """Run a table method in a worker thread under the table's lock: the rules and the AI
        never block the event loop, and two seats never change the game at once."""
        def call() -> Any:
            with self.table.lock:
                return fn(*args, **kwargs)
        return await anyio.to_thread.run_sync(call)

    async def _handle(self, conn: _Connection, text: str | bytes) -> None:
        try:
            message = parse(text)
        except ProtocolError as exc:
            await conn.socket.send_json(error(str(exc)))
            return
        kind = message["type"]
        table, seat = self.table, conn.seat
        proposal = table.proposal
        try:
            if kind == "ping":
                await conn.socket.send_json({"type": "pong"})
            elif kind == "sync":
                conn.log_sent, conn.svg_sent = 0, ""
                await self._send_state(conn)
            elif kind == "choose":
                await self._run(table.answer, seat, message["serial"], index=message["index"],
                                ai=False)
                await self._after_answer()
            elif kind == "answer":
                await self._run(table.answer, seat, message["serial"], value=message["value"],
                                has_value=True, ai=False)
                await self._after_answer()
            elif kind == "undo":
                await self._run(table.undo, seat)
                for other in self.connections:
                    other.log_sent = 0  # the log is shorter now: send it again from its start
                await self.broadcast()
            elif kind == "ready":
                await self._run(table.take_device, seat, message["side"])
                conn.log_sent = 0
                await self.broadcast()
            elif kind == "save":
                path = await self._run(table.snapshot)
                made = await self._run(table.decisions_made, seat)
                listed = await self._run(table.snapshots)
                await conn.socket.send_json({"type": "saved", "name": path.name,
                                             "decisions": made, "snapshots": listed})
            elif kind == "snapshots":
                listed = await self._run(table.snapshots)
                await conn.socket.send_json({"type": "snapshots", "snapshots": listed})
            elif kind in ("propose", "accept"):
                act = table.propose if kind == "propose" else table.accept
                arg = message["snapshot"] if kind == "propose" else message["proposal"]
                resumed = await self._run(act, seat, arg)
                if resumed is not None:
                    await self._after_resume(resumed)
                else:
                    await self.broadcast()
            elif kind in ("refuse", "withdraw"):
                words = await self._run(table.refuse, seat, message["proposal"],
                                        withdraw=kind == "withdraw")
                await self.broadcast({"type": "notice", "message": words})
        except HexwarError as exc:
            await conn.socket.send_json(error(str(exc)))
            # a proposal dropped because its snapshot would not replay: every page shows it gone
            if table.game.failure is not None or table.proposal is not proposal:
                await self.broadcast()
        except Exception as exc:  # a bug must cost one message, not the server or the seat
            log.exception("web table: %s failed", kind)
            await conn.socket.send_json(error(f"the server could not do that ({type(exc).__name__}); "
                                              f"the game is as it was"))

    async def _after_answer(self) -> None:
        """Show the answer at once, then let the computer's sides play and show that."""
        await self.broadcast()
        if await self._run(self.table.play_ai_and_save):
            await self.broadcast()

    async def _after_resume(self, name: str) -> None:
        """Every page is told the game was replaced by snapshot ``name`` and is sent its seat's
        view afresh: the whole log and the board again (docs/decisions.md CORE-104)."""
        turn = self.table.game.state.turn
        for conn in self.connections:
            conn.log_sent, conn.svg_sent = 0, ""
        await self.broadcast({"type": "resumed", "snapshot": name, "turn": turn})

    async def _send_state(self, conn: _Connection) -> None:
        message = await self._run(self.table.message, conn.seat, log_from=conn.log_sent)
        if message["type"] == "state":
            conn.log_sent = message["log_total"]
            digest = hashlib.sha256(message["svg"].encode()).hexdigest()
            if digest == conn.svg_sent:
                message["svg"] = None
            conn.svg_sent = digest
        else:
            conn.svg_sent = ""
        await conn.socket.send_text(json.dumps(message))

    async def broadcast(self, first: dict[str, Any] | None = None) -> None:
        """Send every open page its seat's state (each built from that seat's own view), after
        ``first`` (the same words to every seat) when given."""
        for conn in list(self.connections):
            try:
                if first is not None:
                    await conn.socket.send_json(first)
                await self._send_state(conn)
            except (WebSocketDisconnect, RuntimeError, anyio.ClosedResourceError):
                self.connections.discard(conn)


def create_app(table: Table) -> Starlette:
    return TableServer(table).app


def seat_urls(table: Table, base: str) -> list[tuple[Seat, str]]:
    return [(seat, f"{base}/seat/{seat.token}") for seat in table.seats.values()]
