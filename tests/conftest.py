"""Settings of the whole test run.

The code cache (engine/codecache.py) of the run is a new private directory of its own, removed at the
end: the tests compile hundreds of configurations and variants of specs, and must neither fill the
user's cache (``~/.cache/ghostrules``, at most ``MAX_FILES`` files, so the user's own would go) nor
depend on what it holds. It is set in the environment when this file is imported, before any test
module (some load games when imported) and for every process a test starts. A test may still point
the cache elsewhere (tests/test_engine_codecache.py) or turn it off (``GHOSTRULES_NO_CACHE``, which
is left as the user set it).
"""

from __future__ import annotations

import os
import shutil
import tempfile

from ghostrules.engine import codecache

_RUN_CACHE = tempfile.mkdtemp(prefix="ghostrules-test-cache-")  # (mode 0700: the cache's own check)
os.environ[codecache.ENV_DIR] = _RUN_CACHE


def pytest_unconfigure() -> None:
    shutil.rmtree(_RUN_CACHE, ignore_errors=True)
