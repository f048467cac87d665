"""The package ships its stubs, and they name exactly what the module has."""

import ast
import importlib.resources

import shogitk
from shogitk import _shogitk


def _stub():
    files = importlib.resources.files("shogitk")
    assert (files / "py.typed").is_file()
    return ast.parse((files / "_shogitk.pyi").read_text(encoding="utf-8"))


def test_stubs_match_the_module():
    tree = _stub()
    aliases = {"Color", "Variant", "FormatName", "StrPath"}
    top = set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            top.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            top.add(node.target.id)
        elif isinstance(node, ast.Assign):
            top.update(t.id for t in node.targets if isinstance(t, ast.Name))
    runtime = {n for n in dir(_shogitk) if not n.startswith("__") or n == "__version__"}
    assert top - aliases == runtime
    # The package adds `stats`, `analyze`, `analyze_on_dask` and their `Table` (in Python)
    # and keeps the helpers private.
    private = {"_stats", "_analyze", "_record_from_state"}
    python = {"Table", "stats", "analyze", "analyze_on_dask"}
    assert set(shogitk.__all__) == (runtime - private) | python
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        runtime_cls = getattr(_shogitk, cls.name)
        for member in cls.body:
            if isinstance(member, ast.FunctionDef):
                assert hasattr(runtime_cls, member.name), f"{cls.name}.{member.name}"
            elif isinstance(member, ast.AnnAssign):
                # Exception attributes are set on instances.
                assert issubclass(runtime_cls, Exception), cls.name


def test_everything_public_has_a_docstring():
    for name in shogitk.__all__:
        obj = getattr(shogitk, name)
        if name == "__version__":
            continue
        assert obj.__doc__, name
        if isinstance(obj, type) and not issubclass(obj, Exception):
            for attr, value in vars(obj).items():
                if not attr.startswith("_"):
                    assert value.__doc__, f"{name}.{attr}"
