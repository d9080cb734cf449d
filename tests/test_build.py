"""build.py and the .pyz it makes: reproducible, pure Python, runs on Python 3.9-3.14 with a
read-only or missing HOME, safe when two clients start it for the first time at once, and writes
nothing after its one-time unpacking.  Also: pyproject.toml's pins and `pip install .`.

The slow tests (marked `slow`) build the archive twice, run it on every Python 3.9-3.14 found
(tests/_pythons.py: $ADRKIT_TEST_PYTHONS, else pyenv's, else on the PATH) and install the package
into a fresh venv.
ADRKIT_TEST_MODULE=/path/to/adrkit_mcp.py builds from another copy of the module (development).
"""

import ast
import hashlib
import importlib.util
import json
import os
try:
    import pwd
except ImportError:  # Windows: no account database (the tests that need it are marked)
    pwd = None  # type: ignore[assignment]
import re
import shutil
import stat
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

import _platforms as platforms  # why a test cannot hold on a platform
import _pythons as pythons  # the Python 3.9-3.14 interpreters to run

import _support as support  # tests/ is on sys.path (pytest rootdir insertion)
from _child_env import child_env

PROJECT = Path(__file__).resolve().parent.parent
BUILD = PROJECT / "build.py"
MODULE = Path(os.environ.get("ADRKIT_TEST_MODULE") or PROJECT / "adrkit_mcp.py").resolve()
BINARY_SUFFIXES = (".so", ".pyd", ".dylib", ".dll")
MOUNT_READ_ONLY = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"'

# One worker runs the whole file (pytest-xdist's loadgroup): its module fixture makes a second
# build, which two workers would each make.
pytestmark = pytest.mark.xdist_group("build")

needs_module = pytest.mark.skipif(not MODULE.is_file(), reason="%s does not exist yet" % MODULE)


def each_python():
    params = []
    for minor in pythons.minors():  # 3.14 only where it is found (tests/_pythons.py)
        python = pythons.find(minor)
        mark = pytest.mark.skipif(python is None, reason=pythons.reason(minor))
        params.append(pytest.param(python, id="py" + minor, marks=mark))
    return params


def bare_env(**extra):
    """The few variables a GUI client passes (and what Windows needs: tests/_child_env.py); in
    particular no PYTHONDONTWRITEBYTECODE."""
    return child_env(dict(PATH=os.defpath, LANG="C.UTF-8"), **extra)


def run(command, env, timeout=120, prefix=()):
    return subprocess.run(list(prefix) + [str(part) for part in command], env=env,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, timeout=timeout,
                          cwd="/")


def assert_version_ran(result):
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip(), "no version printed"


def tree(root):
    """Every path under root with its type, size and mtime: a change anywhere shows."""
    state = {}
    for dirpath, dirnames, filenames in os.walk(str(root)):
        for name in dirnames + filenames:
            path = os.path.join(dirpath, name)
            info = os.lstat(path)
            state[os.path.relpath(path, str(root))] = (info.st_mode, info.st_size,
                                                       info.st_mtime_ns)
    return state


def build_id(pyz):
    with zipfile.ZipFile(str(pyz)) as archive:
        return json.loads(archive.read("environment.json").decode())["build_id"]


# ---- fast checks of the project files -------------------------------------------------------

def load_toml(path):
    try:
        import tomllib
    except ImportError:
        tomllib = pytest.importorskip("tomli")
    with open(str(path), "rb") as handle:
        return tomllib.load(handle)


def normalise(requirement):
    return re.sub(r"\s+", "", requirement.replace("'", '"'))


def load_build_script():
    spec = importlib.util.spec_from_file_location("adrkit_build_script", str(BUILD))
    build_script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build_script)
    return build_script


