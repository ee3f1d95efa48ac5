; A local bound to a new object (`site = Jekyll::Site.new(options)`): a call on it is resolved in that class.
(assignment left: (identifier) @variable
  right: (call receiver: [(constant) (scope_resolution)] @type method: (identifier) @_new)
  (#eq? @_new "new"))
