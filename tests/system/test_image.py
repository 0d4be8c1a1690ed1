"""The service's container image (the Containerfile), built on the suite's local Debian base
(tests/imagebase.py: no image registry is reachable here), as an operator runs it: its
settings, what it leaves out (root, compilers, pip and its cache, the source tree), and the
service it runs against a real Redis: both doors answer /livez with the package's version, the
image's HEALTHCHECK passes, a round sent to the ingest door reads back from the public door.

The first run on a machine makes the base and builds every layer (minutes); later runs find
the base in podman's storage and the layers in its cache (seconds). Each container the test
starts is removed by it, by its id.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import metadata

import pytest

from tests.conftest import KEY
from tests.gunicorn_server import send
from tests.imagebase import RUN_LIMITS, available, context_files, podman, service_image
from tests.redis_server import RedisServer, free_port

pytestmark = [
    pytest.mark.skipif(not available(), reason="podman, runc or debootstrap is not installed"),
    # Builds the image and runs containers: never twice at once (xdist's loadgroup; builds are
    # serialised by tests/imagebase.py's lock in any case).
    pytest.mark.xdist_group("containers"),
]

UID = 10001
# Run inside the image as its own user: what the run stage must not hold, as JSON.
INSPECT = """
import json, os, shutil, sys
paths = ("/root/.cache/pip", "/home/roads/.cache/pip", "/tmp/src", "/tmp/wheels",
         "/tmp/requirements", "/tmp/project", "/opt/roads/bin/pip")
