"""The release (.github/workflows/release.yml) and docs/RELEASING.md, run where they can be:

* the tag and owner checks come first, before anything is installed or built
  (tools/server_json.py --tag --owner, which refuses either one wrong);
* PyPI before the public GitHub release, which reads PyPI's files back and stops unless they are
  the sdist and wheel of SHA256SUMS; every job can be re-run;
* mcp-publisher runs only when its archive has the pinned SHA-256: the install step, run here with
  a stand-in `curl`, refuses an empty, malformed or different value before unpacking anything;
* RELEASING.md's steps follow the workflow's order, and its rebuild recipe names the release's
  Python and, run on it, rebuilds every file SHA256SUMS lists byte for byte: the recipe and the
  release workflow's own build steps both run here, from the same tagged commit, and must agree.
"""

import hashlib
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
import yaml

import _platforms as platforms  # why a test cannot hold on a platform
import _pythons as pythons

PROJECT = Path(__file__).resolve().parent.parent
RELEASE = PROJECT / ".github" / "workflows" / "release.yml"
RELEASING = PROJECT / "docs" / "RELEASING.md"
SERVER_JSON = PROJECT / "tools" / "server_json.py"
BUILD_STEPS = ("Build tools, pinned", "Build everything twice", "server.json with the bundle's SHA-256",
               "SHA256SUMS")


def workflow():
    return yaml.safe_load(RELEASE.read_text(encoding="utf-8"))


def step(job, name):
    (found,) = [entry for entry in workflow()["jobs"][job]["steps"] if entry.get("name") == name]
    return found


def run_step(job, name, cwd, env):
    """A step's `run` as GitHub runs it (bash -eo pipefail), in its working directory."""
    entry = step(job, name)
    folder = Path(cwd) / entry.get("working-directory", ".")
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", entry["run"]],
                          cwd=str(folder), env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True, timeout=1800)


def version_and_owner():
    spec = importlib.util.spec_from_file_location("adrkit_server_json_release", str(SERVER_JSON))
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool.module_version(), tool.github_owner()


def stand_ins(folder, **scripts):
    """A folder of stand-in commands (name -> sh script) for the front of PATH."""
    folder.mkdir(exist_ok=True)
    for name, body in scripts.items():
        path = folder / name
        path.write_text("#!/bin/sh\n" + body, encoding="utf-8")
        path.chmod(0o755)
    return str(folder)


# ---- the order and the first checks ----------------------------------------------------------

def test_the_tag_and_the_owner_are_checked_first():
    (build,) = [job for name, job in workflow()["jobs"].items() if name == "build"]
    runs = [entry for entry in build["steps"] if "run" in entry]
    assert runs[0]["run"].split() == ["python3", "tools/server_json.py", "--tag", '"$GITHUB_REF_NAME"',
                                      "--owner", '"$GITHUB_REPOSITORY_OWNER"']
    before = build["steps"][:build["steps"].index(runs[0])]
    assert [entry["uses"].split("@")[0] for entry in before] == ["actions/checkout", "actions/setup-python"]


@pytest.mark.parametrize("tag,owner,status", [
    ("v{version}", "{owner}", 0), ("v{version}", "{OWNER}", 0), ("v0.0.0-not", "{owner}", 1),
    ("{version}", "{owner}", 1), ("v{version}", "someone-else", 1)])
def test_the_check_refuses_a_wrong_tag_or_owner(tag, owner, status):
    version, real_owner = version_and_owner()
    values = {"version": version, "owner": real_owner, "OWNER": real_owner.upper()}
    done = subprocess.run([sys.executable, str(SERVER_JSON), "--tag", tag.format(**values),
                           "--owner", owner.format(**values)], stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                          timeout=60)
    assert done.returncode == status, done.stdout + done.stderr
    assert (done.stderr == "") == (status == 0)


def test_pypi_comes_before_the_public_release_and_every_job_can_run_again():
    jobs = workflow()["jobs"]
    assert list(jobs) == ["build", "pypi", "github-release", "mcp-registry"]
    assert jobs["pypi"]["needs"] == "build"
    assert jobs["github-release"]["needs"] == ["build", "pypi"]
    (publish,) = [entry for entry in jobs["pypi"]["steps"] if "pypi-publish" in entry.get("uses", "")]
    assert publish["with"]["skip-existing"] is True
    create = step("github-release", "Create the release with every file and SHA256SUMS (or complete "
                                    "it on a re-run)")["run"]
    assert "gh release view" in create and "gh release upload" in create and "--clobber" in create
    names = [entry.get("name", "") for entry in jobs["github-release"]["steps"]]
    assert names.index("PyPI holds exactly this sdist and wheel") < names.index(
        "Create the release with every file and SHA256SUMS (or complete it on a re-run)")


