"""The `call` and `doctor` subcommands, run as a user runs them: the real module in a child process
(through tests/_launch.py, which keeps its bytecode; the README's main job as the script itself)."""

import json
import os
import shutil
import subprocess
import sys

import pytest

import _support as support

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODULE = os.environ.get("ADRKIT_MCP_MODULE") or os.path.join(REPO, "adrkit_mcp.py")
CORPORA = os.path.join(REPO, "tests", "conformance", "corpora")


def run(*args, cwd=REPO, env=None, script=False):
    """`python3 adrkit_mcp.py ARGS` (script=True: the script path itself, compiled afresh)."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("ADRKIT_MCP_")}
    environment.update(env or {})
    command = (support.script_command if script else support.module_command)(MODULE, sys.executable)
    return subprocess.run(command + list(args), cwd=cwd, env=environment,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)


@pytest.fixture
def corpus(tmp_path):
    def make(name):
        root = tmp_path / name
        shutil.copytree(os.path.join(CORPORA, name), str(root))
        (root / ".git").mkdir()
        return root
    return make


def test_call_on_the_projects_own_corpus_is_the_readme_main_job():
    done = run("call", "get_decision_context", '{"files": ["adrkit_mcp.py"]}', script=True)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["result"]["outcome"] == "matches"
    governing = [entry["id"] for entry in result["result"]["governing"]]
    assert "0001" in governing
    assert result["result"]["findings"]["items"] == []  # our own ADRs are valid, zero findings
    assert result["corpusHealth"]["excludedCount"] == 0


def test_call_prints_indented_structured_json(corpus):
    root = corpus("lifecycle")
    done = run("call", "get_decision", '{"ref": "0001"}', "--cwd", str(root))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(b"{\n  ")
    assert json.loads(done.stdout)["result"]["decision"]["id"] == "0001"


def test_call_input_error_exits_1_with_the_reason_on_stderr(corpus):
    root = corpus("lifecycle")
    done = run("call", "search_decisions", '{"query": "x", "limit": 0}', "--cwd", str(root))
    assert done.returncode == 1
    assert done.stdout == b""
    assert b"limit must be an integer from 1 to 100" in done.stderr


def test_call_usage_errors_exit_2(corpus):
    root = corpus("lifecycle")
    assert run("call", "no_such_tool", "{}", "--cwd", str(root)).returncode == 2
    assert run("call", "get_decision", "{not json", "--cwd", str(root)).returncode == 2
    assert run("call", "get_decision", "--cwd", str(root)).returncode == 2
    assert run("call", "get_decision", "{}", "--bogus").returncode == 2


def test_call_unusable_root_exits_1(tmp_path):
    done = run("call", "list_superseded", "{}", "--cwd", str(tmp_path))
    assert done.returncode == 1
    assert b"is not a Git worktree" in done.stderr


def test_call_honours_the_environment(corpus):
    root = corpus("alt-layout")
    done = run("call", "list_superseded", "{}", env={"ADRKIT_MCP_CWD": str(root), "ADRKIT_MCP_DIR": "records"})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["corpusHealth"]["recordCount"] > 0


def test_doctor_passes_on_a_healthy_corpus_and_completes_both_handshakes():
    done = run("doctor")
    assert done.returncode == 0, done.stdout.decode() + done.stderr.decode()
    text = done.stdout.decode()
    assert "legacy handshake (2025-11-25): the child server answered and lists 4 tools" in text
    assert "modern server/discover + tools/list (2026-07-28): the child server answered" in text
    assert "would work" in text


def test_doctor_explains_findings_and_files_that_are_not_records(corpus):
    root = corpus("file-shapes")
    done = run("doctor", "--cwd", str(root))
    text = done.stdout.decode()
    assert done.returncode == 0, text  # findings do not stop a client from working
    assert "record-too-large" in text and "fix: keep each record under 64 KiB" in text
    assert "docs/adr/notes.md is not read as a record: its name is not NNNN-slug.md" in text
    assert "docs/adr/drafts/0624-nested-record.md is not read as a record: it is in a subfolder" in text
    assert "docs/adr/README.md is not read as a record: conventional documentation" in text


def test_doctor_fails_with_the_fix_for_an_unusable_configuration(tmp_path):
    (tmp_path / ".git").mkdir()
    done = run("doctor", "--cwd", str(tmp_path), "--dir", "nowhere")
    assert done.returncode == 1
    text = done.stdout.decode()
    assert "FAIL  Configured ADR directory was not found." in text
    assert "fix: create the folder" in text


def test_doctor_fails_when_the_child_server_cannot_start(monkeypatch, capsys):
    """The handshake step runs a real child; a command that cannot start must fail the check."""
    sys.path.insert(0, REPO)
    from _support import M
    report = M._Report()
    monkeypatch.setattr(M, "server_launch_command", lambda: [sys.executable, "-c", "import sys; sys.exit(3)"])
    options = M._parse(["doctor", "--cwd", REPO], "doctor")  # the options doctor runs with
    M._doctor_handshake(report, options, REPO, "docs/adr")
    assert report.failed
    assert "legacy handshake (2025-11-25) failed (exit 3)" in capsys.readouterr().out


# ---- one command line for every command: the same vector gives the same answer -------------

PING = b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n'
COMMANDS = {
    "server": [],
    "call": ["call", "list_superseded", "{}"],
    "doctor": ["doctor"],
    "config": ["config", "cursor"],
}
ROOT, MISSING = "<root>", "<missing>"
# (argument vector after the command, environment, exit status per command; one number = all).
# 1 means an unusable root or ADR folder; `config` only needs the root to be a directory (a
# missing ADR folder is a warning there, since the snippet may be written before the folder).
VECTORS = [
    (["--cwd", ROOT], {}, 0),
    (["--cwd=" + ROOT], {}, 0),
    (["--cwd", ROOT, "--dir", "docs/adr"], {}, 0),
    (["--cwd=" + ROOT, "--dir=docs/adr"], {}, 0),
    (["--dir", "nope", "--dir", "docs/adr", "--cwd", ROOT], {}, 0),  # the last one wins
    (["--cwd="], {}, 2),
    (["--cwd", ""], {}, 2),
    (["--dir="], {}, 2),
    (["--cwd"], {}, 2),
    (["--cwd", "--dir", "x"], {}, 2),  # a flag is never another flag's value
    (["--dir", "--cwd", ROOT], {}, 2),
    (["--cw", ROOT], {}, 2),  # no abbreviations
    (["--bogus"], {}, 2),
    (["-x"], {}, 2),
    (["--help=x"], {}, 2),
    (["--cwd", MISSING], {}, 1),
    (["--cwd", ROOT, "--dir", "nope"], {}, {"server": 1, "call": 1, "doctor": 1, "config": 0}),
    ([], {"ADRKIT_MCP_CWD": ROOT}, 0),
    ([], {"ADRKIT_MCP_CWD": MISSING}, 1),
    (["--cwd", ROOT], {"ADRKIT_MCP_CWD": MISSING}, 0),  # flags win over the environment
    (["--cwd", MISSING], {"ADRKIT_MCP_CWD": ROOT}, 1),
    (["--cwd", ROOT], {"ADRKIT_MCP_DIR": "nope"}, {"server": 1, "call": 1, "doctor": 1, "config": 0}),
    (["--cwd", ROOT, "--dir", "docs/adr"], {"ADRKIT_MCP_DIR": "nope"}, 0),
    ([], {"ADRKIT_MCP_CWD": "", "ADRKIT_MCP_DIR": ""}, 0),  # empty variables count as unset
]


@pytest.fixture(scope="module")
def vector_root(tmp_path_factory):
    root = tmp_path_factory.mktemp("vectors") / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "docs" / "adr").mkdir(parents=True)
    return root


def _fill(text, root, missing):
    return text.replace(ROOT, str(root)).replace(MISSING, str(missing))


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("vector,env,expected", VECTORS,
                         ids=["%s %s" % (" ".join(v), " ".join("%s=%s" % i for i in e.items()))
                              for v, e, _ in VECTORS])
def test_every_command_reads_the_command_line_alike(vector_root, tmp_path, command, vector, env,
                                                    expected):
    missing = tmp_path / "missing"
    args = COMMANDS[command] + [_fill(arg, vector_root, missing) for arg in vector]
    environment = {k: v for k, v in os.environ.items() if not k.startswith("ADRKIT_MCP_")}
    environment.update({k: _fill(v, vector_root, missing) for k, v in env.items()})
    # The working directory holds no repository, so the default root is never usable by
    # accident, except where the vector says the environment is empty.
    cwd = str(vector_root) if env.get("ADRKIT_MCP_CWD") == "" else str(tmp_path)
    done = subprocess.run(support.module_command(MODULE, sys.executable) + args, cwd=cwd, env=environment, input=PING,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    status = expected[command] if isinstance(expected, dict) else expected
    stderr = done.stderr.decode("utf-8", "replace")
    assert done.returncode == status, (args, stderr)
    assert "Traceback" not in stderr
    if status == 2:
        assert done.stdout == b"" and "usage: adrkit-mcp" in stderr, stderr
        assert "adrkit-mcp%s: error: " % ("" if command == "server" else " " + command) in stderr
    elif status == 1 and command in ("server", "call", "config"):
        assert done.stdout == b"" and stderr.strip(), stderr
    elif command == "server":
        assert done.stdout == b'{"jsonrpc":"2.0","id":1,"result":{}}\n'


@pytest.mark.parametrize("command", ["call", "doctor", "config"])
def test_a_subcommand_after_server_flags_is_refused(vector_root, command):
    done = run("--cwd", str(vector_root), *COMMANDS[command])
    assert done.returncode == 2 and done.stdout == b""
    assert b"give the subcommand first" in done.stderr


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_help_goes_to_stdout_and_exits_0(command):
    for flag in ("--help", "-h"):
        done = run(*(COMMANDS[command][:1] + [flag]))
        assert done.returncode == 0 and done.stderr == b""
        text = done.stdout.decode()
        assert text.startswith("usage: adrkit-mcp")
        for needle in ("--cwd PATH", "--dir PATH", "ADRKIT_MCP_CWD", "ADRKIT_MCP_DIR", "docs/adr",
                       "-h, --help"):
            assert needle in text, (command, needle)
