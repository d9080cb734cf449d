"""`adrkit-mcp lint`, `graph` and `new`: what is ours around the reference's behaviour (ADR 0019).

Whether each output equals the reference CLI's is the recorded pack's business
(tests/test_cli_pack.py) and the differential tester's (tools/difftest.py --cli). Here: the
command line reader (Node's parseArgs, help anywhere), --cwd and the environment, `new` writing
its file whole and never over another (also where the file system has no hard links), the
listing in the server's --help, and one run of the real program as a process.
"""

import errno
import json
import os
import pathlib
import shutil
import subprocess
import tempfile

import pytest

import _platforms as platforms
import _support as support

M = support.M
HIDDEN = ("ADRKIT_MCP_CWD", "ADRKIT_MCP_DIR", "ADRKIT_MCP_FROM")


def run(args, cwd, env=None):
    with support.working_directory():
        saved = {name: os.environ.get(name) for name in (env or {})}
        os.environ.update(env or {})
        try:
            return support.run_main(args, cwd, hidden=[name for name in HIDDEN if name not in (env or {})])
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value


@pytest.fixture
def repo(tmp_path):
    adr = tmp_path / "repo" / "docs" / "adr"
    adr.mkdir(parents=True)
    (adr / "0001-first.md").write_text(support.record_text("0001", "First decision"), encoding="utf-8")
    (adr / "0002-second.md").write_text(
        support.record_text("0002", "Second decision", extra='supersedes: ["0001"]\n'), encoding="utf-8")
    return tmp_path / "repo"


def test_parse_args_reads_as_node_does():
    kinds = {"json": "boolean", "dir": "string"}
    assert M.JS.parse_args(["a", "--json", "--dir=x=y", "--", "--json"], kinds) == (
        {"json": True, "dir": "x=y"}, ["a", "--json"])
    assert M.JS.parse_args(["--dir", "-", "-"], kinds) == ({"dir": "-"}, ["-"])
    for args, message in (
            (["--dir", "--json"], "Option '--dir' argument is ambiguous.\nDid you forget to specify the option "
                                  "argument for '--dir'?\nTo specify an option argument starting with a dash use "
                                  "'--dir=-XYZ'."),
            (["--json=1"], "Option '--json' does not take an argument"),
            (["--dir"], "Option '--dir <value>' argument missing"),
            (["-abc"], "Unknown option 'a'. To specify a positional argument starting with a '-', place it at "
                       "the end of the command after '--', as in '-- \"a\""),
            (["--=x"], "Unknown option '--=x'. To specify a positional argument starting with a '-', place it "
                       "at the end of the command after '--', as in '-- \"--=x\"")):
        with pytest.raises(M.JS.ParseArgsError) as caught:
            M.JS.parse_args(args, kinds)
        assert str(caught.value) == message


def test_help_anywhere_prints_the_commands_help(repo):
    for args in (["lint", "--help"], ["graph", "x", "-h"], ["new", "--", "--help"], ["lint", "--bogus", "-h"]):
        status, out, err = run(args, repo)
        assert (status, err) == (0, "")
        assert out == M.CLI_HELP[args[0]]
        assert out.startswith("Usage: adrkit-mcp %s " % args[0]) and "\n  --cwd <path> " in out


def test_usage_errors_give_the_reference_sentence_in_our_frame(repo):
    status, out, err = run(["graph", "--format", "svg"], repo)
    assert (status, out) == (2, "")
    assert err == ("usage: adrkit-mcp graph [--format dot|json] [--cwd PATH] [--dir PATH]\n"
                   "adrkit-mcp graph: error: adr graph --format must be dot or json\n"
                   "Try 'adrkit-mcp graph --help' for more information.\n")
    assert run(["lint", "--cwd", ""], repo)[:2] == (2, "")


def test_the_server_help_lists_the_commands(repo):
    status, out, _ = run(["--help"], repo)
    assert status == 0
    for name in ("lint", "graph", "new"):
        assert "\n  %-8s " % name in out


def test_cwd_and_the_environment_stand_in_for_the_folder(repo, tmp_path):
    status, out, _ = run(["lint", "--cwd", str(repo)], tmp_path)
    assert (status, out) == (0, "checked 2 records, 0 errors, 0 warnings\n")
    status, out, _ = run(["graph", "--format", "json"], tmp_path, env={"ADRKIT_MCP_CWD": str(repo)})
    assert [node["id"] for node in json.loads(out)["nodes"]] == ["0001", "0002"]
    (repo / "elsewhere").mkdir()
    status, out, _ = run(["lint"], repo, env={"ADRKIT_MCP_DIR": "elsewhere"})
    assert (status, out) == (0, "checked 0 records, 0 errors, 0 warnings\n")
    status, out, err = run(["lint", "--cwd", str(repo / "nowhere")], tmp_path)
    assert (status, out) == (2, "")
    assert err == "adrkit-mcp lint: --cwd %s is not a folder to run in\n" % (repo / "nowhere")


def _names(folder):
    return sorted(os.listdir(str(folder)))


def test_new_writes_one_whole_file_and_leaves_nothing_else(repo):
    status, out, err = run(["new", "Use", "a", "queue", "--json"], repo)
    assert (status, err) == (0, "")
    assert json.loads(out) == {"id": "0003", "path": "docs/adr/0003-use-a-queue.md"}
    assert _names(repo / "docs" / "adr") == ["0001-first.md", "0002-second.md", "0003-use-a-queue.md"]
    text = (repo / "docs" / "adr" / "0003-use-a-queue.md").read_text(encoding="utf-8")
    assert text.startswith('---\nschemaVersion: 0.1.0\nid: "0003"\ntitle: "Use a queue"\nstatus: draft\n')
    assert run(["lint"], repo)[:2] == (0, "checked 3 records, 0 errors, 0 warnings\n")


