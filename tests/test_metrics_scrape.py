"""The scrape in multiprocess mode: every worker's file merged, a file still being made skipped."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def scrape_in(folder, script: str) -> subprocess.CompletedProcess:
    """Run ``script`` in a fresh interpreter whose metrics live in ``folder`` (the mode is
    chosen at import, so it cannot be switched inside this process)."""
    env = {"PROMETHEUS_MULTIPROC_DIR": str(folder), "PATH": "/usr/bin:/bin"}
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_worker_file_not_yet_sized_does_not_fail_the_scrape(tmp_path):
    # What a worker leaves for an instant: its counter file created, not yet sized.
    (tmp_path / "counter_4242.db").write_bytes(b"")
    done = scrape_in(
        tmp_path,
        """
        from api import metrics
        metrics.request_counted("/livez", "GET", "200", 0.01)
        body, kind = metrics.exposition()
        print(body.decode())
        """,
    )
    assert done.returncode == 0, done.stderr
    assert 'route="/livez"' in done.stdout


def test_every_sized_file_is_still_merged(tmp_path):
    other = scrape_in(
        tmp_path,
        """
        from api import metrics
        metrics.request_counted("/readyz", "GET", "200", 0.01)
        """,
    )
    assert other.returncode == 0, other.stderr
    done = scrape_in(
        tmp_path,
        """
        from api import metrics
        metrics.request_counted("/livez", "GET", "200", 0.01)
        print(metrics.exposition()[0].decode())
        """,
    )
    assert done.returncode == 0, done.stderr
    assert 'route="/readyz"' in done.stdout and 'route="/livez"' in done.stdout
