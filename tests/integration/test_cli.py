"""The command line: help for every subcommand, and one readable error (no traceback)
for the mistakes users make."""

import contextlib
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from contraflow.streams.runtime.kafka import connection_options
from contraflow.streams.settings import Settings
from contraflow.streams.tools import cli
from contraflow.streams.tools.broker import free_port
from contraflow.streams.tools.cli import build_parser

SUBCOMMANDS = [
    "broker",
    "worker",
    "send",
    "tail",
    "demo",
    "schemas",
    "nli",
    "nli train",
    "nli eval",
    "nli export",
    "nli dialogue-head",
    "nli float-twin",
]


def contraflow(*args: str, env: dict[str, str] | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "contraflow.streams.tools.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


@pytest.mark.parametrize("command", ["", *SUBCOMMANDS])
def test_help(command: str) -> None:
    result = contraflow(*command.split(), "--help")
    assert result.returncode == 0
    assert "usage: contraflow" in result.stdout


def assert_one_readable_error(result: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    for needle in needles:
        assert needle in lines[0]


def test_wrong_broker_address(tiny_onnx: Path) -> None:
    port = free_port()
    result = contraflow("worker", "--broker", f"127.0.0.1:{port}", "--model", str(tiny_onnx))
    assert_one_readable_error(result, "cannot reach the Kafka broker", f"127.0.0.1:{port}")
    result = contraflow("tail", "--broker", f"127.0.0.1:{port}", "--idle", "1")
    assert_one_readable_error(result, "cannot reach the Kafka broker")


def test_missing_model() -> None:
    result = contraflow("worker", "--model", "/no/such/model")
    assert_one_readable_error(result, "NLI model not found", "/no/such/model", "CONTRAFLOW_NLI_MODEL")


def test_a_dialogue_head_asked_for_and_missing(tiny_onnx: Path) -> None:
    env = {**os.environ, "CONTRAFLOW_VERDICT": "sentences", "CONTRAFLOW_SENTENCE_HEAD": "dialogue"}
    result = contraflow("worker", "--model", str(tiny_onnx), env=env)  # before any broker is asked
    assert_one_readable_error(result, "has no dialogue head", "nli dialogue-head", "CONTRAFLOW_SENTENCE_HEAD")


def test_send_missing_file(tmp_path: Path) -> None:
    assert_one_readable_error(contraflow("send", str(tmp_path / "nope.jsonl")), "no such file")


def test_eval_prints_the_report(tiny_onnx: Path, tmp_path: Path) -> None:
    data = tmp_path / "dev.jsonl"
    data.write_text(
        '{"premise": "A dog runs.", "hypothesis": "An animal moves.", "label": "entailment"}\n'
        '{"premise": "A dog runs.", "hypothesis": "A dog sleeps.", "label": "contradiction"}\n'
    )
    result = contraflow("nli", "eval", str(data), "--model", str(tiny_onnx))
    assert result.returncode == 0, result.stderr
    assert "accuracy" in result.stdout and "contradiction-vs-rest F1" in result.stdout
    assert "confusion" in result.stdout


def test_train_rejects_a_count_that_is_not_a_number(tmp_path: Path) -> None:
    result = contraflow("nli", "train", "--out", str(tmp_path / "out"), "--unrelated-negatives", "many", "x.jsonl")
    assert_one_readable_error(result, "--unrelated-negatives", "COUNT must be a whole number", "'many'")


def test_a_bad_setting_names_its_environment_variable(tmp_path: Path) -> None:
    env = {**os.environ, "CONTRAFLOW_KNOWLEDGE_SENSITIVITY": "extreme"}
    result = contraflow("replay", "streams/samples/demo_turns.jsonl", "--out", str(tmp_path), env=env)
    assert_one_readable_error(result, "CONTRAFLOW_KNOWLEDGE_SENSITIVITY='extreme'", "'strict', 'balanced' or 'lenient'")


def test_a_broker_address_without_a_port_number_names_the_option(tmp_path: Path) -> None:
    events = tmp_path / "turns.jsonl"
    events.write_text('{"session_id": "s"}\n')
    result = contraflow("send", str(events), "--broker", "notahost:abc")
    assert_one_readable_error(result, "--broker=", "'notahost:abc' is not host:port")


def test_send_refuses_a_line_that_is_not_json_before_reaching_the_broker(tmp_path: Path) -> None:
    events = tmp_path / "turns.jsonl"
    events.write_bytes(b'{"session_id": "s"}\nnot json\n\xff\xfe\n')
    result = contraflow("send", str(events), "--broker", f"127.0.0.1:{free_port()}")
    assert_one_readable_error(result, f"{events}:2 is not JSON", "--force")


@pytest.mark.parametrize("command", [["send", "streams/samples/demo_turns.jsonl", "--topic"], ["tail"]])
def test_a_misspelled_topic_is_refused(command: list[str]) -> None:
    result = contraflow(*command, "contraflow.turnz", "--broker", f"127.0.0.1:{free_port()}")
    assert_one_readable_error(result, "unknown topic 'contraflow.turnz'", "contraflow.turns", "--force")


def test_sigterm_stops_the_broker_command_and_its_tansu_child() -> None:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "contraflow.streams.tools.cli", "broker", "--port", str(port)],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None and "Tansu broker on" in proc.stdout.readline()
        socket.create_connection(("127.0.0.1", port), timeout=5).close()  # listening
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=15) == 0
        with pytest.raises(OSError):  # nothing listens any more: the child is gone too
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
    finally:
        with contextlib.suppress(ProcessLookupError):  # a leftover child of a failed run goes too
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def test_schemas_help_names_the_folder_it_writes() -> None:
    parser_default = next(
        a.default for a in build_parser()._subparsers._group_actions[0].choices["schemas"]._actions if a.dest == "out"
    )
    assert f"(default {parser_default})" in " ".join(contraflow("schemas", "--help").stdout.split())


