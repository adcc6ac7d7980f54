"""The runtime: what runs the core as a streaming service. The faust app and codec, the
Kafka consumer, producer and delivery checks, the model and store processes, the worker's
services and its Prometheus metrics. With agents/, the only place faust is imported."""
