"""The repository home through the real URL stack: file tree, README, index state, code search and symbol pages."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from rag.models import IndexRun
from tests.factories import PASSWORD
from tests.rag.conftest import SMALL_PROJECT, index_zip, make_zip

FLASK_APP = (
    "from flask import Flask\n"
    "\n"
    "app = Flask(__name__)\n"
    "\n"
    "\n"
    "def check_password(user):\n"
    "    return bool(user)\n"
    "\n"
    "\n"
    "def authenticate(user):\n"
    "    return check_password(user)\n"
    "\n"
    "\n"
    '@app.route("/login", methods=["POST"])\n'
    "def login():\n"
    '    return authenticate("someone")\n'
)


def _page(client, name: str, *args, **query) -> str:
    response = client.get(reverse(name, args=args), query)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def test_the_repository_page_lists_the_root_folder_with_languages_and_sizes(owner_client, shop):
    page = _page(owner_client, "rag-repository", shop.pk)
    rows = re.findall(r'<tr class="tree-(folder|file)">\s*<td data-label="Name"><a href="([^"]+)">.*?</span> ([^<]+)</a>', page)
    assert [(kind, name) for kind, _, name in rows] == [("folder", "docs/"), ("folder", "shop/"), ("folder", "tests/"), ("file", "README.md")]
    assert dict((name, href) for _, href, name in rows)["shop/"] == reverse("rag-source", args=[shop.pk, "shop"]) + "/"
    assert '<td data-label="Language">Markdown</td>' in page
    assert '<span class="hint">3 files</span>' in page


def test_the_readme_is_rendered_through_the_markdown_pipeline(owner_client, owner, upload_dir):
    project = {**SMALL_PROJECT, "README.md": "# Shop\n\nRun `make`.\n\n<script>alert(1)</script>\n\n```python\ndef f():\n    pass\n```\n"}
    run = index_zip(owner, make_zip(project), name="shop2")
    page = _page(owner_client, "rag-repository", run.repository_id)
    readme = page[page.index('class="card readme"') :]
    assert "<h1>Shop</h1>" in readme and "<code>make</code>" in readme
    assert '<pre class="highlight"><code><span class="k">def</span>' in readme
    assert "<script>alert(1)" not in page and "alert(1)" not in readme


def test_a_readme_written_in_html_is_shown_as_the_code_hosts_show_it_without_scripts_styles_or_images(owner_client, owner, upload_dir):
    readme = (
        '<p align="center">\n<img src="https://example.com/logo.png" onerror="alert(1)">\n</p>\n\n'
        '<h1 align="center" onclick="alert(2)">Shop</h1>\n\n'
        "<details><summary>Install</summary>\n\nRun `make`.\n\n</details>\n\n"
        '<a href="javascript:alert(3)">home</a> <style>body { display: none }</style>\n'
    )
    run = index_zip(owner, make_zip({**SMALL_PROJECT, "README.md": readme}), name="shop3")
    page = _page(owner_client, "rag-repository", run.repository_id)
    shown = page[page.index('class="card readme"') :]
    assert '<h1 align="center">Shop</h1>' in shown
    assert "<details><summary>Install</summary>" in shown and "<p>Run <code>make</code>.</p>" in shown
    assert "&lt;p align" not in shown and "&lt;details&gt;" not in shown
    assert "alert(" not in shown and "<img" not in shown and "display: none" not in shown


def test_the_index_state_is_said_in_plain_words_and_the_detail_is_folded(owner_client, shop):
    counts = shop.active_run.counts
    page = _page(owner_client, "rag-repository", shop.pk)
    assert re.search(
        rf"<strong>Indexed {counts['files']} files, {counts['symbols']} symbols</strong>, "
        rf'<time datetime="[^"]+" data-local="relative">just now</time>\.',
        page,
    )
    details = page[page.index('<details class="index-detail"') :]
    assert details.startswith('<details class="index-detail">')  # closed: nothing is running
    assert details.index("C1_SYMBOL_CATALOG") < details.index("</details>")


def test_large_counts_are_written_with_thousands_separators(owner_client, shop):
    IndexRun.objects.filter(pk=shop.active_run_id).update(counts={"files": 2310, "symbols": 33310})
    page = _page(owner_client, "rag-repository", shop.pk)
    assert "Indexed 2,310 files, 33,310 symbols" in page


@pytest.mark.parametrize("path", ["shop", "shop/"])
def test_a_folder_url_under_source_lists_that_folder(owner_client, shop, path):
    page = _page(owner_client, "rag-source", shop.pk, path)
    names = re.findall(r'<tr class="tree-file">\s*<td data-label="Name"><a href="([^"]+)">.*?</span> ([^<]+)</a>', page)
    assert [name for _, name in names] == ["__init__.py", "models.py", "views.py"]
    assert names[2][0] == reverse("rag-source", args=[shop.pk, "shop/views.py"])
    assert "<td data-label=\"Language\">Python</td>" in page
    assert f'href="{reverse("rag-repository", args=[shop.pk])}">..</a>' in page  # up to the repository's root
    assert "Chat about this repository" in page


def test_a_folder_of_more_files_than_its_table_lists_says_how_many_more_there_are(owner_client, shop, monkeypatch):
    import rag.browse

    monkeypatch.setattr(rag.browse, "FOLDER_ENTRIES_SHOWN", 2)
    page = _page(owner_client, "rag-source", shop.pk, "shop")

    names = re.findall(r'<tr class="tree-file">\s*<td data-label="Name"><a href="[^"]+">.*?</span> ([^<]+)</a>', page)
    assert names == ["__init__.py", "models.py"]
    assert "and 1 more in this folder: search the code to find one" in page


def test_a_path_that_is_neither_file_nor_folder_is_a_404_in_the_sites_layout(owner_client, shop):
    response = owner_client.get(reverse("rag-source", args=[shop.pk, "nowhere/"]))
    assert response.status_code == 404
    response = owner_client.get(reverse("rag-source", args=[shop.pk, "sho"]))  # a prefix of a folder is no folder
    assert response.status_code == 404


def test_search_results_are_grouped_by_file_and_link_to_their_lines(owner_client, shop):
    page = _page(owner_client, "rag-code-search", shop.pk, q="Cart total")
    files = re.findall(r'<article class="card hit-file">\s*<h2><a href="[^"]+"><code>([^<]+)</code>', page)
    assert files and len(files) == len(set(files))  # one group per file
    assert "shop/models.py" in files
    models_group = page[page.index("<code>shop/models.py</code>") :].split("</article>")[0]
    links = re.findall(r'class="hit-lines" href="([^"]+)"', models_group)
    assert links and all(re.fullmatch(rf"{reverse('rag-source', args=[shop.pk, 'shop/models.py'])}\?lines=(\d+)-(\d+)#L\1", link) for link in links)
    assert re.search(r"\d+ match(es)? in \d+ files? for “Cart total”", page)


def test_search_results_follow_the_file_ranking_the_agents_search_tool_uses(owner_client, owner, upload_dir):
    from tests.fixtures.projects import zip_project

    shopapp = index_zip(owner, zip_project(), name="shopapp").repository
    page = _page(owner_client, "rag-code-search", shopapp.pk, q="import products from csv")
    files = re.findall(r'<article class="card hit-file">\s*<h2><a href="[^"]+"><code>([^<]+)</code>', page)

    # The management command that imports them first, though the URL table's hits score higher item by item.
    assert files[0] == "djshop/orders/management/commands/import_products.py"
    assert "djshop/orders/urls.py" in files


def test_an_htmx_search_answers_with_the_results_alone(owner_client, shop):
    response = owner_client.get(
        reverse("rag-code-search", args=[shop.pk]), {"q": "login"}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="search-results"
    )
    body = response.content.decode()
    assert body.lstrip().startswith('<section id="search-results"') and "<html" not in body


def test_an_empty_search_shows_the_box_only(owner_client, shop):
    page = _page(owner_client, "rag-code-search", shop.pk, q="")
    assert 'id="code-search-q"' in page and "hit-file" not in page


def test_a_symbol_page_shows_its_definition_callers_and_callees(owner_client, shop):
    page = _page(owner_client, "rag-symbol", shop.pk, "shop.views.render_cart")
    assert "<code>shop/views.py:10-11</code>" in page
    assert '<tr><td class="ln">11</td><td class="code">    <span class="k">return</span> cart' in page
    assert "The whole definition" not in page
    called_by = page[page.index('id="callers-title"') : page.index('id="callees-title"')]
    assert f'href="{reverse("rag-symbol", args=[shop.pk, "shop.views.login_view"])}"' in called_by
    calls = page[page.index('id="callees-title"') : page.index('id="entry-title"')]
    assert "<code>cart.total</code>" in calls and "outside the index" in calls

    login = _page(owner_client, "rag-symbol", shop.pk, "shop.views.login_view")
    calls = login[login.index('id="callees-title"') : login.index('id="entry-title"')]
    assert "<code>shop.models.Cart.for_user</code>" in calls and "<code>shop.views.render_cart</code>" in calls
    assert "Log the user in and open their cart." in login


def test_a_symbol_page_names_the_entrypoints_that_reach_it(owner_client, owner, upload_dir):
    run = index_zip(owner, make_zip({"app.py": FLASK_APP}), name="flaskapp")
    assert run.status == IndexRun.Status.READY, run.error
    page = _page(owner_client, "rag-symbol", run.repository_id, "app.check_password")
    entries = page[page.index('id="entry-title"') :]
    assert "/login" in entries and "app.login" in entries and "Route" in entries


def test_a_loose_name_lists_its_definitions_and_an_unknown_one_is_a_404(owner_client, shop):
    page = _page(owner_client, "rag-symbol", shop.pk, "Cart")
    assert f'href="{reverse("rag-symbol", args=[shop.pk, "shop.models.Cart"])}"' in page
    assert owner_client.get(reverse("rag-symbol", args=[shop.pk, "no_such_thing"])).status_code == 404


def test_the_chat_action_starts_a_chat_on_this_repository(owner_client, shop):
    from chat.models import ChatSession

    page = _page(owner_client, "rag-symbol", shop.pk, "shop.views.login_view")
    form = re.search(r'<form method="post" action="([^"]+)" class="chat-action">.*?name="repository" value="(\d+)"', page, re.S)
    assert form
    response = owner_client.post(form.group(1), {"repository": form.group(2)})
    session = ChatSession.objects.get(owner=shop.owner)
    assert response["Location"] == reverse("chat-session", args=[session.pk]) and session.repository == shop


@pytest.mark.parametrize(
    ("name", "extra"),
    [("rag-repository", ()), ("rag-code-search", ()), ("rag-symbol", ("shop.views.login_view",)), ("rag-source", ("shop/",))],
)
def test_another_user_never_sees_the_repository(client, shop, other_user, name, extra):
    client.login(username=other_user.username, password=PASSWORD)
    assert client.get(reverse(name, args=[shop.pk, *extra]), {"q": "cart"}).status_code == 404


def test_a_file_is_served_raw_as_plain_text_that_cannot_run(owner_client, shop):
    response = owner_client.get(reverse("rag-source-raw", args=[shop.pk, "shop/views.py"]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Security-Policy"] == "sandbox" and response["X-Content-Type-Options"] == "nosniff"
    assert response.content.decode() == SMALL_PROJECT["shop/views.py"]
    assert owner_client.get(reverse("rag-source-raw", args=[shop.pk, "shop/nothing.py"])).status_code == 404


def test_another_user_gets_no_raw_file(client, shop, other_user):
    client.login(username=other_user.username, password=PASSWORD)
    assert client.get(reverse("rag-source-raw", args=[shop.pk, "shop/views.py"])).status_code == 404


def test_the_source_view_is_compressed_for_a_browser_that_accepts_it(owner_client, shop):
    url = reverse("rag-source", args=[shop.pk, "shop/models.py"])
    compressed = owner_client.get(url, HTTP_ACCEPT_ENCODING="gzip, br")
    assert compressed["Content-Encoding"] == "gzip"
    plain = owner_client.get(url)
    assert "Content-Encoding" not in plain and len(compressed.content) < len(plain.content)


def test_source_rows_are_lean_links_to_their_own_line(owner_client, shop):
    page = _page(owner_client, "rag-source", shop.pk, "shop/views.py")
    assert '<tr id="L4"><td class="ln"><a href="#L4">4</a></td><td class="code"><span class="k">def</span> ' in page
    assert f'href="{reverse("rag-source-raw", args=[shop.pk, "shop/views.py"])}">Raw</a>' in page


def test_relative_links_of_the_readme_open_the_repositorys_files(owner_client, owner, upload_dir):
    readme = "# Shop\n\nSee [the deploy guide](docs/deploy.md), [the code](shop/), [a line](shop/views.py#L4), [out](../x.md) and [the web](https://example.com).\n"
    run = index_zip(owner, make_zip({**SMALL_PROJECT, "README.md": readme}), name="linked")
    page = _page(owner_client, "rag-repository", run.repository_id)
    source = reverse("rag-source", args=[run.repository_id, "x"])[:-1]
    assert f'<a href="{source}docs/deploy.md" rel="noopener noreferrer nofollow">the deploy guide</a>' in page
    assert f'<a href="{source}shop/" rel="noopener noreferrer nofollow">the code</a>' in page
    assert f'<a href="{source}shop/views.py?lines=4-4#L4" rel="noopener noreferrer nofollow">a line</a>' in page
    assert '<a href="../x.md"' in page and 'href="https://example.com"' in page


def test_the_source_view_lists_the_files_definitions_linked_to_their_pages(owner_client, shop):
    page = _page(owner_client, "rag-source", shop.pk, "shop/models.py")
    listed = re.findall(r'<li( class="nested")?><a class="hint" href="#L(\d+)">\d+</a> <span class="badge">(\w+)</span> <a href="([^"]+)"><code>(\w+)</code>', page)
    assert [(bool(nested), line, kind, name) for nested, line, kind, _, name in listed] == [
        (False, "1", "class", "Cart"), (True, "4", "method", "__init__"), (True, "7", "method", "for_user"), (True, "11", "method", "total"),
    ]
    assert listed[2][3] == reverse("rag-symbol", args=[shop.pk, "shop.models.Cart.for_user"])
    assert "4 definitions in this file" in page


def test_searching_a_name_offers_its_definitions(owner_client, shop):
    page = _page(owner_client, "rag-code-search", shop.pk, q="Cart")
    definitions = page[page.index('id="definitions-title"') : page.index("</article>")]
    assert f'href="{reverse("rag-symbol", args=[shop.pk, "shop.models.Cart"])}"><code>shop.models.Cart</code>' in definitions
    assert "definitions-title" not in _page(owner_client, "rag-code-search", shop.pk, q="how is the total summed?")


def test_a_symbol_page_shows_the_code_of_its_definition_highlighted_and_numbered(owner_client, owner, upload_dir):
    body = "".join(f"    step_{n} = {n}\n" for n in range(60))
    run = index_zip(owner, make_zip({"long.py": f"def long_function():\n{body}    return step_0\n", "README.md": "# x\n"}), name="longdef")
    page = _page(owner_client, "rag-symbol", run.repository_id, "long.long_function")
    rows = re.findall(r'<tr><td class="ln">(\d+)</td><td class="code">(.*?)</td></tr>', page)
    assert [number for number, _ in rows] == [str(n) for n in range(1, 41)]
    assert rows[0][1] == '<span class="k">def</span> <span class="nf">long_function</span>():'
    assert "The whole definition (62 lines)</a> is in the source view." in page


def test_lines_found_by_several_layers_are_one_hit_showing_the_code(owner_client, shop):
    page = _page(owner_client, "rag-code-search", shop.pk, q="Cart total")
    views = page[page.index("<code>shop/views.py</code>") :].split("</article>")[0]
    ranges = re.findall(r'class="hit-lines" href="[^"]+\?lines=(\d+-\d+)#', views)
    assert len(ranges) == len(set(ranges))  # each range once
    login = views[views.index("lines=4-7") :].split("</li>")[0]
    assert '<span class="hit-title">shop.views.login_view</span>' in login and "symbol</a>" in login
    assert "def login_view(request):" in login  # the code, not its catalog entry


def test_a_symbol_page_of_another_language_names_its_kind_and_its_callers_as_the_language_writes_them(owner_client, owner, upload_dir):
    project = {
        "src/main/java/com/shop/Cart.java": "package com.shop;\n\npublic class Cart {\n    public int total() { return 0; }\n}\n",
        "src/main/java/com/shop/Checkout.java": (
            "package com.shop;\n\npublic class Checkout {\n    public int pay(Cart cart) { return cart.total(); }\n}\n"
        ),
        "src/lib.rs": "/// Builds a walk.\npub struct WalkBuilder { depth: usize }\n\nimpl WalkBuilder {\n    pub fn depth(&self) -> usize { self.depth }\n}\n",
    }
    run = index_zip(owner, make_zip(project), name="polyglot")
    assert run.status == IndexRun.Status.READY, run.error
    page = _page(owner_client, "rag-symbol", run.repository_id, "com.shop.Cart.total")
    assert '<span class="badge">method</span> <code>com.shop.Cart#total</code>' in page
    assert "Inside" in page and "<code>com.shop.Cart</code></a>" in page
    called_by = page[page.index('id="callers-title"') : page.index('id="callees-title"')]
    assert "<code>com.shop.Checkout#pay</code>" in called_by

    rust = _page(owner_client, "rag-symbol", run.repository_id, "WalkBuilder")
    assert '<span class="hint">struct · src/lib.rs:2</span>' in rust
    outline = _page(owner_client, "rag-source", run.repository_id, "src/lib.rs")
    assert '<code>depth</code></a> <span class="hint">in WalkBuilder</span>' in outline


def test_an_exact_text_search_lists_each_matching_line(owner_client, shop):
    page = _page(owner_client, "rag-code-search", shop.pk, q="def ", match="text")
    files = re.findall(r'<article class="card hit-file">\s*<h2><a href="[^"]+"><code>([^<]+)</code>', page)
    assert files == sorted(files) and "shop/views.py" in files
    views = page[page.index("<code>shop/views.py</code>") :].split("</article>")[0]
    lines = re.findall(r'class="hit-lines" href="[^"]+\?lines=(\d+)-(\d+)#L\d+">line (\d+)</a>', views)
    assert lines and all(start == end == shown for start, end, shown in lines)
    assert '<pre class="hit-snippet"><mark>def</mark> login_view(' in views
    assert '<option value="text" selected>Exact text</option>' in page
    assert "definitions-title" not in _page(owner_client, "rag-code-search", shop.pk, q="Cart", match="text")

    regex = _page(owner_client, "rag-code-search", shop.pk, q=r"^class \w+", match="regex")
    assert "<code>shop/models.py</code>" in regex and "<code>shop/views.py</code>" not in regex
    broken = _page(owner_client, "rag-code-search", shop.pk, q="(", match="regex")
    assert 'class="error" role="alert">Invalid regular expression' in broken


def test_the_text_is_marked_in_each_line_and_the_line_is_escaped(owner, owner_client, upload_dir):
    files = {"app/page.py": 'HTML = "<b>Cart</b> and cart"  # the cart\n'}
    repository = index_zip(owner, make_zip(files), name="marks").repository

    page = _page(owner_client, "rag-code-search", repository.pk, q="cart", match="text")
    assert '&lt;b&gt;<mark>Cart</mark>&lt;/b&gt; and <mark>cart</mark>&quot;  # the <mark>cart</mark>' in page
    # A capital letter asks for the case as written.
    assert '&lt;b&gt;<mark>Cart</mark>&lt;/b&gt; and cart&quot;' in _page(owner_client, "rag-code-search", repository.pk, q="Cart", match="text")
    assert "<mark>" not in _page(owner_client, "rag-code-search", repository.pk, q="[Cc]art", match="regex")


MANIFESTS = {
    "web/src/main.tsx": "import { createRoot } from 'react-dom/client';\nimport React from 'react';\n",
    "web/package.json": '{\n  "dependencies": {\n    "react": "^18.2.0"\n  },\n  "devDependencies": {\n    "vitest": "1.6.0"\n  }\n}\n',
    "requirements.txt": "Django>=5.2\n<b>not-a-package\n",
}


def test_the_dependencies_page_lists_each_manifest_s_packages_with_lines_and_filters(owner_client, owner, upload_dir):
    run = index_zip(owner, make_zip({**SMALL_PROJECT, **MANIFESTS}), name="shop3")
    pk = run.repository_id

    home = _page(owner_client, "rag-repository", pk)
    assert f'<a href="{reverse("rag-dependencies", args=[pk])}">3 dependencies</a> declared in 2 manifests' in home
    page = _page(owner_client, "rag-dependencies", pk)
    sections = re.findall(r'<h2 id="manifest-\d+"><a href="[^"]+"><code>([^<]+)</code></a> <span class="hint">(\w+)</span>', page)
    assert sections == [("requirements.txt", "pypi"), ("web/package.json", "npm")]
    rows = re.findall(
        r'<td data-label="Package"><code>([^<]+)</code></td>\s*<td data-label="Version"><code>([^<]+)</code></td>\s*'
        r'<td data-label="Scope">(\w+)</td>\s*<td data-label="Imported by" class="num">([^<]+)</td>',
        page,
    )
    assert rows == [("Django", "&gt;=5.2", "runtime", "0 files"), ("react", "^18.2.0", "runtime", "1 file"), ("vitest", "1.6.0", "dev", "0 files")]
    assert f'href="{reverse("rag-source", args=[pk, "web/package.json"])}?lines=6#L6">6</a>' in page
    assert "<b>not-a-package" not in page

    search = _page(owner_client, "rag-code-search", pk, q="React")
    packages = search.split('id="packages-title"', 1)[1].split("</article>", 1)[0]
    assert re.findall(r'<code>([^<]+)</code>', packages) == ["React", "react", "^18.2.0"]
    assert f'href="{reverse("rag-source", args=[pk, "web/package.json"])}?lines=3#L3">web/package.json:3</a>' in packages
    assert 'id="packages-title"' not in _page(owner_client, "rag-code-search", pk, q="rea")

    npm = _page(owner_client, "rag-dependencies", pk, ecosystem="npm", q="VITE")
    assert re.findall(r'<td data-label="Package"><code>([^<]+)</code>', npm) == ["vitest"]
    assert "1 of 3 dependencies" in npm
    assert "No dependency matches." in _page(owner_client, "rag-dependencies", pk, q="left-pad")


def test_the_dependencies_page_says_when_there_is_no_manifest_and_is_the_owner_s_alone(owner_client, client, other_user, shop):
    page = _page(owner_client, "rag-dependencies", shop.pk)
    assert "This version holds no manifest the index reads" in page
    assert "dependencies</a> declared" not in _page(owner_client, "rag-repository", shop.pk)
    client.login(username=other_user.username, password=PASSWORD)
    assert client.get(reverse("rag-dependencies", args=[shop.pk])).status_code == 404


def test_the_entrypoints_page_lists_routes_with_their_handlers_and_filters_by_framework(owner_client, client, other_user, owner, upload_dir):
    run = index_zip(owner, make_zip({"app.py": FLASK_APP, "requirements.txt": "flask>=3\n"}), name="flaskroutes")
    pk = run.repository_id

    home = _page(owner_client, "rag-repository", pk)
    assert f'<a href="{reverse("rag-entrypoints", args=[pk])}">1 entrypoint</a> (routes, services, commands and tasks) · ' in home
    page = _page(owner_client, "rag-entrypoints", pk)
    assert '<h2 id="kind-1">HTTP routes <span class="hint">(1)</span></h2>' in page
    row = page.split('<td data-label="Route">', 1)[1].split("</tr>", 1)[0]
    assert row.startswith("<code>POST /login</code></td>")
    assert f'<a href="{reverse("rag-symbol", args=[pk, "app.login"])}"><code>app.login</code></a>' in row
    assert '<td data-label="Framework">flask</td>' in row
    assert f'href="{reverse("rag-source", args=[pk, "app.py"])}?lines=14-16#L14">app.py:14</a>' in row
    assert "No entrypoint of this framework." in _page(owner_client, "rag-entrypoints", pk, framework="django")
    assert '<td data-label="Route">' in _page(owner_client, "rag-entrypoints", pk, framework="Flask")

    client.login(username=other_user.username, password=PASSWORD)
    assert client.get(reverse("rag-entrypoints", args=[pk])).status_code == 404


def test_the_entrypoints_page_of_a_repository_without_any_says_so(owner_client, shop):
    assert "The index found no HTTP route" in _page(owner_client, "rag-entrypoints", shop.pk)
    assert "entrypoint</a>" not in _page(owner_client, "rag-repository", shop.pk)
