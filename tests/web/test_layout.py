"""The site's one rule for reads (`web.selectors`' docstring): only selectors query; views, forms,
template tags, presenters and drawing take what a selector hands them. import-linter holds the packages' order;
this holds the ORM to the selectors, which an import contract cannot see (models are imported
everywhere for their choices)."""

from __future__ import annotations

import ast
from pathlib import Path

import web

WEB = Path(web.__file__).parent


def _manager_uses(path: Path) -> list[str]:
    """Each `Model.objects…` in the module but `.objects.none()` (an empty queryset a form fills later)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Attribute) and node.attr == "objects":
            found.append(f"{path.relative_to(WEB.parent)}:{node.lineno}")
    for node in ast.walk(ast.parse(path.read_text())):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "none"
            and isinstance(node.func.value, ast.Attribute)
            and node.func.value.attr == "objects"
        ):
            found.remove(f"{path.relative_to(WEB.parent)}:{node.func.value.lineno}")
    return found


def test_only_the_selectors_query() -> None:
    parts = ("views", "forms", "templatetags", "presenters", "drawing")
    modules = [path for part in parts for path in (WEB / part).glob("*.py")] + [WEB / "context_processors.py"]
    assert len(modules) > 10  # the packages are where this test looks
    assert [use for path in modules for use in _manager_uses(path)] == []


def test_the_selectors_do_query() -> None:
    # The check above can fail: it finds the managers the selectors use.
    assert _manager_uses(WEB / "selectors" / "logs.py")