def test_new_never_replaces_what_is_there(repo):
    target = repo / "docs" / "adr" / "0003-taken.md"
    target.mkdir()
    status, out, err = run(["new", "Taken"], repo)
    assert (status, out) == (1, "")
    assert err == "Refusing to overwrite existing ADR file docs/adr/0003-taken.md\n"
    assert target.is_dir() and _names(target) == []
    assert _names(repo / "docs" / "adr") == ["0001-first.md", "0002-second.md", "0003-taken.md"]


def test_new_without_hard_links_creates_the_name_exclusively(repo, monkeypatch):
    def no_links(source, target):
        raise OSError(errno.EPERM, "Operation not permitted")
    monkeypatch.setattr(os, "link", no_links)
    status, out, _ = run(["new", "No links here"], repo)
    assert (status, out) == (0, "docs/adr/0003-no-links-here.md\n")
    assert _names(repo / "docs" / "adr") == ["0001-first.md", "0002-second.md", "0003-no-links-here.md"]
    assert "id: \"0003\"" in (repo / "docs" / "adr" / "0003-no-links-here.md").read_text(encoding="utf-8")
    (repo / "docs" / "adr" / "0004-again.md").symlink_to("nowhere.md")
    status, _, err = run(["new", "Again"], repo)
    assert (status, err) == (1, "Refusing to overwrite existing ADR file docs/adr/0004-again.md\n")
    assert os.path.islink(str(repo / "docs" / "adr" / "0004-again.md"))


@platforms.PERMISSIONS
def test_new_in_a_folder_it_may_not_write_writes_nothing():
    base = tempfile.mkdtemp(prefix="adrkit-cli-")  # pytest's own folders are 0700: uid 65534 may not enter
    try:
        _new_in_a_locked_folder(pathlib.Path(base))
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _new_in_a_locked_folder(base):
    os.chmod(str(base), 0o755)
    repo = base / "repo"
    folder = repo / "docs" / "adr"
    folder.mkdir(parents=True)
    for name, ident in (("0001-first.md", "0001"), ("0002-second.md", "0002")):
        (folder / name).write_text(support.record_text(ident, "A decision"), encoding="utf-8")
    if os.geteuid() == 0:
        with support.working_directory():
            support.run_main(["new", "--help"], repo)  # load what the run needs before the drop
        for path in [repo, repo / "docs", folder] + list(folder.iterdir()):
            os.chown(str(path), support.NOBODY, support.NOBODY)
    folder.chmod(0o555)
    try:
        with support.working_directory():
            if os.geteuid() == 0:
                status, out, err = support.run_unprivileged(lambda: support.run_main(["new", "Locked out"], repo,
                                                                                     hidden=HIDDEN))
            else:
                status, out, err = support.run_main(["new", "Locked out"], repo, hidden=HIDDEN)
    finally:
        folder.chmod(0o755)
    assert (status, out) == (1, "")
    assert err == "EACCES: permission denied, open '%s'\n" % (folder / "0003-locked-out.md")
    assert _names(folder) == ["0001-first.md", "0002-second.md"]


def test_the_program_runs_the_commands_as_a_process(repo):
    """The module as a program: the same bytes as in-process, and lint's findings on stderr."""
    (repo / "docs" / "adr" / "0003-broken.md").write_text("no fence\n", encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if key not in HIDDEN}
    child = subprocess.run([support.SERVER_PYTHON, support.MODULE_PATH, "lint"], cwd=str(repo), env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    assert child.returncode == 1
    assert child.stdout == b"checked 3 records, 1 errors, 0 warnings\n"
    assert child.stderr == (b"docs/adr/0003-broken.md\n  error frontmatter-fence frontmatter: ADR files must "
                            b"start with a leading --- YAML frontmatter fence\n")


def test_the_readme_examples_are_the_programs_output(tmp_path):
    """The README's lint, graph and new examples: the program's output on the folder they name."""
    adr = tmp_path / "docs" / "adr"
    adr.mkdir(parents=True)
    (adr / "0001-use-postgresql-for-orders.md").write_text(
        '---\nid: "0001"\ntitle: Use PostgreSQL for orders\nstatus: accepted\ndate: "2025-03-01"\n'
        'deciders: ["@alice"]\n---\nOrders live in PostgreSQL.\n', encoding="utf-8")
    (adr / "0002-use-kafka-for-order-events.md").write_text(
        '---\nid: "0002"\ntitle: Use Kafka for order events\nstatus: proposed\ndate: "2025-04-02"\n'
        'relatesTo: ["0001"]\nsupersedes: ["0009"]\n---\nEvents go through Kafka.\n', encoding="utf-8")
    with open(os.path.join(support.REPO_ROOT, "README.md"), encoding="utf-8") as handle:
        readme = handle.read()
    status, out, err = run(["lint"], tmp_path)
    assert status == 1
    assert "```\n%s%s```\n" % (err, out) in readme
    status, out, _ = run(["graph"], tmp_path)
    assert status == 0 and "```\n%s```\n" % out in readme
    status, out, _ = run(["new", "Cache order totals"], tmp_path)
    assert status == 0 and "```\n%s```\n" % out in readme