print(json.dumps({
    "uid": os.getuid(),
    "home": os.path.expanduser("~"),
    "compilers": [c for c in ("cc", "gcc", "c++", "g++", "clang", "make") if shutil.which(c)],
    "present": [p for p in paths if os.path.exists(p)],
    "prefix": sys.prefix,
}))
"""


@pytest.fixture(scope="module")
def image() -> str:
    return service_image()


@contextmanager
def container(
    image: str, *command: str, env: dict[str, str] | None = None, user: str | None = None
) -> Iterator[str]:
    """A container of ``image`` running ``command`` (its default without), with the
    environment ``env``, as ``user`` (the image's without), on the host's network; its id.
    Removed on leaving."""
    options = [arg for pair in (env or {}).items() for arg in ("-e", "=".join(pair))]
    options += ["--user", user] if user else []
    made = podman("create", "--network", "host", *RUN_LIMITS, *options, image, *command)
    ident = made.stdout.strip().splitlines()[-1]
    try:
        yield ident
    finally:
        podman("rm", "-f", "-t", "2", ident, check=False, timeout=60)


def logs(ident: str) -> str:
    return podman("logs", ident, check=False).stderr[-3000:]


def test_the_image_is_configured_as_documented(image):
    inspected = json.loads(podman("image", "inspect", image).stdout)[0]
    config = inspected["Config"]
    env = dict(entry.partition("=")[::2] for entry in config["Env"])
    assert config["User"] == f"{UID}:{UID}"
    assert config["Cmd"] == ["baccarat-roads", "serve"]
    assert set(config["ExposedPorts"]) == {"8000/tcp", "8001/tcp"}
    assert env["ROADS_BIND"] == "0.0.0.0:8000" and env["ROADS_INGEST_BIND"] == "0.0.0.0:8001"
    assert env["PATH"].startswith("/opt/roads/bin:")
    # Kept only in the docker format (podman build --format docker).
    assert "/livez" in " ".join(inspected["Healthcheck"]["Test"])


def inspected(image: str, user: str | None = None) -> dict:
    with container(image, "python3", "-c", INSPECT, user=user) as ident:
        return json.loads(podman("start", "--attach", ident, timeout=60).stdout)


def test_the_image_holds_no_root_compiler_pip_or_source(image):
    own = inspected(image)
    assert (own["uid"], own["home"], own["prefix"]) == (UID, "/home/roads", "/opt/roads")
    # As root, which may look into /root too.
    root = inspected(image, user="0")
    assert (root["compilers"], root["present"]) == ([], [])


def wait_for(url: str, ident: str, seconds: float = 60) -> dict:
    """The JSON answer of ``url`` once it answers 200 (the container's log if it never does)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                return json.load(answer)
        except (urllib.error.URLError, ConnectionError) as error:
            state = podman("inspect", "--format", "{{.State.Status}}", ident).stdout.strip()
            if state != "running" or time.monotonic() > deadline:
                raise AssertionError(f"{url}: {error} ({state})\n{logs(ident)}") from None
            time.sleep(0.5)


def test_the_image_serves_both_doors_on_a_real_redis(image):
    redis = RedisServer().start()
    public, ingest = free_port(), free_port()
    try:
        env = {
            # The host's network: the container reaches the test's Redis on 127.0.0.1, and the
            # doors listen on free ports of the host's loopback (not the image's 8000/8001).
            "REDIS_URL": redis.url,
            "ROADS_INGEST_KEYS": f"image-test:{KEY}",
            "ROADS_BIND": f"127.0.0.1:{public}",
            "ROADS_INGEST_BIND": f"127.0.0.1:{ingest}",
            "ROADS_WORKERS": "1",
        }
        with container(image, env=env) as ident:
            podman("start", ident)
            version = metadata.version("baccarat-roads")
            for port in (public, ingest):
                answer = wait_for(f"http://127.0.0.1:{port}/livez", ident)
                assert answer == {"status": "ok", "version": version}
            checked = podman("healthcheck", "run", ident, check=False)
            assert checked.returncode == 0, checked.stdout + checked.stderr + logs(ident)
            round_ = {"round": 1, "result": "B", "player_total": 3, "banker_total": 7}
            send(f"http://127.0.0.1:{ingest}", "POST", "/v1/tables/t1/shoes/s1/rounds", round_, KEY)
            read = f"http://127.0.0.1:{public}/v1/tables/t1/shoes/s1/rounds"
            with urllib.request.urlopen(read, timeout=10) as answer:
                rounds = json.load(answer)["rounds"]
            assert [(each["round"], each["result"]) for each in rounds] == [(1, "B")]
            # The service inside runs as the image's user, not root.
            users = podman("top", ident, "user").stdout.split()[1:]
            assert users and set(users) == {"roads"}, users
    finally:
        redis.cleanup()


def test_a_failing_healthcheck_is_reported(image):
    """The HEALTHCHECK fails when /livez does not answer (no service started: a shell)."""
    with container(image, "sleep", "60") as ident:
        podman("start", ident)
        checked = podman("healthcheck", "run", ident, check=False)
        assert checked.returncode != 0
        assert "unhealthy" in (checked.stdout + checked.stderr)


def test_the_context_hashed_is_what_a_build_sends(tmp_path):
    """The files whose hash tags the service's image are those podman sends (.containerignore's
    rules: a folder's pattern covers what is under it, ``**``, classes, ``!`` taking back):
    a file left out of the hash but sent would leave a stale image in use."""
    for name in ("api/a.py", "api/a.pyc", "api/__pycache__/a.cpython-311.pyc", "tests/t.py",
                 "docs/p.png", "docs/keep.md", "clients/js/src/c.js", "clients/js/test/t.js",
                 "x/node_modules/m.js", "README.md"):  # fmt: skip
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(name)
    (tmp_path / ".containerignore").write_text(
        "# a comment\n**/__pycache__\n**/*.py[cod]\ntests\ndocs\n!docs/keep.md\n"
        "clients/js/test\n**/node_modules\n.containerignore\n"
    )
    sent = {path.relative_to(tmp_path).as_posix() for path in context_files(tmp_path)}
    assert sent == {"api/a.py", "docs/keep.md", "clients/js/src/c.js", "README.md"}
