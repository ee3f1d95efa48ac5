"""The shopapp fixture project: exact symbols, cross-file edges and entrypoints."""

from __future__ import annotations

import io
import zipfile

import pytest

from rag.analysis.repository import analyze_repository
from tests.fixtures.projects import SHOPAPP, project_files, project_texts, zip_project

SYMBOLS = {
    ('djshop.djshop.settings.DEBUG', 'const', False),
    ('djshop.djshop.settings.ROOT_URLCONF', 'const', False),
    ('djshop.djshop.settings.INSTALLED_APPS', 'const', False),
    ('djshop.djshop.settings.LOGIN_URL', 'const', False),
    ('djshop.manage.main', 'function', True),
    ('djshop.orders.management.commands.import_products.Command', 'class', True),
    ('djshop.orders.management.commands.import_products.Command.add_arguments', 'method', False),
    ('djshop.orders.management.commands.import_products.Command.handle', 'method', True),
    ('djshop.orders.views.login_view', 'function', True),
    ('djshop.orders.views.health', 'function', True),
    ('djshop.orders.views.OrderListView', 'class', True),
    ('djshop.orders.views.OrderListView.get', 'method', False),
    ('djshop.orders.views.OrderDetailView', 'class', True),
    ('djshop.orders.views.OrderDetailView.post', 'method', False),
    ('shopapp.admin_tool.rebuild_index', 'function', True),
    ('shopapp.admin_tool.create_user', 'function', True),
    ('shopapp.admin_tool.show_price', 'function', True),
    ('shopapp.api.read_item', 'function', True),
    ('shopapp.api.create_order', 'function', True),
    ('shopapp.cli.cli', 'function', True),
    ('shopapp.cli.sync_products', 'function', True),
    ('shopapp.cli.tax_command', 'function', True),
    ('shopapp.cli.carts', 'function', True),
    ('shopapp.cli.purge_cmd', 'function', True),
    ('shopapp.legacy.LEGACY_SEPARATOR', 'const', False),
    ('shopapp.legacy.run_import', 'function', True),
    ('shopapp.models.MAX_ITEMS', 'const', False),
    ('shopapp.models.TAX_RATE', 'const', False),
    ('shopapp.models.BaseModel', 'class', False),
    ('shopapp.models.BaseModel.validate', 'method', False),
    ('shopapp.models.BaseModel.to_dict', 'method', False),
    ('shopapp.models.Product', 'class', False),
    ('shopapp.models.Product.validate', 'method', False),
    ('shopapp.models.Order', 'class', False),
    ('shopapp.models.Order.add', 'method', False),
    ('shopapp.models.Order.subtotal_cents', 'method', False),
    ('shopapp.pricing.DISCOUNT_CODES', 'const', False),
    ('shopapp.pricing.compute_tax', 'function', False),
    ('shopapp.pricing.apply_discount', 'function', False),
    ('shopapp.reports.daily_report', 'function', True),
    ('shopapp.reports.tax_report', 'function', True),
    ('shopapp.reports.main', 'function', True),
    ('shopapp.services.checkout.CheckoutError', 'class', False),
    ('shopapp.services.checkout.CheckoutService', 'class', False),
    ('shopapp.services.checkout.CheckoutService.__init__', 'method', False),
    ('shopapp.services.checkout.CheckoutService.build_order', 'method', False),
    ('shopapp.services.checkout.CheckoutService.place_order', 'method', False),
    ('shopapp.tasks.send_receipt', 'function', True),
    ('shopapp.tasks.purge_abandoned_carts', 'function', True),
    ('shopapp.web.create_app', 'function', False),
    ('shopapp.web.routes.cart', 'function', True),
    ('shopapp.web.routes.order_detail', 'function', True),
    ('shopapp.web.routes.checkout', 'function', True),
    ('tests.test_checkout.test_discount_applies_before_tax', 'function', False),
    ('tests.test_checkout.test_empty_cart_is_refused', 'function', False),
}

