; JavaScript's own entrypoint patterns: nodes TypeScript's grammar names otherwise (its queries would not compile there).
;
; Socket.IO (entrypoints.scm): a connection's listener, io.on('connection', (socket) => { socket.on('chat message',
; handler) }), its parameter in parentheses or not, or a function's
(call_expression
  function: (member_expression property: (property_identifier) @_on_connection)
  arguments: (arguments . (string (string_fragment) @_connection) . (_
    [parameters: (formal_parameters . (identifier) @_socket) parameter: (identifier) @_socket]
    body: (statement_block (expression_statement (call_expression
      function: (member_expression object: (identifier) @_listener property: (property_identifier) @_on)
      arguments: (arguments . (string (string_fragment) @path) . [(identifier) @handler (member_expression) @handler (function_expression) @block (arrow_function) @block] .)) @route.socketio))))
  (#eq? @_on_connection "on") (#eq? @_connection "connection") (#eq? @_on "on") (#eq? @_listener @_socket)
  (#not-match? @path "^(disconnect|disconnecting|error)$")
  (#set! requires "socketio") (#set! entry_type "rpc_service"))
