"""The bounded cache the play tables keep their games and latest states in."""

from __future__ import annotations

from core.fifo_cache import FifoCache


def test_a_new_key_past_the_bound_drops_the_one_put_first() -> None:
    cache: FifoCache[int, str] = FifoCache(2)
    cache.put(1, "one")
    cache.put(2, "two")
    cache.put(3, "three")
    assert (len(cache), cache.get(1), cache.get(2), cache.get(3)) == (2, None, "two", "three")


def test_a_key_put_again_keeps_its_place_and_drops_nothing() -> None:
    cache: FifoCache[int, str] = FifoCache(2)
    cache.put(1, "one")
    cache.put(2, "two")
    cache.put(1, "uno")
    assert (cache.get(1), cache.get(2)) == ("uno", "two")
    cache.put(3, "three")  # 1 was put first: it goes, though it was put again last
    assert (cache.get(1), cache.get(2), cache.get(3)) == (None, "two", "three")


def test_pop_takes_the_entry_out_and_answers_none_for_a_missing_key() -> None:
    cache: FifoCache[int, str] = FifoCache(2)
    cache.put(1, "one")
    assert (cache.pop(1), cache.pop(1), len(cache)) == ("one", None, 0)
