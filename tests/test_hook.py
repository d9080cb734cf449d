"""`adrkit-mcp hook`: Claude Code's PreToolUse hook, run as the real command on real events.

Every test spawns the command line (`python3 adrkit_mcp.py hook` through tests/_launch.py, which
keeps its bytecode; the script path itself where a configured command runs; or the .pyz build.py
makes) with
an event on stdin shaped as Claude Code sends it: the fields of BaseHookInput and
PreToolUseHookInput in @anthropic-ai/claude-agent-sdk 0.3.335 (session_id, transcript_path, cwd,
permission_mode, hook_event_name, tool_name, tool_input, tool_use_id) and each editing tool's
own input (sdk-tools.d.ts: FileEditInput, FileWriteInput, NotebookEditInput; MultiEdit's
file_path + edits as older releases send it). The output is checked against
tests/data/claude-code-hook-output.schema.json, written from the hooks reference, and against
our own rule: context only, never a permission decision or a block (ADR 0013). The other
agents' events and answers are tested in tests/test_hook_agents.py.

ADRKIT_TEST_MODULE=/path/to/adrkit_mcp.py tests another copy of the module.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from _child_env import child_env
import _support as support

PROJECT = Path(__file__).resolve().parent.parent
MODULE = Path(os.environ.get("ADRKIT_TEST_MODULE") or PROJECT / "adrkit_mcp.py").resolve()
COMMAND = support.module_command(MODULE, sys.executable)  # `python3 adrkit_mcp.py`, bytecode kept
SCHEMA = PROJECT / "tests" / "data" / "claude-code-hook-output.schema.json"
WORD_LIMIT = 300  # HOOK_WORD_LIMIT in the Contract section
MAX_EVENT_BYTES = 8 * 1024 * 1024  # HOOK_MAX_EVENT_BYTES
MATCHER = "Edit|Write|MultiEdit|NotebookEdit"

# (file, title, status, affects patterns, extra YAML lines)
RECORDS = (
    ("0001-validate-requests-at-the-edge.md", "Validate requests at the edge", "accepted",
     ["src/api/**"], ""),
    ("0002-switch-to-mongodb.md", "Switch search to MongoDB", "rejected",
     ["services/search/**"], ""),
    ("0003-cache-in-redis.md", "Cache sessions in Redis", "superseded",
     ["src/cache/**"], 'supersededBy: "0004"\n'),
    ("0004-cache-in-memory.md", "Cache sessions in process memory", "accepted",
     ["lib/memory/**"], 'supersedes: ["0003"]\n'),
    ("0005-keep-postgresql.md", "Keep PostgreSQL for the ledger", "accepted",
     ["src/db/**"], ""),
    ("0006-pool-through-a-proxy.md", "Pool connections through a proxy", "rejected",
     ["src/db/pool.ts"], ""),
    ("0007-one-pool-per-request.md", "Open one pool per request", "superseded",
     ["src/db/pool.ts"], 'supersededBy: "0005"\n'),
    ("0008-write-docs-in-any-script.md", "Write documentation in any script", "accepted",
     ["docs/naïve café/**"], ""),
    ("0009-keep-notebooks-small.md", "Keep notebooks under a megabyte", "accepted",
     ["notebooks/**"], ""),
    ("0010-sign-releases.md", "Sign every release", "proposed", ["release/**"], ""),
)


def record_text(ident, title, status, patterns, extra):
    lines = ["---", 'id: "%s"' % ident, "title: %s" % json.dumps(title), 'status: "%s"' % status,
             'date: "2026-01-05"', 'deciders: ["team:platform"]', "affects:"]
    lines += ['  - type: path\n    pattern: %s' % json.dumps(pattern, ensure_ascii=False)
              for pattern in patterns]
    return "\n".join(lines) + "\n" + extra + "---\nWhy we decided it.\n"


def write_records(root, records=RECORDS):
    folder = Path(root) / "docs" / "adr"
    folder.mkdir(parents=True, exist_ok=True)
    for name, title, status, patterns, extra in records:
        (folder / name).write_text(record_text(name[:4], title, status, patterns, extra),
                                   encoding="utf-8")


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    """A repository whose path has a space and a non-ASCII letter, with the records above."""
    top = support.spaced_repository(tmp_path_factory, "hook")
    write_records(top)
    return top


def base_env(**extra):
    env = {key: value for key, value in os.environ.items()
           if not key.startswith("ADRKIT_MCP_") and key != "CLAUDE_PROJECT_DIR"}
    env.update(extra)
    return env


def run_hook(event, args=(), cwd=None, env=None, command=None):
    """Run the hook command with `event` (an object, str or bytes) on stdin."""
    if isinstance(event, (dict, list)):
        data = json.dumps(event).encode("utf-8")
    else:
        data = event.encode("utf-8") if isinstance(event, str) else event
    argv = (command or COMMAND) + ["hook"] + list(args)
    return subprocess.run(argv, input=data, cwd=str(cwd or PROJECT), env=env or base_env(),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)


def tool_input(tool, path):
    """tool_input exactly as Claude Code fills it for each editing tool."""
    if tool == "Edit":
        return {"file_path": path, "old_string": "a", "new_string": "b", "replace_all": False}
    if tool == "Write":
        return {"file_path": path, "content": "print('hello')\n"}
    if tool == "MultiEdit":
        return {"file_path": path, "edits": [{"old_string": "a", "new_string": "b"},
                                             {"old_string": "c", "new_string": "d",
                                              "replace_all": True}]}
    if tool == "NotebookEdit":
        return {"notebook_path": path, "cell_id": "cell-1", "new_source": "x = 1",
                "cell_type": "code", "edit_mode": "replace"}
    raise KeyError(tool)


def event(tool, path, folder, **changes):
    """A PreToolUse event as Claude Code writes it on the hook's stdin."""
    value = {"session_id": "8f1c2e0a-5b7d-4e3f-9a61-0c2d4b6e8f10",
             "transcript_path": "/home/dev/.claude/projects/x/8f1c2e0a.jsonl",
             "cwd": str(folder), "permission_mode": "default", "hook_event_name": "PreToolUse",
             "tool_name": tool, "tool_input": tool_input(tool, path),
             "tool_use_id": "toolu_01ABCDEFGHJKMNPQRSTVWXYZ"}
    value.update(changes)
    return value


