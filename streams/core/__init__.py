"""The core: plain Python that knows nothing of faust or Kafka. Advice and entity extraction,
the NLI scorer and micro-batcher, the sentence embedder, the verdict rules, the metrics, the
turn pipeline and the knowledge pipeline with its stores."""
