; A script whose first line names its interpreter (`#!/usr/bin/env bash`) is a program, named by its file:
; scripts/deploy.sh is `deploy`, bin/deploy `deploy`; the script's own lines are its handler. A script the
; grammar cannot read whole has an ERROR at its top instead of a program (neofetch's 11,600 lines of here-documents
; and parameter expansions): a program all the same.
([(program . (comment) @_shebang) (ERROR . (comment) @_shebang)] @main (#match? @_shebang "^#!"))
;
; Subcommands: the branches of a `case` on the script's first argument, or on the variable it is held in
; (`case "$1" in start) ... ;; stop) ... ;; esac`, `case "$cmd" in`), at the script's top level or in its
; `main` function (elsewhere `$1` is a function's own argument); a branch is named by its first word
; (`start|begin)` is `start`), not by an option (`-h|--help)`) or a pattern (`*)`). Its handler is the command
; the branch runs first when it is a function of the script (`start) start_server "$@" ;;`). A `getopts` loop's
; `case "$opt"` names options, no commands.
(program (case_statement value: (_) @_subject (case_item value: (_) @path) @command.shell)
  (#match? @_subject "(?i)^\"?\\$\\{?(1|cmd|command|subcommand|action|verb|task|op|operation|mode)\\b")
  (#match? @path "^[\"']?[A-Za-z][A-Za-z0-9_:.-]*[\"']?$")
  (#set! needs "path"))
(function_definition name: (word) @_main
  body: (compound_statement (case_statement value: (_) @_subject (case_item value: (_) @path) @command.shell))
  (#eq? @_main "main")
  (#match? @_subject "(?i)^\"?\\$\\{?(1|cmd|command|subcommand|action|verb|task|op|operation|mode)\\b")
  (#match? @path "^[\"']?[A-Za-z][A-Za-z0-9_:.-]*[\"']?$")
  (#set! needs "path"))
; ... the branch's handler: the command right after its last pattern, or after the `shift` that drops the subcommand's
; name (`bump) shift; command_bump "$@" ;;`), read with the branch's name above
(program (case_statement value: (_) @_subject
    (case_item value: (_) . (command name: (command_name (word) @handler))) @command.shell)
  (#match? @_subject "(?i)^\"?\\$\\{?(1|cmd|command|subcommand|action|verb|task|op|operation|mode)\\b")
  (#not-match? @handler "/|^(echo|printf|exit|return|shift|set|local|true|false|:)$")
  (#set! needs "path"))
(program (case_statement value: (_) @_subject
    (case_item value: (_)
      . (command name: (command_name (word) @_shift) !argument) . (command name: (command_name (word) @handler)))
      @command.shell)
  (#match? @_subject "(?i)^\"?\\$\\{?(1|cmd|command|subcommand|action|verb|task|op|operation|mode)\\b")
  (#eq? @_shift "shift")
  (#not-match? @handler "/|^(echo|printf|exit|return|shift|set|local|true|false|:)$")
  (#set! needs "path"))
(function_definition name: (word) @_main
  body: (compound_statement (case_statement value: (_) @_subject
    (case_item value: (_) . (command name: (command_name (word) @handler))) @command.shell))
  (#eq? @_main "main")
  (#match? @_subject "(?i)^\"?\\$\\{?(1|cmd|command|subcommand|action|verb|task|op|operation|mode)\\b")
  (#not-match? @handler "/|^(echo|printf|exit|return|shift|set|local|true|false|:)$")
  (#set! needs "path"))
(function_definition name: (word) @_main
  body: (compound_statement (case_statement value: (_) @_subject
    (case_item value: (_)
      . (command name: (command_name (word) @_shift) !argument) . (command name: (command_name (word) @handler)))
      @command.shell))
  (#eq? @_main "main")
  (#match? @_subject "(?i)^\"?\\$\\{?(1|cmd|command|subcommand|action|verb|task|op|operation|mode)\\b")
  (#eq? @_shift "shift")
  (#not-match? @handler "/|^(echo|printf|exit|return|shift|set|local|true|false|:)$")
  (#set! needs "path"))
