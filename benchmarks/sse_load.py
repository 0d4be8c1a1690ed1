"""The feed benchmark's load generator: N SSE clients of one URL, spread over several processes
(each process may hold at most 20,000 open files here), each process an asyncio loop of bare
protocols that only note when each ``round`` event arrives.

The poster (the benchmark's main process) deals rounds one after another, so the k-th ``round``
event a lobby client reads is the k-th round posted; its delay is its arrival time minus the
time that POST was sent (``time.monotonic`` is one clock for every process of the machine).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import resource
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection

MARK = b"event: round"
CURSOR = b'data: {"cursor":'  # how every frame of the lobby begins: noted with its cursor
CONNECT_BATCH = 50  # connections a process opens at once, ...
CONNECT_PAUSE = 0.1  # ... this many seconds apart (viewers arrive over time, not at once)
# A client not let in (an answer other than 200, or one with a length: the service's pace, which
# answers only when to come back) tries again a second later, this many times.
RETRIES = 60


class Listener(asyncio.Protocol):
    """One SSE client: sends its request, then notes the arrival time of every round event (or,
    of the lobby in frames, every frame's arrival wall-clock time and its cursor)."""

    def __init__(self, request: bytes, answered: asyncio.Future, frames: bool = False) -> None:
        self.request = request
        self.answered = answered
        self.frames = frames
        self.arrivals: list = []
        self.tail = b""  # a marker split across two reads
        self.received = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        now = time.monotonic()
        self.received += len(data)
        text = self.tail + data
        if not self.answered.done() and b"\r\n\r\n" in text:
            head = text.split(b"\r\n\r\n", 1)[0].lower()
            # A stream has no length; the service's pace answers a short body that has one.
            streaming = b"\r\ncontent-length:" not in head
            self.answered.set_result(
                head.startswith((b"http/1.1 200", b"http/1.0 200")) and streaming
            )
        if self.frames:
            wall = time.time()
            at = 0
            while (found := text.find(CURSOR, at)) != -1:
                end = text.find(b",", found + len(CURSOR))
                if end == -1:
                    break
                self.arrivals.append((wall, int(text[found + len(CURSOR) : end])))
                at = end
            self.tail = text[max(at, len(text) - 64) :]  # frames are large: keep a tail only
            return
        self.arrivals.extend([now] * text.count(MARK))
        self.tail = text[-(len(MARK) - 1) :]

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.answered.done():
            self.answered.set_result(False)


async def _listen(
    port: int, path: str, count: int, source: str, frames: bool, control: Connection
) -> None:
    loop = asyncio.get_running_loop()
    request = f"GET {path} HTTP/1.1\r\nHost: lobby\r\nAccept: text/event-stream\r\n\r\n".encode()
    listeners, transports = [], []

    async def connect() -> bool:
        answered = loop.create_future()
        listener = Listener(request, answered, frames=frames)
        try:
            transport, _ = await loop.create_connection(
                lambda: listener, "127.0.0.1", port, local_addr=(source, 0)
            )
        except OSError:
            return False
        try:
            let_in = await asyncio.wait_for(answered, 120)
        except TimeoutError:  # no answer in two minutes: the tier is past what it holds
            let_in = False
        if not let_in:
            transport.abort()
            return False
        transports.append(transport)
        listeners.append(listener)
        return True

    async def client() -> int:
        """Connects one client; how many times it had to try again."""
        for attempt in range(RETRIES + 1):
            if await connect():
                return attempt
            await asyncio.sleep(1)
        return attempt

    retries = []
    for start in range(0, count, CONNECT_BATCH):
        batch = min(CONNECT_BATCH, count - start)
        retries.append(asyncio.gather(*(client() for _ in range(batch))))
        await asyncio.sleep(CONNECT_PAUSE)
    retried = sum(sum(found) for found in await asyncio.gather(*retries))
    control.send((len(listeners), retried, _cpu_seconds()))  # connected and answered
    stopped = asyncio.Event()
    loop.add_reader(control.fileno(), stopped.set)
    await stopped.wait()
    control.recv()  # "stop"
    control.send(
        {
            "arrivals": [listener.arrivals for listener in listeners],
            "bytes": sum(listener.received for listener in listeners),
            "cpu_seconds": _cpu_seconds(),
        }
    )
    for transport in transports:
        transport.abort()


def _cpu_seconds() -> float:
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def _child(
    port: int, path: str, count: int, source: str, frames: bool, control: Connection
) -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    asyncio.run(_listen(port, path, count, source, frames, control))


@dataclass
class Load:
    """N clients of ``path`` on ``port``, spread over ``processes`` processes (each from a
    source address of its own, so the clients do not run out of ephemeral ports); ``frames``:
    they read the lobby in frames."""

    port: int
    path: str
    clients: int
    processes: int = 4
    frames: bool = False

    def __enter__(self) -> Load:
        share = -(-self.clients // self.processes)
        self.children, self.controls = [], []
        context = multiprocessing.get_context("spawn")
        for index in range(self.processes):
            count = min(share, self.clients - index * share)
            mine, theirs = context.Pipe()
            process = context.Process(
                target=_child,
                args=(self.port, self.path, count, f"127.0.0.{10 + index}", self.frames, theirs),
                daemon=True,
            )
            process.start()
            self.children.append(process)
            self.controls.append(mine)
        ready = [control.recv() for control in self.controls]
        self.connected = sum(count for count, _, _ in ready)
        self.retried = sum(retried for _, retried, _ in ready)
        self._cpu_at_ready = sum(cpu for _, _, cpu in ready)
        return self

    def results(self) -> dict:
        """Every client's round arrival times, the bytes they read, and the CPU seconds the
        processes used since all clients were connected."""
        for control in self.controls:
            control.send("stop")
        answers = [control.recv() for control in self.controls]
        return {
            "arrivals": [times for answer in answers for times in answer["arrivals"]],
            "bytes": sum(answer["bytes"] for answer in answers),
            "cpu_seconds": sum(a["cpu_seconds"] for a in answers) - self._cpu_at_ready,
        }

    def __exit__(self, *_: object) -> None:
        for process in self.children:
            process.join(timeout=30)
            if process.is_alive():
                process.kill()
