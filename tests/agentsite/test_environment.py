from __future__ import annotations

import os
import subprocess

import pytest
from django.core.exceptions import ImproperlyConfigured

from agentsite.environment import env_bool, env_choice, env_float, env_int, env_list, env_str


@pytest.mark.parametrize("raw,expected", [("1", True), ("TRUE", True), ("yes", True), ("off", False), ("0", False), ("", False)])
def test_env_bool_parses_common_spellings(raw, expected):
    assert env_bool("FLAG", default=False, environ={"FLAG": raw}) is expected


def test_env_bool_rejects_other_words():
    with pytest.raises(ImproperlyConfigured, match="FLAG='maybe' is not a boolean"):
        env_bool("FLAG", environ={"FLAG": "maybe"})


def test_env_int_uses_default_when_unset_and_checks_bounds():
    assert env_int("PORT", 8000, environ={}) == 8000
    assert env_int("PORT", 8000, environ={"PORT": " 9000 "}) == 9000
    with pytest.raises(ImproperlyConfigured, match="not an integer"):
        env_int("PORT", 8000, environ={"PORT": "80a"})
    with pytest.raises(ImproperlyConfigured, match="above the maximum of 65535"):
        env_int("PORT", 8000, maximum=65535, environ={"PORT": "70000"})
    with pytest.raises(ImproperlyConfigured, match="below the minimum of 1"):
        env_int("PORT", 8000, minimum=1, environ={"PORT": "0"})


def test_env_float_rejects_text():
    assert env_float("T", 1.5, environ={"T": "2.25"}) == 2.25
    with pytest.raises(ImproperlyConfigured, match="T='soon' is not a number"):
        env_float("T", 1.5, environ={"T": "soon"})


def test_secrets_can_come_from_a_file(tmp_path):
    secret = tmp_path / "token"
    secret.write_text("s3cret\n")
    assert env_str("TOKEN", environ={"TOKEN_FILE": str(secret)}) == "s3cret"
    assert env_str("TOKEN", environ={"TOKEN": "direct", "TOKEN_FILE": str(secret)}) == "direct"
    with pytest.raises(ImproperlyConfigured, match="cannot be read"):
        env_str("TOKEN", environ={"TOKEN_FILE": str(tmp_path / "missing")})


def test_env_list_and_choice():
    assert env_list("HOSTS", ["a"], environ={"HOSTS": "x, y,,z"}) == ["x", "y", "z"]
    assert env_list("HOSTS", ["a"], environ={}) == ["a"]
    assert env_choice("P", "auto", ("auto", "offline"), environ={"P": "Offline"}) == "offline"
    with pytest.raises(ImproperlyConfigured, match="must be one of: auto, offline"):
        env_choice("P", "auto", ("auto", "offline"), environ={"P": "cloud"})


def test_settings_module_refuses_a_bad_value(tmp_path):
    import subprocess
    import sys

    from tests.conftest import ROOT

    result = subprocess.run(
        [sys.executable, "-c", "import agentsite.settings"],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "PORT": "eighty", "AGENTSITE_DATA_DIR": str(tmp_path)},
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0
    assert "ImproperlyConfigured: PORT='eighty' is not an integer" in result.stderr


def test_database_url_must_be_postgres(tmp_path):
    import subprocess
    import sys

    from tests.conftest import ROOT

    result = subprocess.run(
        [sys.executable, "-c", "import agentsite.settings"],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "DATABASE_URL": "sqlite:///x.db", "AGENTSITE_DATA_DIR": str(tmp_path)},
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0
    assert "DATABASE_URL must point at PostgreSQL" in result.stderr


def test_a_statement_timeout_applies_to_every_connection_of_the_process():
    import subprocess
    import sys

    from tests.conftest import ROOT

    env = {**os.environ, "DATABASE_STATEMENT_TIMEOUT_MS": "1234"}
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "shell", "-c",
         "from django.db import connection\nwith connection.cursor() as c:\n    c.execute('SHOW statement_timeout')\n    print(c.fetchone()[0])"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "1234ms"


def _deploy_check(**variables: str) -> str:
    import subprocess
    import sys

    from tests.conftest import ROOT

    env = {**os.environ, "DEBUG": "0", "SECRET_KEY": "k" * 20 + "-Q7x_Zp2Lm9Vw4Rt8Yb3Nc6Hd1Jf5Gs0Ue-" * 2, **variables}
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "check", "--deploy"], cwd=ROOT, env=env, capture_output=True,
        text=True, timeout=120,
    )
    return done.stdout + done.stderr