def test_releasing_md_walks_the_jobs_in_the_workflows_order():
    text = RELEASING.read_text(encoding="utf-8")
    each = text[text.index("## Each release"):text.index("## Rebuilding a release yourself")]
    jobs = re.findall(r"^\d+\. \*\*([\w-]+)\*\* job", each, re.M)
    assert jobs == ["build", "build", "pypi", "github-release", "mcp-registry"]
    numbers = [int(number) for number in re.findall(r"^(\d+)\. \*\*", each, re.M)]
    assert numbers == list(range(1, len(numbers) + 1))
    first = re.search(r"^3\. \*\*build\*\* job, first step: (.*?)^4\. ", each, re.M | re.S).group(1)
    assert "tools/server_json.py --tag" in first and "before anything is installed" in first


# ---- the steps that guard publishing, run with stand-in commands -----------------------------

def publisher_archive(folder):
    """A stand-in mcp-publisher_linux_amd64.tar.gz (an `mcp-publisher` that answers --help)."""
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w:gz") as archive:
        body = b"#!/bin/sh\necho stand-in publisher\n"
        info = tarfile.TarInfo("mcp-publisher")
        info.size, info.mode = len(body), 0o755
        archive.addfile(info, io.BytesIO(body))
    path = folder / "served.tar.gz"
    path.write_bytes(data.getvalue())
    return path


@platforms.RELEASE_STEPS
@pytest.mark.parametrize("pin", ["right", "empty", "different", "short"])
def test_mcp_publisher_runs_only_with_its_pinned_sha256(tmp_path, pin):
    served = publisher_archive(tmp_path)
    right = hashlib.sha256(served.read_bytes()).hexdigest()
    values = {"right": right, "empty": "", "different": "0" * 64, "short": right[:40]}
    work = tmp_path / "job"
    work.mkdir()
    log = tmp_path / "curl.log"
    # curl -fsSL -o FILE URL: the stand-in copies the served archive to FILE and logs the URL.
    curl = 'echo "$4" >> "%s"\ncp "%s" "$3"\n' % (log, served)
    env = dict(os.environ, PATH=stand_ins(tmp_path / "bin", curl=curl) + os.pathsep + os.environ["PATH"],
               MCP_PUBLISHER_VERSION=workflow()["env"]["MCP_PUBLISHER_VERSION"],
               MCP_PUBLISHER_SHA256=values[pin])
    done = run_step("mcp-registry", "Install mcp-publisher", work, env)
    if pin == "right":
        assert done.returncode == 0 and (work / "mcp-publisher").is_file(), done.stdout
        assert log.read_text().split() == [
            "https://github.com/modelcontextprotocol/registry/releases/download/%s/"
            "mcp-publisher_linux_amd64.tar.gz" % env["MCP_PUBLISHER_VERSION"]]
    else:
        assert done.returncode == 1 and not (work / "mcp-publisher").exists(), done.stdout
        assert "::error::" in done.stdout
        assert log.exists() == (pin == "different")  # a malformed pin stops before downloading


def test_the_pinned_mcp_publisher_sha256_is_a_sha256():
    assert re.fullmatch(r"[0-9a-f]{64}", workflow()["env"]["MCP_PUBLISHER_SHA256"])


@platforms.RELEASE_STEPS
@pytest.mark.parametrize("pypi_has", ["the same", "another wheel", "the sdist only"])
def test_the_github_release_waits_for_pypi_to_hold_exactly_the_built_files(tmp_path, pypi_has):
    release = tmp_path / "job" / "release"
    release.mkdir(parents=True)
    files = {"adrkit_mcp-9.9.9.tar.gz": b"sdist", "adrkit_mcp-9.9.9-py3-none-any.whl": b"wheel",
             "adrkit-mcp.pyz": b"pyz", "server.json": b"{}"}
    for name, data in files.items():
        (release / name).write_bytes(data)
    sums = ["%s  %s" % (hashlib.sha256(data).hexdigest(), name) for name, data in sorted(files.items())]
    (release / "SHA256SUMS").write_text("\n".join(sums) + "\n", encoding="utf-8")
    answer = {name: hashlib.sha256(data).hexdigest() for name, data in files.items()
              if name.endswith((".tar.gz", ".whl"))}
    if pypi_has == "another wheel":
        answer["adrkit_mcp-9.9.9-py3-none-any.whl"] = "1" * 64
    elif pypi_has == "the sdist only":
        del answer["adrkit_mcp-9.9.9-py3-none-any.whl"]
    document = tmp_path / "pypi.json"
    document.write_text(json.dumps({"urls": [{"filename": name, "digests": {"sha256": digest}}
                                             for name, digest in answer.items()]}), encoding="utf-8")
    log = tmp_path / "asked.log"
    bin_dir = stand_ins(tmp_path / "bin", curl='echo "$4" >> "%s"\ncp "%s" "$3"\n' % (log, document),
                        sleep="exit 0\n")
    env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ["PATH"], GITHUB_REF_NAME="v9.9.9")
    done = run_step("github-release", "PyPI holds exactly this sdist and wheel", tmp_path / "job", env)
    assert done.returncode == (0 if pypi_has == "the same" else 1), done.stdout
    asked = log.read_text().split()
    assert set(asked) == {"https://pypi.org/pypi/adrkit-mcp/9.9.9/json"}
    assert len(asked) == (1 if pypi_has == "the same" else 20)  # asks again, then gives up


