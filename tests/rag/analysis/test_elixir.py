"""Elixir as its users write it: modules named by defmodule, calls through aliases and pipes, Phoenix, Plug, Mix, Oban."""

from __future__ import annotations

from rag.analysis.languages.spec import is_test_file, written_name
from rag.analysis.repository import analyze_repository
from tests.rag.analysis.readings import edge_targets, entrypoint_rows

_USER = (
    "defmodule MyApp.Accounts.User do\n"
    "  use Ecto.Schema\n"
    "  import Ecto.Changeset\n\n"
    "  schema \"users\" do\n"
    "    field :email, :string\n"
    "    belongs_to :team, MyApp.Accounts.Team\n"
    "  end\n\n"
    "  # Builds a changeset.\n"
    "  # Casts the email.\n"
    "  def changeset(user, attrs) when is_map(attrs) do\n"
    "    user |> cast(attrs, [:email]) |> normalize() |> check\n"
    "  end\n\n"
    "  def name, do: \"user\"\n"
    "  defp normalize(user), do: user\n"
    "  defp check(%{valid?: true} = changeset), do: changeset\n"
    "  defp check(changeset), do: changeset\n\n"
    "  defmodule Query do\n"
    "    defmacro active(query), do: query\n"
    "  end\n"
    "end\n\n"
    "defmodule MyApp.Accounts.Team do\n"
    "  defstruct [:name, size: 0]\n"
    "end\n"
)
_ACCOUNTS = (
    "defmodule MyApp.Accounts do\n"
    "  alias MyApp.Accounts.{User, Team}\n"
    "  alias MyApp.Repo, as: Store\n"
    "  require Logger\n"
    "  @behaviour MyApp.Registry\n\n"
    "  @spec register(map()) :: {:ok, User.t()}\n"
    "  def register(attrs) do\n"
    "    %User{}\n"
    "    |> User.changeset(attrs)\n"
    "    |> Store.insert()\n"
    "    |> notify()\n"
    "  end\n\n"
    "  def team(name), do: %Team{name: name} |> __MODULE__.notify()\n\n"
    "  def notify(x), do: x\n"
    "end\n"
)
_REPO = (
    "defmodule MyApp.Repo do\n  def insert(changeset), do: {:ok, changeset}\nend\n\n"
    "defimpl String.Chars, for: MyApp.Repo do\n  def to_string(_repo), do: \"repo\"\nend\n\n"
    "defmodule MyApp.Registry do\n  @callback register(map()) :: term()\nend\n\n"
    # Functions of the names the calls above name, of another module: no call is this one's by its name alone.
    "defmodule MyApp.Audit do\n  def insert(entry), do: entry\n  def notify(x), do: x\nend\n"
)
_APP = {"lib/my_app/accounts/user.ex": _USER, "lib/my_app/accounts.ex": _ACCOUNTS, "lib/my_app/repo.ex": _REPO}


def _symbols(files: dict[str, str]) -> dict[str, tuple]:
    """Elixir's name of every symbol -> (kind, its parent's Elixir name, doc, signature, first line)."""
    found = {}
    for analysis in analyze_repository(files).files.values():
        by_qname = {symbol.qname: symbol for symbol in analysis.symbols}
        for symbol in analysis.symbols:
            parent = by_qname.get(symbol.parent or "")
            found.setdefault(written_name(symbol.qname, symbol.module, symbol.path, symbol.kind), []).append((
                symbol.kind, written_name(parent.qname, parent.module, parent.path, parent.kind) if parent else None,
                symbol.docstring, symbol.signature, symbol.start_line,
            ))
    return found


def test_modules_functions_and_fields_are_symbols_named_as_elixir_names_them():
    symbols = _symbols({"lib/my_app/accounts/user.ex": _USER})
    user = "MyApp.Accounts.User"

    assert {name: [kind for kind, *_ in rows] for name, rows in symbols.items()} == {
        user: ["class"],
        f"{user}.email": ["const"], f"{user}.team": ["const"],
        f"{user}.changeset": ["method"], f"{user}.name": ["method"], f"{user}.normalize": ["method"],
        # A function of several clauses is a symbol per clause, of one name.
        f"{user}.check": ["method", "method"],
        # A module defined inside another is named under it.
        f"{user}.Query": ["class"], f"{user}.Query.active": ["method"],
        "MyApp.Accounts.Team": ["class"], "MyApp.Accounts.Team.name": ["const"], "MyApp.Accounts.Team.size": ["const"],
    }
    [(_, parent, doc, signature, line)] = symbols[f"{user}.changeset"]
    assert (parent, doc, signature, line) == (
        user, "Builds a changeset.\nCasts the email.", "def changeset(user, attrs) when is_map(attrs) do", 12
    )
    assert symbols[f"{user}.Query.active"][0][1] == f"{user}.Query"
    assert symbols[user][0][3] == "defmodule MyApp.Accounts.User do"


