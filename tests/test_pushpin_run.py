"""deploy/pushpin/run.py's secrets on disk: the generated ``grip-key`` and the config holding
``sig_key`` are readable by their owner only, whatever file stood there before."""

from __future__ import annotations

import importlib.util
import stat
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("pushpin_run", ROOT / "deploy/pushpin/run.py")
run = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(run)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_generated_key_replaces_a_readable_file_with_a_private_one(tmp_path):
    path = tmp_path / run.KEY_FILE
    path.write_text("an old key")
    path.chmod(0o644)
    with path.open() as reader:  # opened while it was readable by all
        key = run.grip_key(tmp_path, None)
        assert reader.read() == "an old key"  # the new key is not in the file it holds
    assert path.read_text() == key and len(key) == 2 * run.KEY_BYTES
    assert mode(path) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == [run.KEY_FILE]  # no temporary left


def test_the_config_holding_sig_key_is_private(tmp_path):
    config = tmp_path / "pushpin.conf"
    config.write_text("old")
    config.chmod(0o666)
    written = run.write_config(
        tmp_path, "127.0.0.1:1", port=2, publish_port=3, sig_key="k" * run.KEY_BYTES
    )
    assert written == config and mode(config) == 0o600
    text = config.read_text()
    assert "sig_key=" + "k" * run.KEY_BYTES in text and "\nlog_level=1\n" in text