def test_pyproject_ranges_hold_what_the_pyz_vendors():
    requirements = pytest.importorskip("packaging.requirements")
    pyproject = load_toml(PROJECT / "pyproject.toml")
    project = pyproject["project"]
    build_script = load_build_script()
    ranges = {}
    for line in project["dependencies"]:
        requirement = requirements.Requirement(line)
        assert str(requirement.specifier), "%s: a range, not an open requirement" % line
        ranges[requirement.name.lower()] = requirement.specifier
    assert sorted(ranges) == sorted(pin.name.lower() for pin in build_script.VENDORED)
    for pin in build_script.VENDORED:
        assert pin.version in ranges[pin.name.lower()], (pin, ranges[pin.name.lower()])
        assert pin.wheel.lower().startswith(pin.name.lower().replace("-", "_") + "-" + pin.version)
    assert project["requires-python"] == ">=3.9"
    assert project["scripts"] == {"adrkit-mcp": "adrkit_mcp:main"}
    assert build_script.ENTRY_POINT == "adrkit_mcp:main"
    assert project["optional-dependencies"]["build"] == ["shiv==%s" % build_script.SHIV_VERSION]
    assert not [item for item in project["optional-dependencies"]["test"] if "shiv" in item]
    assert project["license"] == "Apache-2.0"
    assert project["license-files"] == ["LICENSE", "NOTICE"]
    assert pyproject["build-system"]["requires"] == ["setuptools>=77"]  # PEP 639 metadata
    assert project["dynamic"] == ["version"] and "version" not in project


def test_requirements_dev_pins_the_extras_and_the_vendored_versions():
    project = load_toml(PROJECT / "pyproject.toml")["project"]
    lines = (PROJECT / "requirements-dev.txt").read_text(encoding="utf-8").splitlines()
    assert "-r requirements-release.txt" in lines  # the release's build tools, pinned once
    lines += (PROJECT / "requirements-release.txt").read_text(encoding="utf-8").splitlines()
    pinned = {normalise(line) for line in lines if line.strip() and not line.startswith(("#", "-r "))}
    extras = project["optional-dependencies"]["test"] + project["optional-dependencies"]["build"]
    runtime = ["%s==%s" % (pin.name, pin.version) for pin in load_build_script().VENDORED]
    installers = {item for item in pinned if item.startswith(("pipx==", "uv=="))}
    assert len(installers) == 3, pinned  # the install tests' pipx (two, by Python) and uv
    assert pinned - installers == {normalise(item) for item in extras + runtime}


@needs_module
def test_the_version_lives_in_one_literal():
    spec = importlib.util.spec_from_file_location("adrkit_version_probe", str(MODULE))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert load_build_script().module_version(MODULE) == module.__version__
    assert module.SERVER_VERSION == module.__version__
    assert not re.search(r"^SERVER_VERSION = [\"']", MODULE.read_text(encoding="utf-8"), re.M)


def test_licence_files_and_header():
    licence = (PROJECT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License\n                           Version 2.0, January 2004" in licence
    assert "END OF TERMS AND CONDITIONS" in licence and "APPENDIX" in licence
    notice = (PROJECT / "NOTICE").read_text(encoding="utf-8")
    for project, licence_name in (("@adrkit/mcp", "Apache License 2.0"), ("picomatch", "MIT"),
                                  ("yaml", "ISC"), ("node-semver", "ISC"), ("zod", "MIT"),
                                  ("WHATWG URL Standard", "Node.js"), ("PyYAML", "MIT"),
                                  ("pathspec", "Mozilla Public License 2.0")):
        assert project in notice and licence_name in notice, project
    for pin in load_build_script().VENDORED:
        assert "%s %s" % (pin.name, pin.version) in notice, "NOTICE does not name %s" % (pin,)
    head = MODULE.read_text(encoding="utf-8").splitlines()[:3]
    assert head[0] == "# SPDX-License-Identifier: Apache-2.0", head


@needs_module
def test_version_is_a_literal_setuptools_can_read():
    tree_ = ast.parse(MODULE.read_text(encoding="utf-8"))
    for node in tree_.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(target, ast.Name) and target.id == "__version__"
                for target in node.targets):
            assert isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
            # PEP 440 (public versions), or pip install . refuses the package.
            pep440 = r"(\d+!)?\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?"
            assert re.fullmatch(pep440, node.value.value), node.value.value
            return
    pytest.fail("adrkit_mcp.py has no top-level __version__ = '...'")


