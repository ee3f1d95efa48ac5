; Rails routes: get '/path', to: 'controller#action'
(call method: (identifier) @method arguments: (argument_list . (string) @path)
  (#match? @method "^(get|post|put|patch|delete)$")
  (#match? @path "^['\"]/")) @route.rails
