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
    assert "FAIL  legacy handshake (2025-11-25) failed (exit 3)" in "\n".join(report.lines)
    assert report.finish("1 record loads from docs/adr", "") == 1
    out = capsys.readouterr().out
    assert out.startswith("doctor: a client would not work: 1 record loads from docs/adr, but legacy "
                          "handshake (2025-11-25) failed (exit 3)"), out


# ---- doctor leads with its diagnosis (ADR 0022) ----------------------------------------------

ADRKIT_RECORD = '---\nid: "0001"\ntitle: Use a queue\nstatus: proposed\ndate: 2024-01-01\n---\n# Use a queue\n'
NYGARD = ("# 1. Record architecture decisions\n\nDate: 2024-03-04\n\n## Status\n\nAccepted\n\n"
          "## Context\n\nWe need to record the decisions made on this project.\n")
MADR3 = "---\nstatus: accepted\ndate: 2024-05-06\n---\n# Use PostgreSQL\n\n## Context\n\nOrders.\n"
MADR2 = "# Use Redis\n\n* Status: proposed\n* Date: 2024-05-06\n\n## Context and Problem Statement\n\nCache.\n"


def repository(tmp_path, files):
    """A repository (a .git folder) holding `files`: {relative path: text, or None for a folder}."""
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    for path, text in files.items():
        target = root / path
        if text is None:
            target.mkdir(parents=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
    return root


DOCTOR_CASES = {
    "empty": ({"docs/adr": None}, 1,
              "doctor: a client would not work: no record loads from docs/adr: the folder holds no Markdown file"),
    "missing": ({}, 1,
                "doctor: a client would not work: the ADR folder docs/adr does not exist in <root>"),
    "doc/adr": ({"doc/adr/0001-record-architecture-decisions.md": NYGARD}, 1,
                "doctor: a client would not work: the ADR folder docs/adr does not exist in <root>; your "
                "records seem to be in doc/adr: add --dir doc/adr"),
    "empty, records in docs/decisions": (
        {"docs/adr": None, "docs/decisions/0001-use-postgresql.md": MADR3}, 1,
        "doctor: a client would not work: no record loads from docs/adr: the folder holds no Markdown "
        "file; your records seem to be in docs/decisions: add --dir docs/decisions"),
    "madr": ({"docs/adr/0001-use-postgresql.md": MADR3, "docs/adr/0002-use-redis.md": MADR2}, 1,
             "doctor: a client would not work: no record loads from docs/adr: its Markdown reads as MADR or "
             "Nygard records, without adrkit frontmatter"),
    "nygard": ({"docs/adr/0001-record-architecture-decisions.md": NYGARD}, 1,
               "doctor: a client would not work: no record loads from docs/adr: its Markdown reads as MADR "
               "or Nygard records, without adrkit frontmatter"),
    "mixed": ({"docs/adr/0001-use-a-queue.md": ADRKIT_RECORD, "docs/adr/0002-use-redis.md": MADR2,
               "docs/adr/0003-record-architecture-decisions.md": NYGARD}, 0,
              "doctor: a client would work: 1 record loads from docs/adr; 2 more Markdown files there read "
              "as MADR or Nygard records the tools skip (two ways in below)"),
    "adrkit": ({"docs/adr/0001-use-a-queue.md": ADRKIT_RECORD}, 0,
               "doctor: a client would work: 1 record loads from docs/adr"),
}


@pytest.mark.parametrize("case", sorted(DOCTOR_CASES))
def test_doctor_leads_with_its_diagnosis(tmp_path, case):
    files, status, first = DOCTOR_CASES[case]
    root = repository(tmp_path, files)
    done = run("doctor", "--cwd", str(root))
    lines = done.stdout.decode().splitlines()
    assert done.returncode == status, lines
    assert lines[0] == first.replace("<root>", str(root)), lines
    assert lines[-1] == ("A client would not work yet: fix the FAIL lines above." if status else
                         "A client configured with --cwd %s --dir docs/adr would work." % root)
    assert ("would work" in lines[-1]) != bool(status) or "would not work" in lines[-1]
    if case in ("madr", "nygard", "mixed"):  # the two ways in come next, each with its records
        assert lines[1].endswith("which the tools skip for want of adrkit frontmatter. Two ways in:")
        assert lines[2].startswith("  --from madr ") and lines[3].startswith("  migrate --from madr ")
        count = {"madr": 2, "nygard": 1, "mixed": 3}[case]
        records = "%d record%s" % (count, "" if count == 1 else "s")
        assert ": %s (" % records in lines[2] and ": %s (" % records in lines[3], lines[2:4]
        assert "frontmatter-fence" not in done.stdout.decode()  # not one error per file


def test_doctor_on_a_root_that_cannot_be_used(tmp_path):
    done = run("doctor", "--cwd", str(tmp_path / "gone"))
    lines = done.stdout.decode().splitlines()
    assert done.returncode == 1
    assert lines[0] == "doctor: a client would not work: the repository root %s does not exist" % (tmp_path / "gone")
    (tmp_path / "plain").mkdir()
    done = run("doctor", "--cwd", str(tmp_path / "plain"))
    assert done.returncode == 1
    assert done.stdout.decode().splitlines()[0] == ("doctor: a client would not work: the repository root %s "
                                                    "is not the top of a Git work tree (it has no .git)"
                                                    % (tmp_path / "plain"))


def test_a_usual_folder_named_by_doctor_is_the_one_that_works(tmp_path):
    root = repository(tmp_path, {"docs/architecture/decisions/0001-use-a-queue.md": ADRKIT_RECORD})
    done = run("doctor", "--cwd", str(root))
    text = done.stdout.decode()
    assert done.returncode == 1
    assert "fix: the records seem to be in docs/architecture/decisions (1 Markdown file): run adrkit-mcp " \
           "doctor --dir docs/architecture/decisions" in text
    done = run("doctor", "--cwd", str(root), "--dir", "docs/architecture/decisions")
    assert done.returncode == 0, done.stdout.decode()


def test_doctor_finding_lines_name_the_field_and_the_bad_value(tmp_path):
    root = repository(tmp_path, {
        "docs/adr/0001-use-a-queue.md": ADRKIT_RECORD,
        "docs/adr/0002-bad-status.md": ADRKIT_RECORD.replace('"0001"', '"0002"').replace("proposed", "acceptedd"),
        "docs/adr/0003-no-title.md": ADRKIT_RECORD.replace('"0001"', '"0003"').replace("title: Use a queue\n", ""),
    })
    done = run("doctor", "--cwd", str(root))
    text = done.stdout.decode()
    assert done.returncode == 0, text  # one record loads: findings are reported, not failed on
    assert text.splitlines()[0] == ("doctor: a client would work: 1 record loads from docs/adr "
                                    "(2 findings: 2 errors)")
    assert '\nerror 1 invalid-enum-value finding:\n        docs/adr/0002-bad-status.md: status = "acceptedd": ' \
           'Invalid option: expected one of' in text
    assert "\nerror 1 required-field finding:\n        docs/adr/0003-no-title.md: title missing: " in text
    # One severity per line: no line labelled one way that says another in brackets.
    assert "(error)" not in text and "(warning)" not in text


def test_the_server_call_and_hook_name_the_path_and_the_fix(tmp_path):
    root = repository(tmp_path, {"doc/adr/0001-record-architecture-decisions.md": NYGARD})
    expected = ("adrkit-mcp: Configured ADR directory was not found: %s (the ADR folder docs/adr of the "
                "root %s); fix: create the folder, or pass the right one with --dir" % (root / "docs" / "adr", root))
    server = subprocess.run(support.module_command(MODULE, sys.executable) + ["--cwd", str(root)],
                            stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    call = run("call", "list_superseded", "{}", "--cwd", str(root))
    for done in (server, call):
        stderr = done.stderr.decode()
        assert done.returncode == 1 and done.stdout == b""
        assert stderr.startswith(expected), stderr
        assert stderr.rstrip().endswith("the records seem to be in doc/adr: try --dir doc/adr"), stderr
    gone = tmp_path / "gone"
    done = run("call", "list_superseded", "{}", "--cwd", str(gone))
    assert done.stderr.decode() == ("adrkit-mcp: Configured repository root was not found: %s; fix: pass "
                                    "the repository's path with --cwd (or $ADRKIT_MCP_CWD); a client started "
                                    "from another folder needs it absolute\n" % gone)


# ---- one vocabulary (ADR 0022) -----------------------------------------------------------------

def test_the_usage_line_lists_every_subcommand():
    sys.path.insert(0, REPO)
    from _support import M
    done = run("--bogus")
    usage = done.stderr.decode().split("\n")[1]
    assert usage.strip() == "adrkit-mcp {%s} ..." % ",".join(name for name, _, _ in M._SUBCOMMAND_HELP)
    assert sorted(usage.strip()[len("adrkit-mcp {"):-len("} ...")].split(",")) == sorted(M.SUBCOMMANDS)
    assert "migrate" in M.SUBCOMMANDS


def test_help_lists_every_environment_variable_the_module_reads():
    import ast
    import re
    with open(MODULE if MODULE.endswith(".py") else os.path.join(REPO, "adrkit_mcp.py"), encoding="utf-8") as handle:
        source = handle.read()
    # Not the .pyz entry point's functions: build.py copies them into the archive's own files, which
    # read where to unpack before the module runs (docs/PORTABILITY.md lists those variables).
    entry = [ast.get_source_segment(source, node) for node in ast.parse(source).body
             if getattr(node, "name", "").startswith(("_pyz_", "_Pyz"))]
    assert entry, "no .pyz entry function found"
    for text in entry:
        source = source.replace(text, "")
    read = set(re.findall(r'"(ADRKIT_MCP_[A-Z_]+)"', source)) | set(
        re.findall(r'environ(?:\.get)?[\[(]"([A-Z_]+)"', source))
    help_text = run("--help").stdout.decode()
    assert read and read >= {"ADRKIT_MCP_CWD", "ADRKIT_MCP_DIR", "ADRKIT_MCP_FROM", "ADRKIT_MCP_EXPOSE"}
    for name in sorted(read):
        assert re.search(r"^  %s " % name, help_text, re.M), name


def test_migrate_does_not_offer_the_environment_it_does_not_read():
    text = " ".join(run("migrate", "--help").stdout.decode().split())
    assert "default: $ADRKIT_MCP_FROM" not in text
    assert "($ADRKIT_MCP_FROM is not read here)" in text
    assert "(ADR-0008) is a record of the adrkit project, not one of adrkit-mcp's" in text


def test_help_cites_only_our_own_adrs():
    import re
    for command in ([], ["config"], ["doctor"], ["call"], ["hook"], ["migrate"]):
        text = run(*(command + ["--help"])).stdout.decode()
        for number in re.findall(r"ADRs? (\d{4})", text) + re.findall(r"ADRs? \d{4} and (\d{4})", text):
            assert [name for name in os.listdir(os.path.join(REPO, "docs", "adr")) if name.startswith(number)], \
                (command, number)


@pytest.mark.parametrize("given, format_", [("claude-code", "claude"), ("copilot-cli", "copilot"),
                                            ("claude", "claude"), ("copilot", "copilot")])
def test_hook_format_takes_the_ids_config_prints_and_the_short_ones(given, format_):
    sys.path.insert(0, REPO)
    from _support import M
    options = M._parse(["hook", "--format", given], "hook")
    assert options.format == format_
    assert given in run("hook", "--help").stdout.decode()


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
    # One record, so that a usable root is one a client would work with (doctor exits 1 on an
    # empty folder).
    (root / "docs" / "adr" / "0001-use-a-queue.md").write_text(ADRKIT_RECORD)
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