ENTRYPOINTS = {
    ('http_route', 'django', '/admin/', (), None, 'djshop/djshop/urls.py', 7, 7),
    ('http_route', 'django', '/accounts/login/', ('GET', 'POST'), 'djshop.orders.views.login_view', 'djshop/djshop/urls.py', 8, 8),
    ('http_route', 'django', '/health/', ('GET',), 'djshop.orders.views.health', 'djshop/djshop/urls.py', 10, 10),
    ('cli_command', 'django', 'import_products', (), 'djshop.orders.management.commands.import_products.Command.handle', 'djshop/orders/management/commands/import_products.py', 8, 17),
    ('http_route', 'django', '/orders/', ('GET',), 'djshop.orders.views.OrderListView', 'djshop/orders/urls.py', 7, 7),
    ('http_route', 'django', '/orders/<int:pk>/', ('GET', 'POST'), 'djshop.orders.views.OrderDetailView', 'djshop/orders/urls.py', 8, 8),
    ('http_route', 'django', '/orders/export/(?P<fmt>csv|json)/', ('GET',), 'djshop.orders.views.health', 'djshop/orders/urls.py', 9, 9),
    ('cli_command', 'console_scripts', 'shopctl', (), 'shopapp.cli.cli', 'pyproject.toml', 20, 20),
    ('cli_command', 'console_scripts', 'shop-report', (), 'shopapp.reports.main', 'pyproject.toml', 21, 21),
    ('cli_command', 'console_scripts', 'shop-admin', (), None, 'pyproject.toml', 22, 22),
    ('cli_command', 'console_scripts', 'shop-legacy-import', (), 'shopapp.legacy.run_import', 'setup.cfg', 10, 10),
    ('cli_command', 'typer', 'rebuild-index', (), 'shopapp.admin_tool.rebuild_index', 'src/shopapp/admin_tool.py', 12, 14),
    ('cli_command', 'typer', 'users create', (), 'shopapp.admin_tool.create_user', 'src/shopapp/admin_tool.py', 17, 19),
    ('cli_command', 'typer', 'price', (), 'shopapp.admin_tool.show_price', 'src/shopapp/admin_tool.py', 22, 26),
    ('http_route', 'fastapi', '/v1/items/{sku}', ('GET',), 'shopapp.api.read_item', 'src/shopapp/api.py', 12, 14),
    ('http_route', 'fastapi', '/orders', ('POST',), 'shopapp.api.create_order', 'src/shopapp/api.py', 17, 21),
    ('cli_command', 'click', 'cli', (), 'shopapp.cli.cli', 'src/shopapp/cli.py', 9, 11),
    ('cli_command', 'click', 'cli sync-products', (), 'shopapp.cli.sync_products', 'src/shopapp/cli.py', 14, 17),
    ('cli_command', 'click', 'cli tax', (), 'shopapp.cli.tax_command', 'src/shopapp/cli.py', 20, 23),
    ('cli_command', 'click', 'cli carts', (), 'shopapp.cli.carts', 'src/shopapp/cli.py', 26, 28),
    ('cli_command', 'click', 'cli carts purge', (), 'shopapp.cli.purge_cmd', 'src/shopapp/cli.py', 31, 33),
    ('cli_command', 'argparse', 'shop-report daily', (), 'shopapp.reports.daily_report', 'src/shopapp/reports.py', 21, 21),
    ('cli_command', 'argparse', 'shop-report tax', (), 'shopapp.reports.tax_report', 'src/shopapp/reports.py', 24, 24),
    ('task', 'celery', 'shop.send_receipt', (), 'shopapp.tasks.send_receipt', 'src/shopapp/tasks.py', 8, 10),
    ('task', 'celery', 'shopapp.tasks.purge_abandoned_carts', (), 'shopapp.tasks.purge_abandoned_carts', 'src/shopapp/tasks.py', 13, 15),
    ('http_route', 'flask', '/shop/cart', ('GET', 'POST'), 'shopapp.web.routes.cart', 'src/shopapp/web/routes.py', 10, 12),
    ('http_route', 'flask', '/shop/orders/<int:order_id>', ('GET',), 'shopapp.web.routes.order_detail', 'src/shopapp/web/routes.py', 15, 17),
    ('http_route', 'flask', '/shop/checkout', ('POST',), 'shopapp.web.routes.checkout', 'src/shopapp/web/routes.py', 20, 27),
}

