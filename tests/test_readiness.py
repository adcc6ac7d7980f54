"""/readyz's verdict (agents/endpoints.py): not ready, with the reason, while the broker is
unreachable or the latest offset commit failed."""

from pathlib import Path

from agents.broker_watch import BrokerStatus
from agents.endpoints import not_ready_because
from streams.app import create_app
from streams.settings import Settings


def test_readiness_names_what_is_wrong(tmp_path: Path) -> None:
    app = create_app(Settings(broker_url="kafka://127.0.0.1:1", web_enabled=False, data_dir=tmp_path))
    broker = BrokerStatus()
    assert not_ready_because(app, broker, started=False) == "starting"
    assert not_ready_because(app, broker, started=True) == "broker not checked yet"
    broker.update("cannot reach the Kafka broker at kafka://127.0.0.1:1")
    assert "cannot reach the Kafka broker" in (not_ready_because(app, broker, started=True) or "")
    broker.update(None)
    assert not_ready_because(app, broker, started=True) is None
    app.consumer.commit_health.record(False, "KafkaConnectionError: gone")
    assert "offset commit failed: KafkaConnectionError" in (not_ready_because(app, broker, started=True) or "")
    app.consumer.commit_health.record(True)
    assert not_ready_because(app, broker, started=True) is None
