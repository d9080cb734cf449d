"""Every child environment a test, tool or benchmark builds from nothing comes from one helper,
tests/_child_env.py, which adds what Windows needs (SYSTEMROOT: without it Python 3.9 and 3.10
cannot start there).  This check reads the code, so it fails on every platform, Linux included,
the moment a test builds such an environment by hand.

What counts as building one by hand (tests/, tools/, bench/, build.py):
  * a dict display or dict(...) call with a "PATH" key: a fresh environment, whatever it is for;
  * an `env=` given to subprocess (run, Popen, call, check_call, check_output) or to asyncio's
    create_subprocess_exec that is a dict display, or a name the same function bound to one.
A copy of os.environ (dict(os.environ, ...), os.environ.copy(), a filter of os.environ.items())
keeps SYSTEMROOT and is fine.
"""

import ast
import os

import pytest

from _child_env import WINDOWS_NEEDS, child_env

TESTS = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(TESTS)
SCANNED = ("tests", "tools", "bench", "build.py")
HELPER = "tests/_child_env.py"
STARTERS = {"subprocess": {"run", "Popen", "call", "check_call", "check_output"},
            "asyncio": {"create_subprocess_exec"}}


def _python_files():
    for entry in SCANNED:
        top = os.path.join(REPO, entry)
        if os.path.isfile(top):
            yield entry
            continue
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = sorted(d for d in dirnames if d not in ("node_modules", "__pycache__",
                                                                   "data", "conformance"))
            for name in sorted(filenames):
                if name.endswith(".py"):
                    yield os.path.relpath(os.path.join(dirpath, name), REPO).replace(os.sep, "/")


def _is_fresh(node):
    """A dict display, or dict(...) with keywords only: an environment built from nothing."""
    if isinstance(node, ast.Dict):
        return True
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict"
            and not node.args and bool(node.keywords))


def _keys(node):
    if isinstance(node, ast.Dict):
        return {key.value for key in node.keys if isinstance(key, ast.Constant)}
    return {keyword.arg for keyword in node.keywords if keyword.arg}


def _starter(call):
    """'subprocess.run' and the like when `call` starts a process, else ''."""
    func = call.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
            and func.attr in STARTERS.get(func.value.id, ()):
        return "%s.%s" % (func.value.id, func.attr)
    return ""


FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _own_nodes(scope):
    """The nodes of a module or function, not those of the functions defined inside it."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, FUNCTIONS):
            stack.extend(ast.iter_child_nodes(node))


def _helper_arguments(tree):
    """ids of the nodes given straight to child_env(...): the helper's own input."""
    return {id(argument) for node in ast.walk(tree)
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "child_env"
            for argument in node.args}


def hand_built(source, name="<source>"):
    """["name:line: what"] for each child environment `source` builds by hand."""
    tree = ast.parse(source, name)
    given = _helper_arguments(tree)
    found = set()
    for node in ast.walk(tree):
        if _is_fresh(node) and "PATH" in _keys(node) and id(node) not in given:
            found.add((node.lineno, "a fresh environment with a PATH"))
    for scope in [tree] + [node for node in ast.walk(tree) if isinstance(node, FUNCTIONS)]:
        fresh_names = set()
        for node in _own_nodes(scope):
            if isinstance(node, ast.Assign) and _is_fresh(node.value):
                fresh_names.update(target.id for target in node.targets if isinstance(target, ast.Name))
        for node in _own_nodes(scope):
            if isinstance(node, ast.Call) and _starter(node):
                for keyword in node.keywords:
                    value = keyword.value
                    if keyword.arg == "env" and (_is_fresh(value) or (isinstance(value, ast.Name)
                                                                      and value.id in fresh_names)):
                        found.add((node.lineno, "env= built from nothing for %s()" % _starter(node)))
    return ["%s:%d: %s" % (name, line, what) for line, what in sorted(found)]


def test_no_child_environment_is_built_by_hand():
    offenders = []
    for rel in _python_files():
        if rel != HELPER:
            with open(os.path.join(REPO, rel), encoding="utf-8") as handle:
                offenders += hand_built(handle.read(), rel)
    assert offenders == [], ("build these with tests/_child_env.py's child_env(), which adds what "
                             "Windows needs:\n" + "\n".join(offenders))


@pytest.mark.parametrize("source", [
    'env = {"PATH": os.defpath}\nsubprocess.run(["python3"], env=env)\n',
    'def bare_env(**extra):\n    env = {"PATH": os.defpath, "LANG": "C.UTF-8"}\n    return env\n',
    'env = dict(PATH="/bin")\n',
    'def f(home):\n    env = {"HOME": home}\n    env.update(x=1)\n    subprocess.Popen(["x"], env=env)\n',
    'asyncio.create_subprocess_exec("x", env={"HOME": "/"})\n',
], ids=["path-then-run", "helper-returning-one", "dict-call", "name-bound-then-popen", "asyncio"])
def test_the_scan_catches_each_form(source):
    assert hand_built(source), source


@pytest.mark.parametrize("source", [
    'subprocess.run(["x"], env=dict(os.environ, A="1"))\n',
    'env = {k: v for k, v in os.environ.items() if not k.startswith("X_")}\nsubprocess.run(["x"], env=env)\n',
    'env = child_env(PATH=os.defpath)\nsubprocess.run(["x"], env=env)\n',
    'env = child_env({"PATH": os.defpath}, HOME="/")\n',
    'run("call", env={"ADRKIT_MCP_CWD": "/"})\n',  # a test's own helper, which copies os.environ
    'Session(command, args, env={"WIRE_TEST_MARKS": "m"})\n',  # merged into os.environ there
], ids=["environ-copy", "environ-filter", "helper", "helper-mapping", "own-helper",
        "extras-merged-elsewhere"])
def test_the_scan_lets_copies_and_the_helper_pass(source):
    assert hand_built(source) == [], source


def test_the_helper_adds_what_windows_needs_wherever_this_process_has_it(monkeypatch):
    monkeypatch.setenv("SYSTEMROOT", r"C:\Windows")
    env = child_env({"PATH": "/bin", "UNSET": None}, HOME="/home/x")
    assert sorted(env.items()) == [("HOME", "/home/x"), ("PATH", "/bin"), ("SYSTEMROOT", r"C:\Windows")]
    assert child_env(SYSTEMROOT="D:\\Win")["SYSTEMROOT"] == "D:\\Win"  # the caller's value wins
    assert WINDOWS_NEEDS == ("SYSTEMROOT",)
    if os.name != "nt":
        monkeypatch.delenv("SYSTEMROOT")
        assert list(child_env(PATH="/bin").items()) == [("PATH", "/bin")]  # nothing else carried
