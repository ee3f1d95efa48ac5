; Functions, in each of the shell's forms: `build() { ... }`, `function build { ... }`, `function build() ( ... )`
(function_definition name: (word) @name) @definition.function
; Constants: a variable the script exports or makes read-only at its top level (`readonly VERSION=1.2`,
; `export APP_NAME="shop"`, `declare -r MAX=3`); assignments inside functions are their locals.
; (one symbol per statement: its first name)
(program
  (declaration_command ["readonly" "export"] (variable_assignment name: (variable_name) @name)) @definition.constant)
(program
  (declaration_command ["declare" "typeset"] (word) @_flags (variable_assignment name: (variable_name) @name))
    @definition.constant
  (#match? @_flags "^-[A-Za-z]*[rx]"))
;
; Calls: a command named by a plain word (`build --fast`, `log "done"`), which is a function of the script or
; of one it sources when the repository defines one of that name, else a program of the system; not a path
; (`./build.sh`, below), not `source` or `.`, nor what the grammar reads as a command in Bats' `@test "x" {`
(command name: (command_name (word) @name @reference.call)
  (#match? @name "^[A-Za-z_][A-Za-z0-9_:.-]*$") (#not-eq? @name "source"))
; ... a function Bats runs in a test (`run build`), and the function a trap runs (`trap cleanup EXIT`,
; `trap 'cleanup' INT TERM`)
(command name: (command_name (word) @_run) . argument: (word) @name @reference.call (#eq? @_run "run")
  (#match? @name "^[A-Za-z_][A-Za-z0-9_:-]*$"))
(command name: (command_name (word) @_trap) . argument: [(word) (raw_string) (string)] @name @reference.call
  (#eq? @_trap "trap") (#match? @name "^['\"]?[A-Za-z_][A-Za-z0-9_:-]*['\"]?$")
  (#set! strip "['\"]"))
;
; Imports: a script read into this one, `source ./lib/common.sh`, `. "../common.sh"`, `\. ../nvm.sh` (a `.` that no
; alias may replace): a path from the script's folder when it starts with `./` or `../`; through a variable,
; `source "$DIR/lib/common.sh"`, kept as written
(command name: (command_name (word) @_source) . argument: (word) @import (#any-of? @_source "source" "." "\\."))
(command name: (command_name (word) @_source) . argument: (string . (string_content) @import .)
  (#any-of? @_source "source" "." "\\."))
(command name: (command_name (word) @_source)
  . argument: [(string [(simple_expansion) (expansion) (command_substitution)]) (concatenation)] @import
  (#any-of? @_source "source" "." "\\."))
;   the grammar reads a line that starts with `\.` as more words of the command on the line above (`: nvm.sh`,
;   then `\. ../nvm.sh`): those two words are a source all the same
(command argument: (word) @_source . argument: (word) @import (#match? @_source "^\\s*\n\\s*\\\\\\.$"))
; ... and another script of the repository this one runs: `./scripts/build.sh --fast`, `bash ./build.sh`
(command name: (command_name (word) @import) (#match? @import "^\\.\\.?/.*\\.(sh|bash)$"))
(command name: (command_name (word) @_shell) . argument: (word) @import
  (#any-of? @_shell "bash" "sh") (#match? @import "\\.(sh|bash)$"))
