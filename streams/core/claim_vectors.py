"""Claim embeddings for the verdict: a cache of MiniLM vectors per claim text (the newest
EMBEDDING_CACHE kept) and the cosine of two claims, for the claims the target gate cannot
place and for each new sentence's nearest earlier ones (verdict=sentences)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from contraflow.models.state import AdviceItem
from contraflow.streams.core.calls import EmbedFn
from contraflow.streams.core.verdict import Similarity, VerdictRule, needs_similarity

EMBEDDING_CACHE = 4096  # claim embeddings a pipeline keeps


class ClaimVectors:
    def __init__(self, embed: EmbedFn | None, rule: VerdictRule) -> None:
        self.embed, self.rule = embed, rule
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()  # newest last

    async def similarity(self, earlier: Sequence[AdviceItem], current: AdviceItem) -> Similarity | None:
        """Cosine of claim embeddings (cached per text): for the claims the target gate cannot
        place, and for choosing each new sentence's nearest earlier ones (verdict=sentences)."""
        gate_off = self.rule.topic_similarity >= 1.0 and not self.rule.sentences
        if self.embed is None or self.rule.seed or gate_off:
            return None
        claims = [c for item in (*earlier, current) for c in item.claims]
        if not self.rule.sentences and not any(needs_similarity(c) for c in claims):
            return None
        missing = [t for t in dict.fromkeys(c.text for c in claims) if t not in self._vectors]
        if missing:
            for text, vector in zip(missing, await self.embed(missing), strict=True):
                self._vectors[text] = vector
        for text in dict.fromkeys(c.text for c in claims):
            self._vectors.move_to_end(text)
        while len(self._vectors) > EMBEDDING_CACHE:
            self._vectors.popitem(last=False)
        vectors = {c.text: self._vectors[c.text] for c in claims}
        return lambda a, b: float(vectors[a] @ vectors[b])
