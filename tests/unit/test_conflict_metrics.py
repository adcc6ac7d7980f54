import pytest

from contraflow.models.events import ConflictStatus
from contraflow.streams.core.metrics.conflict import conflict_status, is_sampled_pair, k_conflict


def test_k_conflict_is_contradictions_over_evaluated_pairs() -> None:
    assert k_conflict(1, 4) == 0.25
    assert k_conflict(0, 3) == 0.0
    assert k_conflict(0, 0) is None


def test_k_conflict_rejects_impossible_counts() -> None:
    with pytest.raises(ValueError):
        k_conflict(3, 2)


@pytest.mark.parametrize(
    ("rate", "status"),
    [
        (None, ConflictStatus.passing),
        (0.0, ConflictStatus.passing),
        (0.0499, ConflictStatus.passing),
        (0.05, ConflictStatus.caution),
        (0.10, ConflictStatus.caution),
        (0.1001, ConflictStatus.failure),
        (1.0, ConflictStatus.failure),
    ],
)
def test_seed_thresholds(rate: float | None, status: ConflictStatus) -> None:
    assert conflict_status(rate) == status


def test_stride_samples_every_nth_pair_starting_with_the_first() -> None:
    assert [p for p in range(1, 8) if is_sampled_pair(p, 2)] == [1, 3, 5, 7]
    assert [p for p in range(1, 8) if is_sampled_pair(p, 3)] == [1, 4, 7]
    assert all(is_sampled_pair(p, 1) for p in range(1, 8))
    assert not is_sampled_pair(0, 1)
    with pytest.raises(ValueError):
        is_sampled_pair(1, 0)
