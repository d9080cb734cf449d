"""`adrkit-mcp hook` for every agent it answers, run as the real command on recorded events.

The events are tests/data/hook-events.json: each agent's event as it sends it, recorded from the
agent's documentation or source types (the provenance is written beside each event there; ADR 0018
cites every source with its version). Each answer is checked against the agent's published output
schema where one exists (Codex generates them: tests/data/codex; Gemini CLI's settings schema for
the entries: tests/data/gemini), else against a schema written here from the agent's reference
(tests/data/hook-output), and against our own rule: context only, exit 0, never a permission
decision, a block, a cancel or a rewritten result (ADRs 0013 and 0018).

Also here: the VS Code case (it runs the hooks of .claude/settings.json for every tool), Codex
patches (several files, moves, deletions, heredocs), malformed events and usage errors per format,
`config <agent> --hook` run through a shell as each agent runs it from a teammate's clone with the
committed .pyz, doctor over all seven entries, and the .pyz answering an event for a tool that
edits nothing before it unpacks anything.

ADRKIT_TEST_MODULE=/path/to/adrkit_mcp.py tests another copy of the module.
"""

import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from _child_env import child_env
import _support as support

PROJECT = Path(support.REPO_ROOT)
MODULE = Path(os.environ.get("ADRKIT_TEST_MODULE") or PROJECT / "adrkit_mcp.py").resolve()
COMMAND = support.module_command(MODULE, sys.executable)  # `python3 adrkit_mcp.py`, bytecode kept
DATA = PROJECT / "tests" / "data"
RECORDED = json.loads((DATA / "hook-events.json").read_text(encoding="utf-8"))["events"]
FORMATS = ("claude", "codex", "vscode", "copilot", "gemini", "cursor", "cline")
AGENT_IDS = {"claude": "claude-code", "codex": "codex", "vscode": "vscode", "copilot": "copilot-cli",
             "gemini": "gemini", "cursor": "cursor", "cline": "cline"}
# What each agent must read when there is nothing to say (empty: no output at all).
NEUTRAL = {"cursor": b"{}\n", "cline": b'{"cancel": false}\n', "gemini": b"{}\n"}
# Each agent's output schema under tests/data (Codex's own is draft-07, the others 2020-12).
SCHEMAS = {"claude": "claude-code-hook-output.schema.json",
           "codex": "codex/pre-tool-use.command.output.schema.json",
           "vscode": "hook-output/vscode.schema.json", "copilot": "hook-output/copilot.schema.json",
           "gemini": "hook-output/gemini.schema.json", "cursor": "hook-output/cursor.schema.json",
           "cline": "hook-output/cline.schema.json"}
FOOTER = "Call get_decision with an id for the full record."

# (file, title, status, affects patterns, extra YAML lines)
RECORDS = (
    ("0001-keep-postgresql.md", "Keep PostgreSQL for the ledger", "accepted", ["src/db/**"], ""),
    ("0002-switch-to-mongodb.md", "Switch search to MongoDB", "rejected", ["services/search/**"], ""),
    ("0003-cache-in-redis.md", "Cache sessions in Redis", "superseded", ["src/cache/**"],
     'supersededBy: "0004"\n'),
    ("0004-cache-in-memory.md", "Cache sessions in process memory", "accepted", ["lib/memory/**"],
     'supersedes: ["0003"]\n'),
    ("0005-validate-at-the-edge.md", "Validate requests at the edge", "accepted", ["src/api/**"], ""),
    ("0006-keep-notebooks-small.md", "Keep notebooks under a megabyte", "accepted", ["notebooks/**"], ""),
)
GOVERNED = {"src/db/": "0001", "services/search/": "0002", "src/cache/": "0003", "lib/memory/": "0004",
            "src/api/": "0005", "notebooks/": "0006"}


def write_records(top):
    folder = Path(top) / "docs" / "adr"
    folder.mkdir(parents=True, exist_ok=True)
    for name, title, status, patterns, extra in RECORDS:
        affects = "".join('  - type: path\n    pattern: %s\n' % json.dumps(p) for p in patterns)
        (folder / name).write_text(support.record_text(
            name[:4], title=title, status=status, date="2026-01-05",
            extra='deciders: ["team:platform"]\naffects:\n' + affects + extra), encoding="utf-8")


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    """A repository whose path has a space and a non-ASCII letter, with the records above."""
    top = support.spaced_repository(tmp_path_factory, "agents")
    write_records(top)
    return top


def placed(value, top):
    """A recorded value with @ROOT@ replaced by the repository's path (in JSON text too)."""
    if isinstance(value, dict):
        return {key: placed(item, top) for key, item in value.items()}
    if isinstance(value, list):
        return [placed(item, top) for item in value]
    return value.replace("@ROOT@", str(top)) if isinstance(value, str) else value


def recorded(agent, top, edits=True):
    """(name, event, files) of the agent's recorded events that edit (or, edits=False, do not)."""
    return [(case["name"], placed(case["event"], top), case["edits"]) for case in RECORDED
            if case["agent"] == agent and bool(case["edits"]) == edits]


