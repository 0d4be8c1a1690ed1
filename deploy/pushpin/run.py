"""Start Pushpin in front of the roads service, with a private config.

    python deploy/pushpin/run.py --backend 127.0.0.1:8000 [--port 7999] [--publish-port 5561]
        [--dir /tmp/roads-pushpin]

Clients connect to ``--port``; the service publishes to ``http://127.0.0.1:PUBLISH_PORT`` (set
``ROADS_GRIP_URL`` to it). The config is ``pushpin.conf.in`` beside this file, filled in and
written to ``--dir`` with the routes file; Pushpin's run and log folders are made there too.
Runs until interrupted (it replaces this process with Pushpin's runner).
"""

from __future__ import annotations

import argparse
import os
import resource
import secrets
import shutil
import sys
from pathlib import Path

TEMPLATE = Path(__file__).with_name("pushpin.conf.in")


def write_config(
    folder: Path,
    backend: str,
    *,
    port: int,
    publish_port: int,
    publish_addr: str = "127.0.0.1",
    listen_addr: str = "0.0.0.0",
    max_connections: int = 50_000,
) -> Path:
    """Write ``pushpin.conf`` and ``routes`` to ``folder``; the path of the config."""
    folder.mkdir(parents=True, exist_ok=True)
    for sub in ("run", "log"):
        (folder / sub).mkdir(exist_ok=True)
    (folder / "routes").write_text(f"* {backend}\n")
    values = {
        "RUNDIR": folder / "run",
        "LOGDIR": folder / "log",
        "ROUTES": folder / "routes",
        "HTTP_PORT": f"{listen_addr}:{port}",
        "PUBLISH_PORT": publish_port,
        "PUBLISH_ADDR": publish_addr,
        "MAX_CONNECTIONS": max_connections,
        "SIG_KEY": secrets.token_hex(16),
    }
    text = TEMPLATE.read_text()
    for name, value in values.items():
        text = text.replace(f"@{name}@", str(value))
    config = folder / "pushpin.conf"
    config.write_text(text)
    return config


# Descriptors condure needs besides its viewers (its ZeroMQ sockets, logs, the listener).
SPARE_FILES = 1_000


def viewers_within_open_files(wanted: int) -> int:
    """The viewers Pushpin may hold: ``wanted``, within the open-files limit, raised to its hard
    limit first (Pushpin's processes inherit it). condure holds one descriptor a viewer: with
    a ``client_maxconn`` above the limit it runs out of descriptors at accept (viewers wait
    unanswered) instead of refusing the connections past its bound."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if hard == resource.RLIM_INFINITY:
        return wanted
    most = max(1, min(wanted, hard - SPARE_FILES))
    if most < wanted:
        limit = f"the open-files limit is {hard}"
        print(f"pushpin holds at most {most} viewers: {limit}", file=sys.stderr)
    return most


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", default="127.0.0.1:8000", help="the service's host:port")
    parser.add_argument("--port", type=int, default=7999, help="where clients connect")
    parser.add_argument("--listen", default="0.0.0.0", help="the address clients connect to")
    parser.add_argument("--publish-port", type=int, default=5561, help="Pushpin's publish port")
    parser.add_argument("--max-connections", type=int, default=50_000)
    parser.add_argument("--dir", default="/tmp/roads-pushpin", help="config, run and log folder")
    args = parser.parse_args(argv)
    if shutil.which("pushpin") is None:
        sys.exit("pushpin is not installed (Debian: apt-get install pushpin)")
    most = viewers_within_open_files(args.max_connections)
    config = write_config(
        Path(args.dir),
        args.backend,
        port=args.port,
        publish_port=args.publish_port,
        listen_addr=args.listen,
        max_connections=most,
    )
    print(
        f"pushpin on {args.listen}:{args.port} -> {args.backend}; publish to http://127.0.0.1:{args.publish_port}"
    )
    sys.stdout.flush()
    os.execvp("pushpin", ["pushpin", f"--config={config}"])


if __name__ == "__main__":
    main()