def context_of(result):
    """The additionalContext of a successful run, after every check on the output's shape."""
    assert result.returncode == 0, result.stderr
    assert result.stderr == b"", result.stderr
    assert result.stdout.endswith(b"\n") and result.stdout.count(b"\n") == 1, result.stdout
    output = json.loads(result.stdout.decode("utf-8"))
    errors = sorted(support.json_schema_validator(SCHEMA).iter_errors(output), key=str)
    assert not errors, [error.message for error in errors]
    # Our rule beyond the reference: context, nothing that blocks, asks or rewrites (ADR 0013).
    assert list(output) == ["hookSpecificOutput"]
    assert output["hookSpecificOutput"]["hookEventName"] == "PreToolUse"
    assert sorted(output["hookSpecificOutput"]) == ["additionalContext", "hookEventName"]
    text = output["hookSpecificOutput"]["additionalContext"]
    assert len(text.split()) <= WORD_LIMIT
    assert text.endswith("Call get_decision with an id for the full record.")
    return text


def decision_lines(text):
    return [line for line in text.splitlines() if line.startswith("- ADR ")]


# ---- what the agent hears ----------------------------------------------------------------------

@pytest.mark.parametrize("tool", ["Edit", "Write", "MultiEdit"])
def test_each_file_tool_with_an_absolute_path_hears_the_governing_decision(root, tool):
    text = context_of(run_hook(event(tool, str(root / "src" / "api" / "handler.ts"), root)))
    assert text.splitlines()[0] == "Decision records (docs/adr) that concern src/api/handler.ts:"
    assert decision_lines(text) == [
        '- ADR 0001 "Validate requests at the edge" (accepted): it governs this file; follow it.']


def test_notebook_edit_reads_notebook_path(root):
    path = str(root / "notebooks" / "analysis one.ipynb")
    text = context_of(run_hook(event("NotebookEdit", path, root)))
    assert "concern notebooks/analysis one.ipynb:" in text
    assert decision_lines(text) == [
        '- ADR 0009 "Keep notebooks under a megabyte" (accepted): it governs this file; follow it.']