def base_env(**extra):
    """This environment for the hook's runs; what they compile (the module through the launcher,
    the standard library, a .pyz's packages) is kept in this process's folder support.PYCACHE,
    outside the clones, whatever PYTHONDONTWRITEBYTECODE said."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith("ADRKIT_MCP_") and key not in ("CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR")
           and key != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = support.PYCACHE
    env.update(extra)
    return env


def run_hook(event, args=(), cwd=None, env=None):
    """The hook command with `event` (an object, str or bytes) on stdin."""
    if isinstance(event, (dict, list)):
        data = json.dumps(event).encode("utf-8")
    else:
        data = event.encode("utf-8") if isinstance(event, str) else event
    return subprocess.run(COMMAND + ["hook"] + list(args), input=data,
                          cwd=str(cwd or PROJECT), env=env or base_env(), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=120)


def validator(fmt):
    return support.json_schema_validator(DATA / SCHEMAS[fmt])


def context_of(fmt, result, event=None):
    """The context text of a successful answer, after every check on its shape."""
    assert result.returncode == 0, result.stderr
    assert result.stderr == b"", result.stderr
    assert result.stdout.endswith(b"\n") and result.stdout.count(b"\n") == 1, result.stdout
    answer = json.loads(result.stdout.decode("utf-8"))
    errors = sorted(validator(fmt).iter_errors(answer), key=str)
    assert not errors, [error.message for error in errors]
    # Context only: nothing that blocks, asks, denies, cancels or rewrites.
    if fmt in ("claude", "codex", "vscode", "gemini"):
        assert list(answer) == ["hookSpecificOutput"]
        assert sorted(answer["hookSpecificOutput"]) == ["additionalContext", "hookEventName"]
        if event is not None:
            assert answer["hookSpecificOutput"]["hookEventName"] == event["hook_event_name"]
        text = answer["hookSpecificOutput"]["additionalContext"]
    elif fmt == "cline":
        assert sorted(answer) == ["cancel", "contextModification"] and answer["cancel"] is False
        text = answer["contextModification"]
    else:
        key = "additionalContext" if fmt == "copilot" else "additional_context"
        assert list(answer) == [key]
        text = answer[key]
    assert text.endswith(FOOTER) and len(text.split()) <= 300
    return text


def decision_ids(text):
    return sorted(line.split()[2] for line in text.splitlines() if line.startswith("- ADR "))


def expected_ids(files):
    return sorted({ident for file in files for prefix, ident in GOVERNED.items()
                   if file.startswith(prefix)})


def neutral(fmt, result):
    """Exit 0 and the agent's neutral answer; returns stderr's lines."""
    assert result.returncode == 0, result.stderr
    assert result.stdout == NEUTRAL.get(fmt, b""), result.stdout
    return result.stderr.decode("utf-8").splitlines()


def refused(fmt, result, words):
    """The neutral answer and exactly one stderr line that says why."""
    lines = neutral(fmt, result)
    assert len(lines) == 1 and lines[0].startswith("adrkit-mcp hook: "), lines
    assert lines[0].endswith("; no decision context given") and words in lines[0], lines
    return lines[0]


EDIT_CASES = [(case["agent"], case["name"]) for case in RECORDED if case["edits"]]
QUIET_CASES = [(case["agent"], case["name"]) for case in RECORDED if not case["edits"]]


def case_event(agent, name, top):
    [(event, files)] = [(placed(case["event"], top), case["edits"]) for case in RECORDED
                        if case["agent"] == agent and case["name"] == name]
    return event, files


# ---- each agent's own events ------------------------------------------------------------------

@pytest.mark.parametrize("forced", [True, False], ids=["format-given", "detected"])
@pytest.mark.parametrize("agent, name", EDIT_CASES)
def test_each_recorded_edit_is_answered_in_its_agents_shape(root, agent, name, forced):
    event, files = case_event(agent, name, root)
    result = run_hook(event, args=["--format", agent] if forced else [])
    text = context_of(agent, result, event if "hook_event_name" in event else None)
    assert text.splitlines()[0] == "Decision records (docs/adr) that concern %s:" % ", ".join(files)
    assert decision_ids(text) == expected_ids(files)


@pytest.mark.parametrize("forced", [True, False], ids=["format-given", "detected"])
@pytest.mark.parametrize("agent, name", QUIET_CASES)
def test_a_tool_that_edits_nothing_gets_the_neutral_answer_and_no_line(root, agent, name, forced):
    event, _ = case_event(agent, name, root)
    result = run_hook(event, args=["--format", agent] if forced else [])
    assert neutral(agent, result) == []  # detected too: the gate knows the agent by its envelope


def test_a_file_no_decision_concerns_gets_the_neutral_answer(root):
    for agent in FORMATS:
        for _, event, files in recorded(agent, root)[:1]:
            text = json.dumps(event, ensure_ascii=False)
            for number, file in enumerate(files):
                text = text.replace(file, "README-%d.md" % number)
            assert neutral(agent, run_hook(text, args=["--format", agent])) == []


@pytest.mark.parametrize("sender, entry", [(sender, entry) for sender in FORMATS for entry in FORMATS
                                           if sender != entry])
def test_another_agents_event_through_an_entry_stays_silent_or_neutral(root, sender, entry):
    """Agents read each other's files (VS Code runs .claude/settings.json and .github/hooks;
    Copilot CLI .github/hooks): an entry answers its own agent only, never another's event."""
    for _, event, _ in recorded(sender, root)[:2] + recorded(sender, root, edits=False)[:1]:
        lines = neutral(entry, run_hook(event, args=["--format", entry]))
        assert len(lines) <= 1  # an event of the entry's envelope but not its edit event: one line


# ---- the VS Code case: every tool through one .claude/settings.json entry ---------------------

