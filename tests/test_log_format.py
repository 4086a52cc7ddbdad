"""The log's format: text when it goes to a terminal, JSON lines otherwise (a pipe, a file, a container's log
driver); RULEKEEPER_LOG_FORMAT, when set, wins either way. Checked on the handler `rulekeeper serve` installs,
and on `rulekeeper serve` itself with its stderr on a pseudo-terminal and on a pipe."""

from __future__ import annotations

import io
import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from serve_process import START_SECONDS

from service import logs
from webhook_receiver import free_port


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def restore_logging():
    root = logging.getLogger()
    level = root.level
    yield
    for handler in [h for h in root.handlers if getattr(h, "_rulekeeper", False)]:
        root.removeHandler(handler)
    root.setLevel(level)
    logging.getLogger("uvicorn.access").disabled = False


def one_line(stream, monkeypatch, setting: str | None) -> str:
    if setting is None:
        monkeypatch.delenv("RULEKEEPER_LOG_FORMAT", raising=False)
    else:
        monkeypatch.setenv("RULEKEEPER_LOG_FORMAT", setting)
    logs.configure(level="INFO", stream=stream)
    logging.getLogger("rulekeeper.test").info("hello")
    return stream.getvalue().strip()


def is_json(line: str) -> bool:
    try:
        return json.loads(line)["message"] == "hello"
    except ValueError:
        return False


def test_a_terminal_gets_text_lines(restore_logging, monkeypatch):
    line = one_line(Terminal(), monkeypatch, None)
    assert not is_json(line) and line.endswith("INFO rulekeeper.test [-]: hello")


def test_anything_else_gets_json_lines(restore_logging, monkeypatch):
    assert is_json(one_line(io.StringIO(), monkeypatch, None))


@pytest.mark.parametrize(
    "setting, terminal, json_lines", [("json", True, True), ("text", False, False), ("JSON", True, True)]
)
def test_the_setting_wins(restore_logging, monkeypatch, setting, terminal, json_lines):
    stream = Terminal() if terminal else io.StringIO()
    assert is_json(one_line(stream, monkeypatch, setting)) is json_lines


def serve_first_line(stderr, env: dict[str, str], tmp_path: Path, read) -> str:
    port = free_port()
    environ = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "RULEKEEPER_LOG_FORMAT"}}
    environ.update({"DATABASE_URL": f"sqlite:///{tmp_path}/rulekeeper.db", "RULEKEEPER_LOG_LEVEL": "INFO", **env})
    proc = subprocess.Popen(
        [str(Path(sys.executable).with_name("rulekeeper")), "serve", "--port", str(port)],
        env=environ,
        stdout=subprocess.DEVNULL,
        stderr=stderr,
    )
    try:
        return read(proc)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _serving_line(chunks) -> str:
    deadline = time.monotonic() + START_SECONDS
    for line in chunks:
        if "serving on" in line:
            return line.strip()
        assert time.monotonic() < deadline, "no serving on"
    raise AssertionError("rulekeeper serve ended without serving on")


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals")
def test_rulekeeper_serve_on_a_terminal_prints_text_and_on_a_pipe_json(tmp_path):
    import pty

    leader, follower = pty.openpty()

    def from_terminal(proc) -> str:
        os.close(follower)
        reader = os.fdopen(leader, "r", errors="replace")
        return _serving_line(iter(reader.readline, ""))

    on_terminal = serve_first_line(follower, {}, tmp_path, from_terminal)
    assert not on_terminal.startswith("{") and " INFO " in on_terminal, on_terminal

    on_pipe = serve_first_line(
        subprocess.PIPE, {}, tmp_path, lambda proc: _serving_line(iter(lambda: proc.stderr.readline().decode(), ""))
    )
    assert json.loads(on_pipe)["level"] == "INFO"


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals")
def test_rulekeeper_serve_on_a_terminal_keeps_json_when_the_setting_says_so(tmp_path):
    import pty

    leader, follower = pty.openpty()

    def from_terminal(proc) -> str:
        os.close(follower)
        reader = os.fdopen(leader, "r", errors="replace")
        return _serving_line(iter(reader.readline, ""))

    line = serve_first_line(follower, {"RULEKEEPER_LOG_FORMAT": "json"}, tmp_path, from_terminal)
    assert json.loads(line)["message"].startswith("serving on")