class _NoAnnotations(ast.NodeTransformer):
    """Annotations dropped: the entry files never evaluate them (`from __future__ import
    annotations`), so they may name what the files do not import (typing's names)."""

    def visit_arg(self, node):
        node.annotation = None
        return node

    def visit_FunctionDef(self, node):
        node.returns = None
        return self.generic_visit(node)

    def visit_AnnAssign(self, node):
        return ast.Assign(targets=[node.target], value=node.value, lineno=node.lineno)


def _undefined_names(source):
    """The names `source` reads but neither defines, imports nor finds among the builtins."""
    import builtins
    import symtable
    tree_ = ast.fix_missing_locations(_NoAnnotations().visit(ast.parse(source)))
    top = symtable.symtable(ast.unparse(tree_), "entry", "exec")
    known = set(dir(builtins)) | {symbol.get_name() for symbol in top.get_symbols()
                                  if symbol.is_assigned() or symbol.is_imported()}
    unknown, tables = set(), [top]
    while tables:
        table = tables.pop()
        tables.extend(table.get_children())
        for symbol in table.get_symbols():
            if symbol.is_referenced() and (table is top or symbol.is_global()):
                unknown.add(symbol.get_name())
    return sorted(unknown - known)


@needs_module
def test_the_entry_files_are_the_modules_functions_and_use_nothing_else_of_it():
    build_script = load_build_script()
    main, start = build_script.main_source(MODULE), build_script.start_source(MODULE)
    # The files are made of the module's own definitions, in the order build.py names them ...
    for source, names in ((main, build_script.MAIN_NAMES), (start, build_script.START_NAMES)):
        for name, (_, text) in build_script.module_pieces(MODULE, names).items():
            assert text in source, name
        defined = []
        for node in ast.parse(source).body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                defined.append(node.name)
            for target in getattr(node, "targets", [getattr(node, "target", None)]):
                defined.append(getattr(target, "id", None))
        assert [name for name in defined if name in names] == list(names)
    # ... which read nothing but each other, the builtins and the few modules each file imports
    # (the gate's file: json and sys alone, for a fast start).
    assert _undefined_names(main + "\n_bootstrap.bootstrap()\n") == []
    assert _undefined_names(start) == []
    imported = {alias.name for node in ast.parse(main).body if isinstance(node, ast.Import)
                for alias in node.names}
    assert imported == {"json", "sys"}
    # The check sees a name the module defines but the files lack.
    assert _undefined_names(start.replace("in _pyz_sentinels()", "in HOOK_FORMATS", 1)) == ["HOOK_FORMATS"]
    assert _undefined_names(start.replace("import stat\n", "")) == ["stat"]


def test_the_build_refuses_a_module_that_vendors_other_packages(tmp_path):
    changed = tmp_path / "adrkit_mcp.py"
    text = MODULE.read_text(encoding="utf-8")
    changed.write_text(text.replace('_PYZ_VENDORED = ("yaml", ', '_PYZ_VENDORED = ("ruamel", ', 1),
                       encoding="utf-8")
    with pytest.raises(SystemExit):
        load_build_script().start_source(changed)