def config_hook(agent, root, program=None, cwd=None, env=None):
    """The entry `config <agent> --hook` prints (the executable's text for Cline), and stderr."""
    command = ([sys.executable, str(program)] if program else COMMAND) + ["config", agent, "--hook"]
    result = subprocess.run(command + ([] if program else ["--cwd", str(root)]),
                            cwd=str(cwd or root), env=env or base_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return (result.stdout if agent == "cline" else json.loads(result.stdout)), result.stderr


def shell_commands(agent, entry):
    """[(event name, matcher, command)] of a printed entry, as the agent's file holds them."""
    found = []
    for event_name, groups in entry["hooks"].items():
        for group in groups:
            for hook in group.get("hooks", [group]):
                found.append((event_name, group.get("matcher"), hook.get("command") or hook.get("bash")))
    return found


@pytest.mark.skipif(os.name != "posix", reason="the agents run hook commands in a POSIX shell")
def test_vscode_running_the_claude_code_entry_for_every_tool(root):
    """VS Code runs the PreToolUse hooks of .claude/settings.json for every tool (it ignores the
    matcher): the entry answers none of VS Code's events, fast, and says nothing on stderr."""
    entry, _ = config_hook("claude-code", root)
    [(event_name, _, command)] = shell_commands("claude-code", entry)
    assert event_name == "PreToolUse"
    for _, event, _ in recorded("vscode", root) + recorded("vscode", root, edits=False):
        result = subprocess.run(["/bin/sh", "-c", command], input=json.dumps(event).encode("utf-8"),
                                cwd=str(root), env=base_env(), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, timeout=120)
        assert (result.returncode, result.stdout, result.stderr) == (0, b"", b""), event["tool_name"]
    # The VS Code entry itself answers them: VS Code's own shape.
    entry, notes = config_hook("vscode", root)
    [(_, matcher, command)] = shell_commands("vscode", entry)
    assert "ignores" in notes or ".claude/settings.json" in notes
    for _, event, files in recorded("vscode", root):
        assert event["tool_name"] in matcher.split("|")
        result = subprocess.run(["/bin/sh", "-c", command], input=json.dumps(event).encode("utf-8"),
                                cwd=str(root), env=base_env(), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, timeout=120)
        assert decision_ids(context_of("vscode", result, event)) == expected_ids(files)


# ---- Codex patches ------------------------------------------------------------------------------

def codex_event(top, patch, cwd=None):
    event, _ = case_event("codex", "apply_patch (update, move, add, delete)", top)
    event["tool_input"] = {"command": patch}
    event["cwd"] = str(cwd or top)
    return event


PATCHES = {
    "several-files": ("*** Begin Patch\n*** Update File: src/db/pool.ts\n@@\n-a\n+b\n"
                      "*** Update File: src/api/handler.ts\n@@ export\n-x\n+y\n*** End Patch\n",
                      ["src/db/pool.ts", "src/api/handler.ts"]),
    "move": ("*** Begin Patch\n*** Update File: lib/memory/old.ts\n*** Move to: src/cache/new.ts\n"
             "@@\n-a\n+b\n*** End Patch", ["lib/memory/old.ts", "src/cache/new.ts"]),
    "delete": ("*** Begin Patch\n*** Delete File: services/search/index.ts\n*** End Patch",
               ["services/search/index.ts"]),
    "add-with-lines": ("*** Begin Patch\n*** Add File: notebooks/new.py\n+x = 1\n+*** not a header\n"
                       "*** End Patch", ["notebooks/new.py"]),
    "heredoc": ("<<'EOF'\n*** Begin Patch\n*** Update File: src/db/pool.ts\n@@\n-a\n+b\n*** End Patch\nEOF\n",
                ["src/db/pool.ts"]),
    "crlf-and-indented-headers": ("*** Begin Patch\r\n  *** Update File: src/db/pool.ts\r\n@@\r\n-a\r\n+b\r\n"
                                  "*** End of File\r\n*** Delete File: src/api/x.ts\r\n*** End Patch\r\n",
                                  ["src/db/pool.ts", "src/api/x.ts"]),
    "same-file-twice": ("*** Begin Patch\n*** Update File: src/db/a.ts\n@@\n-a\n+b\n"
                        "*** Update File: src/db/a.ts\n@@\n-c\n+d\n*** End Patch", ["src/db/a.ts"]),
    "spaces-and-accents": ("*** Begin Patch\n*** Add File: src/api/naïve café.ts\n+x\n*** End Patch",
                           ["src/api/naïve café.ts"]),
}


@pytest.mark.parametrize("case", sorted(PATCHES))
def test_a_codex_patch_gets_one_answer_for_every_file_it_names(root, case):
    patch, files = PATCHES[case]
    text = context_of("codex", run_hook(codex_event(root, patch), args=["--format", "codex"]))
    assert text.splitlines()[0] == "Decision records (docs/adr) that concern %s:" % ", ".join(files)
    assert decision_ids(text) == expected_ids(files)
    if len(files) > 1:
        assert "one or more of these files" in text


def test_a_codex_patch_with_absolute_paths_and_a_relative_cwd(root):
    patch = "*** Begin Patch\n*** Update File: %s\n@@\n-a\n+b\n*** End Patch" % (root / "src/db/pool.ts")
    assert decision_ids(context_of("codex", run_hook(codex_event(root, patch)))) == ["0001"]
    # Codex gives paths relative to the session's folder, which may be a subfolder.
    (root / "src").mkdir(exist_ok=True)
    patch = "*** Begin Patch\n*** Update File: api/handler.ts\n@@\n-a\n+b\n*** End Patch"
    text = context_of("codex", run_hook(codex_event(root, patch, cwd=root / "src"),
                                        args=["--format", "codex", "--cwd", str(root)]))
    assert "concern src/api/handler.ts:" in text and decision_ids(text) == ["0005"]


BAD_PATCHES = {
    "no-begin": ("*** Update File: src/db/pool.ts\n@@\n-a\n+b\n*** End Patch", "no *** Begin Patch"),
    "no-end": ("*** Begin Patch\n*** Update File: src/db/pool.ts\n@@\n-a\n+b\n", "no *** Begin Patch"),
    "junk-line": ("*** Begin Patch\nhello\n*** End Patch", "line 2 is no file header"),
    "empty-path": ("*** Begin Patch\n*** Delete File: \n*** End Patch", "line 2 is no file header"),
    "outside": ("*** Begin Patch\n*** Add File: ../elsewhere.ts\n+x\n*** End Patch", "outside the repository"),
    "environment-id-after-a-file": ("*** Begin Patch\n*** Update File: src/db/pool.ts\n@@\n-a\n+b\n"
                                    "*** Environment ID: e1\n*** End Patch", "line 6 is no file header"),
    "not-text": (7, "tool_input.command is missing"),
}


@pytest.mark.parametrize("case", sorted(BAD_PATCHES))
def test_a_malformed_codex_patch_is_refused_in_one_line(root, case):
    patch, words = BAD_PATCHES[case]
    refused("codex", run_hook(codex_event(root, patch), args=["--format", "codex"]), words)


# ---- shapes read in-process (issue 32): a process would prove nothing more here ----------------

HIDDEN = ("ADRKIT_MCP_CWD", "ADRKIT_MCP_DIR", "ADRKIT_MCP_FROM", "CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR")


def hook_here(event, args=(), cwd=None):
    """(status, stdout, stderr) of `hook` run by this process (tests/_support.run_main) on `event`."""
    data = event if isinstance(event, bytes) else json.dumps(event).encode("utf-8")
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    try:
        with support.working_directory():
            return support.run_main(["hook"] + list(args), cwd or PROJECT, hidden=HIDDEN)
    finally:
        sys.stdin = saved


def answered(fmt, outcome):
    """The context text of an in-process answer, after context_of's checks."""
    status, out, err = outcome
    return context_of(fmt, subprocess.CompletedProcess([], status, out.encode("utf-8"), err.encode("utf-8")))


def quiet_here(fmt, outcome):
    """Exit 0, the agent's neutral answer and not one stderr line."""
    status, out, err = outcome
    assert (status, out.encode("utf-8"), err) == (0, NEUTRAL.get(fmt, b""), ""), outcome


LEFT_OUT = "(Left out, outside the repository: %s.)"


@pytest.mark.parametrize("agent, name", [("vscode", "multi_replace_string_in_file with one file outside the repository"),
                                         ("codex", "apply_patch (update, move, add, delete)")])
def test_a_path_outside_the_repository_is_left_out_and_the_rest_answered(root, agent, name):
    event, files = case_event(agent, name, root)
    if agent == "codex":  # the recorded patch, with one more file outside
        event["tool_input"]["command"] = event["tool_input"]["command"].replace(
            "*** End Patch", "*** Delete File: /etc/hosts\n*** Add File: ../elsewhere.ts\n+x\n*** End Patch")
    text = answered(agent, hook_here(event, ["--format", agent]))
    lines = text.splitlines()
    assert lines[0] == "Decision records (docs/adr) that concern %s:" % ", ".join(files)
    left = '"/etc/hosts"' if agent == "vscode" else '"/etc/hosts", "../elsewhere.ts"'
    assert lines[1] == LEFT_OUT % left
    assert decision_ids(text) == expected_ids(files)


URIS = {
    "file-uri": ("file://@ROOT@/src/db/pool.ts", "src/db/pool.ts"),
    "percent-escaped": ("file://@ROOT@/src/db/na%C3%AFve%20caf%C3%A9.ts", "src/db/naïve café.ts"),
    "localhost": ("file://localhost@ROOT@/src/api/x.ts", "src/api/x.ts"),
}


@pytest.mark.parametrize("case", sorted(URIS))
def test_a_file_uri_in_file_path_gets_the_context_of_its_path(root, case):
    uri, file = URIS[case]
    event, _ = case_event("vscode", "replace_string_in_file", root)
    quoted = str(root).replace("%", "%25").replace(" ", "%20")
    quoted = "".join(c if ord(c) < 128 else "".join("%%%02X" % b for b in c.encode("utf-8")) for c in quoted)
    event["tool_input"]["filePath"] = uri.replace("@ROOT@", quoted)
    text = answered("vscode", hook_here(event, ["--format", "vscode"]))
    assert text.splitlines()[0] == "Decision records (docs/adr) that concern %s:" % file
    # The same edit as Claude Code's Edit of the file: the same decisions.
    claude, _ = case_event("claude", "Edit", root)
    claude["tool_input"]["file_path"] = str(root / file)
    assert decision_ids(text) == decision_ids(answered("claude", hook_here(claude, ["--format", "claude"])))


@pytest.mark.parametrize("uri", ["file://build-host/src/db/pool.ts", "vscode-remote://ssh-remote+box/src/db/pool.ts",
                                 "untitled:Untitled-1"])
def test_a_uri_of_another_host_or_scheme_lies_outside(root, uri):
    event, _ = case_event("vscode", "replace_string_in_file", root)
    event["tool_input"]["filePath"] = uri
    status, out, err = hook_here(event, ["--format", "vscode"])
    assert (status, out) == (0, "") and "lies outside the repository" in err and len(err.splitlines()) == 1


SHELL_COMMANDS = {
    "heredoc": ("apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: src/db/new.ts\n+x\n*** End Patch\nEOF\n",
                ["src/db/new.ts"]),
    "cd-quoted": ('cd "src/api" && apply_patch <<"EOF"\n*** Begin Patch\n*** Update File: h.ts\n@@\n-a\n+b\n'
                  '*** End Patch\nEOF', ["src/api/h.ts"]),
    "argument": ("applypatch '*** Begin Patch\n*** Delete File: services/search/old.ts\n*** End Patch'",
                 ["services/search/old.ts"]),
}


@pytest.mark.parametrize("case", sorted(SHELL_COMMANDS))
def test_codex_apply_patch_run_through_the_shell_is_read(root, case):
    command, files = SHELL_COMMANDS[case]
    event = codex_event(root, command)
    event["tool_name"], event["tool_input"] = "Bash", {"command": command}
    text = answered("codex", hook_here(event, ["--format", "codex"]))
    assert text.splitlines()[0] == "Decision records (docs/adr) that concern %s:" % ", ".join(files)
    assert decision_ids(text) == expected_ids(files)


@pytest.mark.parametrize("command", ["ls -la", "grep -r 'apply_patch' .", "cat <<'EOF'\n*** Begin Patch\nEOF",
                                     "echo '*** Begin Patch' | apply_patch"])
def test_a_shell_command_that_applies_no_patch_is_quiet_or_refused(root, command):
    event = codex_event(root, command)
    event["tool_name"], event["tool_input"] = "Bash", {"command": command}
    status, out, err = hook_here(event, ["--format", "codex"])
    assert (status, out) == (0, "")
    # Nothing at all unless it does run apply_patch on a patch the hook cannot read.
    assert err == "" or ("is not a patch" in err and "apply_patch" in command.split("|")[-1])


def test_cline_and_copilot_patch_variants(root):
    # Copilot CLI's apply_patch with the patch in an {input} object, as JSON text or as an object.
    event, _ = case_event("copilot", "postToolUse apply_patch (the patch as the arguments)", root)
    patch = event["toolArgs"]
    for arguments in (json.dumps({"input": patch}), {"input": patch}):
        event["toolArgs"] = arguments
        assert decision_ids(answered("copilot", hook_here(event, ["--format", "copilot"]))) == ["0002", "0005"]
    # Cline's apply_patch sent as bare text reaches the hook as parameters {}: nothing to read.
    event, _ = case_event("cline", "apply_patch sent as bare text (parameters {})", root)
    quiet_here("cline", hook_here(event, ["--format", "cline"]))
    quiet_here("cline", hook_here(event))


def test_copilot_cli_through_the_claude_code_entry_gets_nothing(root):
    """Copilot CLI runs .claude/settings.json with its PascalCase payload (a `timestamp`, the Claude
    tool name, its own arguments) and reads no context from preToolUse: the entry stays silent."""
    event, _ = case_event("copilot", "PreToolUse Edit through .claude/settings.json (VS Code compatible payload)", root)
    for tool, arguments in (("Edit", {"path": str(root / "src/db/pool.ts")}), ("Write", {"path": "src/db/x.ts"}),
                            ("Edit", "*** Begin Patch\n*** Add File: src/db/y.ts\n+x\n*** End Patch")):
        event["tool_name"], event["tool_input"] = tool, arguments
        quiet_here("claude", hook_here(event, ["--format", "claude"]))


def test_cursor_through_the_claude_code_entry_gets_nothing(root):
    """Cursor also runs .claude/settings.json (@cursor/sdk 1.0.32: its claude-project hooks, Claude's
    PreToolUse read as its preToolUse and the Edit and Write matchers as its Write tool), with its own
    event: `workspace_roots`, its tool names and its camelCase event name. The Claude Code entry stays
    silent; Cursor hears the decisions through its own postToolUse entry."""
    event, _ = case_event("cursor", "postToolUse Write", root)
    for name in ("preToolUse", "postToolUse", "PreToolUse"):
        event["hook_event_name"] = name
        quiet_here("claude", hook_here(event, ["--format", "claude"]))


# Where each agent shows what a hook writes on stderr, when the hook exits 0: Gemini CLI when stdout
# is empty (google-gemini/gemini-cli packages/core/src/hooks/hookRunner.ts at 5411f113: `stdout.trim()
# || stderr.trim()` is parsed, and text that is not JSON becomes a systemMessage shown to the user).
# The others read stdout alone on exit 0 and keep stderr in their logs (Claude Code's debug output,
# VS Code's "GitHub Copilot Chat Hooks" channel, Cline's Logger on a non-zero exit only) or drop it.
STDERR_SHOWN_WHEN_STDOUT_EMPTY = {"gemini"}


def gemini_shows(stdout, stderr):
    """What Gemini CLI's hookRunner shows the user for a hook that exited 0, or None."""
    text = stdout.strip() or stderr.strip()
    if not text:
        return None
    try:
        json.loads(text)
    except ValueError:
        return text
    return None


@pytest.mark.parametrize("agent", FORMATS)
def test_no_agent_shows_a_line_of_ours_it_did_not_ask_for(root, agent):
    """Every refusal and every quiet answer of an agent that shows stderr when stdout is empty
    prints its neutral JSON on stdout; the others may keep their one stderr line."""
    _, event, files = recorded(agent, root)[0]
    outcomes = [hook_here(b"not json", ["--format", agent]), hook_here(b"[1]", ["--format", agent]),
                hook_here(broken(agent, root, "outside"), ["--format", agent]),
                hook_here(event, ["--format", agent, "--dir", "no/such/folder"])]
    outcomes += [hook_here(quiet, ["--format", agent]) for _, quiet, _ in recorded(agent, root, edits=False)]
    for status, out, err in outcomes:
        assert status == 0 and len(err.splitlines()) <= 1
        if agent in STDERR_SHOWN_WHEN_STDOUT_EMPTY:
            assert out.strip() and gemini_shows(out, err) is None, (out, err)
            assert json.loads(out) == {}
        else:
            assert out.encode("utf-8") == NEUTRAL.get(agent, b"")


# ---- malformed events, per format -----------------------------------------------------------

def broken(agent, top, how):
    """The agent's first recorded edit event, broken one way."""
    _, event, files = recorded(agent, top)[0]
    if how == "arguments-not-an-object":
        if agent == "cline":
            event["preToolUse"]["parameters"] = "src/db/pool.ts"
        elif agent == "copilot":
            event["toolArgs"] = "{not json"
        else:
            event["tool_input"] = ["src/db/pool.ts"]
    elif how == "no-path":
        text = json.dumps(event)
        for field in ('"file_path"', '"filePath"', '"path"', '"command"', '"input"', '"notebook_path"'):
            text = text.replace(field, '"elsewhere"')
        if agent == "copilot":
            text = text.replace('\\"path\\"', '\\"elsewhere\\"')
        event = json.loads(text)
    elif how == "outside":  # every file of the edit (one of several outside: test_a_path_outside_...)
        text = json.dumps(event, ensure_ascii=False)
        for number, file in enumerate(files):
            text = text.replace(str(top / file), "/etc/hosts%d" % number).replace(file, "../../etc/hosts%d" % number)
        event = json.loads(text)
    elif how == "bad-root":
        text = json.dumps(event).replace(json.dumps(str(top)), '"relative/root"')
        event = json.loads(text)
    return event


MALFORMED = {
    "empty": (lambda agent, top: b"", "not JSON"),
    "not-json": (lambda agent, top: b'{"hook_event_name": ', "not JSON"),
    "not-utf8": (lambda agent, top: b'{"cwd": "\xff"}', "not UTF-8"),
    "an-array": (lambda agent, top: b"[1, 2]", "not a JSON object"),
    "unknown-object": (lambda agent, top: {"hello": "world"}, ""),
    "arguments-not-an-object": (lambda agent, top: broken(agent, top, "arguments-not-an-object"), ""),
    "no-path": (lambda agent, top: broken(agent, top, "no-path"), ""),
    "outside": (lambda agent, top: broken(agent, top, "outside"), "outside the repository"),
    "bad-root": (lambda agent, top: broken(agent, top, "bad-root"), "not an absolute path"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
@pytest.mark.parametrize("agent", FORMATS)
def test_a_malformed_event_gets_the_neutral_answer_and_exit_0(root, agent, case):
    make, words = MALFORMED[case]
    result = run_hook(make(agent, root), args=["--format", agent])
    if case == "unknown-object":  # no agent's envelope: another agent's event, answered silently
        assert neutral(agent, result) == []
    else:
        refused(agent, result, words)


@pytest.mark.parametrize("agent", FORMATS)
def test_an_unusable_corpus_gets_the_neutral_answer_and_exit_0(root, tmp_path, agent):
    _, event, _ = recorded(agent, root)[0]
    for args in (["--cwd", str(tmp_path)], ["--dir", "no/such/folder"], ["--cwd", str(tmp_path / "gone")]):
        refused(agent, run_hook(event, args=["--format", agent] + args), "the corpus cannot be used")


@pytest.mark.parametrize("agent", FORMATS)
def test_a_usage_error_gets_the_neutral_answer_and_exit_0(root, agent):
    _, event, _ = recorded(agent, root)[0]
    for args in (["--format", agent, "--no-such-flag"], ["--format=%s" % agent, "--cwd"],
                 ["--format", agent, "extra"]):
        result = run_hook(event, args=args)
        assert result.returncode == 0 and result.stdout == NEUTRAL.get(agent, b""), (args, result)
        assert b"usage:" in result.stderr


def test_an_unknown_format_is_a_usage_error_with_exit_0(root):
    _, event, _ = recorded("claude", root)[0]
    result = run_hook(event, args=["--format", "windsurf"])
    assert (result.returncode, result.stdout) == (0, b"") and b"invalid choice" in result.stderr


def test_an_event_no_agent_sends_is_refused_when_no_format_is_given(root):
    lines = neutral("claude", run_hook({"hook_event_name": "Stop", "tool_name": "Edit"}))
    assert len(lines) == 1 and '"Stop", no agent\'s edit event' in lines[0]
    lines = neutral("claude", run_hook({"hello": "world"}))
    assert len(lines) == 1 and "none of the agents' edit events" in lines[0]


# ---- what config prints and what doctor says, in-process ----------------------------------------

def recorded_tools(agent):
    """The tool names of the agent's recorded edit events (every editing tool it has today)."""
    names = set()
    for case in RECORDED:
        if case["agent"] == agent and case["edits"]:
            event = case["event"]
            names.add(event.get("tool_name") or event.get("toolName") or event["preToolUse"]["toolName"])
    return sorted(names)


# How each agent applies a matcher to a tool name (ADR 0018 cites each): Claude Code plain names or
# a searched regex; Codex and Gemini CLI search the regex; Copilot CLI anchors it (^(?:P)$); VS Code
# ignores matchers, but Copilot CLI, which reads the same folder, applies them with Claude's rules.
def selects(agent, matcher, tool):
    if agent == "copilot":
        return re.fullmatch("(?:%s)" % matcher, tool) is not None
    if agent in ("claude", "vscode") and re.fullmatch(r"[A-Za-z0-9_|]+", matcher):
        return tool in matcher.split("|")
    return re.search(matcher, tool) is not None


@pytest.mark.parametrize("agent", ["claude", "codex", "vscode", "copilot", "gemini"])
def test_config_prints_a_matcher_that_covers_every_editing_tool(root, agent):
    with support.working_directory():
        status, out, err = support.run_main(["config", AGENT_IDS[agent], "--hook", "--cwd", str(root)], root,
                                            hidden=HIDDEN)
    assert status == 0, err
    [(_, matcher, _)] = shell_commands(agent, json.loads(out))
    tools = recorded_tools(agent)
    assert tools and [tool for tool in tools if not selects(agent, matcher, tool)] == [], matcher
    if agent == "vscode":  # the setting VS Code needs for the Claude file, and that this one needs none
        assert "chat.useClaudeHooks" in err and "off by default" in err and "no setting" in err


@pytest.mark.skipif(os.name != "posix", reason="Cline runs hooks on macOS and Linux; the shell entries need sh")
def test_doctor_says_when_an_agent_would_not_run_an_entry(root, tmp_path):
    project = tmp_path / "p"
    shutil.copytree(str(root), str(project))
    (project / "src" / "db").mkdir(parents=True, exist_ok=True)
    (project / "src" / "db" / "pool.ts").write_text("export {}\n")
    program = "%s %s hook" % (shlex.quote(sys.executable), shlex.quote(str(MODULE)))
    (project / ".github" / "hooks").mkdir(parents=True)
    (project / ".github" / "hooks" / "adrkit.json").write_text(json.dumps({"version": 1, "hooks": {"postToolUse": [
        {"type": "command", "bash": program + " --format copilot", "matcher": "edit|create"}]}}))
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"PreToolUse": [
        {"hooks": [{"type": "command", "command": program + " --format vscode"}]}]}}))
    (project / ".clinerules" / "hooks").mkdir(parents=True)
    (project / ".clinerules" / "hooks" / "PreToolUse").write_text("#!/bin/sh\nexec %s --format cline\n" % program)
    with support.working_directory():
        _, out, _ = support.run_main(["doctor", "--cwd", str(project)], project, hidden=HIDDEN)
    assert ("its matcher misses apply_patch, str_replace_editor: GitHub Copilot CLI would not run it for "
            "them (config copilot-cli --hook prints one that covers them)") in out
    assert ("VS Code runs hooks of .claude/settings.json only with the setting chat.useClaudeHooks on "
            "(off by default)") in out
    assert "Cline would not run it: it is not executable (chmod +x .clinerules/hooks/PreToolUse)" in out
    # With the setting on, and the file executable, nothing is left to say about either.
    (project / ".vscode").mkdir()
    (project / ".vscode" / "settings.json").write_text('{\n  // ours\n  "chat.useClaudeHooks": true\n}\n')
    (project / ".clinerules" / "hooks" / "PreToolUse").chmod(0o755)
    for entry in support.M._doctor_hook_entries(None, str(project)):
        if entry.format in ("vscode", "cline"):
            assert support.M._doctor_hook_unrun(entry, str(project)) is None, entry