def test_a_rejected_decision_says_do_not_propose_it_again(root):
    text = context_of(run_hook(event("Write", str(root / "services/search/index.ts"), root)))
    assert decision_lines(text) == [
        '- ADR 0002 "Switch search to MongoDB" (rejected): the team decided against this; do not '
        'propose it again.']


def test_a_superseded_decision_names_what_replaced_it(root):
    text = context_of(run_hook(event("Edit", str(root / "src/cache/session.ts"), root)))
    assert decision_lines(text) == [
        '- ADR 0003 "Cache sessions in Redis" (superseded): replaced by ADR 0004 "Cache sessions '
        'in process memory" (accepted); do not follow this one.']


def test_several_decisions_come_accepted_then_rejected_then_superseded(root):
    text = context_of(run_hook(event("Edit", str(root / "src/db/pool.ts"), root)))
    assert decision_lines(text) == [
        '- ADR 0005 "Keep PostgreSQL for the ledger" (accepted): it governs this file; follow it.',
        '- ADR 0006 "Pool connections through a proxy" (rejected): the team decided against this; '
        'do not propose it again.',
        '- ADR 0007 "Open one pool per request" (superseded): replaced by ADR 0005 "Keep '
        'PostgreSQL for the ledger" (accepted); do not follow this one.']


def test_an_open_proposal_is_not_presented_as_settled(root):
    text = context_of(run_hook(event("Write", str(root / "release/notes.md"), root)))
    assert decision_lines(text) == [
        '- ADR 0010 "Sign every release" (proposed): not decided yet; do not treat it as settled.']


def test_a_path_with_spaces_and_non_ascii_letters(root):
    path = str(root / "docs" / "naïve café" / "läuft gut.md")
    text = context_of(run_hook(event("Edit", path, root)))
    assert "concern docs/naïve café/läuft gut.md:" in text
    assert len(decision_lines(text)) == 1 and "ADR 0008" in text


@pytest.mark.parametrize("tool", ["Edit", "Write", "MultiEdit", "NotebookEdit"])
def test_no_decision_means_no_output_at_all(root, tool):
    result = run_hook(event(tool, str(root / "README.md"), root))
    assert (result.returncode, result.stdout, result.stderr) == (0, b"", b"")


def test_a_relative_path_starts_from_the_event_cwd(root):
    (root / "src").mkdir(exist_ok=True)
    text = context_of(run_hook(event("Edit", "api/handler.ts", root / "src"),
                               args=["--cwd", str(root)]))
    assert "concern src/api/handler.ts:" in text and "ADR 0001" in text
    text = context_of(run_hook(event("Edit", "./src/../src/api/x.ts", root)))
    assert "concern src/api/x.ts:" in text


def test_the_root_comes_from_the_event_then_claude_project_dir(root, tmp_path):
    bare = event("Edit", str(root / "src/api/handler.ts"), root)
    del bare["cwd"]
    result = run_hook(bare, cwd=tmp_path, env=base_env(CLAUDE_PROJECT_DIR=str(root)))
    assert "ADR 0001" in context_of(result)
    # The flag wins over the event's cwd.
    elsewhere = tmp_path / "other"
    (elsewhere / ".git").mkdir(parents=True)
    (elsewhere / "docs" / "adr").mkdir(parents=True)
    result = run_hook(event("Edit", str(elsewhere / "src/api/handler.ts"), root),
                      args=["--cwd", str(elsewhere)])
    assert (result.returncode, result.stdout, result.stderr) == (0, b"", b"")


def test_a_symlinked_folder_still_reaches_the_repository(root, tmp_path):
    link = tmp_path / "link"
    link.symlink_to(root, target_is_directory=True)
    text = context_of(run_hook(event("Edit", str(link / "src/api/h.ts"), link)))
    assert "concern src/api/h.ts:" in text


def test_the_output_is_deterministic(root):
    runs = [run_hook(event("Edit", str(root / "src/db/pool.ts"), root)).stdout for _ in range(2)]
    assert runs[0] == runs[1] and runs[0]


