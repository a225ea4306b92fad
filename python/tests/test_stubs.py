"""The type stubs (``__init__.pyi``) declare every public function with the parameters, in
the order and with the defaults, of the function itself."""

import ast
import inspect
import pathlib

import wuerfelglueck as wg

STUBS = pathlib.Path(wg.__file__).with_name("__init__.pyi")


def stub_functions() -> dict:
    tree = ast.parse(STUBS.read_text())
    return {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}


def stub_parameters(node: ast.FunctionDef) -> list:
    args = node.args
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    params = [(a.arg, d) for a, d in zip(positional, defaults)]
    if args.vararg is not None:
        params.append(("*" + args.vararg.arg, None))
    params += list(zip((a.arg for a in args.kwonlyargs), args.kw_defaults))
    return [(name, None if d is None else ast.literal_eval(d)) for name, d in params]


def runtime_parameters(function) -> list:
    params = []
    for name, p in inspect.signature(function).parameters.items():
        if p.kind is inspect.Parameter.VAR_POSITIONAL:
            params.append(("*" + name, None))
        else:
            params.append((name, None if p.default is inspect.Parameter.empty else p.default))
    return params


def test_every_public_function_has_a_stub_with_its_signature():
    stubs = stub_functions()
    functions = [n for n in wg.__all__ if inspect.isfunction(getattr(wg, n))]
    assert len(functions) >= 10
    for name in functions:
        assert name in stubs, f"{name} has no stub"
        assert stub_parameters(stubs[name]) == runtime_parameters(getattr(wg, name)), name