# ---- config <agent> --hook, run as each agent runs it, from a teammate's clone ---------------

# How each agent starts a command hook: the shell, the folder, the environment it adds.
def run_as(agent, command, clone, event, env, missing_ok=False):
    sub = clone / "src"
    if agent == "cline":  # the executable file itself, from the workspace
        argv, cwd = [str(clone / ".clinerules" / "hooks" / "PreToolUse")], clone
    elif agent == "gemini":  # $GEMINI_PROJECT_DIR replaced by the escaped project folder
        argv, cwd = ["/bin/sh", "-c", command.replace("$GEMINI_PROJECT_DIR", shlex.quote(str(clone)))], clone
        env = dict(env, GEMINI_PROJECT_DIR=str(clone), CLAUDE_PROJECT_DIR=str(clone))
    elif agent in ("vscode", "copilot"):  # the entry's "cwd": "." is the repository root
        argv, cwd = ["/bin/sh", "-c", command], clone
    elif agent == "claude":
        argv, cwd = ["/bin/sh", "-c", command], sub
        env = dict(env, CLAUDE_PROJECT_DIR=str(clone))
    else:  # Codex ($SHELL -lc) and Cursor: the session's folder, which may be a subfolder
        argv, cwd = ["/bin/sh", "-c", command], sub
    return subprocess.run(argv, input=json.dumps(event).encode("utf-8"), cwd=str(cwd), env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)


