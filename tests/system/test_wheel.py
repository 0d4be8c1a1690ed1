"""The service runs from its wheel, anywhere: the wheel is built from a copy of this tree
(``pip wheel --no-deps``), installed with its dependencies in a fresh virtual environment in a
temporary folder outside the repository, and started with its entry point (``baccarat-roads
serve --single``) from a folder outside the repository, with no ``PYTHONPATH``, on a real Redis.
It serves the lobby page and its files, the JavaScript client at ``/client/``, a table's road as
a PNG (drawn in the client's style.js), the patterns in a language's catalogue, and takes a
round with the ingest key and reads it back; ``check-config`` and ``--help`` answer; and nothing
of the installed package comes from the checkout.

The dependencies are installed at the versions this suite runs with (a constraints file made
from the running environment's distributions), so pip resolves them at once and takes them
from its cache or the local index: building, installing and starting took 26 to 33 seconds
here with pip's cache warm (69 on a first run, cold), under other sessions' load on two cores.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import pytest

from tests.conftest import KEY
from tests.doors_server import children
from tests.redis_server import RedisServer, free_port

ROOT = Path(__file__).resolve().parents[2]
# What a build never reads: the tree's history, environments, caches and build outputs.
NOT_SOURCE = shutil.ignore_patterns(
    ".git",
    ".venv",
    "node_modules",
    "__pycache__",
    "build",
    "dist",
    "*.egg-info",
    ".pytest_cache",
    ".hypothesis",
    ".ruff_cache",
    ".schemathesis",
    "fuzz-crashes",
)


@dataclass
class Installed:
    venv: Path
    cwd: Path  # a folder outside the repository to run from
    timings: dict[str, float]

    @property
    def command(self) -> Path:
        return self.venv / "bin" / "baccarat-roads"

    def env(self, **settings: str) -> dict[str, str]:
        """This process's environment without anything that points into the checkout, the
        venv's scripts first on PATH, and ``settings``."""
        env = {
            name: value
            for name, value in os.environ.items()
            if name not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")
            and not name.startswith("ROADS_")
            and name not in ("REDIS_URL", "PROMETHEUS_MULTIPROC_DIR")
        }
        env["PATH"] = f"{self.venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
        return {**env, **settings}

    def run(self, *args: str, **settings: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.command), *args],
            cwd=self.cwd,
            env=self.env(**settings),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )


def constraints() -> str:
    """The versions of every distribution this suite runs with but the project itself."""
    return "".join(
        f"{dist.metadata['Name']}=={dist.version}\n"
        for dist in metadata.distributions()
        if dist.metadata["Name"] and dist.metadata["Name"].lower() != "baccarat-roads"
    )


def timed(timings: dict[str, float], name: str, *command: str | Path, cwd: Path) -> None:
    """Run ``command``, its seconds kept as ``name``; what it wrote shows if it fails."""
    started = time.monotonic()
    done = subprocess.run(
        [str(part) for part in command], cwd=cwd, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"{name} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    timings[name] = round(time.monotonic() - started, 1)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Iterator[Installed]:
    top = tmp_path_factory.mktemp("wheel")
    assert not top.resolve().is_relative_to(ROOT)
    timings: dict[str, float] = {}
    source, wheels, venv, cwd = top / "source", top / "dist", top / "venv", top / "run"
    shutil.copytree(ROOT, source, symlinks=True, ignore=NOT_SOURCE)
    cwd.mkdir()
    pip = (sys.executable, "-m", "pip")
    timed(timings, "build", *pip, "wheel", "--no-deps", "-q", "-w", wheels, source, cwd=top)
    (wheel,) = wheels.glob("baccarat_roads-*.whl")
    timed(timings, "venv", sys.executable, "-m", "venv", "--without-pip", venv, cwd=top)
    pins = top / "constraints.txt"
    pins.write_text(constraints())
    # The venv's pip is this one (--python): none is installed there. No bytecode is compiled
    # at install (the first import does it for what is used): a third of the install's time.
    install = ("--python", venv / "bin" / "python", "install", "-q", "--no-compile", "-c", pins)
    # With the demo extra: the probe below imports the app as the demo does (no Redis needed),
    # which takes fakeredis, and an extra must install from a wheel as well as the rest.
    timed(timings, "install", *pip, *install, f"{wheel}[demo]", cwd=top)
    print(f"wheel: {wheel.name}; seconds: {timings}")  # shown with -s or on a failure
    yield Installed(venv, cwd, timings)
    shutil.rmtree(top, ignore_errors=True)  # the venv is some 200 MB: not kept for 3 runs


@dataclass
class Service:
    base: str
    process: subprocess.Popen


@pytest.fixture(scope="module")
def service(installed) -> Iterator[Service]:
    """``baccarat-roads serve --single`` from the venv, on a Redis of its own; stopped by the
    supervisor's pid (SIGTERM, which it forwards to its gunicorn master)."""
    redis = RedisServer().start()
    port = free_port()
    log = installed.cwd / "serve.log"
    errors = log.open("wb")
    process = subprocess.Popen(
        [str(installed.command), "serve", "--single"],
        cwd=installed.cwd,
        env=installed.env(
            REDIS_URL=redis.url,
            ROADS_INGEST_KEYS=KEY,
            ROADS_BIND=f"127.0.0.1:{port}",
            ROADS_WORKERS="1",
            # A painter process (api/images/pool.py): it too must find the installed package.
            ROADS_RENDERERS="1",
        ),
        stdout=errors,
        stderr=errors,
        start_new_session=True,
    )
    served = Service(f"http://127.0.0.1:{port}", process)
    try:
        started = time.monotonic()
        while get(served, "/livez", allow=True)[0] != 200:
            if time.monotonic() > started + 60 or process.poll() is not None:
                tail = log.read_text(errors="replace")[-3000:]
                raise RuntimeError(f"the service did not start:\n{tail}")
            time.sleep(0.2)
        installed.timings["start"] = round(time.monotonic() - started, 1)
        yield served
    finally:
        masters = children(process.pid)
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)  # its own session: it and its door
                process.wait()
        for pid in masters:  # gone with the supervisor: a leftover is killed, and fails the test
            if Path(f"/proc/{pid}").exists():
                os.kill(pid, signal.SIGKILL)
                raise AssertionError(f"gunicorn master {pid} outlived its supervisor")
        errors.close()
        redis.cleanup()


