"""The type stubs (__init__.pyi) declare every name the package exports
(``__all__``) and exactly Engine's public methods."""

from __future__ import annotations

import ast
import pathlib

import batchcrypto

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "batchcrypto"


def engine_methods(tree: ast.Module) -> set[str]:
    engine = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Engine")
    return {f.name for f in engine.body if isinstance(f, ast.FunctionDef) and not f.name.startswith("_")}


def test_stub_matches_the_package():
    code = ast.parse((PACKAGE / "__init__.py").read_text())
    stub = ast.parse((PACKAGE / "__init__.pyi").read_text())
    names = set()
    for n in stub.body:
        if isinstance(n, (ast.ClassDef, ast.FunctionDef)):
            names.add(n.name)
        elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name):
            names.add(n.target.id)
        elif isinstance(n, ast.Assign):
            names.update(t.id for t in n.targets if isinstance(t, ast.Name))
    assert set(batchcrypto.__all__) <= names, set(batchcrypto.__all__) - names
    assert engine_methods(stub) == engine_methods(code)
    assert {"poseidon_bn254", "kzg_recover_cells"} <= engine_methods(stub)