# ---- the archive ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def builds(built_pyz, tmp_path_factory):
    """Two builds of the same module: the run's shared one (conftest's built_pyz) and another."""
    if not MODULE.is_file():
        pytest.skip("%s does not exist yet" % MODULE)
    target = tmp_path_factory.mktemp("builds") / "second" / "adrkit-mcp.pyz"
    result = subprocess.run(
        [sys.executable, str(BUILD), "--module", str(MODULE), "--output", str(target)],
        cwd=str(PROJECT), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, universal_newlines=True, timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr
    return [built_pyz, (target, result.stdout)]


@pytest.fixture
def pyz(builds, tmp_path):
    """A private copy of the built archive under a unique name (so its unpacked copy is too)."""
    copy = tmp_path / ("adrkit-mcp-test-%d-%s.pyz" % (os.getpid(), tmp_path.name))
    shutil.copyfile(str(builds[0][0]), str(copy))
    return copy


@pytest.mark.slow
def test_two_builds_are_byte_identical(builds):
    (first, first_out), (second, second_out) = builds
    data = first.read_bytes()
    assert data == second.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    assert "sha256  %s" % digest in first_out and "sha256  %s" % digest in second_out
    assert "size    %d bytes" % len(data) in first_out
    bundles = [path.with_suffix(".mcpb") for path in (first, second)]
    bundle = bundles[0].read_bytes()
    assert bundle == bundles[1].read_bytes()
    assert "sha256  %s" % hashlib.sha256(bundle).hexdigest() in first_out


@pytest.mark.slow
def test_licence_and_notice_are_inside_the_pyz(builds):
    with zipfile.ZipFile(str(builds[0][0])) as archive:
        for name in ("LICENSE", "NOTICE"):
            assert archive.read(name) == (PROJECT / name).read_bytes(), name
        vendored = [name for name in archive.namelist() if ".dist-info/" in name]
    # Each vendored library's own licence travels with it.
    for pin in load_build_script().VENDORED:
        assert [name for name in vendored if name.lower().startswith(
            "site-packages/%s-%s.dist-info/" % (pin.name.lower(), pin.version))
            and "licen" in name.lower()], pin


@pytest.mark.slow
def test_no_compiled_code_inside(builds):
    with zipfile.ZipFile(str(builds[0][0])) as archive:
        names = archive.namelist()
        assert not [name for name in names if name.lower().endswith(BINARY_SUFFIXES)]
        assert not [name for name in names if name.startswith("site-packages/_yaml/")]
        for name in names:
            head = archive.read(name)[:4]
            assert head != b"\x7fELF" and not head.startswith(b"MZ"), name
        for required in ("site-packages/adrkit_mcp.py", "site-packages/yaml/__init__.py",
                         "site-packages/pathspec/__init__.py", "site-packages/idna/__init__.py",
                         "__main__.py"):
            assert required in names
        environment = json.loads(archive.read("environment.json").decode())
    assert environment["entry_point"] == "adrkit_mcp:main"
    assert environment["root"] is None  # chosen at run time by the archive's __main__.py


@platforms.EXECUTABLE_BIT
@pytest.mark.slow
def test_shebang_and_executable_bit(builds):
    path = builds[0][0]
    with open(str(path), "rb") as handle:
        assert handle.readline() == b"#!/usr/bin/env python3\n"
    assert os.stat(str(path)).st_mode & 0o111


@pytest.fixture(scope="module")
def read_only_prefix():
    """How to run a command with a given directory read-only: chmod for a normal user; for root
    (who ignores permission bits) a private mount namespace with a read-only bind mount."""
    if os.geteuid() != 0:
        return None
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("running as root without unshare: cannot make a read-only HOME")
    probe_dir = Path(os.environ.get("TMPDIR", "/tmp"))
    prefix = [unshare, "-m", "--propagation", "private", "sh", "-c", MOUNT_READ_ONLY]
    probe = subprocess.run(prefix + [str(probe_dir), "true"], stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if probe.returncode != 0:
        pytest.skip("running as root where mount namespaces are not allowed: cannot make a "
                    "read-only HOME (%s)" % probe.stderr.decode(errors="replace").strip())
    return prefix


@platforms.PERMISSIONS
@pytest.mark.slow
@pytest.mark.parametrize("python", each_python())
def test_runs_with_a_read_only_home(python, pyz, tmp_path, read_only_prefix):
    home = tmp_path / "home"
    home.mkdir()
    temp = tmp_path / "tmp"
    temp.mkdir()
    if read_only_prefix is None:
        os.chmod(str(home), 0o555)
        prefix = ()
    else:
        prefix = tuple(read_only_prefix) + (str(home),)
    try:
        result = run([python, pyz, "--version"], bare_env(HOME=home, TMPDIR=temp), prefix=prefix)
    finally:
        os.chmod(str(home), 0o755)
    assert_version_ran(result)
    assert os.listdir(str(home)) == []
    unpacked = temp / ("adrkit-mcp-%d" % os.geteuid()) / ("%s_%s" % (pyz.name, build_id(pyz)))
    assert (unpacked / "site-packages" / "adrkit_mcp.py").is_file()
    assert oct(os.stat(str(unpacked.parent)).st_mode & 0o777) == oct(0o700)


@platforms.HOME_ACCOUNT
@pytest.mark.slow
@pytest.mark.parametrize("python", each_python())
def test_runs_without_home(python, pyz, tmp_path):
    temp = tmp_path / "tmp"
    temp.mkdir()
    name = "%s_%s" % (pyz.name, build_id(pyz))
    account_home = pwd.getpwuid(os.geteuid()).pw_dir
    candidates = [Path(account_home) / ".cache" / "adrkit-mcp" / name,
                  temp / ("adrkit-mcp-%d" % os.geteuid()) / name]
    try:
        result = run([python, pyz, "--version"], bare_env(TMPDIR=temp))
        assert_version_ran(result)
        assert any((path / "site-packages" / "adrkit_mcp.py").is_file() for path in candidates)
    finally:  # the account's real cache may have been used: remove exactly what this test made
        for path in candidates:
            shutil.rmtree(str(path), ignore_errors=True)
            lock = path.parent / (".%s_lock" % path.name)
            if lock.exists():
                lock.unlink()
            try:
                path.parent.rmdir()  # only if now empty
            except OSError:
                pass


def _tag(python):
    return "cpython-" + pythons.version_of(python).replace(".", "")


def _first_run_adds_only_its_bytecode(before, after, tag):
    """A second interpreter's first run adds its own .pyc files (and touches the folders that
    receive them and the unpacking lock), nothing else."""
    assert not set(before) - set(after), "files vanished"
    added = sorted(set(after) - set(before))
    assert any(path.endswith("/adrkit_mcp.%s.pyc" % tag) for path in added), added
    assert all(path.endswith(".%s.pyc" % tag) for path in added), added
    for path in set(before) & set(after):
        if before[path] != after[path]:
            assert stat.S_ISDIR(after[path][0]) or path.endswith("_lock"), path


@pytest.mark.slow
def test_later_runs_write_nothing(pyz, tmp_path):
    cache = tmp_path / "cache"
    env = bare_env(HOME=tmp_path / "home", XDG_CACHE_HOME=cache)
    found = pythons.found() or [Path(sys.executable)]
    assert_version_ran(run([found[0], pyz, "--version"], env))
    state = tree(tmp_path)
    # The one-time unpacking compiles the bytecode of the first interpreter, and only that.
    compiled = [path for path in state if path.endswith(".pyc")]
    assert any(path.endswith("/adrkit_mcp.%s.pyc" % _tag(found[0])) for path in compiled)
    assert all(path.endswith(".%s.pyc" % _tag(found[0])) for path in compiled), compiled
    # Every other interpreter adds its own bytecode on its first run, once, then writes nothing.
    for python in found[1:]:
        assert_version_ran(run([python, pyz, "--version"], env))
        after = tree(tmp_path)
        _first_run_adds_only_its_bytecode(state, after, _tag(python))
        state = after
        assert_version_ran(run([python, pyz, "--version"], env))
        assert tree(tmp_path) == state, "a later run on %s wrote something" % python
    for python in found:
        assert_version_ran(run([python, pyz, "--version"], env))
        assert tree(tmp_path) == state, "a later run on %s wrote something" % python


@pytest.mark.slow
def test_a_second_interpreter_compiles_once_even_when_started_together(pyz, tmp_path):
    found = pythons.found()
    if len(found) < 2:
        pytest.skip(pythons.too_few())
    env = bare_env(HOME=tmp_path / "home", XDG_CACHE_HOME=tmp_path / "cache")
    assert_version_ran(run([found[0], pyz, "--version"], env))
    processes = [subprocess.Popen([str(found[1]), str(pyz), "--version"], env=env, cwd="/",
                                  stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, universal_newlines=True)
                 for _ in range(4)]
    for process in processes:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0 and out.strip() and not err, err
    state = tree(tmp_path)
    tag = _tag(found[1])
    assert [path for path in state if path.endswith("/adrkit_mcp.%s.pyc" % tag)]
    assert not [path for path in state if ".tmp" in path or path.endswith(".pyc.tmp")]
    assert_version_ran(run([found[1], pyz, "--version"], env))
    assert tree(tmp_path) == state


@pytest.mark.slow
@pytest.mark.parametrize("use_shiv_root", [True, False], ids=["SHIV_ROOT", "default-root"])
def test_concurrent_first_runs(pyz, tmp_path, use_shiv_root):
    root = tmp_path / "root"
    if use_shiv_root:
        env = bare_env(HOME=tmp_path / "home", SHIV_ROOT=root)
    else:
        env = bare_env(HOME=tmp_path / "home", XDG_CACHE_HOME=tmp_path / "xdg")
        root = tmp_path / "xdg" / "adrkit-mcp"
    python = pythons.find("3.9") or Path(sys.executable)
    processes = [subprocess.Popen([str(python), str(pyz), "--version"], env=env, cwd="/",
                                  stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, universal_newlines=True)
                 for _ in range(4)]
    for process in processes:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
        assert out.strip()
    entries = sorted(os.listdir(str(root)))
    name = "%s_%s" % (pyz.name, build_id(pyz))
    assert entries == [".%s_lock" % name, name], entries  # one copy, no .tmp left behind


@pytest.mark.slow
def test_first_run_waits_for_the_unpacking_lock(pyz, tmp_path):
    fcntl = pytest.importorskip("fcntl")
    root = tmp_path / "root"
    root.mkdir()
    name = "%s_%s" % (pyz.name, build_id(pyz))
    lock = root / (".%s_lock" % name)
    descriptor = os.open(str(lock), os.O_RDWR | os.O_CREAT)
    fcntl.flock(descriptor, fcntl.LOCK_EX)
    os.write(descriptor, b"held")
    try:
        process = subprocess.Popen([sys.executable, str(pyz), "--version"],
                                   env=bare_env(HOME=tmp_path, SHIV_ROOT=root), cwd="/",
                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, universal_newlines=True)
        # shiv opens the lock file with O_TRUNC before each non-blocking flock (which cannot
        # succeed while we hold it), then closes it and tries again: an emptied file is the lasting
        # sign that the child has reached the lock (its descriptor is open for microseconds only,
        # too short to be seen reliably in /proc). From here on it can only wait or fail.
        assert support.wait_until(lambda: os.fstat(descriptor).st_size == 0 or process.poll() is not None,
                                  seconds=120)
        assert process.poll() is None, "did not wait for the lock"
        assert not (root / name).exists()
    finally:
        fcntl.flock(descriptor, fcntl.LOCK_UN)
        os.close(descriptor)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert (root / name / "site-packages" / "adrkit_mcp.py").is_file()


@pytest.mark.slow
def test_config_from_the_pyz_names_the_pyz(pyz, tmp_path):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    env = bare_env(HOME=tmp_path / "home", XDG_CACHE_HOME=tmp_path / "cache")
    result = run([sys.executable, pyz, "config", "claude-desktop", "--cwd", repo], env)
    assert result.returncode == 0, result.stderr
    entry = json.loads(result.stdout)["mcpServers"]["adrkit"]
    assert entry["command"] == os.path.abspath(sys.executable)
    assert entry["args"] == [str(pyz)]
    assert entry["env"]["ADRKIT_MCP_CWD"] == os.path.realpath(str(repo))


@pytest.mark.slow
def test_startup_bench_reports_every_python(pyz, tmp_path):
    found = pythons.found()
    if len(found) < 2:
        pytest.skip(pythons.too_few("bench/startup.py"))
    out = tmp_path / "startup.json"
    result = subprocess.run([sys.executable, str(PROJECT / "bench" / "startup.py"), "--pyz",
                             str(pyz), "--runs", "1", "--json", str(out)]
                            + ["--python=%s" % python for python in found],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, universal_newlines=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    rows = json.loads(out.read_text(encoding="utf-8"))
    assert [row["python"] for row in rows] == [minor for minor in pythons.minors() if pythons.find(minor)]
    for row in rows:
        assert row["unpacked_by"] != row["interpreter"] and not row["later_starts_wrote"]
        assert "| %s | %s |" % (row["python"], row["unpacked_by_minor"]) in result.stdout
