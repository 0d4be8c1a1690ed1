"""The images deploy/compose.yaml runs in the compose test, as the variables it reads them from:
the service's image (the project's Containerfile), nchan's (deploy/nchan's Containerfile) and the
stand-ins for the official Redis and PostgreSQL images (this folder), each built on the suite's
local Debian base with :mod:`tests.imagebase`.

Each of nchan's and the stand-ins' images is tagged by a hash of its base's id and its build
context, and built only when podman's storage lacks that tag: a later run, or a run after a
change elsewhere, builds nothing (a change to the context or the base builds it again).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from tests import imagebase

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CONTEXTS = {
    "ROADS_REDIS_IMAGE": ("redis", HERE / "redis"),
    "ROADS_POSTGRES_IMAGE": ("postgres", HERE / "postgres"),
    "ROADS_NCHAN_IMAGE": ("nchan", ROOT / "deploy" / "nchan"),
}


def images() -> dict[str, str]:
    """Every image variable of deploy/compose.yaml, each naming an image built here."""
    base = imagebase.base_image()
    named = {"ROADS_IMAGE": imagebase.service_image()}
    for variable, (name, context) in CONTEXTS.items():
        named[variable] = built(name, context, base)
    return named


def built(name: str, context: Path, base: str) -> str:
    """``context`` built on ``base`` as ``localhost/roads-test-NAME:HASH``, unless it is."""
    tag = f"localhost/roads-test-{name}:{recipe(context, base)}"
    return tag if imagebase.exists(tag) else imagebase.build(context, tag)


def recipe(context: Path, base: str) -> str:
    """A hash of the base's image id and every file of ``context`` (names and contents)."""
    found = imagebase.podman("image", "inspect", "--format", "{{.Id}}", base)
    digest = hashlib.sha256(found.stdout.strip().encode())
    for path in sorted(p for p in context.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(context)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]
