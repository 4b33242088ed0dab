"""Builds docs/explorer/reduce.html, the lowering explorer's page of
examples/reduce.mlir, and a screenshot of it, docs/explorer/reduce.png.

    sh scripts/install_chromium.sh         # once: Debian's chromium
    python scripts/explorer_screenshot.py

The screenshot is chromium's, headless, of the page opened from disk at the stage
of `SHOWN_PASS`, so that it shows the pass list with its chart of ops by dialect
and a diff. Nothing is fetched: the page has no external resource, and the browser
runs with a new profile and without its background services.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import mux  # noqa: E402

EXAMPLE = "examples/reduce.mlir"
PAGE = REPO / "docs/explorer/reduce.html"
SCREENSHOT = REPO / "docs/explorer/reduce.png"
SHOWN_PASS = "work-item-loops"
"""The stage the screenshot opens at: its diff shows the kernel's loop with barriers
becoming a control-flow graph of barrier regions."""
CHROMIUM = "/usr/bin/chromium"


def main() -> int:
    PAGE.parent.mkdir(parents=True, exist_ok=True)
    os.chdir(REPO)  # the page names the file as given: the repository's path
    page = mux.explore(EXAMPLE, output=PAGE)
    titles = [stage.title for stage in page.exploration.stages]
    anchor = f"#stage-{titles.index(SHOWN_PASS)}"
    if not Path(CHROMIUM).exists():
        print(f"no {CHROMIUM}: run scripts/install_chromium.sh", file=sys.stderr)
        return 1
    profile = tempfile.mkdtemp(prefix="explorer-chromium-")
    try:
        subprocess.run(
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={profile}",
                "--window-size=1400,1000",
                # time to lay the page out before the screenshot (without it, a
                # large page is captured blank)
                "--virtual-time-budget=5000",
                f"--screenshot={SCREENSHOT}",
                PAGE.as_uri() + anchor,
            ],
            check=True,
            timeout=120,
        )
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    print(f"wrote {PAGE.relative_to(REPO)} and {SCREENSHOT.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
