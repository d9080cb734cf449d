"""Why a test cannot hold on a platform: the marks the suite uses (conftest.py applies them; see
docs/PORTABILITY.md, "What the suite marks per platform").  A marked test runs everywhere else.
To list what a platform skips, on any machine:

    ADRKIT_TEST_PLATFORM=win32 python3 -m pytest -q -rs -m not_on
"""

import pytest

SYMLINKS = pytest.mark.not_on(
    "win32", reason="creating a symlink needs administrator rights or Developer Mode on Windows")
SIGNALS = pytest.mark.not_on(
    "win32", reason="POSIX signals: a Windows child gets no SIGTERM (TerminateProcess runs no "
                    "handler) and SIGINT only through a shared console")
PERMISSIONS = pytest.mark.not_on(
    "win32", reason="POSIX permission bits: chmod 000 or a 0555 HOME stops nobody on Windows, "
                    "where ACLs decide")
HOME_ACCOUNT = pytest.mark.not_on(
    "win32", reason="the pwd account database and a HOME-less account are POSIX; Windows finds "
                    "the profile through USERPROFILE and LOCALAPPDATA")
EXECUTABLE_BIT = pytest.mark.not_on(
    "win32", reason="Windows has no executable bit (st_mode shows no x) and runs .pyz files by "
                    "association, not by their #! line")
FIONREAD = pytest.mark.not_on(
    "win32", reason="asks a pipe how many bytes are unread with the FIONREAD ioctl (fcntl), which "
                    "Windows pipes do not have")
RELEASE_STEPS = pytest.mark.not_on(
    "win32", "darwin", reason="the release runs on Linux (ubuntu-24.04): its steps and the rebuild "
                              "recipe are run here by bash with GNU coreutils (sha256sum --check)")
CASE_SENSITIVE_NAMES = pytest.mark.not_on(
    "win32", "darwin", reason="two names that differ only in case are one file on the default file "
                              "systems of Windows (NTFS) and macOS (APFS)")
REPLACE_WHILE_READ = pytest.mark.not_on(
    "win32", reason="the test reads the records while migrate replaces them; on Windows a file open "
                    "for reading (without FILE_SHARE_DELETE, as Python opens it) cannot be replaced")