def test_many_decisions_are_cut_at_the_word_limit(tmp_path):
    top = tmp_path / "big"
    (top / ".git").mkdir(parents=True)
    many = [("%04d-rule.md" % n, "Rule number %d about the one big file we all edit" % n,
             "accepted", ["src/big.ts"], "") for n in range(1, 131)]
    write_records(top, many)
    text = context_of(run_hook(event("Edit", str(top / "src/big.ts"), top)))
    shown = decision_lines(text)
    assert 5 < len(shown) < 130
    assert shown[0].startswith('- ADR 0001 "Rule number 1 ')
    # 130 match; one page of get_decision_context holds 100, so the count says "at least".
    assert "%d+ more not shown: call get_decision_context for all of them." % (100 - len(shown)) in text


@pytest.mark.parametrize("tool, arguments", [
    ("Bash", {"command": "ls"}), ("Read", {"file_path": "src/api/handler.ts"}),
    ("mcp__adrkit__get_decision", {"id": "0001"}), (7, {"file_path": "src/api/handler.ts"}),
    ("Glob", {"pattern": "**/*.ts"})])
def test_a_tool_that_edits_nothing_gets_no_answer_and_no_line(root, tool, arguments):
    """The matcher should keep these away; when it does not (VS Code ignores matchers), silence."""
    for args in ([], ["--format", "claude"]):
        result = run_hook(good(root, tool_name=tool, tool_input=arguments), args=args)
        assert (result.returncode, result.stdout, result.stderr) == (0, b"", b"")


# ---- bad inputs: exit 0, nothing on stdout, one line on stderr ----------------------------------

def refused(result, words):
    assert result.returncode == 0, result.stderr
    assert result.stdout == b""
    line = result.stderr.decode("utf-8")
    assert line.count("\n") == 1 and line.endswith("; no decision context given\n"), line
    assert line.startswith("adrkit-mcp hook: ") and words in line, line


def good(root, **changes):
    return event("Edit", str(root / "src/api/handler.ts"), root, **changes)


BAD_EVENTS = {
    "empty": (lambda root: b"", "not JSON"),
    "not-json": (lambda root: b"{\"hook_event_name\": ", "not JSON"),
    "not-utf8": (lambda root: b"{\"cwd\": \"\xff\xfe\"}", "not UTF-8"),
    "deeply-nested": (lambda root: b"[" * 200000, "not JSON"),
    "an-array": (lambda root: b"[1, 2]", "not a JSON object"),
    "a-string": (lambda root: b"\"PreToolUse\"", "not a JSON object"),
    "post-tool-use": (lambda root: good(root, hook_event_name="PostToolUse"), "PostToolUse"),
    "no-event-name": (lambda root: {k: v for k, v in good(root).items() if k != "hook_event_name"},
                      "hook_event_name is null, no agent's edit event (hook_event_name "
                      "AfterTool or PreToolUse or postToolUse, toolResult.resultType success, "
                      "hookName PreToolUse)"),
    "tool-input-string": (lambda root: good(root, tool_input="src/api/x.ts"), "tool_input"),
    "no-file-path": (lambda root: good(root, tool_input={"content": "x"}), "file_path"),
    "empty-file-path": (lambda root: good(root, tool_input={"file_path": ""}), "file_path"),
    "file-path-number": (lambda root: good(root, tool_input={"file_path": 3}), "file_path"),
    "notebook-without-notebook-path": (
        lambda root: good(root, tool_name="NotebookEdit"), "notebook_path"),
    "relative-cwd": (lambda root: good(root, cwd="src"), "cwd is not an absolute path"),
    "outside-absolute": (lambda root: good(root, tool_input={"file_path": "/etc/hosts"}),
                         "outside the repository"),
    "outside-relative": (lambda root: good(root, tool_input={"file_path": "../../elsewhere.ts"}),
                         "outside the repository"),
    "the-root-itself": (lambda root: good(root, tool_input={"file_path": str(root)}),
                        "outside the repository"),
    "backslash-name": (lambda root: good(root, tool_input={"file_path": "src/a\\b.ts"}),
                       "backslash"),
}


