"""axe-core in the browser tests: installed from npm into the project's ignored cache folder on first use."""

from __future__ import annotations

import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

from playwright.sync_api import Page

from tests.conftest import ROOT

AXE_VERSION = "4.14.1"
AXE_DIR = ROOT / "var" / "cache" / f"axe-core-{AXE_VERSION}"
BLOCKING = {"serious", "critical"}


@lru_cache(maxsize=1)
def axe_script() -> str:
    script = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
    if not script.exists():
        npm = shutil.which("npm")
        if npm is None:
            raise RuntimeError("npm is missing: apt-get install -y npm (axe-core is installed from npm for the browser tests)")
        AXE_DIR.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [npm, "install", "--no-save", "--no-audit", "--no-fund", "--prefix", str(AXE_DIR), f"axe-core@{AXE_VERSION}"],
            check=True, capture_output=True, timeout=300,
        )
    return Path(script).read_text()


def serious_violations(page: Page) -> list[str]:
    """axe's serious and critical violations of the page as it is now, one line each (empty when none)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe_script())
    result = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations")
    return [
        f"{v['impact']} {v['id']}: {v['help']} — " + "; ".join(" ".join(node["target"]) for node in v["nodes"][:5])
        for v in result
        if v.get("impact") in BLOCKING
    ]
