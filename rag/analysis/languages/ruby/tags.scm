; Files a file loads: `require 'shop/cart'` (through the load path) and `require_relative '../cart'`.
((call method: (identifier) @_loads arguments: (argument_list . (string (string_content) @import) .))
  (#any-of? @_loads "require" "require_relative"))
; `class Cart < Shop::Priced`: the class inherits it.
(superclass [(constant) @name (scope_resolution name: (constant) @name)]) @reference.implementation
; `include Helpers`, `extend Forwardable`, `prepend Hooks`: the class or module takes the module's methods.
((call method: (identifier) @_mixes arguments: (argument_list [(constant) @name (scope_resolution name: (constant) @name)])) @reference.implementation
  (#any-of? @_mixes "include" "extend" "prepend"))
; `attr_reader :name, :email` (and attr_writer, attr_accessor): a method per attribute, named without its colon.
((call !receiver method: (identifier) @_attr arguments: (argument_list (simple_symbol) @name @definition.method))
  (#any-of? @_attr "attr_reader" "attr_writer" "attr_accessor")
  (#set! strip "^:"))
; `Jekyll::Site`, `Utils::Platforms`: the constant is named in what comes before it (its `@receiver`), not
; looked up around the reference.
(scope_resolution scope: (_) @receiver name: (constant) @name) @reference.call
