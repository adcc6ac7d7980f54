"""The chaos harness's durable outage: a paused broker answers nothing until it is resumed;
it keeps its process, and so its data (streams/tools/broker.py `pause`/`resume`)."""

from __future__ import annotations

from pathlib import Path

from contraflow.streams.tools.broker import TansuBroker, kafka_metadata_ok


def test_a_paused_broker_answers_nothing_until_resumed_and_still_stops(tmp_path: Path) -> None:
    with TansuBroker(log=tmp_path / "tansu.log") as broker:
        assert kafka_metadata_ok(broker.host, broker.port, timeout=2.0)
        broker.pause()
        try:
            assert not kafka_metadata_ok(broker.host, broker.port, timeout=1.0)
        finally:
            broker.resume()
        assert kafka_metadata_ok(broker.host, broker.port, timeout=5.0)
        broker.pause()  # stopping a paused broker must not hang
    assert not kafka_metadata_ok(broker.host, broker.port, timeout=1.0)
