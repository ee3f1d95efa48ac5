; Modules: `defmodule MyApp.Accounts.User do ... end` is MyApp.Accounts.User (a module defined inside it,
; `defmodule Admin do`, is MyApp.Accounts.User.Admin), and so is a protocol: `defprotocol MyApp.Sizeable do`.
(call target: (identifier) @_define (arguments . (alias) @name) (do_block)
  (#any-of? @_define "defmodule" "defprotocol")) @definition.module
; `defimpl Jason.Encoder, for: MyApp.User do ... end`: its functions are the type's, as a module's functions
; are its own (no symbol of its own); the type implements the protocol.
(call target: (identifier) @_impl
  (arguments . (alias) (keywords . (pair key: (keyword) @_for value: (alias) @name)))
  (do_block)
  (#eq? @_impl "defimpl") (#match? @_for "^for:")) @container
(call target: (identifier) @_impl (arguments . (alias) @name)
  (#eq? @_impl "defimpl")) @reference.implementation
; Functions, macros and guards, a symbol per clause: `def changeset(user, attrs) do`, `defp validate(c), do: c`,
; `def name, do: "x"`, `def fetch(id) when is_integer(id) do`, `defdelegate get(id), to: Repo`.
(call target: (identifier) @_define
  (arguments . [
    (identifier) @name
    (call target: (identifier) @name)
    (binary_operator left: [(call target: (identifier) @name) (identifier) @name] operator: "when")])
  (#any-of? @_define "def" "defp" "defmacro" "defmacrop" "defguard" "defguardp" "defdelegate" "defn" "defnp")) @definition.function
; Struct fields: `defstruct [:name, age: 0]`, `defstruct name: nil, age: 0` (and an exception's), named
; without the atom's colon.
(call target: (identifier) @_struct
  (arguments . (list [(atom) @name @definition.field (keywords (pair key: (keyword) @name @definition.field))]))
  (#any-of? @_struct "defstruct" "defexception")
  (#set! strip "^:|:\\s*$"))
(call target: (identifier) @_struct
  (arguments . (keywords (pair key: (keyword) @name @definition.field)))
  (#any-of? @_struct "defstruct" "defexception")
  (#set! strip ":\\s*$"))
; An Ecto schema's fields: `schema "users" do field :email, :string; belongs_to :team, Team end`.
(call target: (identifier) @_schema
  (do_block (call target: (identifier) @_field (arguments . (atom) @name)) @definition.field)
  (#any-of? @_schema "schema" "embedded_schema")
  (#any-of? @_field "field" "belongs_to" "has_one" "has_many" "many_to_many" "embeds_one" "embeds_many")
  (#set! strip "^:"))
;
; Imports: `alias MyApp.Accounts.User`, `alias MyApp.Accounts.{User, Team}`, `import Ecto.Query`, `require Logger`,
; `use MyAppWeb, :controller`: the module (each of a group's).
(call target: (identifier) @_imports (arguments . [(alias) (dot left: (alias) right: (tuple))] @import)
  (#any-of? @_imports "alias" "import" "require" "use"))
; `alias MyApp.Repo, as: R`: the module, under the name it is given.
(call target: (identifier) @_alias (arguments . (alias) @import (keywords (pair key: (keyword) @_as value: (alias) @alias)))
  (#eq? @_alias "alias") (#match? @_as "^as:"))
; `@behaviour MyApp.Greeter`: the module implements the behaviour's callbacks.
(unary_operator operator: "@"
  operand: (call target: (identifier) @_behaviour (arguments . (alias) @name))
  (#eq? @_behaviour "behaviour")) @reference.implementation
;
; Calls of a module's function: `Repo.insert(changeset)`, `MyApp.Accounts.User.changeset(user, attrs)`,
; `x |> Repo.insert()`, `__MODULE__.fetch(id)`, the module their `@receiver` (a type's `t()` in a spec is no call).
(call target: (dot left: [(alias) (identifier)] @receiver right: (identifier) @name)
  (#match? @receiver "^(__MODULE__$|[A-Z])")
  (#not-eq? @name "t")) @reference.call
; A call with no module, with its parentheses: `do_thing(x)`, `x |> transform()` (a function of the module, of one it
; imports, or Kernel's). Without them a name is a variable or a macro of a library's DSL (`field :name`, `plug :auth`).
(call target: (identifier) @name @reference.call (arguments "(")
  (#not-match? @name "^(def|defp|defmacrop?|defguardp?|defdelegate|defnp?|defmodule|defprotocol|defimpl|defstruct|defexception|defoverridable|alias|import|require|use|if|unless|case|cond|with|for|try|receive|quote|unquote|unquote_splicing|super|fn|__MODULE__|__ENV__|__CALLER__|__DIR__|__STACKTRACE__)$"))
; A pipe into a name without parentheses: `x |> transform`.
(binary_operator operator: "|>" right: (identifier) @name @reference.call)
; A struct of a module: `%User{name: name}`.
(struct (alias) @name @reference.class)