ENTRY_FILES = {"claude": ".claude/settings.json", "codex": ".codex/hooks.json",
               "vscode": ".github/hooks/adrkit-vscode.json", "copilot": ".github/hooks/adrkit.json",
               "gemini": ".gemini/settings.json", "cursor": ".cursor/hooks.json",
               "cline": ".clinerules/hooks/PreToolUse"}


def check_entry_file(agent, entry, notes):
    """The printed entry against the agent's documented file shape."""
    if agent == "gemini":
        assert not list(support.json_schema_validator(DATA / "gemini" / "settings.schema.json").iter_errors(entry))
        [group] = entry["hooks"]["AfterTool"]
        assert group["hooks"][0]["timeout"] == 30000  # milliseconds
    elif agent in ("copilot", "cursor"):
        assert entry["version"] == 1
    elif agent == "codex":
        assert list(entry) == ["hooks"]  # Codex refuses any other key at the root
    assert "never blocks" in notes and ("after the edit" in notes or "before the edit" in notes
                                        or agent == "cline")


@pytest.fixture(scope="module")
def clones(root, built_pyz, tmp_path_factory):
    """(mine, theirs, env): a repository with the .pyz and every agent's entry committed, as its
    `config <agent> --hook` printed them, and a teammate's clone of it on another path, with a
    PATH whose python3 is a bare interpreter."""
    top = tmp_path_factory.mktemp("team")
    mine = top / "mine"
    shutil.copytree(str(root), str(mine), ignore=shutil.ignore_patterns(".git"))
    support.git("init", "-q", cwd=mine)
    (mine / "tools").mkdir()
    shutil.copyfile(str(built_pyz[0]), str(mine / "tools" / "adrkit-mcp.pyz"))
    for folder in ("src/db", "src/api", "services/search"):
        (mine / folder).mkdir(parents=True, exist_ok=True)
    (mine / "src" / "db" / "pool.ts").write_text("export {}\n")
    home = top / "home"
    home.mkdir()
    env = child_env(PATH=support.teammate_path(top / "bin"), HOME=str(home), LANG="C.UTF-8")
    for fmt, where in ENTRY_FILES.items():
        result = subprocess.run(["python3", "tools/adrkit-mcp.pyz", "config", AGENT_IDS[fmt], "--hook"],
                                cwd=str(mine), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                universal_newlines=True, timeout=300)
        assert result.returncode == 0, result.stderr
        assert str(top) not in result.stdout and "teammate" in result.stderr  # the team form
        target = mine / where
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(result.stdout)
        if fmt == "cline":
            target.chmod(0o755)
        else:
            check_entry_file(fmt, json.loads(result.stdout), result.stderr)
    support.git("add", "-A", cwd=mine)
    support.git("commit", "-q", "-m", "every agent's hook", cwd=mine)
    theirs = top / "elsewhere" / "their clone"
    support.git("clone", "-q", str(mine), str(theirs), cwd=top)
    return mine, theirs, env


