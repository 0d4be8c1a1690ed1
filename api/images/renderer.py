"""A painter process: reads scenes on its standard input and writes their PNGs on its standard
output, each message a 4-byte length then a pickle (from the service's own process only: the
pipe is private to the two). Run as ``python -m api.images.renderer`` by :mod:`.pool`, at a
lower priority than the service, so a picture never takes the CPU from a round being stored."""

from __future__ import annotations

import os
import pickle
import struct
import sys
from typing import BinaryIO

HEADER = struct.Struct(">I")


def send(stream: BinaryIO, value: object) -> None:
    payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(HEADER.pack(len(payload)) + payload)
    stream.flush()


def receive(stream: BinaryIO) -> object:
    """The next message; ``EOFError`` when the other side has closed the pipe."""
    header = stream.read(HEADER.size)
    if len(header) < HEADER.size:
        raise EOFError
    (length,) = HEADER.unpack(header)
    payload = stream.read(length)
    if len(payload) < length:
        raise EOFError
    return pickle.loads(payload)


def serve(requests: BinaryIO, replies: BinaryIO) -> None:
    """Paint every scene that comes until the pipe closes; a scene that fails to paint is
    answered with the error's text (the caller answers 500 for it, as before)."""
    from api.images.paint import paint, warm_up

    warm_up()
    while True:
        try:
            scene = receive(requests)
        except EOFError:
            return
        try:
            send(replies, paint(scene))
        except Exception as error:
            send(replies, f"{type(error).__name__}: {error}")


if __name__ == "__main__":
    os.nice(int(os.environ.get("ROADS_RENDER_NICE", "10")))
    serve(sys.stdin.buffer, sys.stdout.buffer)