CROSS_FILE_EDGES = {
    ('calls', 'shopapp.admin_tool.show_price', 'Product', 'shopapp.models.Product'),
    ('calls', 'shopapp.admin_tool.show_price', 'product.to_dict', 'shopapp.models.BaseModel.to_dict'),
    ('calls', 'shopapp.admin_tool.show_price', 'product.validate', 'shopapp.models.Product.validate'),
    ('calls', 'shopapp.api.create_order', 'CheckoutService', 'shopapp.services.checkout.CheckoutService'),
    ('calls', 'shopapp.api.create_order', 'apply_discount', 'shopapp.pricing.apply_discount'),
    ('calls', 'shopapp.api.create_order', 'service.build_order', 'shopapp.services.checkout.CheckoutService.build_order'),
    ('calls', 'shopapp.cli.tax_command', 'compute_tax', 'shopapp.pricing.compute_tax'),
    ('calls', 'shopapp.pricing.apply_discount', 'order.subtotal_cents', 'shopapp.models.Order.subtotal_cents'),
    ('calls', 'shopapp.reports.tax_report', 'compute_tax', 'shopapp.pricing.compute_tax'),
    ('calls', 'shopapp.services.checkout.CheckoutService.build_order', 'Order', 'shopapp.models.Order'),
    ('calls', 'shopapp.services.checkout.CheckoutService.build_order', 'Product', 'shopapp.models.Product'),
    ('calls', 'shopapp.services.checkout.CheckoutService.build_order', 'order.add', 'shopapp.models.Order.add'),
    ('calls', 'shopapp.services.checkout.CheckoutService.place_order', 'pricing.apply_discount', 'shopapp.pricing.apply_discount'),
    ('calls', 'shopapp.web.routes.checkout', 'CheckoutService', 'shopapp.services.checkout.CheckoutService'),
    ('calls', 'shopapp.web.routes.checkout', 'service.place_order', 'shopapp.services.checkout.CheckoutService.place_order'),
    ('calls', 'tests.test_checkout.test_discount_applies_before_tax', 'Order', 'shopapp.models.Order'),
    ('calls', 'tests.test_checkout.test_discount_applies_before_tax', 'Product', 'shopapp.models.Product'),
    ('calls', 'tests.test_checkout.test_discount_applies_before_tax', 'apply_discount', 'shopapp.pricing.apply_discount'),
    ('calls', 'tests.test_checkout.test_discount_applies_before_tax', 'order.add', 'shopapp.models.Order.add'),
    ('calls', 'tests.test_checkout.test_empty_cart_is_refused', 'CheckoutService', 'shopapp.services.checkout.CheckoutService'),
    ('imports', 'djshop.djshop.urls', 'orders.views', 'djshop.orders.views'),
    ('imports', 'djshop.orders.urls', 'djshop.orders.views', 'djshop.orders.views'),
    ('imports', 'djshop.orders.urls', 'djshop.orders.views.OrderDetailView', 'djshop.orders.views.OrderDetailView'),
    ('imports', 'shopapp', 'shopapp.models.Order', 'shopapp.models.Order'),
    ('imports', 'shopapp', 'shopapp.models.Product', 'shopapp.models.Product'),
    ('imports', 'shopapp.admin_tool', 'shopapp.models.Product', 'shopapp.models.Product'),
    ('imports', 'shopapp.api', 'shopapp.pricing.apply_discount', 'shopapp.pricing.apply_discount'),
    ('imports', 'shopapp.api', 'shopapp.services.checkout.CheckoutService', 'shopapp.services.checkout.CheckoutService'),
    ('imports', 'shopapp.cli', 'shopapp.pricing.compute_tax', 'shopapp.pricing.compute_tax'),
    ('imports', 'shopapp.cli', 'shopapp.tasks.purge_abandoned_carts', 'shopapp.tasks.purge_abandoned_carts'),
    ('imports', 'shopapp.pricing', 'shopapp.models.Order', 'shopapp.models.Order'),
    ('imports', 'shopapp.pricing', 'shopapp.models.TAX_RATE', 'shopapp.models.TAX_RATE'),
    ('imports', 'shopapp.reports', 'shopapp.pricing.compute_tax', 'shopapp.pricing.compute_tax'),
    ('imports', 'shopapp.services.checkout', 'shopapp.Order', 'shopapp.models.Order'),
    ('imports', 'shopapp.services.checkout', 'shopapp.Product', 'shopapp.models.Product'),
    ('imports', 'shopapp.services.checkout', 'shopapp.pricing', 'shopapp.pricing'),
    ('imports', 'shopapp.services.checkout', 'shopapp.tasks.send_receipt', 'shopapp.tasks.send_receipt'),
    ('imports', 'shopapp.web', 'shopapp.web.routes.shop', 'shopapp.web.routes.shop'),
    ('imports', 'shopapp.web.routes', 'shopapp.services.checkout.CheckoutError', 'shopapp.services.checkout.CheckoutError'),
    ('imports', 'shopapp.web.routes', 'shopapp.services.checkout.CheckoutService', 'shopapp.services.checkout.CheckoutService'),
    ('imports', 'tests.test_checkout', 'shopapp.models.Order', 'shopapp.models.Order'),
    ('imports', 'tests.test_checkout', 'shopapp.models.Product', 'shopapp.models.Product'),
    ('imports', 'tests.test_checkout', 'shopapp.pricing.apply_discount', 'shopapp.pricing.apply_discount'),
    ('imports', 'tests.test_checkout', 'shopapp.services.checkout.CheckoutError', 'shopapp.services.checkout.CheckoutError'),
    ('imports', 'tests.test_checkout', 'shopapp.services.checkout.CheckoutService', 'shopapp.services.checkout.CheckoutService'),
}


