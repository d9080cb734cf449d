"""README.md as a newcomer meets it (ADR 0022): the quick start, run as written in a fresh
repository with the built .pyz in place of the downloaded one; the links it gives; the places
the other pages are found at. The README's two set-up commands are tests/test_workflows.py's;
its mcp-name marker is tests/test_registry.py's; the adr-tools example of docs/existing-adrs.md
is tests/test_migrate.py's."""

import json
import os
import re
import shutil
import subprocess

import pytest

import _support as support
from _child_env import child_env

PROJECT = support.REPO_ROOT


def read(*parts):
    with open(os.path.join(PROJECT, *parts), encoding="utf-8") as handle:
        return handle.read()


def quick_start():
    """The command lines of the README's quick start: the first ```sh block after its heading."""
    text = read("README.md")
    section = text.index("\n## Quick start\n")
    start = text.index("```sh\n", section) + len("```sh\n")
    return text[start:text.index("```\n", start)].splitlines()


def owner():
    return re.search(r'^github-owner = "([^"]+)"', read("pyproject.toml"), re.M).group(1)


RECORD = ('---\nid: "0001"\ntitle: Keep orders in PostgreSQL\nstatus: accepted\ndate: 2024-05-20\n'
          'deciders: ["team:orders"]\naffects:\n  - type: path\n    pattern: src/orders/**\n---\n'
          "# Keep orders in PostgreSQL\n\nThe order service's database is PostgreSQL 16.\n")


def test_the_quick_start_is_on_the_first_screen():
    text = read("README.md")
    assert text.index("\n## Quick start\n") < 1500  # right after what the program does
    lines = quick_start()
    assert len(lines) == 4
    assert text[:text.index("```sh\n", text.index("\n## Quick start\n"))].count("\n") < 20


@pytest.mark.skipif(os.name != "posix", reason="the quick start is a POSIX shell session")
def test_the_quick_start_runs_as_written(built_pyz, tmp_path):
    """Each line, through a shell, in a fresh Git repository with one record, with a PATH whose
    python3 has nothing installed (the .pyz carries its libraries); the download is the one line
    replaced: by the .pyz this build makes."""
    first, *rest = quick_start()
    assert first == ("mkdir -p tools && curl -fLo tools/adrkit-mcp.pyz https://github.com/%s/adrkit-mcp/"
                     "releases/latest/download/adrkit-mcp.pyz" % owner())
    repo = tmp_path / "my repo"
    (repo / "docs" / "adr").mkdir(parents=True)
    (repo / "docs" / "adr" / "0001-keep-orders-in-postgresql.md").write_text(RECORD)
    support.git("init", "-q", cwd=repo)
    (repo / "tools").mkdir()
    shutil.copyfile(str(built_pyz[0]), str(repo / "tools" / "adrkit-mcp.pyz"))
    home = tmp_path / "home"
    home.mkdir()
    env = child_env(PATH=support.teammate_path(tmp_path / "bin"), HOME=str(home), LANG="C.UTF-8")
    done = {}
    for line in rest:
        result = subprocess.run(["/bin/sh", "-c", line], cwd=str(repo), env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                                timeout=300)
        assert result.returncode == 0, (line, result.stdout, result.stderr)
        done[line.split()[2]] = result
    assert sorted(done) == ["call", "config", "doctor"]
    # doctor: the verdict first, in the words the README quotes.
    first_line = done["doctor"].stdout.splitlines()[0]
    assert first_line == "doctor: a client would work: 1 record loads from docs/adr"
    assert re.search(r"`doctor: a client would work: \d+ records load from\s+docs/adr`", read("README.md"))
    # config: the team entry for .mcp.json, with no path of this machine.
    entry = json.loads(done["config"].stdout)["mcpServers"]["adrkit"]
    assert entry["command"] == "python3" and entry["args"][0] == "tools/adrkit-mcp.pyz"
    assert str(tmp_path) not in done["config"].stdout
    assert ".mcp.json" in done["config"].stderr and "team config: commit this file" in done["config"].stderr
    # call: one question answered.
    answer = json.loads(done["call"].stdout)
    assert [item["id"] for item in answer["result"]["items"]] == ["0001"]


def test_every_link_of_the_readme_leads_somewhere():
    """PyPI shows the README as the project's description and resolves no relative link: every
    link is absolute, a page of this repository is linked on GitHub under pyproject.toml's owner
    (tools/server_json.py keeps it so), and the page exists in this checkout."""
    text = read("README.md")
    owner = re.search(r'^github-owner = "([^"]+)"$', read("pyproject.toml"), re.M).group(1)
    definitions = dict(re.findall(r"^\[([^\]]+)\]: (\S+)$", text, re.M))
    inline = re.findall(r"\]\(([^)\s]+)\)", text)
    used = re.findall(r"\[([^\]]+)\](?:\[([^\]]*)\])?(?![(:])", text)
    labels = {label or name for name, label in used if (label or name) in definitions or "/" in (label or name)}
    assert sorted(labels - set(definitions)) == [], "references without a definition"
    links = inline + list(definitions.values())
    assert all("://" in link for link in links), [link for link in links if "://" not in link]
    pages = []
    for link in links:
        page = re.match(r"https://github\.com/([^/]+)/adrkit-mcp/(?:blob|tree)/main/(.+)$", link)
        if page:
            assert page.group(1) == owner, link
            assert os.path.exists(os.path.join(PROJECT, page.group(2))), link
            pages.append(page.group(2))
    assert "docs/differences.md" in pages and "docs/reference.md" in pages


def test_the_places_others_add_to_are_where_they_were_said_to_be():
    # Departures go under this heading (tools/difftest.py and tools/check_skips.py point there);
    # subcommands get a line under the README's "Commands".
    assert read("docs", "differences.md").startswith("# Where we differ from the reference\n")
    readme = read("README.md")
    assert "\n## Commands\n" in readme
    commands = readme[readme.index("\n## Commands\n"):readme.index("\n## ", readme.index("\n## Commands\n") + 1)]
    for name in ("doctor", "config", "call", "hook", "migrate"):
        assert "- `%s" % name in commands, name