def test_calls_resolve_through_aliases_pipes_and_the_modules_own_functions():
    calls = edge_targets(_APP)
    user, accounts = "lib.my_app.accounts.user.MyApp.Accounts.User", "lib.my_app.accounts.MyApp.Accounts"
    register, team = f"{accounts}.register", f"{accounts}.team"

    # `alias MyApp.Accounts.{User, Team}` in another file: User is that module.
    assert calls[(register, "User", 9)] == user
    assert calls[(register, "changeset", 10)] == f"{user}.changeset"
    # `alias MyApp.Repo, as: Store`: Store is MyApp.Repo.
    assert calls[(register, "insert", 11)] == "lib.my_app.repo.MyApp.Repo.insert"
    assert calls[(register, "notify", 12)] == f"{accounts}.notify"
    assert calls[(team, "Team", 15)] == "lib.my_app.accounts.user.MyApp.Accounts.Team"
    assert calls[(team, "notify", 15)] == f"{accounts}.notify"
    # Pipes into the module's own functions, with and without parentheses; an import's function is the library's.
    assert calls[(f"{user}.changeset", "normalize", 13)] == f"{user}.normalize"
    assert calls[(f"{user}.changeset", "check", 13)] == f"{user}.check"
    assert calls[(f"{user}.changeset", "cast", 13)] is None
    # A spec names types, no calls; a guard's Kernel function is no repository symbol.
    assert not [key for key in calls if key[2] == 7]
    assert calls[(f"{user}.changeset", "is_map", 12)] is None


def test_alias_import_use_and_require_import_the_module_and_a_behaviour_is_inherited():
    analysis = analyze_repository(_APP)
    edges = {(edge.kind, edge.raw, edge.dst) for file in analysis.files.values() for edge in file.edges if edge.kind != "calls"}

    assert edges == {
        ("imports", "MyApp.Accounts.User", "lib.my_app.accounts.user.MyApp.Accounts.User"),
        ("imports", "MyApp.Accounts.Team", "lib.my_app.accounts.user.MyApp.Accounts.Team"),
        ("imports", "MyApp.Repo", "lib.my_app.repo.MyApp.Repo"),
        ("imports", "Logger", None),
        ("imports", "Ecto.Schema", None),
        ("imports", "Ecto.Changeset", None),
        ("inherits", "MyApp.Registry", "lib.my_app.repo.MyApp.Registry"),
        ("inherits", "String.Chars", None),
    }
    # A protocol's implementation for a type: its functions are the type's.
    repo = {symbol.qname: symbol.parent for symbol in analysis.files["lib/my_app/repo.ex"].symbols}
    assert repo["lib.my_app.repo.MyApp.Repo.to_string"] == "lib.my_app.repo.MyApp.Repo"
    assert {src for file in analysis.files.values() for src, raw in ((e.src, e.raw) for e in file.edges) if raw == "String.Chars"} == {
        "lib.my_app.repo.MyApp.Repo"
    }


_ROUTER = (
    "defmodule MyAppWeb.Router do\n"
    "  use MyAppWeb, :router\n\n"
    "  pipeline :browser do\n    plug :accepts, [\"html\"]\n  end\n\n"
    "  scope \"/\", MyAppWeb do\n"
    "    pipe_through :browser\n"
    "    get \"/\", PageController, :home\n"
    "    live \"/thermostat\", ThermostatLive\n"
    "    scope \"/admin\", Admin, as: :admin do\n"
    "      resources \"/users\", UserController\n"
    "    end\n"
    "  end\n\n"
    "  scope \"/api\", MyAppWeb.Api do\n"
    "    post \"/users/:id/avatar\", AvatarController, :upload\n"
    "    resources \"/posts\", PostController, except: [:new, :edit]\n"
    "    resources \"/tags\", TagController, only: [:index]\n"
    "  end\n\n"
    "  forward \"/jobs\", JobsPlug\n"
    "end\n"
)


