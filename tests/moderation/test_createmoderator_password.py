"""`manage.py createmoderator` where nobody can type a password (issue 29):
it says how to give one and changes nothing, instead of an EOFError; the
password comes from a file or standard input with --password-file."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from games.services import moderation

pytestmark = pytest.mark.django_db


class _Piped(io.StringIO):
    """Standard input as a script or `docker compose exec -T` gives it: no terminal."""

    def isatty(self) -> bool:
        return False


def test_without_a_terminal_it_says_how_to_pass_the_password_and_creates_nobody(monkeypatch):
    monkeypatch.setattr(sys, "stdin", _Piped(""))
    with pytest.raises(CommandError) as refused:
        call_command("createmoderator", "alice", "--email", "alice@example.org", stdout=io.StringIO())
    message = str(refused.value)
    assert "no terminal" in message and "--password-file" in message
    assert not User.objects.filter(username="alice").exists()


def test_the_password_is_read_from_the_first_line_of_a_file(tmp_path):
    secret = tmp_path / "password"
    secret.write_text("correct horse 12\nthis line is not read\n", encoding="utf-8")
    out = io.StringIO()
    call_command("createmoderator", "alice", "--email", "alice@example.org", "--password-file", str(secret), stdout=out)
    assert "created moderator alice" in out.getvalue()
    user = User.objects.get(username="alice")
    assert moderation.is_moderator(user) and user.check_password("correct horse 12")


def test_the_password_is_read_from_standard_input_with_a_dash(monkeypatch):
    monkeypatch.setattr(sys, "stdin", _Piped("piped secret 34\n"))
    call_command("createmoderator", "bob", "--password-file", "-", stdout=io.StringIO())
    assert User.objects.get(username="bob").check_password("piped secret 34")


def test_a_missing_or_empty_password_file_is_refused_without_a_traceback(tmp_path):
    with pytest.raises(CommandError, match="cannot read the password file"):
        call_command("createmoderator", "carol", "--password-file", str(tmp_path / "absent"), stdout=io.StringIO())
    empty = tmp_path / "empty"
    empty.write_text("", encoding="utf-8")
    with pytest.raises(CommandError, match="first line is empty"):
        call_command("createmoderator", "carol", "--password-file", str(empty), stdout=io.StringIO())
    assert not User.objects.filter(username="carol").exists()


def test_the_readme_gives_the_command_the_way_it_works_without_a_terminal():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    lines = [
        line for line in readme.splitlines() if "manage.py createmoderator" in line and "--password-file -" in line
    ]
    assert lines, "the README shows no way to create a moderator from a script"
