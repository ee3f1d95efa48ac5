; Phoenix: routes are declared in a router, a module that uses Phoenix.Router or the app's router
; (`use MyAppWeb, :router`); elsewhere `get "/x", ...` is something else's.
(call target: (identifier) @_use (arguments . (alias) @_router .)
  (#eq? @_use "use") (#eq? @_router "Phoenix.Router")) @uses.phoenix
(call target: (identifier) @_use (arguments . (alias) . (atom) @_router .)
  (#eq? @_use "use") (#eq? @_router ":router")) @uses.phoenix
; `get "/users/:id", UserController, :show`: the route, handled by the controller's action (its show function).
(call target: (identifier) @method (arguments . (string) @path . (alias) @handler . (atom) @handler_action)
  (#any-of? @method "get" "post" "put" "patch" "delete" "options" "head")
  (#set! requires "phoenix")) @route.phoenix
; `live "/users/:id", UserLive.Show, :show`: a LiveView, handled by its mount (a GET that opens the live session),
; and `forward "/admin", AdminRouter`: a plug, serving every path below it.
(call target: (identifier) @method (arguments . (string) @path . (alias) @handler)
  (#eq? @method "live")
  (#set! requires "phoenix") (#set! action "mount")) @route.phoenix
(call target: (identifier) @_live (arguments . (string) @path . (alias) @handler)
  (#eq? @_live "forward")
  (#set! requires "phoenix")) @route.phoenix
; `resources "/users", UserController`: the conventional index, create, show, update and delete routes; also with
; `except: [:new, :edit]` (an API's), whose form pages are none of those. A resource with `only:` or another
; `except:` has some of them only (its actions are atoms, `:show`, which these routes are not named by): none here.
(call target: (identifier) @_resources (arguments . (string) @path . (alias) @handler) @_options
  (#eq? @_resources "resources") (#not-match? @_options "(only|except):")
  (#set! requires "phoenix")) @resource.phoenix
(call target: (identifier) @_resources
  (arguments . (string) @path . (alias) @handler . (keywords . (pair key: (keyword) @_except value: (list) @_actions) .))
  (#eq? @_resources "resources") (#match? @_except "^except:")
  (#match? @_actions "^\\[\\s*:(new|edit)(\\s*,\\s*:(new|edit))?\\s*\\]$")
  (#set! requires "phoenix")) @resource.phoenix
; `scope "/api", MyAppWeb do ... end`: a path prefix of every route within it.
(call target: (identifier) @_scope (arguments . (string) @prefix) (do_block)
  (#eq? @_scope "scope")) @prefixed
;
; Plug.Router: `get "/hello" do ... end`, the block its handler; `forward "/users", to: UsersRouter`.
(call target: (identifier) @_use (arguments . (alias) @_plug .)
  (#eq? @_use "use") (#eq? @_plug "Plug.Router")) @uses.plug
(call target: (identifier) @method (arguments . (string) @path .) (do_block) @block
  (#any-of? @method "get" "post" "put" "patch" "delete" "options" "head")
  (#set! requires "plug")) @route.plug
(call target: (identifier) @_forward
  (arguments . (string) @path . (keywords . (pair key: (keyword) @_to value: (alias) @handler)))
  (#eq? @_forward "forward") (#match? @_to "^to:")
  (#set! requires "plug")) @route.plug
;
; Mix tasks: `defmodule Mix.Tasks.Db.Seed do ... def run(args)` is the task db.seed (`mix db.seed`), named by its
; module below Mix.Tasks in snake case; its run function the handler. Two patterns of the module's body, one naming the task and
; one its function: their matches of one node are read together, so a function of several clauses is one handler.
(call target: (identifier) @_defmodule (arguments . (alias) @path) (do_block) @command.mix
  (#eq? @_defmodule "defmodule") (#match? @path "^Mix\\.Tasks\\.")
  (#set! strip "^Mix\\.Tasks\\.") (#set! route "{snake}") (#set! needs "path"))
(do_block (call target: (identifier) @_def
    (arguments . [(call target: (identifier) @handler) (binary_operator left: (call target: (identifier) @handler))]))
  (#eq? @_def "def") (#eq? @handler "run")
  (#set! strip "^Mix\\.Tasks\\.") (#set! route "{snake}") (#set! needs "path")) @command.mix
;
; Oban: a worker (a module that uses Oban.Worker) is a task named by its module, its perform function the handler.
(call target: (identifier) @_defmodule (arguments . (alias) @path)
  (do_block (call target: (identifier) @_use (arguments . (alias) @_oban))) @route.oban
  (#eq? @_defmodule "defmodule") (#eq? @_use "use") (#any-of? @_oban "Oban.Worker" "Oban.Pro.Worker")
  (#set! entry_type "task") (#set! needs "path"))
(do_block (call target: (identifier) @_def
    (arguments . [(call target: (identifier) @handler) (binary_operator left: (call target: (identifier) @handler))]))
  (#eq? @_def "def") (#eq? @handler "perform")
  (#set! entry_type "task") (#set! needs "path")) @route.oban