def test_a_file_that_is_not_utf8_is_named_with_its_line(tmp_path: Path) -> None:
    turns = tmp_path / "turns.jsonl"
    turns.write_bytes(b'{"event_id": "x", "session_id": "s", "turn_index": 1, "role": "assistant",\n "text": "\xff"}\n')
    assert_one_readable_error(contraflow("replay", str(turns), "--out", str(tmp_path / "out")), f"{turns}:2", "UTF-8")
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_bytes(b'{"premise": "a", "hypothesis": "b", "label": "entailment"}\n\xff\n')
    assert_one_readable_error(contraflow("nli", "eval", str(pairs)), f"{pairs}:2", "UTF-8")


def test_replay_of_a_list_with_no_case_in_it_is_an_error(tmp_path: Path) -> None:
    cases = tmp_path / "cases.json"
    cases.write_text('[{"a": 1}, {"b": 2}]')
    result = contraflow("replay", str(cases), "--out", str(tmp_path / "out"))
    assert result.returncode == 2 and "nothing to replay" in result.stderr and "2 skipped" in result.stderr
    assert not (tmp_path / "out" / "report.html").exists()


def test_debug_shows_the_traceback_of_a_user_error(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.jsonl")
    for result in (
        contraflow("--debug", "send", missing),
        contraflow("send", missing, env={**os.environ, "CONTRAFLOW_DEBUG": "1"}),
    ):
        assert result.returncode == 1
        assert "Traceback" in result.stderr and "CLIError: no such file" in result.stderr


def test_a_bug_in_a_command_shows_its_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    """A ValueError or RuntimeError that is not a user error is a bug: not one line, exit 2."""

    def broken(args: object) -> int:
        raise ValueError("an invariant of the command broke")

    monkeypatch.setattr(cli, "cmd_schemas", broken)
    with pytest.raises(ValueError, match="invariant"):
        cli.main(["schemas", "--check"])


def test_secrets_stay_out_of_the_settings_repr_and_reach_the_client() -> None:
    settings = Settings(
        broker_security_protocol="SASL_PLAINTEXT", broker_sasl_username="svc", broker_sasl_password="hunter2"
    )
    assert "hunter2" not in repr(settings) and "hunter2" not in str(settings.model_dump())
    assert connection_options(settings)["sasl_plain_password"] == "hunter2"