def get(
    served: Service, path: str, *, body: dict | None = None, allow: bool = False
) -> tuple[int, str, bytes]:
    """The status, content type and body of ``path`` (a POST of ``body`` with the key)."""
    request = urllib.request.Request(served.base + path)
    if body is not None:
        request.data = json.dumps(body).encode()
        request.add_header("Content-Type", "application/json")
        request.add_header("X-API-Key", KEY)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.headers.get("Content-Type", ""), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read()
    except OSError:
        if allow:
            return 0, "", b""
        raise


def test_the_installed_package_is_not_the_checkout(installed):
    probe = (
        "import json, sys, api, roads, api.resources as r, api.wsgi as w;"
        "print(json.dumps([api.__file__, roads.__file__, str(r.LOBBY), str(r.CLIENT),"
        " str(r.MIGRATIONS), w.__file__, sys.path]))"
    )
    answer = subprocess.run(
        [str(installed.venv / "bin" / "python"), "-c", probe],
        cwd=installed.cwd,
        env=installed.env(ROADS_DEMO="1"),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    *paths, path = json.loads(answer.stdout.splitlines()[-1])
    venv = str(installed.venv)
    assert all(p.startswith(venv) for p in paths), paths
    assert not any(entry.startswith(str(ROOT)) for entry in path), path


def test_the_lobby_and_its_files_are_served(service):
    status, kind, page = get(service, "/")
    assert (status, kind.split(";")[0]) == (200, "text/html")
    assert page == (ROOT / "static" / "index.html").read_bytes()
    assert get(service, "/static/lobby.js")[2] == (ROOT / "static" / "lobby.js").read_bytes()
    assert get(service, "/docs")[0] == 200
    redoc = get(service, "/static/vendor/redoc/redoc.standalone.js")
    assert redoc[0] == 200 and len(redoc[2]) > 100_000


def test_the_javascript_client_is_served(service):
    status, kind, module = get(service, "/client/index.js")
    assert status == 200 and "javascript" in kind
    assert module == (ROOT / "clients" / "js" / "src" / "index.js").read_bytes()
    assert get(service, "/client/no-such-module.js")[0] == 404


def test_a_round_is_taken_with_the_key_and_read_back_and_drawn(service):
    posted = get(service, "/v1/tables/w1/shoes/s1/rounds", body={"round": 1, "result": "B"})
    assert posted[0] in (200, 201), posted
    status, _, answer = get(service, "/v1/tables/w1/shoes/s1/rounds")
    assert status == 200
    assert [each["result"] for each in json.loads(answer)["rounds"]] == ["B"]
    status, kind, png = get(service, "/v1/tables/w1/roads/big_road.png")
    assert (status, kind) == (200, "image/png") and png.startswith(b"\x89PNG\r\n\x1a\n")


def test_a_language_catalogue_is_read(service):
    status, _, answer = get(service, "/v1/patterns?lang=it")
    italian = json.loads((ROOT / "static" / "i18n" / "it.json").read_text(encoding="utf-8"))
    names = {each.get("name") for each in json.loads(answer)["patterns"]}
    assert status == 200 and italian["pattern.banker_streak.name"] in names


def test_check_config_answers_without_a_secret(installed):
    url = "redis://:hunter2-secret@127.0.0.1:6390/0"
    done = installed.run("check-config", REDIS_URL=url, ROADS_INGEST_KEYS="gs:s3cret-key-value")
    assert done.returncode == 0, done.stderr
    assert "configuration: ok" in done.stdout and "ingest keys: 1" in done.stdout
    for secret in ("hunter2", "s3cret", "6390", "127.0.0.1"):
        assert secret not in done.stdout + done.stderr
    refused = installed.run("check-config")
    assert refused.returncode == 2 and "REDIS_URL" in refused.stderr


def test_the_command_answers_help(installed):
    done = installed.run("--help")
    assert done.returncode == 0
    for command in ("serve", "migrate", "record", "verify", "check-config"):
        assert command in done.stdout
    serve = installed.run("serve", "--help")
    assert serve.returncode == 0 and "--single" in serve.stdout
    assert installed.run("nonsense").returncode == 2


def test_it_is_quick(installed):
    """Built, installed and started in well under the minutes a full resolve would take (the
    timings, under the suite's load, print with -s)."""
    print(f"seconds: {installed.timings}")
    assert sum(installed.timings.values()) < 180, installed.timings
