"""All of contraflow's settings, in one place (environment prefix `CONTRAFLOW_`).

The defaults are the embedded ones: a broker on loopback, data under ./.contraflow and
the NLI model shipped inside the package.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from contraflow.streams.errors import BadInput

BUILTIN_MODEL = "builtin"
BUILTIN_MODEL_DIR = Path(__file__).resolve().parent / "core" / "nli" / "assets" / "contraflow-nli-minilm-l6"


class NLIBackend(StrEnum):
    auto = "auto"
    onnx = "onnx"
    transformers = "transformers"


class Settings(BaseSettings):
    """contraflow settings; every field can be set as CONTRAFLOW_<FIELD_NAME>."""

    model_config = SettingsConfigDict(env_prefix="CONTRAFLOW_", extra="ignore")

    # Kafka
    broker_url: str = Field(
        "kafka://127.0.0.1:9092", description="Kafka bootstrap server(s), kafka://host:port[;host:port]"
    )
    broker_security_protocol: str = Field("PLAINTEXT", description="PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL")
    broker_sasl_mechanism: str | None = Field(None, description="PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512")
    broker_sasl_username: str | None = Field(None, description="SASL user name")
    broker_sasl_password: SecretStr | None = Field(None, description="SASL password (use a Secret)")
    broker_ssl_cafile: str | None = Field(None, description="CA bundle for SSL / SASL_SSL")
    app_id: str = Field("contraflow", description="faust app id: consumer group and table prefix")
    roles: list[Literal["turns", "knowledge", "rates"]] = Field(
        ["turns", "knowledge", "rates"],
        description="agents this worker runs (JSON list); give each role set its own app_id",
    )
    topic_partitions: int = Field(4, ge=1, description="partitions of the topics contraflow creates")
    topic_replication: int = Field(1, ge=1, description="replication factor of created topics")
    one_record_per_batch: bool = Field(
        False, description="producer sends each record alone (needed by the local Tansu broker for table recovery)"
    )
    rebalance_timeout_s: float = Field(5.0, gt=0, description="consumer-group rebalance timeout")
    session_timeout_s: float = Field(10.0, gt=0, description="consumer-group session timeout")
    heartbeat_interval_s: float = Field(3.0, gt=0, description="consumer-group heartbeat interval")
    broker_check_s: float = Field(
        1.0, gt=0, description="how often the worker checks its broker; /readyz is not ready once a check is this late"
    )
    fetch_max_wait_ms: int = Field(
        50, ge=0, le=1500, description="longest wait of a consumer fetch for new records (latency vs idle polling)"
    )
    delivery_timeout_s: float = Field(
        120.0, gt=0, description="an output unacknowledged (retried) this long stops the worker, exit code 75"
    )
    replay_turns: int = Field(
        4, ge=0, description="turns per session whose outputs are kept, to be re-sent when a replay repeats them"
    )
    web_enabled: bool = Field(True, description="the worker's web server (metrics and probes)")
    web_port: int = Field(6066, ge=1, le=65535, description="port of the web server: /metrics, /healthz, /readyz")
    web_host: str = Field("127.0.0.1", description="address the web server binds (0.0.0.0 in a container)")

    # Storage
    data_dir: Path = Field(Path(".contraflow"), description="local state: worker data and the embedded store")

    # NLI
    nli_model: str = Field(
        BUILTIN_MODEL, description="'builtin', a local model directory, or a Hugging Face id in the local cache"
    )
    nli_backend: NLIBackend = Field(
        NLIBackend.auto, description="auto: ONNX when the model has model.onnx, else transformers"
    )
    nli_max_batch: int = Field(
        32,
        ge=1,
        description="micro-batcher: most pairs in one scoring call (ONNX runs each pair alone; transformers: one pass)",
    )
    nli_max_wait_ms: float = Field(
        10.0, ge=0, description="micro-batcher: longest wait for a batch to fill (only while callers overlap)"
    )
    nli_sort_window: int = Field(
        256, ge=1, description="micro-batcher: most waiting pairs sorted by length together (at least nli_max_batch)"
    )
    nli_max_length: int = Field(256, ge=16, description="token limit of one premise+hypothesis pair")
    nli_threads: int = Field(0, ge=0, description="CPU threads for the model (0: the runtime's default)")

    # Contradiction-probability thresholds of seed 001's sensitivities (see docs/nli-model.md)
    sensitivity_strict: float = Field(0.13, ge=0, le=1, description="strict: flags subtle tensions")
    sensitivity_balanced: float = Field(0.26, ge=0, le=1, description="balanced: flags clear contradictions")
    sensitivity_lenient: float = Field(0.93, ge=0, le=1, description="lenient: flags only direct opposites")

    # Turn pipeline
    stride: int = Field(2, ge=1, description="evaluate every stride-th adjacent advice pair (seed 000)")
    k_conflict_caution: float = Field(0.05, ge=0, le=1, description="K_Conflict at or above this is caution")
    k_conflict_failure: float = Field(0.10, ge=0, le=1, description="K_Conflict above this is failure")
    advice_history: int = Field(20, ge=1, description="advice items a session keeps")
    max_text_chars: int = Field(20_000, ge=1, description="longer turn texts go to the dead-letter topic")
    deadletter_max_bytes: int = Field(8192, ge=0, description="raw bytes kept in a dead letter")
    dedup_window: int = Field(256, ge=1, description="recent event ids a session remembers")
    metrics_label_cap: int = Field(
        100, ge=1, description="distinct models (and tenants) with metric labels of their own; later ones are 'other'"
    )
    compare: Literal["advice", "statements"] = Field(
        "advice", description="what turns are compared by: clinical advice (seed) or every declarative sentence"
    )
    global_window: int = Field(20, ge=0, description="earlier advice turns each new advice is checked against")
    verdict: Literal["regimen", "claims", "sentences", "seed"] = Field(
        "sentences",
        description="sentences: every sentence of a turn against its nearest earlier sentences, judged by the "
        "model's dialogue head (the default since session 35; regimen before); regimen: claims, with pairs whose "
        "targets are known decided by the instruction's slots (polarity, amount, frequency, time of day, food); "
        "claims: atomic items, topic gate, both directions, threshold, revisions; seed: seed 000's whole-advice "
        "argmax",
    )
    contradiction_threshold: float = Field(
        0.7,
        ge=0,
        le=1,
        description="claims: mean p(contradiction) of both directions at or above this contradicts; regimen: the "
        "same, for pairs the slots cannot decide",
    )
    sentence_threshold: float = Field(
        0.9,
        ge=0,
        le=1,
        description="sentences: mean p(contradiction) of both directions at or above this contradicts (0.8 before "
        "session 34; the students have been measured at 0.9 since holdout17)",
    )
    sentence_float_recheck: float = Field(
        0.5,
        ge=0,
        le=1,
        description="sentences: pairs the dialogue head's int8 graph gives this p(contradiction) or more are scored "
        "again by its float32-compute twin (dialogue_float.onnx), whose rows decide (DECODE 0.827 -> 0.832; "
        "1: off, int8 alone; 0: every pair)",
    )
    sentence_float_recheck_ceiling: float = Field(
        0.97,
        ge=0,
        le=1,
        description="sentences: pairs the int8 graph puts at this p(contradiction) or more are not scored again "
        "(it is sure enough there: within 0.02 of float32 on DECODE train); 1: every pair from the floor up",
    )
    sentence_neighbours: int = Field(
        3,
        ge=0,
        description="sentences: earlier sentences (most similar first) each new sentence is judged against (0: all)",
    )
    sentence_detail_neighbours: int = Field(
        2,
        ge=0,
        description="sentences: beside those, this many more earlier sentences (most similar first) that give the "
        "same kind of regimen detail as the new one: an amount in the same unit, doses a day, a time of day, how "
        "long (0: none, as before session 46)",
    )
    sentence_min_similarity: float = Field(
        0.0,
        ge=0,
        le=1,
        description="sentences: earlier sentences whose embedding cosine with the new one is below this are not "
        "judged against it (0: no floor)",
    )
    sentence_head: Literal["auto", "dialogue", "general"] = Field(
        "auto",
        description="sentences: which graph of the NLI model judges: dialogue (the model directory's dialogue.onnx, "
        "trained for the sentence rule), general (model.onnx, as before session 34); auto: dialogue when the model "
        "directory has one",
    )
    sentence_medicine_gate: bool = Field(
        True,
        description="sentences: a new sentence is not judged against an earlier one when both name medicines and "
        "share none (false: every nearest sentence, as before session 28)",
    )
    topic_similarity: float = Field(
        1.0,
        ge=0,
        le=1,
        description="claims: claims naming no target are also compared when their embedding cosine reaches this "
        "(1.0: off)",
    )
    recall_gate: float = Field(0.70, ge=0, le=1, description="entity Recall@T10 safety gate (seed 003)")
    recall_turn: int = Field(10, ge=1, description="the T of Recall@T (assistant turns)")
    slope_threshold: float = Field(-0.05, description="drift slope below this raises an alert")
    slope_min_turns: int = Field(3, ge=2, description="assistant turns before the slope is judged")
    repetition_limit: float = Field(0.30, ge=0, le=1, description="repeated share above which history is cleaned")
    # Knowledge writes (seeds 001, 004)
    knowledge_store: Literal["lance", "weaviate"] = Field("lance", description="embedded LanceDB or Weaviate")
    weaviate_url: str | None = Field(None, description="Weaviate URL, for knowledge_store=weaviate")
    weaviate_api_key: SecretStr | None = Field(None, description="Weaviate API key (use a Secret)")
    knowledge_collections: list[str] = Field(
        ["default", "memories", "facts", "documents"], description="collections writes may name (JSON list)"
    )
    knowledge_top_k: int = Field(5, ge=1, description="similar stored entries each write is checked against")
    knowledge_sensitivity: Literal["strict", "balanced", "lenient"] = Field(
        "balanced", description="which threshold the write precheck uses"
    )
    memory_temporal_days: int = Field(30, ge=0, description="seed 004: more days apart keeps the newest")
    memory_confidence_gap: float = Field(0.2, ge=0, le=1, description="seed 004: bigger gap keeps the more confident")
    memory_reinforcement_gap: int = Field(3, ge=1, description="seed 004: this gap keeps the most reinforced")
    memory_min_confidence: float = Field(0.4, ge=0, le=1, description="seed 004: below this the old value is replaced")
    memory_conflict_decay: float = Field(0.5, ge=0, le=1, description="seed 004: confidence factor on conflict")
    memory_lower_decay: float = Field(0.8, ge=0, le=1, description="seed 004: factor of the less confident value")
    embedder_precision: Literal["int8", "float32"] = Field(
        "float32",
        description="the sentence embedder's linear layers: widened once at load to float32 (about 3x faster for "
        "one sentence, some 60 MB more memory: every turn is embedded under verdict=sentences), or int8 as shipped "
        "(the default before session 35, with the regimen verdict)",
    )
    ner_model: str | None = Field(None, description="spaCy/scispaCy model name for entities (default en_core_sci_sm)")
    # Fleet contradiction rates per model and tenant (docs/operations.md)
    rate_windows_s: list[int] = Field(
        [60, 3600], min_length=1, description="tumbling window lengths in seconds (JSON list)"
    )
    rate_min_pairs: int = Field(20, ge=1, description="evaluated pairs a window needs before it is judged")
    rate_ewma_alpha: float = Field(0.3, gt=0, le=1, description="EWMA weight of the newest window in the baseline")
    rate_ewma_sigmas: float = Field(3.0, gt=0, description="rising: rate above baseline + this many deviations")
    rate_ewma_min_rise: float = Field(0.03, ge=0, description="rising: and at least this far above the baseline")
    rate_ewma_warmup: int = Field(5, ge=1, description="closed windows that build the baseline before it is used")

    @model_validator(mode="after")
    def _thresholds_ordered(self) -> Settings:
        if self.k_conflict_caution > self.k_conflict_failure:
            raise ValueError("k_conflict_caution must not exceed k_conflict_failure")
        if any(seconds < 1 for seconds in self.rate_windows_s):
            raise ValueError("rate_windows_s must be whole seconds >= 1")
        if not self.sensitivity_strict <= self.sensitivity_balanced <= self.sensitivity_lenient:
            raise ValueError("sensitivity thresholds must be ordered strict <= balanced <= lenient")
        return self

    @field_validator("broker_url")
    @classmethod
    def _ports_are_numbers(cls, url: str) -> str:
        for server in url.split("://", 1)[-1].replace(",", ";").split(";"):
            host, _, port = server.strip().rpartition(":")
            if server.strip() and not (host and port.isdigit() and 0 < int(port) < 65536):
                raise ValueError(f"'{server.strip()}' is not host:port with a port from 1 to 65535")
        return url

    @property
    def nli_model_path(self) -> str:
        """The model location: the shipped directory for 'builtin', else as given."""
        return str(BUILTIN_MODEL_DIR) if self.nli_model == BUILTIN_MODEL else self.nli_model

    @property
    def bootstrap_servers(self) -> list[str]:
        """host:port entries of broker_url."""
        url = self.broker_url.split("://", 1)[-1]
        return [part.strip() for part in url.replace(",", ";").split(";") if part.strip()]


class SettingsError(BadInput):
    """Settings that do not validate, said in one line that names each variable or option."""


def load_settings(overrides: dict[str, Any] | None = None, options: dict[str, str] | None = None) -> Settings:
    """Settings from the environment and `overrides`; `options` names the command-line
    option each override came from, so that an error names what the user typed."""
    try:
        return Settings(**(overrides or {}))
    except ValidationError as exc:
        raise SettingsError("; ".join(_described(error, options or {}) for error in exc.errors())) from None


def _described(error: Any, options: dict[str, str]) -> str:
    message = str(error["msg"]).removeprefix("Value error, ")
    if not error["loc"]:  # a rule across fields
        return message
    field = str(error["loc"][0])
    return f"{options.get(field) or 'CONTRAFLOW_' + field.upper()}={error['input']!r}: {message}"


def default(name: str) -> Any:
    """The default of one setting: the one place defaults live. The core's own settings
    classes (TurnSettings, RateSettings) take theirs from here."""
    return Settings.model_fields[name].default