@pytest.mark.parametrize("case", sorted(BAD_EVENTS))
def test_a_bad_event_is_refused_in_one_line(root, case):
    make, words = BAD_EVENTS[case]
    refused(run_hook(make(root)), words)


def test_an_oversized_event_is_refused_and_drained(root):
    big = good(root, tool_name="Write",
               tool_input={"file_path": str(root / "src/api/x.ts"), "content": "x" * MAX_EVENT_BYTES})
    refused(run_hook(big), "larger than %d bytes" % MAX_EVENT_BYTES)


def test_an_event_just_under_the_limit_is_read(root):
    filler = MAX_EVENT_BYTES - len(json.dumps(good(root, tool_name="Write", tool_input={
        "file_path": str(root / "src/api/x.ts"), "content": ""}))) - 1
    big = good(root, tool_name="Write",
               tool_input={"file_path": str(root / "src/api/x.ts"), "content": "x" * filler})
    assert len(json.dumps(big)) < MAX_EVENT_BYTES
    assert "ADR 0001" in context_of(run_hook(big))


@pytest.mark.parametrize("where", ["not-a-repository", "no-adr-folder", "missing-root"])
def test_an_unusable_corpus_is_refused_in_one_line(root, tmp_path, where):
    if where == "not-a-repository":
        args = ["--cwd", str(tmp_path)]
    elif where == "no-adr-folder":
        args = ["--dir", "no/such/folder"]
    else:
        args = ["--cwd", str(tmp_path / "gone")]
    refused(run_hook(good(root), args=args), "the corpus cannot be used")


def test_a_usage_error_exits_0_since_2_would_block_the_edit(root):
    result = run_hook(good(root), args=["--no-such-flag"])
    assert result.returncode == 0 and result.stdout == b""
    assert b"unrecognized arguments: --no-such-flag" in result.stderr


def test_a_closed_stdin_is_refused_in_one_line(root):
    result = subprocess.run(COMMAND + ["hook"], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=base_env(), timeout=120)
    refused(result, "not JSON")


# ---- configuration: `config claude-code --hook`, doctor, a committed settings.json -------------

def hook_entry(stdout):
    fragment = json.loads(stdout)
    assert list(fragment) == ["hooks"] and list(fragment["hooks"]) == ["PreToolUse"]
    [group] = fragment["hooks"]["PreToolUse"]
    assert sorted(group) == ["hooks", "matcher"] and group["matcher"] == MATCHER
    [entry] = group["hooks"]
    assert sorted(entry) == ["command", "timeout", "type"] and entry["type"] == "command"
    assert isinstance(entry["timeout"], int) and 0 < entry["timeout"] <= 60  # seconds
    return entry


def run_as_claude_code(command, project, event_value, env):
    """What Claude Code does with a command hook: a shell in its working directory (the event's
    cwd), CLAUDE_PROJECT_DIR naming the project, the event on stdin."""
    return subprocess.run(["/bin/sh", "-c", command], input=json.dumps(event_value).encode("utf-8"),
                          cwd=event_value["cwd"], env=dict(env, CLAUDE_PROJECT_DIR=str(project)),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)