def committed_command(fmt, clone):
    """The command of the agent's committed entry (the file's path for Cline)."""
    where = clone / ENTRY_FILES[fmt]
    if fmt == "cline":
        return str(where)
    [(_, _, command)] = shell_commands(fmt, json.loads(where.read_text()))
    return command


@pytest.mark.skipif(os.name != "posix", reason="the agents run hook commands in a POSIX shell")
@pytest.mark.parametrize("fmt", FORMATS)
def test_the_committed_entry_answers_on_a_teammates_clone(clones, fmt):
    _, theirs, env = clones
    command = committed_command(fmt, theirs)
    assert "hook --format %s" % fmt in (command if fmt != "cline" else Path(command).read_text())
    for _, event, files in recorded(fmt, theirs):
        text = context_of(fmt, run_as(fmt, command, theirs, event, env),
                          event if "hook_event_name" in event else None)
        assert decision_ids(text) == expected_ids(files)
    for _, event, _ in recorded(fmt, theirs, edits=False):
        assert neutral(fmt, run_as(fmt, command, theirs, event, env)) == []
    # Garbage on stdin: still exit 0 and the neutral answer.
    result = run_as(fmt, command, theirs, {"tool_name": 7}, env)
    assert result.returncode == 0 and result.stdout == NEUTRAL.get(fmt, b"")


