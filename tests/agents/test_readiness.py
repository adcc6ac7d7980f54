"""/readyz's verdict (agents/endpoints.py): not ready, with the reason, while the models load,
the broker is unreachable or the latest offset commit failed."""

import threading
import time
from pathlib import Path

from contraflow.agents.broker_watch import BrokerStatus
from contraflow.agents.endpoints import not_ready_because
from contraflow.agents.loading import Loading
from contraflow.streams.runtime.app import create_app
from contraflow.streams.settings import Settings


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


def test_not_ready_while_the_models_load(tmp_path: Path) -> None:
    app = create_app(Settings(broker_url="kafka://127.0.0.1:1", web_enabled=False, data_dir=tmp_path))
    broker = BrokerStatus()
    broker.update(None)
    release = threading.Event()
    models = Loading(lambda: release.wait(10.0), "the models")
    store = Loading(lambda: models.result(), "the knowledge store")
    reason = not_ready_because(app, broker, started=True, loading=[models, store])
    assert reason == "loading the models and the knowledge store"
    release.set()
    store.result()
    assert not_ready_because(app, broker, started=True, loading=[models, store]) is None


def test_not_ready_while_a_broker_check_goes_unanswered(tmp_path: Path) -> None:
    # a frozen broker answers nothing: readiness must not wait for the check's own timeout
    app = create_app(Settings(broker_url="kafka://127.0.0.1:1", web_enabled=False, data_dir=tmp_path))
    broker = BrokerStatus(answer_within_s=0.05)
    broker.update(None)
    broker.asking()
    assert not_ready_because(app, broker, started=True) is None
    time.sleep(0.1)
    assert "no answer from the Kafka broker for" in (not_ready_because(app, broker, started=True) or "")
    broker.update(None)
    assert not_ready_because(app, broker, started=True) is None