@pytest.mark.skipif(os.name != "posix", reason="Claude Code runs hook commands in a POSIX shell")
def test_config_hook_prints_an_absolute_command_that_works(root):
    result = subprocess.run(COMMAND + ["config", "claude-code", "--hook", "--cwd", str(root)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=base_env(), timeout=120, universal_newlines=True)
    assert result.returncode == 0, result.stderr
    entry = hook_entry(result.stdout)
    assert str(MODULE) in entry["command"] and "settings.local.json" in result.stderr
    (root / "src").mkdir(exist_ok=True)  # the session's folder, which Claude Code runs the hook in
    text = context_of(run_as_claude_code(entry["command"], root,
                                         event("Edit", str(root / "src/db/pool.ts"), root / "src"),
                                         base_env()))
    assert len(decision_lines(text)) == 3


@pytest.mark.parametrize("args", [["continue", "--hook"], ["zed", "--hook"], ["--all", "--hook"],
                                  ["--list", "--hook"]])
def test_hook_needs_one_agent_with_hooks(args):
    result = subprocess.run(COMMAND + ["config"] + args, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=base_env(), timeout=120, universal_newlines=True)
    assert result.returncode == 2 and result.stdout == ""


def run_doctor(project):
    """`adrkit-mcp doctor --cwd project`, as a person runs it."""
    return subprocess.run(COMMAND + ["doctor", "--cwd", str(project)],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=base_env(),
                          timeout=300, universal_newlines=True)


def test_doctor_reports_a_hook_whose_matcher_misses_tools(root, tmp_path):
    project = tmp_path / "p"
    shutil.copytree(str(root), str(project))
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.local.json").write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Edit|Write", "hooks": [{"type": "command", "command":
                                             "%s %s hook" % (sys.executable, MODULE)}]}]}}))
    (project / "src" / "api").mkdir(parents=True, exist_ok=True)
    (project / "src" / "api" / "handler.ts").write_text("export {}\n")
    result = run_doctor(project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert 'ok    Claude Code hook in .claude/settings.local.json: PreToolUse "Edit|Write"' in result.stdout
    assert "its matcher misses MultiEdit, NotebookEdit" in result.stdout
    assert ("ok    the configured Claude Code hook (.claude/settings.local.json) answered for "
            "src/api/handler.ts") in result.stdout


def test_doctor_without_a_hook_says_how_to_add_one(root, tmp_path):
    project = tmp_path / "p"
    shutil.copytree(str(root), str(project))
    (project / "src" / "db").mkdir(parents=True)
    (project / "src" / "db" / "pool.ts").write_text("export {}\n")
    result = run_doctor(project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert ("adrkit-mcp config <agent> --hook prints the entry for claude-code, codex, vscode, "
            "copilot-cli, gemini, cursor, cline") in result.stdout
    assert "ok    the hook answered for src/db/pool.ts within its" in result.stdout
    assert "3 decisions" in result.stdout


@pytest.mark.skipif(os.name != "posix", reason="Claude Code runs hook commands in a POSIX shell")
def test_a_committed_settings_json_runs_the_hook_on_a_teammates_clone(root, built_pyz, tmp_path):
    mine = tmp_path / "mine"
    shutil.copytree(str(root), str(mine), ignore=shutil.ignore_patterns(".git"))
    support.git("init", "-q", cwd=mine)
    (mine / "tools").mkdir()
    shutil.copyfile(str(built_pyz[0]), str(mine / "tools" / "adrkit-mcp.pyz"))  # conftest's build
    (mine / "src" / "db").mkdir(parents=True)
    (mine / "src" / "db" / "pool.ts").write_text("export {}\n")
    home = tmp_path / "home"
    home.mkdir()
    env = child_env(PATH=support.teammate_path(tmp_path / "bin"), HOME=str(home), LANG="C.UTF-8")
    # The .pyz lies inside the repository: config gives the team form by itself.
    result = subprocess.run(["python3", "tools/adrkit-mcp.pyz", "config", "claude-code", "--hook"],
                            cwd=str(mine), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            universal_newlines=True, timeout=300)
    assert result.returncode == 0, result.stderr
    entry = hook_entry(result.stdout)
    assert str(tmp_path) not in result.stdout and sys.executable not in result.stdout
    assert entry["command"] == ('python3 "$CLAUDE_PROJECT_DIR"/tools/adrkit-mcp.pyz hook --format '
                                'claude --cwd "$CLAUDE_PROJECT_DIR" --dir docs/adr || exit 0')
    assert "teammate" in result.stderr
    (mine / ".claude").mkdir()
    (mine / ".claude" / "settings.json").write_text(result.stdout)
    support.git("add", "-A", cwd=mine)
    support.git("commit", "-q", "-m", "team hook", cwd=mine)

    theirs = tmp_path / "elsewhere" / "their clone"  # another machine: another absolute path
    support.git("clone", "-q", str(mine), str(theirs), cwd=tmp_path)
    settings = json.loads((theirs / ".claude" / "settings.json").read_text())
    command = hook_entry(json.dumps(settings))["command"]
    # Claude Code's working directory may be a subfolder by now; the event says so.
    text = context_of(run_as_claude_code(command, theirs,
                                         event("Edit", "db/pool.ts", theirs / "src"), env))
    assert "concern src/db/pool.ts:" in text and len(decision_lines(text)) == 3
    nothing = run_as_claude_code(command, theirs, event("Write", str(theirs / "README.md"), theirs), env)
    assert (nothing.returncode, nothing.stdout, nothing.stderr) == (0, b"", b"")
    bad = run_as_claude_code(command, theirs, event("Write", "/etc/hosts", theirs), env)
    refused(bad, "outside the repository")
    # A teammate whose clone lacks the .pyz: python3 exits 2, which would block every edit; the
    # command turns any failure into exit 0 and no context.
    os.rename(str(theirs / "tools" / "adrkit-mcp.pyz"), str(theirs / "tools" / "moved.pyz"))
    missing = run_as_claude_code(command, theirs, event("Write", str(theirs / "src/db/pool.ts"), theirs), env)
    assert missing.returncode == 0 and missing.stdout == b"" and b"adrkit-mcp.pyz" in missing.stderr
    os.rename(str(theirs / "tools" / "moved.pyz"), str(theirs / "tools" / "adrkit-mcp.pyz"))
    # doctor, from the teammate's clone, finds the committed hook and runs it.
    result = subprocess.run(["python3", "tools/adrkit-mcp.pyz", "doctor"], cwd=str(theirs), env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            universal_newlines=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "ok    Claude Code hook in .claude/settings.json: PreToolUse \"%s\"" % MATCHER in result.stdout
    assert ("ok    the configured Claude Code hook (.claude/settings.json) answered for "
            "src/db/pool.ts") in result.stdout


@pytest.mark.skipif(os.name != "posix", reason="Claude Code runs hook commands in a POSIX shell")
def test_a_committed_module_files_hook_imports_it_and_keeps_its_bytecode(root, tmp_path):
    """The team entry for a committed adrkit_mcp.py imports it (ADR 0022): the first event
    compiles it into __pycache__, the second loads that bytecode and compiles nothing."""
    project = tmp_path / "p"
    shutil.copytree(str(root), str(project))
    (project / "tools").mkdir()
    shutil.copyfile(str(MODULE), str(project / "tools" / "adrkit_mcp.py"))
    (project / "src" / "db").mkdir(parents=True, exist_ok=True)
    (project / "src" / "db" / "pool.ts").write_text("export {}\n")
    folder = tmp_path / "bin"  # python3 on the PATH: this interpreter, which has the libraries
    folder.mkdir()
    (folder / "python3").write_text('#!/bin/sh\nexec "%s" "$@"\n' % sys.executable)
    os.chmod(str(folder / "python3"), 0o755)
    env = child_env(PATH=str(folder) + os.pathsep + os.defpath, HOME=str(tmp_path), LANG="C.UTF-8")
    result = subprocess.run(["python3", "tools/adrkit_mcp.py", "config", "claude-code", "--hook", "--portable"],
                            cwd=str(project), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            universal_newlines=True, timeout=120)
    assert result.returncode == 0, result.stderr
    command = hook_entry(result.stdout)["command"]
    assert command.startswith("python3 -c ") and str(tmp_path) not in command
    assert (' "$CLAUDE_PROJECT_DIR"/tools/adrkit_mcp.py hook --format claude --cwd "$CLAUDE_PROJECT_DIR" '
            '--dir docs/adr || exit 0') in command
    assert "keeps its bytecode" in result.stderr
    cache = project / "tools" / "__pycache__"
    assert not cache.exists()  # config ran the file as a script: nothing cached yet
    edit = event("Edit", str(project / "src" / "db" / "pool.ts"), project)
    first = run_as_claude_code(command, project, edit, env)
    assert len(decision_lines(context_of(first))) == 3
    [compiled] = list(cache.iterdir())
    assert compiled.name.startswith("adrkit_mcp.") and compiled.name.endswith(".pyc")
    before = compiled.stat()
    # PYTHONVERBOSE makes the import system say where each module's code object came from.
    second = run_as_claude_code(command, project, edit, dict(env, PYTHONVERBOSE="1"))
    assert second.returncode == 0 and second.stdout == first.stdout
    said = second.stderr.decode("utf-8", "replace")
    assert "code object from %s" % compiled in said or "code object from '%s'" % compiled in said, said[-2000:]
    assert "code object from %s" % (project / "tools" / "adrkit_mcp.py") not in said
    assert "code object from '%s'" % (project / "tools" / "adrkit_mcp.py") not in said
    after = compiled.stat()
    assert (after.st_ino, after.st_mtime_ns, after.st_size) == (before.st_ino, before.st_mtime_ns, before.st_size)


# ---- what an edit loads (ADR 0018) -------------------------------------------------------------

LOADED_AFTER_HOOK = r"""
import io, json, sys
sys.path.insert(0, sys.argv[1])
import adrkit_mcp
sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[2].encode("utf-8")), encoding="utf-8")
status = adrkit_mcp.main(["hook", "--format", "claude"])
sys.stderr.write(json.dumps({"status": status, "loaded": sorted(
    name for name in ("yaml", "idna") if name in sys.modules)}) + "\n")
"""


def loaded_after_hook(folder, path):
    """(the hook's context, which of PyYAML and idna the process had imported by its end)."""
    result = subprocess.run(
        [sys.executable, "-c", LOADED_AFTER_HOOK, str(MODULE.parent),
         json.dumps(event("Edit", str(folder / path), folder))],
        cwd=str(folder), env=base_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    lines = result.stderr.decode("utf-8").splitlines()
    assert len(lines) == 1, result.stderr  # the report, and nothing from the hook
    report = json.loads(lines[0])
    assert report["status"] == 0, result.stderr
    result.stderr = b""  # the report is this harness's own line: context_of checks the rest
    return context_of(result), report["loaded"]


def test_an_edit_over_plain_frontmatter_imports_neither_pyyaml_nor_idna(root):
    """The YAML engine's fast path reads every record of the fixture; PyYAML, which only its full
    route builds on, and idna, which only a URL with a joiner needs, are never imported."""
    text, loaded = loaded_after_hook(root, "src/db/pool.ts")
    assert len(decision_lines(text)) == 3
    assert loaded == []


def test_a_record_that_needs_the_full_yaml_route_loads_pyyaml_then(tmp_path):
    """An anchor is beyond the fast path: the full route imports PyYAML on first use and the
    record reads as the reference reads it (the aliased pattern governs the file)."""
    top = tmp_path / "repo"
    write_records(top, RECORDS[:1])
    support.git("init", "-q", cwd=top)
    (top / "docs" / "adr" / "0011-anchored.md").write_text(
        '---\nid: "0011"\ntitle: &t "Anchored title"\nstatus: "accepted"\ndate: "2026-01-05"\n'
        'deciders: &d ["team:platform"]\naffects:\n  - type: path\n    pattern: &p "src/api/**"\n'
        '  - type: path\n    pattern: *p\n---\nWhy.\n', encoding="utf-8")
    text, loaded = loaded_after_hook(top, "src/api/handler.ts")
    assert '- ADR 0011 "Anchored title" (accepted): it governs this file; follow it.' in text
    assert loaded == ["yaml"]


def test_a_missing_pyyaml_is_named_at_start_up_not_at_the_first_record(tmp_path):
    """PyYAML is imported late, but looked for with the other dependencies: a checkout without it
    says which package is missing and how to install it, before serving anything."""
    import idna
    import pathspec
    only = tmp_path / "packages"
    only.mkdir()
    for package in (pathspec, idna):
        shutil.copytree(os.path.dirname(package.__file__), str(only / package.__name__))
    env = base_env(PYTHONPATH=str(only))
    result = subprocess.run([sys.executable, "-S", str(MODULE), "--version"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    assert result.returncode == 1 and result.stdout == b""
    message = result.stderr.decode("utf-8")
    assert message.startswith("adrkit-mcp: adrkit-mcp needs PyYAML, pathspec and idna "
                              "(No module named 'yaml')"), message
    assert "python3 -m pip install PyYAML==6.0.3" in message and message.count("\n") == 1
