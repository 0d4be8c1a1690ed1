"""Start Pushpin in front of the roads service, with a private config.

    python deploy/pushpin/run.py --backend 127.0.0.1:8000 [--port 7999] [--publish-port 5561]
        [--dir /tmp/roads-pushpin]

Clients connect to ``--port``; the service publishes to ``http://127.0.0.1:PUBLISH_PORT`` (set
``ROADS_GRIP_URL`` to it). The config is ``pushpin.conf.in`` beside this file, filled in and
written to ``--dir`` with the routes file; Pushpin's run and log folders are made there too.
Runs until interrupted (it replaces this process with Pushpin's runner).

Pushpin signs every request it passes to the service (``Grip-Sig``, HS256) with ``sig_key``:
the key is ``ROADS_GRIP_KEY`` from the environment (the same value the service is given), or,
without it, a new secret written to ``--dir``/``grip-key`` (readable by this user only) for the
service's ``ROADS_GRIP_KEY``. It is never on a command line. The public port routes everything
to the service but ``/metrics`` (answered 404 by the service itself): the scrape stays on
the service's own, internal, address.
"""

from __future__ import annotations

import argparse
import os
import resource
import secrets
import shutil
import sys
import tempfile
from pathlib import Path

TEMPLATE = Path(__file__).with_name("pushpin.conf.in")
KEY_FILE = "grip-key"
KEY_BYTES = 32  # the least the service takes (api/config.py)
# Requests for the service's internal paths go to a path it does not serve (a 404 from it),
# so the public port never reaches them: Pushpin takes the longest path_beg that matches.
# Pushpin matches the path as sent, the service after merging slashes and decoding: a path
# that starts with an empty or encoded segment (``//metrics``, ``/%2Fmetrics``) is never the
# public's either.
INTERNAL_PATHS = ("/metrics", "//", "/%2F", "/%2f", "/%5C", "/%5c", "/\\")
NOT_PUBLIC = "/not-public"


def routes(backend: str) -> str:
    """The routes file: the internal paths turned away, everything else to ``backend``."""
    lines = [
        f"*,path_beg={path},replace_beg={NOT_PUBLIC}{path} {backend}" for path in INTERNAL_PATHS
    ]
    return "\n".join([*lines, f"* {backend}", ""])


def grip_key(folder: Path, given: str | None) -> str:
    """The key Pushpin signs with: ``given`` (``ROADS_GRIP_KEY``), or a new secret written to
    ``folder/grip-key`` for the service. Pushpin's default (``changeme``) and short keys are
    refused, as the service refuses them. While the key is rotated the service holds two
    (``new,old``): Pushpin signs with the first."""
    if given is not None:
        given = given.split(",")[0].strip()
        if given == "changeme" or len(given.encode()) < KEY_BYTES:
            sys.exit(f"ROADS_GRIP_KEY must be a secret of at least {KEY_BYTES} bytes")
        return given
    key = secrets.token_hex(KEY_BYTES)
    path = folder / KEY_FILE
    write_private(path, key)
    print(f"Pushpin's sig_key is in {path}: give it to the service as ROADS_GRIP_KEY")
    return key


def write_config(
    folder: Path,
    backend: str,
    *,
    port: int,
    publish_port: int,
    publish_addr: str = "127.0.0.1",
    listen_addr: str = "0.0.0.0",
    max_connections: int = 50_000,
    sig_key: str,
) -> Path:
    """Write ``pushpin.conf`` (readable by this user only: it holds ``sig_key``) and
    ``routes`` to ``folder``; the path of the config."""
    folder.mkdir(parents=True, exist_ok=True)
    for sub in ("run", "log"):
        (folder / sub).mkdir(exist_ok=True)
    (folder / "routes").write_text(routes(backend))
    values = {
        "RUNDIR": folder / "run",
        "LOGDIR": folder / "log",
        "ROUTES": folder / "routes",
        "HTTP_PORT": f"{listen_addr}:{port}",
        "PUBLISH_PORT": publish_port,
        "PUBLISH_ADDR": publish_addr,
        "MAX_CONNECTIONS": max_connections,
        "SIG_KEY": sig_key,
    }
    text = TEMPLATE.read_text()
    for name, value in values.items():
        text = text.replace(f"@{name}@", str(value))
    config = folder / "pushpin.conf"
    write_private(config, text)
    return config


def write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` readable by this user only, whatever was there: a new file
    (mode 0600) put in its place, so neither an existing file's mode nor a reader who holds it
    open sees the new text."""
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(descriptor, "w") as file:
            file.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


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
    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)
    key = grip_key(folder, os.environ.get("ROADS_GRIP_KEY", "").strip() or None)
    config = write_config(
        folder,
        args.backend,
        port=args.port,
        publish_port=args.publish_port,
        listen_addr=args.listen,
        max_connections=most,
        sig_key=key,
    )
    print(
        f"pushpin on {args.listen}:{args.port} -> {args.backend}; publish to http://127.0.0.1:{args.publish_port}"
    )
    sys.stdout.flush()
    os.execvp("pushpin", ["pushpin", f"--config={config}"])


if __name__ == "__main__":
    main()
