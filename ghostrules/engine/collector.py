"""The garbage collector held off during work that allocates much and makes few reference cycles.

Compiling a game (engine/game.py) and an exact search (query/search.py) each allocate many objects
that live on (code, tables, value lists). With the collector on, each generation's threshold is
crossed again and again and every collection walks what is already kept: during a load, up to half
of its time went to full collections. ``collector_paused`` switches the collector off for the work
and, when it was on, moves what the work kept into the oldest generation (``promote_young``) before
switching it back on, so that the first collection after the work does not walk it all either.
Garbage that the work made in cycles is collected as usual, at a later collection.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


def promote_young() -> None:
    """Move every object the collector tracks into its oldest generation, without walking them.

    ``freeze`` then ``unfreeze`` moves the generations' lists to the oldest one in constant time: the
    objects are collected as usual, at the next full collection. Only when nothing else is frozen
    (``unfreeze`` would release it too)."""
    if gc.get_freeze_count() == 0:
        gc.freeze()
        gc.unfreeze()


@contextmanager
def collector_paused() -> Iterator[None]:
    """The collector off inside the block; afterwards as it was before (on: with what the block kept
    moved to the oldest generation first). Nested uses leave it off until the outermost ends."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            promote_young()
            gc.enable()
