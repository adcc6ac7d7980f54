"""The faust application, configured from Settings, on contraflow's transport
(streams/runtime/consumer.py: gapless input delivery, a configurable fetch wait), with a sensor
that stops the worker when a background send fails (see `UnacknowledgedSends`)."""

from __future__ import annotations

import ssl
from datetime import timedelta
from typing import Any

import faust

from contraflow.streams.errors import BadInput
from contraflow.streams.runtime import codec
from contraflow.streams.runtime.consumer import ContraflowTransport
from contraflow.streams.runtime.delivery import DeliveryFailed, exit_undelivered
from contraflow.streams.settings import Settings


class UnacknowledgedSends(faust.Sensor):
    """faust sends table changelog records without waiting, and before a commit it only
    flushes the producer, which waits for sends to finish, failed or not: a lost state
    write would be committed past. faust reports every failed background send to its
    sensors; this one stops the worker at once (exit code 75) so that nothing is committed
    after it. (Outputs are sent with waiting and retried: `streams.delivery`.)"""

    def on_send_error(self, producer: Any, exc: BaseException, state: Any) -> None:
        exit_undelivered(DeliveryFailed(f"a background send (table changelog) failed: {type(exc).__name__}: {exc}"))


class ContraflowApp(faust.App):
    """A faust App whose consumer is `GaplessConsumer` with the configured fetch wait."""

    fetch_max_wait_ms: int = 1500  # faust's own value; create_app sets the configured one
    delivery_timeout_s: float = 120.0  # how long a flush waits for acknowledgements; create_app sets it

    def _new_transport(self) -> ContraflowTransport:
        return ContraflowTransport(self.conf.broker_consumer, self)


def broker_credentials(settings: Settings) -> faust.types.auth.CredentialsT | None:
    """SASL/SSL credentials from the settings, or None for PLAINTEXT."""
    protocol = settings.broker_security_protocol.upper()
    if protocol == "PLAINTEXT":
        return None
    context = ssl.create_default_context(cafile=settings.broker_ssl_cafile) if "SSL" in protocol else None
    if protocol.startswith("SASL"):
        if not (settings.broker_sasl_username and settings.broker_sasl_password):
            raise BadInput(f"{protocol} needs CONTRAFLOW_BROKER_SASL_USERNAME and CONTRAFLOW_BROKER_SASL_PASSWORD")
        return faust.SASLCredentials(
            username=settings.broker_sasl_username,
            password=settings.broker_sasl_password.get_secret_value(),
            mechanism=settings.broker_sasl_mechanism or "PLAIN",
            ssl_context=context,
        )
    if protocol == "SSL":
        return faust.SSLCredentials(context)
    raise BadInput(f"unknown broker security protocol {settings.broker_security_protocol!r}")


def create_app(settings: Settings) -> ContraflowApp:
    """A faust App for one worker; tables live in memory and recover from changelogs."""
    codec.register()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    app = ContraflowApp(
        settings.app_id,
        broker=settings.broker_url,
        broker_credentials=broker_credentials(settings),
        store="memory://",
        datadir=str(settings.data_dir / "worker"),
        autodiscover=False,
        topic_partitions=settings.topic_partitions,
        topic_replication_factor=settings.topic_replication,
        topic_allow_declare=True,
        topic_disable_leader=True,
        table_standby_replicas=0,
        processing_guarantee="at_least_once",
        broker_rebalance_timeout=settings.rebalance_timeout_s,
        broker_session_timeout=settings.session_timeout_s,
        broker_heartbeat_interval=settings.heartbeat_interval_s,
        broker_commit_interval=timedelta(seconds=1),
        producer_linger=0.0,
        producer_request_timeout=30.0,
        producer_max_batch_size=1 if settings.one_record_per_batch else 16384,
        consumer_auto_offset_reset="earliest",
        web_enabled=settings.web_enabled,
        web_port=settings.web_port,
        web_host=settings.web_host,
        value_serializer=codec.CODEC_NAME,
        key_serializer="raw",
    )
    app.fetch_max_wait_ms = settings.fetch_max_wait_ms
    app.delivery_timeout_s = settings.delivery_timeout_s
    app.sensors.add(UnacknowledgedSends())
    return app
