; Rails routes: get '/path', to: 'controller#action' (a path from the root unless it names its action),
; post 'login' => 'sessions#create', under namespace :admin do ... end or scope '/api' do ... end
(call !receiver method: (identifier) @method arguments: (argument_list . (string) @path) !block
  (#match? @method "^(get|post|put|patch|delete)$")
  (#match? @path "^['\"]/")) @route.rails
(call !receiver method: (identifier) @method
  arguments: (argument_list . (string) @path (pair key: (hash_key_symbol) @_to value: (string) @handler))
  !block
  (#match? @method "^(get|post|put|patch|delete|match)$") (#eq? @_to "to")) @route.rails
(call !receiver method: (identifier) @method arguments: (argument_list . (pair key: (string) @path value: (string) @handler))
  !block
  (#match? @method "^(get|post|put|patch|delete|match)$")) @route.rails
; resources :photos: index, create, show, update and destroy
(call !receiver method: (identifier) @_resources arguments: (argument_list . (simple_symbol) @path)
  (#eq? @_resources "resources")) @resource.rails
(call !receiver method: (identifier) @_scope arguments: (argument_list . [(simple_symbol) (string)] @prefix) block: (do_block)
  (#match? @_scope "^(namespace|scope)$")) @prefixed
; resources :photos do ... end nests its member routes under /photos/:photo_id
; Sinatra: get '/path' do ... end, the block its handler
(call !receiver method: (identifier) @method arguments: (argument_list . (string) @path) block: (_) @block
  (#match? @method "^(get|post|put|patch|delete|options)$")
  (#match? @path "^['\"]/")) @route.sinatra
; Mercenary (Jekyll's CLI): prog.command(:build) do |c| ... c.action do |args, options| ... end end, the action block
; its handler
(call receiver: (identifier) method: (identifier) @_command arguments: (argument_list . [(simple_symbol) (string)] @path .)
  block: (do_block (block_parameters) (body_statement (call receiver: (identifier) method: (identifier) @_action block: (_) @block)))
  (#eq? @_command "command") (#eq? @_action "action")
  (#set! strip "^:")) @command.mercenary
