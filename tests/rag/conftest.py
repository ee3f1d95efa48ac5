"""Zips built in the tests, and repositories indexed from them through the real pipeline."""

from __future__ import annotations

import io
import stat
import zipfile
from collections.abc import Mapping

import pytest

from rag.models import IndexRun
from rag.services import run_index, start_index_run

SMALL_PROJECT: dict[str, str | bytes] = {
    "shop/__init__.py": "",
    "shop/views.py": (
        "from shop.models import Cart\n"
        "\n"
        "\n"
        "def login_view(request):\n"
        '    """Log the user in and open their cart."""\n'
        "    cart = Cart.for_user(request.user)\n"
        "    return render_cart(cart)\n"
        "\n"
        "\n"
        "def render_cart(cart):\n"
        "    return cart.total()\n"
    ),
    "shop/models.py": (
        "class Cart:\n"
        '    """A shopping cart with line items."""\n'
        "\n"
        "    def __init__(self, items):\n"
        "        self.items = items\n"
        "\n"
        "    @classmethod\n"
        "    def for_user(cls, user):\n"
        "        return cls([])\n"
        "\n"
        "    def total(self):\n"
        "        return sum(item.price for item in self.items)\n"
    ),
    "tests/test_views.py": (
        "from shop.views import login_view\n"
        "\n"
        "\n"
        "def test_login_view_opens_the_cart():\n"
        "    assert login_view\n"
    ),
    "README.md": "# Shop\n\nA tiny shop.\n\n## Checkout\n\nThe checkout flow charges the card and sends a receipt email.\n",
    "docs/deploy.md": "# Deploying\n\nRun the server behind nginx with TLS certificates.\n",
}


def make_zip(files: Mapping[str, str | bytes], *, top: str | None = "shop-main") -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path, content in files.items():
            name = f"{top}/{path}" if top else path
            archive.writestr(name, content)
    return buffer.getvalue()


def add_symlink(data: bytes, name: str, target: str) -> bytes:
    buffer = io.BytesIO(data)
    with zipfile.ZipFile(buffer, "a") as archive:
        info = zipfile.ZipInfo(name)
        info.create_system = 3
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(info, target)
    return buffer.getvalue()


def index_zip(owner, data: bytes, name: str = "shop") -> IndexRun:
    """Upload and index a zip synchronously (the worker's body, in this process)."""
    run = start_index_run(owner=owner, name=name, archive=io.BytesIO(data), archive_name=f"{name}.zip", defer=False)
    return run_index(run.pk)


@pytest.fixture
def upload_dir(tmp_path, settings):
    settings.RAG = {**settings.RAG, "UPLOAD_DIR": str(tmp_path / "uploads")}
    return tmp_path / "uploads"


@pytest.fixture
def shop(owner, upload_dir):
    run = index_zip(owner, make_zip(SMALL_PROJECT))
    assert run.status == IndexRun.Status.READY, run.error
    return run.repository