def test_behind_a_tls_proxy_the_deployment_check_finds_nothing_to_fix():
    report = _deploy_check(HTTPS="1", TRUST_PROXY_HEADERS="1", HSTS_INCLUDE_SUBDOMAINS="1", HSTS_PRELOAD="1")

    assert "System check identified no issues" in report, report


def test_over_plain_http_the_deployment_check_says_what_is_missing():
    report = _deploy_check()

    assert "security.W004" in report and "security.W012" in report and "security.W016" in report


def test_the_generated_secret_key_is_readable_by_its_owner_only(tmp_path):
    import subprocess
    import sys

    from tests.conftest import ROOT

    env = {**os.environ, "AGENTSITE_DATA_DIR": str(tmp_path), "DATABASE_URL": "postgres://nobody@127.0.0.1:9/none"}
    env.pop("SECRET_KEY", None)
    # Before every file operation on the data folder (an audit hook runs before the operation), the modes
    # of the key's files are noted: a key written first and chmod-ed after is seen readable by others.
    code = f"""
import os, sys
os.umask(0o022)
DATA, modes, busy = {str(tmp_path)!r}, set(), False
def note(event, args):
    global busy
    if busy or event not in ("open", "os.chmod", "os.link", "os.rename", "os.replace"):
        return
    if not any(isinstance(arg, (str, os.PathLike)) and os.fspath(arg).startswith(DATA) for arg in args[:2]):
        return
    busy = True
    try:
        for name in os.listdir(DATA):
            if "secret_key" in name:
                modes.add(os.stat(os.path.join(DATA, name)).st_mode & 0o777)
    finally:
        busy = False
sys.addaudithook(note)
import django; django.setup()
from django.conf import settings
print(settings.SECRET_KEY)
print(sorted(modes))
"""
    runs = [
        subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**env, "DJANGO_SETTINGS_MODULE": "agentsite.settings"},
                       capture_output=True, text=True, timeout=60)
        for _ in range(2)
    ]

    key_file = tmp_path / "secret_key"
    assert all(run.returncode == 0 for run in runs), runs[0].stderr
    keys, modes = zip(*(run.stdout.splitlines() for run in runs))
    assert modes[0] == "[384]"  # 0o600, the only mode the new key's files ever had
    assert key_file.stat().st_mode & 0o777 == 0o600
    assert keys[0] == keys[1] == key_file.read_text()
    assert [path.name for path in tmp_path.iterdir() if path.name.startswith(".secret_key")] == []


def _settings_of(env: dict[str, str], tmp_path) -> subprocess.CompletedProcess[str]:
    """Import the settings module in a child process with only ``env`` set."""
    import sys

    from tests.conftest import ROOT

    code = "import json, agentsite.settings as s; print(json.dumps(s.LLM['PROVIDERS']['openai']['REASONING_EFFORT']))"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
        env={"PATH": "/usr/bin:/bin", "AGENTSITE_DATA_DIR": str(tmp_path), **env},
    )


def test_the_reasoning_effort_is_empty_by_default_and_read_for_a_reasoning_model(tmp_path):
    assert _settings_of({}, tmp_path).stdout.strip() == '""'
    chosen = _settings_of({"OPENAI_REASONING_MODEL": "true", "OPENAI_REASONING_EFFORT": "Medium"}, tmp_path)
    assert chosen.stdout.strip() == '"medium"', chosen.stderr


def test_a_reasoning_effort_that_is_no_level_is_refused(tmp_path):
    result = _settings_of({"OPENAI_REASONING_MODEL": "true", "OPENAI_REASONING_EFFORT": "extreme"}, tmp_path)

    assert result.returncode != 0
    assert "ImproperlyConfigured: OPENAI_REASONING_EFFORT='extreme' must be one of: empty, low, medium, high" in result.stderr


def test_a_reasoning_effort_without_the_reasoning_model_switch_is_refused(tmp_path):
    result = _settings_of({"OPENAI_REASONING_EFFORT": "high"}, tmp_path)

    assert result.returncode != 0
    assert "OPENAI_REASONING_EFFORT needs OPENAI_REASONING_MODEL=true" in result.stderr
