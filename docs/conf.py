"""Sphinx configuration: the guides are written by hand, the rule reference is generated from specs/."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the checkout's ghostrules, even without an install

import ghostrules  # noqa: E402

project = "ghostrules"
author = "the ghostrules developers"
copyright = "the ghostrules developers"
release = version = ghostrules.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "ghostrules.docsgen",  # writes reference/ before the sources are read
]

exclude_patterns = ["_build", "examples/README*"]
templates_path: list[str] = []
html_theme = "furo"
html_title = "ghostrules"
html_static_path = ["_static"]
html_favicon = "_static/favicon.svg"  # also spares the browser a request for /favicon.ico
html_show_sourcelink = False
html_copy_source = False
pygments_style = "sphinx"

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "undoc-members": False}

doctest_global_setup = f"""
from pathlib import Path
import ghostrules
EXAMPLES = Path({str(ROOT / "docs" / "examples")!r})
HAVE_SCENARIOS = hasattr(ghostrules, "load_scenario") and EXAMPLES.is_dir()
"""