def load_fixture() -> dict[str, str]:
    return project_texts(SHOPAPP)


@pytest.fixture(scope="module")
def analysis():
    return analyze_repository(load_fixture())


def test_it_catalogs_exactly_the_fixture_symbols(analysis):
    assert {(s.qname, s.kind, s.is_entry_candidate) for s in analysis.symbols()} == SYMBOLS
    assert len(analysis.symbols()) == len(SYMBOLS)


def test_it_finds_exactly_the_fixture_entrypoints(analysis):
    found = {
        (e.entry_type, e.framework, e.route_or_command, e.methods, e.handler, e.path, e.start_line, e.end_line)
        for e in analysis.entrypoints()
    }
    assert found == ENTRYPOINTS
    assert len(analysis.entrypoints()) == len(ENTRYPOINTS)


def test_it_resolves_exactly_these_edges_across_files(analysis):
    symbol_paths = {symbol.qname: symbol.path for symbol in analysis.symbols()}
    module_paths = {f.facts.module: path for path, f in analysis.files.items() if f.facts and f.facts.module}
    cross_file = {
        (edge.kind, edge.src, edge.raw, edge.dst)
        for edge in analysis.edges()
        if edge.dst is not None and (symbol_paths.get(edge.dst) or module_paths.get(edge.dst)) != edge.path
    }
    assert cross_file == CROSS_FILE_EDGES