def test_phoenix_routes_take_the_prefixes_of_their_scopes_and_resources_their_conventional_routes():
    found = entrypoint_rows(
        {
            "lib/my_app_web/router.ex": _ROUTER,
            # Outside a router `get "/x", ...` is no route: a test's request, a client's.
            "lib/my_app/client.ex": "defmodule MyApp.Client do\n  def fetch, do: get \"/users\", Api, :x\nend\n",
            "lib/my_app_web/controllers/page_controller.ex": (
                "defmodule MyAppWeb.PageController do\n  def home(conn, _params), do: conn\nend\n"
            ),
        },
        "entry_type", "framework", "route_or_command", "methods", "handler_raw", "handler",
    )
    page = "lib.my_app_web.controllers.page_controller.MyAppWeb.PageController.home"

    assert {row[:-1] for row in found} == {
        # A controller and its action: the controller's function of that name, where the repository has it.
        ("http_route", "phoenix", "/", ("GET",), "PageController@home"),
        ("http_route", "phoenix", "/thermostat", ("GET",), "ThermostatLive@mount"),
        ("http_route", "phoenix", "/admin/users", ("GET",), "UserController@index"),
        ("http_route", "phoenix", "/admin/users", ("POST",), "UserController@create"),
        ("http_route", "phoenix", "/admin/users/:id", ("GET",), "UserController@show"),
        ("http_route", "phoenix", "/admin/users/:id", ("PUT", "PATCH"), "UserController@update"),
        ("http_route", "phoenix", "/admin/users/:id", ("DELETE",), "UserController@destroy"),
        ("http_route", "phoenix", "/api/users/:id/avatar", ("POST",), "AvatarController@upload"),
        # An API's resource has no form pages; one limited to some actions is left out.
        ("http_route", "phoenix", "/api/posts", ("GET",), "PostController@index"),
        ("http_route", "phoenix", "/api/posts", ("POST",), "PostController@create"),
        ("http_route", "phoenix", "/api/posts/:id", ("GET",), "PostController@show"),
        ("http_route", "phoenix", "/api/posts/:id", ("PUT", "PATCH"), "PostController@update"),
        ("http_route", "phoenix", "/api/posts/:id", ("DELETE",), "PostController@destroy"),
        ("http_route", "phoenix", "/jobs", (), "JobsPlug"),
    }
    assert {(row[2], row[-1]) for row in found if row[-1]} == {("/", page)}


def test_plug_router_routes_are_their_blocks():
    found = entrypoint_rows(
        {
            "lib/my_app/plug_router.ex": (
                "defmodule MyApp.PlugRouter do\n"
                "  use Plug.Router\n\n"
                "  plug :match\n  plug :dispatch\n\n"
                "  get \"/hello\" do\n    send_resp(conn, 200, \"world\")\n  end\n\n"
                "  forward \"/users\", to: MyApp.UsersRouter\n\n"
                "  match _ do\n    send_resp(conn, 404, \"oops\")\n  end\n"
                "end\n"
            ),
        },
        "framework", "route_or_command", "methods", "handler", "handler_raw",
    )

    assert found == {
        ("plug", "/hello", ("GET",), None, "block at lib/my_app/plug_router.ex:7"),
        ("plug", "/users", (), None, "MyApp.UsersRouter"),
    }


