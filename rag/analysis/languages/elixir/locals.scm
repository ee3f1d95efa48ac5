; A type attribute's calls name types, not functions: `@spec fetch(integer()) :: User.t()`, `@type t :: map()`,
; `@callback init(args :: term()) :: :ok`. Every name called within one is taken for the attribute's own, so none
; of them is a call (names called outside such an attribute are outside every scope here, and stay calls).
(unary_operator operator: "@"
  operand: (call target: (identifier) @_attribute)
  (#any-of? @_attribute "spec" "type" "typep" "opaque" "callback" "macrocallback")) @local.scope
(call target: (identifier) @local.definition (arguments "("))