def test_unresolved_references_keep_their_raw_text_as_partial_edges(analysis):
    edges = {(e.kind, e.src, e.raw): e for e in analysis.edges()}
    delay = edges[("calls", "shopapp.services.checkout.CheckoutService.place_order", "send_receipt.delay")]
    assert (delay.dst, delay.resolution, delay.path, delay.line) == (
        None,
        "partial",
        "src/shopapp/services/checkout.py",
        36,
    )
    base = edges[("inherits", "djshop.orders.views.OrderListView", "View")]
    assert (base.dst, base.resolution) == (None, "partial")
    inherited = edges[("inherits", "djshop.orders.views.OrderDetailView", "OrderListView")]
    assert (inherited.dst, inherited.resolution) == ("djshop.orders.views.OrderListView", "resolved")
    own_method = edges[("calls", "shopapp.services.checkout.CheckoutService.place_order", "self.build_order")]
    assert own_method.dst == "shopapp.services.checkout.CheckoutService.build_order"
    assert all(e.resolution == ("resolved" if e.dst else "partial") for e in analysis.edges())


def test_it_reads_the_django_login_view_as_written(analysis):
    view = next(s for s in analysis.symbols() if s.qname == "djshop.orders.views.login_view")
    assert view.signature == "def login_view(request, next=None) -> HttpResponse"
    assert view.decorators == ('require_http_methods(["GET", "POST"])',)
    assert view.docstring == "Show the login form; log the user in on a valid POST."
    assert (view.path, view.start_line, view.end_line) == ("djshop/orders/views.py", 10, 18)


def test_it_classifies_files_and_splits_the_docs(analysis):
    kinds = {path: (f.language, f.artifact_type) for path, f in analysis.files.items()}
    assert kinds["tests/test_checkout.py"] == ("python", "test")
    assert kinds["pyproject.toml"] == ("toml", "config")
    assert kinds["docs/guide.rst"] == ("rst", "docs")
    assert kinds["src/shopapp/legacy.py"] == ("python", "code")
    assert analysis.files["src/shopapp/legacy.py"].error is None
    guide = analysis.files["docs/guide.rst"].chunks
    assert [(c.title, c.start_line, c.end_line, c.layer) for c in guide] == [
        ("Shop operators", 1, 5, "D0_DOCS"),
        ("Shop operators > Installing", 7, 12, "D0_DOCS"),
        ("Shop operators > Installing > Configuration", 14, 17, "D0_DOCS"),
        ("Shop operators > Command lines", 19, 22, "D0_DOCS"),
        ("Shop operators > Command lines > Reports", 24, 27, "D0_DOCS"),
    ]
    readme = analysis.files["README.md"].chunks
    assert [c.title for c in readme] == ["shopapp", "shopapp > Layout", "shopapp > Running", "shopapp > Checkout flow"]
    assert all(f.error is None for f in analysis.files.values())


def test_the_fixture_keeps_a_latin1_file_and_zips_deterministically():
    raw = project_files()["src/shopapp/legacy.py"]
    with pytest.raises(UnicodeDecodeError):
        raw.decode("utf-8")
    assert zip_project() == zip_project()
    with zipfile.ZipFile(io.BytesIO(zip_project())) as archive:
        names = archive.namelist()
    assert names[0].startswith("shopapp/") and len(names) == len(project_files())


def test_every_non_blank_line_of_every_file_is_in_a_chunk(analysis):
    texts = load_fixture()
    for path, file_analysis in analysis.files.items():
        lines = texts[path].splitlines()
        covered = {n for chunk in file_analysis.chunks for n in range(chunk.start_line, chunk.end_line + 1)}
        wanted = {n for n, line in enumerate(lines, start=1) if line.strip()}
        assert wanted <= covered, path
        for chunk in file_analysis.chunks:
            assert chunk.content == "\n".join(lines[chunk.start_line - 1 : chunk.end_line]), (path, chunk.title)
        assert [c.metadata["chunk_index"] for c in file_analysis.chunks] == list(range(len(file_analysis.chunks)))