def test_mix_tasks_are_commands_and_oban_workers_tasks_handled_by_their_functions():
    found = entrypoint_rows(
        {
            "lib/mix/tasks/db.seed.ex": (
                "defmodule Mix.Tasks.Db.Seed do\n  use Mix.Task\n\n"
                "  @shortdoc \"Seeds the database\"\n  def run(_args), do: MyApp.Seeds.run()\nend\n"
            ),
            # Named as `mix` runs it: the module's words in snake case.
            "lib/mix/tasks/gen_css.ex": "defmodule Mix.Tasks.GenerateCss do\n  use Mix.Task\n  def run(_args), do: :ok\nend\n",
            "lib/my_app/workers/mailer.ex": (
                "defmodule MyApp.Workers.Mailer do\n  use Oban.Worker, queue: :mailers\n\n"
                "  @impl Oban.Worker\n  def perform(%Oban.Job{args: %{\"id\" => id}}) when is_integer(id), do: id\n"
                "  def perform(%Oban.Job{}), do: :ok\n\n"
                "  defp run(id), do: id\nend\n"
            ),
            # A GenServer, and a module whose perform is no Oban worker's, are no entrypoints.
            "lib/my_app/cache.ex": (
                "defmodule MyApp.Cache do\n  use GenServer\n\n  def init(state), do: {:ok, state}\n"
                "  def perform(x), do: x\n  def run(x), do: x\nend\n"
            ),
        },
        "entry_type", "framework", "route_or_command", "handler", "handler_raw", "start_line",
    )

    # A function of several clauses is one handler: the worker is one task.
    assert found == {
        ("cli_command", "mix", "db.seed", "lib.mix.tasks.db.seed.Mix.Tasks.Db.Seed.run", "run", 1),
        ("cli_command", "mix", "generate_css", "lib.mix.tasks.gen_css.Mix.Tasks.GenerateCss.run", "run", 1),
        ("task", "oban", "MyApp.Workers.Mailer", "lib.my_app.workers.mailer.MyApp.Workers.Mailer.perform", "perform", 1),
    }


def test_test_files_are_those_of_the_test_folder_and_named_test_exs():
    assert is_test_file("test/my_app/accounts_test.exs")
    assert is_test_file("apps/shop/test/support/fixtures.ex")
    assert is_test_file("lib/my_app/accounts_test.exs")
    assert not is_test_file("lib/my_app/accounts.ex")
    assert not is_test_file("lib/my_app/test_helpers.ex")


def test_doc_attributes_document_their_function_and_moduledoc_its_module():
    source = (
        "defmodule Shop.Cart do\n"
        '  @moduledoc """\n'
        "  A cart of items.\n"
        '  """\n\n'
        '  @doc """\n'
        "  Adds an item.\n\n"
        "  Returns the cart.\n"
        '  """\n'
        "  @spec add(list, term) :: list\n"
        "  def add(cart, item), do: [item | cart]\n\n"
        '  @doc "Empties it."\n'
        "  def clear(_cart), do: []\n\n"
        "  @doc false\n"
        "  def hidden, do: nil\n\n"
        "  defmodule Line do\n"
        '    @moduledoc "One line of the cart."\n'
        "  end\n"
        "end\n"
    )
    analysis = analyze_repository({"lib/shop/cart.ex": source}).files["lib/shop/cart.ex"]
    docs = {symbol.qname.removeprefix("lib.shop.cart."): symbol.docstring for symbol in analysis.symbols}

    assert docs == {
        "Shop.Cart": "A cart of items.",
        "Shop.Cart.add": "Adds an item.\n\nReturns the cart.",
        "Shop.Cart.clear": "Empties it.",
        "Shop.Cart.hidden": "",
        "Shop.Cart.Line": "One line of the cart.",
    }


def test_a_phoenix_live_route_is_handled_by_its_live_views_mount():
    found = entrypoint_rows(
        {
            "lib/my_app_web/router.ex": (
                "defmodule MyAppWeb.Router do\n  use MyAppWeb, :router\n\n  scope \"/\", MyAppWeb do\n    pipe_through :browser\n"
                "    live \"/thermostat\", ThermostatLive\n    live \"/posts/:id\", PostLive.Show, :show\n  end\nend\n"
            ),
            "lib/my_app_web/live/thermostat_live.ex": (
                "defmodule MyAppWeb.ThermostatLive do\n  use MyAppWeb, :live_view\n\n"
                "  def mount(_params, _session, socket), do: {:ok, socket}\n  def render(assigns), do: ~H\"\"\nend\n"
            ),
            "lib/my_app_web/live/post_live/show.ex": (
                "defmodule MyAppWeb.PostLive.Show do\n  use MyAppWeb, :live_view\n\n  def mount(_params, _session, socket), do: {:ok, socket}\nend\n"
            ),
        },
        "route_or_command", "methods", "handler", kind="http_route",
    )

    assert found == {
        ("/thermostat", ("GET",), "lib.my_app_web.live.thermostat_live.MyAppWeb.ThermostatLive.mount"),
        ("/posts/:id", ("GET",), "lib.my_app_web.live.post_live.show.MyAppWeb.PostLive.Show.mount"),
    }
