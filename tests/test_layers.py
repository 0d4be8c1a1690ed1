"""The layers of docs/architecture.md hold: no module imports from a layer above its own."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Each layer, and what its modules may import of this project (any module of its own layer too).
MAY_IMPORT = {
    "roads": {"roads"},
    "api.storage": {"roads", "api.storage", "api.config", "api.embedded", "api.metrics"},
    "api.live": {"roads", "api.live", "api.storage", "api.config", "api.metrics"},
    "api.images": {"roads", "api.images"},
    "api.http": {
        "roads",
        "api.http",
        "api.services",
        "api.storage",
        "api.live",
        "api.images",
        "api.config",
        "api.metrics",
        "api.logs",
    },
}


def imported(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return {name for name in names if name.split(".")[0] in ("api", "roads")}


def allowed(name: str, layer: str) -> bool:
    return any(name == top or name.startswith(top + ".") for top in MAY_IMPORT[layer])


@pytest.mark.parametrize("layer", sorted(MAY_IMPORT))
def test_no_arrow_runs_up(layer):
    folder = ROOT.joinpath(*layer.split("."))
    wrong = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in sorted(folder.rglob("*.py"))
        for name in sorted(imported(path))
        if not allowed(name, layer)
    ]
    assert wrong == []


@pytest.mark.parametrize("layer", ["api.storage", "api.live", "api.http"])
def test_each_layer_says_what_it_holds_and_may_import(layer):
    doc = ast.get_docstring(ast.parse(ROOT.joinpath(*layer.split("."), "__init__.py").read_text()))
    assert doc and "May import" in doc