@pytest.mark.skipif(os.name != "posix", reason="the agents run hook commands in a POSIX shell")
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_clone_without_the_pyz_neither_blocks_nor_denies(clones, tmp_path, fmt):
    """python3 exits 2 for a missing program: a block in Claude Code and Codex, a denial in
    Copilot CLI, a block in Cline. The printed command turns it into exit 0 and the neutral answer."""
    mine, _, env = clones
    bare = tmp_path / "bare clone"
    support.git("clone", "-q", str(mine), str(bare), cwd=tmp_path)
    (bare / "tools" / "adrkit-mcp.pyz").unlink()
    _, event, _ = recorded(fmt, bare)[0]
    result = run_as(fmt, committed_command(fmt, bare), bare, event, env)
    assert result.returncode == 0 and result.stdout == NEUTRAL.get(fmt, b"")
    assert b"adrkit-mcp.pyz" in result.stderr


@pytest.mark.skipif(os.name != "posix", reason="the agents run hook commands in a POSIX shell")
def test_doctor_reports_and_runs_every_agents_entry(clones):
    _, theirs, env = clones
    result = subprocess.run(["python3", "tools/adrkit-mcp.pyz", "doctor"], cwd=str(theirs), env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                            timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    agents = {"claude": "Claude Code", "codex": "Codex CLI", "vscode": "VS Code",
              "copilot": "GitHub Copilot CLI", "gemini": "Gemini CLI", "cursor": "Cursor", "cline": "Cline"}
    for fmt, where in ENTRY_FILES.items():
        assert "ok    %s hook in %s: " % (agents[fmt], where) in result.stdout, fmt
        assert ("ok    the configured %s hook (%s) answered for src/db/pool.ts within its 30 s limit: "
                "1 decision" % (agents[fmt], where)) in result.stdout, fmt
    assert "FAIL" not in result.stdout


# ---- the .pyz answers an event for a tool that edits nothing before it unpacks anything -----

def test_the_pyz_answers_a_non_edit_before_unpacking(root, built_pyz, tmp_path):
    shiv_root = tmp_path / "shiv"
    shiv_root.mkdir()
    env = base_env(SHIV_ROOT=str(shiv_root))
    pyz = str(built_pyz[0])
    for fmt in FORMATS:
        for _, event, _ in recorded(fmt, root, edits=False):
            result = subprocess.run([sys.executable, pyz, "hook", "--format", fmt], env=env,
                                    input=json.dumps(event).encode("utf-8"), stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, timeout=120)
            assert neutral(fmt, result) == []
            assert list(shiv_root.iterdir()) == [], "unpacked for %s %s" % (fmt, event)
    # An edit needs the module: the first one unpacks it, and every later one runs from there.
    _, event, files = recorded("codex", root)[0]
    for _ in range(2):
        result = subprocess.run([sys.executable, pyz, "hook", "--format", "codex"], env=env,
                                input=json.dumps(event).encode("utf-8"), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, timeout=300)
        assert decision_ids(context_of("codex", result)) == expected_ids(files)
    assert len([path for path in shiv_root.iterdir() if not path.name.startswith(".")]) == 1  # + its lock


def test_the_pyz_knows_each_agent_without_being_told(root, built_pyz, tmp_path):
    """`hook` with no --format: the .pyz's entry point detects the agent from the event, digging
    into Copilot CLI's toolArgs, which arrive as JSON text (the gate once lacked `json` there and
    failed, exit 1, on every Copilot edit), then answers each agent's edit in its own shape and
    its non-edits with its neutral answer alone."""
    env = base_env(SHIV_ROOT=str(tmp_path / "shiv"))
    pyz = str(built_pyz[0])
    for fmt in FORMATS:
        _, event, files = recorded(fmt, root)[0]
        result = subprocess.run([sys.executable, pyz, "hook"], env=env, input=json.dumps(event).encode("utf-8"),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
        assert result.returncode == 0, (fmt, result.stderr)
        assert decision_ids(context_of(fmt, result)) == expected_ids(files), fmt
        for _, quiet, _ in recorded(fmt, root, edits=False):
            result = subprocess.run([sys.executable, pyz, "hook"], env=env, input=json.dumps(quiet).encode("utf-8"),
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
            assert neutral(fmt, result) == [], (fmt, quiet)


def test_an_event_the_pyz_gate_cannot_read_goes_on_to_the_module(root, built_pyz, tmp_path):
    """Copilot CLI's toolArgs as JSON text nested past Python's recursion limit: the gate's
    _hook_dig fails on it, the entry point hands the event to the module instead of dying, and
    the module answers as for any failure: exit 0, nothing on stdout, one line on stderr."""
    event = {"toolName": "edit", "toolArgs": '{"a":' * 100000, "toolResult": {"resultType": "success"},
             "cwd": str(root)}
    result = subprocess.run([sys.executable, str(built_pyz[0]), "hook"], input=json.dumps(event).encode("utf-8"),
                            env=base_env(SHIV_ROOT=str(tmp_path / "shiv")), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, timeout=300)
    lines = neutral("copilot", result)
    assert len(lines) == 1 and lines[0].startswith("adrkit-mcp hook: ") and "RecursionError" in lines[0], lines


# ---- what the hook reads: the event and the corpus, never the edited file --------------------

AUDIT = r'''
import json, os, runpy, sys
launcher, cache, module, fmt = sys.argv[1:5]
opened = []
def audit(event, args):
    if event == "open" and isinstance(args[0], (str, bytes)):
        opened.append([os.fsdecode(args[0]), str(args[1]), args[2] if len(args) > 2 else 0])
sys.addaudithook(audit)
sys.argv = [launcher, "--pycache", cache, module, "hook", "--format", fmt]
try:
    runpy.run_path(launcher, run_name="__main__")  # `python3 adrkit_mcp.py hook`, bytecode kept
except SystemExit:
    pass
sys.stderr.write("\nOPENED " + json.dumps(opened) + "\n")
'''


@pytest.mark.parametrize("agent", FORMATS)
def test_the_hook_reads_the_corpus_and_never_opens_the_edited_file(root, agent):
    """Under an audit hook: the files the hook opens in the repository are records of the ADR
    folder, none for writing, and never the file the agent edits (which exists here)."""
    for _, event, files in recorded(agent, root):
        for file in files:
            (root / file).parent.mkdir(parents=True, exist_ok=True)
            (root / file).write_text("the agent's file\n")
        result = subprocess.run([sys.executable, "-c", AUDIT, support.LAUNCHER, support.PYCACHE, str(MODULE),
                                 agent],
                                input=json.dumps(event).encode("utf-8"), env=base_env(),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        stderr = result.stderr.decode("utf-8")
        opened = json.loads(stderr.rsplit("\nOPENED ", 1)[1])
        assert decision_ids(context_of(agent, subprocess.CompletedProcess(
            result.args, 0, result.stdout, stderr.rsplit("\nOPENED ", 1)[0].encode("utf-8")))) \
            == expected_ids(files)
        # The reader opens the ADR folder by its path and the records by name beside it (dir_fd).
        top = os.path.realpath(str(root))
        inside = [path for path, _, _ in opened if os.path.isabs(path)
                  and os.path.realpath(path).startswith(top + os.sep)]
        adr = os.path.realpath(str(root / "docs" / "adr"))
        assert inside and all(os.path.realpath(path) == adr for path in inside), inside
        names = {os.path.basename(path) for path, _, _ in opened}
        assert any(name.endswith(".md") for name in names)  # the records were read
        assert not {os.path.basename(file) for file in files} & names, names
        writes = [entry for entry in opened if (any(c in entry[1] for c in "wax+")
                                                or entry[2] & (os.O_WRONLY | os.O_RDWR | os.O_CREAT))
                  and not entry[0].startswith(support.PYCACHE)]  # the interpreter's bytecode
        assert writes == [], writes
