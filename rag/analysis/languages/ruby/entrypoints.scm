; Rails routes: get '/path', to: 'controller#action' (a path from the root unless it names its action),
; post 'login' => 'sessions#create', under namespace :admin do ... end or scope '/api' do ... end
(call !receiver method: (identifier) @method arguments: (argument_list . (string) @path) !block
  (#match? @method "^(get|post|put|patch|delete)$")
  (#match? @path "^['\"]/") (#set! when_used "hanami")) @route.rails
(call !receiver method: (identifier) @method
  arguments: (argument_list . (string) @path (pair key: (hash_key_symbol) @_to value: (string) @handler))
  !block
  (#match? @method "^(get|post|put|patch|delete|match)$") (#eq? @_to "to") (#set! when_used "hanami")) @route.rails
; root 'pages#home' and root to: 'pages#home': the GET route of / (of /admin in namespace :admin)
(call !receiver method: (identifier) @method @path arguments: (argument_list . (string) @handler .)
  (#eq? @method "root") (#set! strip ".*") (#set! when_used "hanami")) @route.rails
(call !receiver method: (identifier) @method @path arguments: (argument_list . (pair key: (hash_key_symbol) @_to value: (string) @handler))
  (#eq? @method "root") (#eq? @_to "to") (#set! strip ".*") (#set! when_used "hanami")) @route.rails
; ... Hanami's, the same calls in its routes class (class Routes < Hanami::Routes), to: "books.index" the action
; of app/actions/books/index.rb
(class superclass: (superclass (scope_resolution scope: (constant) @uses.hanami name: (constant) @_routes))
  (#eq? @uses.hanami "Hanami") (#eq? @_routes "Routes"))
(call !receiver method: (identifier) @method arguments: (argument_list . (pair key: (string) @path value: (string) @handler))
  !block
  (#match? @method "^(get|post|put|patch|delete|match)$")) @route.rails
; resources :photos: index, create, show, update and destroy; resource :profile, a singular resource: show,
; create, update and destroy, with no id; but the actions of `only:`, less those of `except:`, the member's
; parameter named by `param:` (one pattern per option, read together)
(call !receiver method: (identifier) @resource_kind arguments: (argument_list . (simple_symbol) @path)
  (#match? @resource_kind "^resources?$")) @resource.rails
(call !receiver method: (identifier) @resource_kind arguments: (argument_list . (simple_symbol) @path
    (pair key: (hash_key_symbol) @_only value: [(array (simple_symbol)* @only) (simple_symbol) @only]))
  (#match? @resource_kind "^resources?$") (#eq? @_only "only")) @resource.rails
(call !receiver method: (identifier) @resource_kind arguments: (argument_list . (simple_symbol) @path
    (pair key: (hash_key_symbol) @_except value: [(array (simple_symbol)* @except) (simple_symbol) @except]))
  (#match? @resource_kind "^resources?$") (#eq? @_except "except")) @resource.rails
(call !receiver method: (identifier) @resource_kind arguments: (argument_list . (simple_symbol) @path
    (pair key: (hash_key_symbol) @_param value: (simple_symbol) @param))
  (#match? @resource_kind "^resources?$") (#eq? @_param "param")) @resource.rails
(call !receiver method: (identifier) @_scope arguments: (argument_list . [(simple_symbol) (string)] @prefix) block: (do_block)
  (#eq? @_scope "scope")) @prefixed
; namespace :admin is a path prefix and the module of its controllers too (admin/photos#index: Admin::PhotosController)
(call !receiver method: (identifier) @_namespace arguments: (argument_list . [(simple_symbol) (string)] @prefix @module) block: (do_block)
  (#eq? @_namespace "namespace")) @prefixed
; resources :articles do ... end nests the routes of its block under /articles/:article_id (a singular
; resource's under /profile): get :feed there is /articles/:article_id/feed, with on: :member
; /articles/:id/feed, with on: :collection /articles/feed
(call !receiver method: (identifier) @resource_kind arguments: (argument_list . (simple_symbol) @prefix) block: (do_block)
  (#match? @resource_kind "^resources?$")) @prefixed
(call !receiver method: (identifier) @resource_kind arguments: (argument_list . (simple_symbol) @prefix
    (pair key: (hash_key_symbol) @_param value: (simple_symbol) @param)) block: (do_block)
  (#match? @resource_kind "^resources?$") (#eq? @_param "param")) @prefixed
(call !receiver method: (identifier) @method arguments: (argument_list . (simple_symbol) @path) !block
  (#match? @method "^(get|post|put|patch|delete)$")) @route.rails
(call !receiver method: (identifier) @method
  arguments: (argument_list . (simple_symbol) @path (pair key: (hash_key_symbol) @_on value: (simple_symbol) @on)) !block
  (#match? @method "^(get|post|put|patch|delete)$") (#eq? @_on "on")) @route.rails
; Sinatra: get '/path' do ... end, the block its handler (Grape's in a class under Grape::API)
(call !receiver method: (identifier) @method arguments: (argument_list . (string) @path) block: (_) @block
  (#match? @method "^(get|post|put|patch|delete|options)$")
  (#match? @path "^['\"]/") (#set! when_used "grape")) @route.sinatra
; Grape: in a class under Grape::API, get :public_timeline do ... end and get do ... end (under the paths of the
; resource, namespace, group and segment blocks around them), under the class's prefix :api and its version 'v1'
; when the version is in the path (the default, or using: :path)
(class superclass: (superclass (scope_resolution scope: (constant) @uses.grape name: (constant) @_api))
  (#eq? @uses.grape "Grape") (#eq? @_api "API"))
(call !receiver method: (identifier) @method arguments: (argument_list . [(simple_symbol) (string)] @path) block: (_) @block
  (#match? @method "^(get|post|put|patch|delete|options|head)$") (#not-match? @path "^['\"]/")
  (#set! requires "grape")) @route.grape
(call !receiver method: (identifier) @method !arguments block: (_) @block
  (#match? @method "^(get|post|put|patch|delete|options|head)$")
  (#set! requires "grape")) @route.grape
(class body: (body_statement (call !receiver method: (identifier) @_prefix arguments: (argument_list . [(simple_symbol) (string)] @prefix)))
  (#eq? @_prefix "prefix")) @prefixed
(body_statement (call !receiver method: (identifier) @_version arguments: (argument_list . [(simple_symbol) (string)] @prefix .))
  (#eq? @_version "version")) @prefixed
(body_statement (call !receiver method: (identifier) @_version
    arguments: (argument_list . [(simple_symbol) (string)] @prefix . (pair key: (hash_key_symbol) @_using value: (simple_symbol) @_path) .))
  (#eq? @_version "version") (#eq? @_using "using") (#eq? @_path ":path")) @prefixed
(call !receiver method: (identifier) @_resource arguments: (argument_list . [(simple_symbol) (string)] @prefix) block: (do_block)
  (#match? @_resource "^(resource|group|segment)$")) @prefixed
; Mercenary (Jekyll's CLI): prog.command(:build) do |c| ... c.action do |args, options| ... end end, the action block
; its handler
(call receiver: (identifier) method: (identifier) @_command arguments: (argument_list . [(simple_symbol) (string)] @path .)
  block: (do_block (block_parameters) (body_statement (call receiver: (identifier) method: (identifier) @_action block: (_) @block)))
  (#eq? @_command "command") (#eq? @_action "action")
  (#set! strip "^:")) @command.mercenary
;
; Thor: in a class under Thor, each desc "fetch URL", "..." describes the command its usage starts with, handled by
; the method right after it (up to three options or a long_desc declared between them are looked past, each an optional sibling: a
; run of any length, `*`, would cost tree-sitter every pair of a long class's statements), else by the class
(class superclass: (superclass (constant) @_thor)
  body: (body_statement (call !receiver method: (identifier) @_desc arguments: (argument_list . (string (string_content) @path))) @command.thor)
  (#eq? @_thor "Thor") (#eq? @_desc "desc"))
(class superclass: (superclass (constant) @_thor)
  body: (body_statement
    (call !receiver method: (identifier) @_desc arguments: (argument_list . (string (string_content) @path))) @command.thor
    . (call !receiver method: (identifier) @_option)?
    . (call !receiver method: (identifier) @_option)?
    . (call !receiver method: (identifier) @_option)?
    . (method name: (identifier) @handler))
  (#eq? @_thor "Thor") (#eq? @_desc "desc") (#match? @_option "^(method_option|option|method_options|long_desc)$"))
; Rake (a Rakefile or a .rake file): task :name do ... end (task name: :deps, task :name => deps, task :name, [:args])
; is the command rake runs, under the namespaces around it (namespace :db do ... end: db:seed), its block the handler
(call !receiver method: (identifier) @_task
  arguments: (argument_list . [(simple_symbol) @path (string) @path (pair key: [(hash_key_symbol) (simple_symbol) (string)] @path)])
  block: [(do_block) (block)] @block
  (#eq? @_task "task") (#set! strip "^:") (#set! join ":")) @command.rake
;
; Tasks: an Active Job (a class under ApplicationJob or ActiveJob::Base) or a Sidekiq job (a class with a perform
; method in a file that includes Sidekiq::Job or Sidekiq::Worker: a pattern of the include and the method, two
; siblings in any order, costs tree-sitter every pair of a long class's statements), named by its class; its
; perform method the handler
(class name: (_) @path superclass: (superclass (_) @_base)
  body: (body_statement (method name: (identifier) @_perform) @route.activejob)
  (#match? @_base "^(ApplicationJob|ActiveJob::Base)$") (#eq? @_perform "perform")
  (#set! entry_type "task"))
(call !receiver method: (identifier) @_include arguments: (argument_list (scope_resolution) @uses.sidekiq)
  (#eq? @_include "include") (#match? @uses.sidekiq "^Sidekiq::(Job|Worker)$"))
(class name: (_) @path
  body: (body_statement (method name: (identifier) @_perform) @route.sidekiq)
  (#eq? @_perform "perform")
  (#set! requires "sidekiq") (#set! entry_type "task"))
;
; GraphQL (graphql-ruby): each `field :all_posts, ...` of the schema's root types (QueryType, MutationType and
; SubscriptionType, in Types:: or not) is the operation Query.allPosts (the field's name in camel case, as
; graphql-ruby names it)
(class name: (_) @_root body: (body_statement (call !receiver method: (identifier) @_field arguments: (argument_list . (simple_symbol) @path)) @route.graphql-ruby)
  (#eq? @_field "field") (#match? @_root "(^|::)QueryType$")
  (#set! route "Query.{camel}") (#set! entry_type "rpc_service"))
(class name: (_) @_root body: (body_statement (call !receiver method: (identifier) @_field arguments: (argument_list . (simple_symbol) @path)) @route.graphql-ruby)
  (#eq? @_field "field") (#match? @_root "(^|::)MutationType$")
  (#set! route "Mutation.{camel}") (#set! entry_type "rpc_service"))
(class name: (_) @_root body: (body_statement (call !receiver method: (identifier) @_field arguments: (argument_list . (simple_symbol) @path)) @route.graphql-ruby)
  (#eq? @_field "field") (#match? @_root "(^|::)SubscriptionType$")
  (#set! route "Subscription.{camel}") (#set! entry_type "rpc_service"))