# ---- the rebuild recipe ------------------------------------------------------------------------

def release_python():
    build = workflow()["jobs"]["build"]
    (setup,) = [entry for entry in build["steps"] if entry.get("uses", "").startswith("actions/setup-python@")]
    return setup["with"]["python-version"]


def recipe():
    text = RELEASING.read_text(encoding="utf-8")
    section = text[text.index("## Rebuilding a release yourself"):]
    return section, re.search(r"```sh\n(.*?)```", section, re.S).group(1)


def test_the_recipe_names_the_releases_python():
    section, commands = recipe()
    assert "with Python %s, the release's" % release_python() in section
    assert "python%s -m venv" % release_python() in commands
    for needed in ("SOURCE_DATE_EPOCH", "tools/build-constraints.txt", "pyproject-build --sdist --wheel",
                   "tools/reproducible_sdist.py", "build.py --output", "tools/server_json.py --release",
                   "sha256sum --check /path/to/SHA256SUMS"):
        assert needed in commands, needed
    assert "--ignore-missing" not in commands  # every file SHA256SUMS lists is rebuilt


def test_the_release_build_installs_the_build_tools_alone():
    """The build job and the recipe install requirements-release.txt, which pins what a build
    runs (shiv, the PyPA frontend, twine) and nothing of the test suite's clients and checkers."""
    (install,) = [entry for entry in workflow()["jobs"]["build"]["steps"] if entry.get("name") == BUILD_STEPS[0]]
    assert install["run"].strip() == "python3 -m pip install -r requirements-release.txt"
    _, commands = recipe()
    assert "python3 -m pip install -r requirements-release.txt\n" in commands
    pinned = {re.split(r"[=;\s]", line)[0].lower() for line in (PROJECT / "requirements-release.txt")
              .read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")}
    assert pinned == {"shiv", "build", "twine"}


def tagged_source(target, version):
    """A repository holding this checkout's files (tracked, and new ones not ignored) in one
    commit tagged v<version>, as a release tag is."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=str(PROJECT), stdout=subprocess.PIPE, check=True, timeout=120).stdout
    for name in sorted(set(filter(None, listed.decode("utf-8").split("\0")))):
        if (PROJECT / name).is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(str(PROJECT / name), str(target / name))
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@example.org", GIT_AUTHOR_DATE="2026-01-02T03:04:05Z",
               GIT_COMMITTER_DATE="2026-01-02T03:04:05Z")
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "release"],
                    ["tag", "v" + version]):
        subprocess.run(["git"] + command, cwd=str(target), env=env, check=True, timeout=120,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    return target


@platforms.RELEASE_STEPS
@pytest.mark.slow
def test_the_recipe_rebuilds_every_file_the_release_lists(tmp_path):
    minor = release_python()
    python = pythons.find(minor)
    if python is None:
        pytest.skip(pythons.reason(minor))
    if not (PROJECT / ".git").exists():
        pytest.skip("not a git checkout: the recipe and the release build from a tagged commit")
    version, owner = version_and_owner()
    source = tagged_source(tmp_path / "source", version)
    for clone in ("release", "recipe"):
        subprocess.run(["git", "clone", "-q", str(source), str(tmp_path / clone)], check=True, cwd=str(tmp_path),
                       timeout=120, stdin=subprocess.DEVNULL)
    # `python3.12` on the PATH is the interpreter found for it; the release job's `python3` and
    # `pyproject-build` are those of the environment the recipe makes (../rebuild-venv).
    shim = tmp_path / "shim"
    shim.mkdir()
    (shim / ("python" + minor)).symlink_to(str(python))
    venv = tmp_path / "rebuild-venv"
    subprocess.run([str(python), "-m", "venv", str(venv)], check=True, timeout=300)
    base = {key: value for key, value in os.environ.items() if key not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env = dict(base, PATH=os.pathsep.join([str(venv / "bin"), str(shim), base["PATH"]]),
               GITHUB_REF_NAME="v" + version, GITHUB_REPOSITORY_OWNER=owner)
    for name in BUILD_STEPS:
        done = run_step("build", name, tmp_path / "release", env)
        assert done.returncode == 0, "%s:\n%s" % (name, done.stdout[-6000:])
    sums = tmp_path / "release" / "release" / "SHA256SUMS"
    listed = sorted(line.split()[1] for line in sums.read_text(encoding="utf-8").splitlines())
    assert len(listed) == 5 and "server.json" in listed, listed

    _, commands = recipe()
    script = (commands.replace("<version>", version).replace("<owner>", owner)
              .replace("/path/to/SHA256SUMS", str(sums)))
    env = dict(base, PATH=os.pathsep.join([str(shim), base["PATH"]]))
    done = subprocess.run(["bash", "-e", "-c", script], cwd=str(tmp_path / "recipe"), env=env,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, timeout=1800)
    assert done.returncode == 0, done.stdout[-6000:]
    assert all("%s: OK" % name in done.stdout for name in listed), done.stdout[-3000:]
    assert sorted(os.listdir(str(tmp_path / "recipe" / "out"))) == listed
