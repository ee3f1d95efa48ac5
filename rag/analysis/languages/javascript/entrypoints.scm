; Express, Koa, Hono and Fastify routers: app.get('/path', handler) or app.get(`/path`, handler) on an app or router object (app, router, api, a
; name ending in Router or Routes: userRouter, authRoutes, or one the file binds to what express(), Router(),
; new Koa() or new Hono() makes: @router below), a path from the root; Koa's in a file that imports koa,
; @koa/router or koa-router, Hono's in one that imports hono
(call_expression
  function: (member_expression object: (identifier) @app property: (property_identifier) @method)
  arguments: (arguments . [(string (string_fragment) @path) (template_string . (string_fragment) @path .)])
  (#match? @method "^(get|post|put|patch|delete|all|options|head)$")
  (#match? @path "^/")
  (#set! receiver "^(app|router|server|api|routes|r|[A-Za-z_$][A-Za-z0-9_$]*(Router|Routes))$")
  (#set! when_used "koa hono fastify elysia")) @route.express
; ... with the handler named last (after any middlewares): app.get('/users', list), app.get('/users', user.list),
; or written there: app.get('/', function (req, res) { ... }), app.get('/', (req, res) => ...)
(call_expression
  function: (member_expression object: (identifier) @app property: (property_identifier) @method)
  arguments: (arguments . [(string (string_fragment) @path) (template_string . (string_fragment) @path .)]
    [(identifier) @handler (member_expression) @handler (function_expression) @block (arrow_function) @block] .)
  (#match? @method "^(get|post|put|patch|delete|all|options|head)$")
  (#match? @path "^/")
  (#set! receiver "^(app|router|server|api|routes|r|[A-Za-z_$][A-Za-z0-9_$]*(Router|Routes))$")
  (#set! when_used "koa hono fastify elysia")) @route.express

; Express: app.route('/book').get(h).post(h): the route's path is its chain's root (@chain_root), each method
; chained on it a route of that path (@chained: the call the method is called on, walked down to the root)
(call_expression
  function: (member_expression object: (identifier) @app property: (property_identifier) @_route)
  arguments: (arguments . (string (string_fragment) @path) .)
  (#eq? @_route "route") (#match? @path "^/")) @chain_root
(call_expression
  function: (member_expression object: (call_expression) @chained property: (property_identifier) @method)
  arguments: (arguments [(identifier) @handler (member_expression) @handler (function_expression) @block (arrow_function) @block] .)
  (#match? @method "^(get|post|put|patch|delete|all|options|head)$")
  (#set! receiver "^(app|router|server|api|routes|r|[A-Za-z_$][A-Za-z0-9_$]*(Router|Routes))$")
  (#set! when_used "koa hono fastify elysia")) @route.express
;
; What makes an Express, Koa or Hono app or router, and the name the file binds it to: var apiv1 =
; express.Router(), const app = module.exports = express(), const router = new Router(), const books = new Hono()
(variable_declarator name: (identifier) @router
  value: [(call_expression function: [(identifier) @_made (member_expression property: (property_identifier) @_made)])
          (new_expression constructor: [(identifier) @_made (member_expression property: (property_identifier) @_made)])
          (assignment_expression right: (call_expression function: [(identifier) @_made (member_expression property: (property_identifier) @_made)]))]
  (#match? @_made "^(express|Router|Koa|Hono|Elysia)$"))
; ... and what makes an HTTP client, whose calls are requests to a server: const api = axios.create({ baseURL }),
; ky.create(...), ky.extend(...), got.extend(...), ofetch.create(...)
(variable_declarator name: (identifier) @http_client
  value: (call_expression function: (member_expression object: (identifier) @_library property: (property_identifier) @_made))
  (#match? @_library "^(axios|ky|got|ofetch|wretch)$") (#match? @_made "^(create|extend)$"))
; ... Koa's router or Elysia's app made with its prefix: const router = new Router({ prefix: '/api' })
(variable_declarator name: (identifier) @router
  value: (new_expression constructor: (identifier) @_made
    arguments: (arguments (object (pair key: (property_identifier) @_prefix value: (string (string_fragment) @prefix)))))
  (#match? @_made "^(Router|Elysia)$") (#eq? @_prefix "prefix"))
; ... Hono's app made with its base path: const api = new Hono().basePath('/api')
(variable_declarator name: (identifier) @router
  value: (call_expression
    function: (member_expression object: (new_expression constructor: (identifier) @_made) property: (property_identifier) @_base)
    arguments: (arguments . (string (string_fragment) @prefix) .))
  (#eq? @_made "Hono") (#eq? @_base "basePath"))
; Express and Koa: a router mounted under a prefix (after any middlewares), app.use('/api', users), by the
; name of a router of the file or of a module it imports, or as required there: app.use('/users', require('./users'))
(call_expression
  function: (member_expression object: (identifier) @parent property: (property_identifier) @_use)
  arguments: (arguments . (string (string_fragment) @prefix) (identifier) @mounted .)
  (#eq? @_use "use") (#match? @prefix "^/")) @mount
(call_expression
  function: (member_expression object: (identifier) @parent property: (property_identifier) @_use)
  arguments: (arguments . (string (string_fragment) @prefix)
    (call_expression function: (identifier) @_require arguments: (arguments . (string (string_fragment) @mounted_module))) .)
  (#eq? @_use "use") (#eq? @_require "require") (#match? @prefix "^/")) @mount
; Hono: an app mounted under a path, app.route('/books', books), by the name of an app of the file or of a
; module it imports (Express's app.route('/book') has its path alone: a chain's root, above)
(call_expression
  function: (member_expression object: (identifier) @parent property: (property_identifier) @_route)
  arguments: (arguments . (string (string_fragment) @prefix) . (identifier) @mounted .)
  (#eq? @_route "route") (#match? @prefix "^/")) @mount
; Fastify: a plugin registered under a prefix, fastify.register(users, { prefix: '/users' }), by the name of a module
; the file imports or as required there
(call_expression
  function: (member_expression object: (identifier) @parent property: (property_identifier) @_register)
  arguments: (arguments . (identifier) @mounted
    (object (pair key: (property_identifier) @_prefix value: (string (string_fragment) @prefix))))
  (#eq? @_register "register") (#eq? @_prefix "prefix")) @mount
(call_expression
  function: (member_expression object: (identifier) @parent property: (property_identifier) @_register)
  arguments: (arguments . (call_expression function: (identifier) @_require arguments: (arguments . (string (string_fragment) @mounted_module)))
    (object (pair key: (property_identifier) @_prefix value: (string (string_fragment) @prefix))))
  (#eq? @_register "register") (#eq? @_require "require") (#eq? @_prefix "prefix")) @mount
; NestJS: app.setGlobalPrefix('api') puts every controller of the application under /api
(call_expression
  function: (member_expression property: (property_identifier) @_global)
  arguments: (arguments . (string (string_fragment) @prefix))
  (#eq? @_global "setGlobalPrefix")) @mount.global
(import_statement source: (string (string_fragment) @uses.koa) (#match? @uses.koa "^(koa|@koa/router|koa-router)$"))
(import_statement source: (string (string_fragment) @uses.hono) (#match? @uses.hono "^hono(/.*)?$"))
(import_statement source: (string (string_fragment) @uses.elysia) (#eq? @uses.elysia "elysia"))
; Elysia: a route's handler comes right after its path, options may follow (app.post('/sign-in', signIn, { body })),
; on an app the file names (const app = new Elysia()) or chained on one, new Elysia().get('/', h).post('/users', create)
(call_expression
  function: (member_expression object: (identifier) @app property: (property_identifier) @method)
  arguments: (arguments . (string (string_fragment) @path)
    . [(identifier) @handler (member_expression) @handler (function_expression) @block (arrow_function) @block] . (object))
  (#match? @method "^(get|post|put|patch|delete|all|options|head)$")
  (#match? @path "^/")
  (#set! receiver "^(app|router|server|api|routes|r|[A-Za-z_$][A-Za-z0-9_$]*(Router|Routes))$")
  (#set! requires "elysia") (#set! when_used "elysia")) @route.express
(call_expression
  function: (member_expression object: [(call_expression) (new_expression)] property: (property_identifier) @method)
  arguments: (arguments . (string (string_fragment) @path)
    . [(identifier) @handler (member_expression) @handler (function_expression) @block (arrow_function) @block])
  (#match? @method "^(get|post|put|patch|delete|all|options|head)$")
  (#match? @path "^/")
  (#set! requires "elysia")) @route.elysia
; ... under the prefix of a group around it: app.group('/admin', (app) => app.get('/stats', stats)) (the function's routes)
(call_expression
  function: (member_expression property: (property_identifier) @_group)
  arguments: (arguments . (string (string_fragment) @prefix) . [(arrow_function) (function_expression)] @prefixed .)
  (#eq? @_group "group"))
; ... and Fastify's, by whatever name its instance has (const app = Fastify())
(import_statement source: (string (string_fragment) @uses.fastify) (#eq? @uses.fastify "fastify"))
(call_expression function: (identifier) @_require arguments: (arguments . (string (string_fragment) @uses.fastify))
  (#eq? @_require "require") (#eq? @uses.fastify "fastify"))
(call_expression function: (identifier) @_require arguments: (arguments . (string (string_fragment) @uses.koa))
  (#eq? @_require "require") (#match? @uses.koa "^(koa|@koa/router|koa-router)$"))
; Fastify: fastify.get('/path', handler)
(call_expression
  function: (member_expression object: (identifier) @app property: (property_identifier) @method)
  arguments: (arguments . [(string (string_fragment) @path) (template_string . (string_fragment) @path .)])
  (#match? @app "^(fastify|instance)$")
  (#match? @method "^(get|post|put|patch|delete|all|options|head)$")
  (#match? @path "^/")) @route.fastify
(call_expression
  function: (member_expression object: (identifier) @app property: (property_identifier) @method)
  arguments: (arguments . [(string (string_fragment) @path) (template_string . (string_fragment) @path .)] (identifier) @handler .)
  (#match? @app "^(fastify|instance)$")
  (#match? @method "^(get|post|put|patch|delete|all|options|head)$")
  (#match? @path "^/")) @route.fastify
; hapi: server.route({ method: 'GET', path: '/feed', handler: feed }) or server.route([{ ... }, { ... }]), each
; object a route, in a file that imports hapi (one pattern per option, read together, as Fastify's below)
(import_statement source: (string (string_fragment) @uses.hapi) (#match? @uses.hapi "^(@hapi/hapi|hapi)$"))
(call_expression function: (identifier) @_require arguments: (arguments . (string (string_fragment) @uses.hapi))
  (#eq? @_require "require") (#match? @uses.hapi "^(@hapi/hapi|hapi)$"))
(call_expression
  function: (member_expression property: (property_identifier) @_route)
  arguments: (arguments . [
    (object (pair key: (property_identifier) @_p value: (string (string_fragment) @path))) @route.hapi
    (array (object (pair key: (property_identifier) @_p value: (string (string_fragment) @path))) @route.hapi)])
  (#eq? @_route "route") (#eq? @_p "path")
  (#set! requires "hapi"))
(call_expression
  function: (member_expression property: (property_identifier) @_route)
  arguments: (arguments . [
    (object (pair key: (property_identifier) @_m value: (string) @method)) @route.hapi
    (array (object (pair key: (property_identifier) @_m value: (string) @method)) @route.hapi)])
  (#eq? @_route "route") (#eq? @_m "method")
  (#set! requires "hapi"))
(call_expression
  function: (member_expression property: (property_identifier) @_route)
  arguments: (arguments . [
    (object (pair key: (property_identifier) @_h value: [(identifier) (member_expression)] @handler)) @route.hapi
    (array (object (pair key: (property_identifier) @_h value: [(identifier) (member_expression)] @handler)) @route.hapi)])
  (#eq? @_route "route") (#eq? @_h "handler")
  (#set! requires "hapi"))
(call_expression
  function: (member_expression property: (property_identifier) @_route)
  arguments: (arguments . [
    (object (pair key: (property_identifier) @_h value: [(arrow_function) (function_expression)] @block)) @route.hapi
    (array (object (pair key: (property_identifier) @_h value: [(arrow_function) (function_expression)] @block)) @route.hapi)])
  (#eq? @_route "route") (#eq? @_h "handler")
  (#set! requires "hapi"))
; Fastify: fastify.route({ method: 'POST', url: '/path', handler }), one pattern per option, read
; together. Options come in any order, and a pattern of several unordered siblings costs tree-sitter
; the cube of the object's size: on a call with a table of thousands of entries it ran for minutes.
(call_expression
  function: (member_expression object: (identifier) @app property: (property_identifier) @_route)
  arguments: (arguments . (object (pair key: (property_identifier) @_u value: (string (string_fragment) @path))))
  (#match? @app "^(app|server|api|fastify)$")
  (#eq? @_route "route") (#eq? @_u "url")) @route.fastify
(call_expression
  function: (member_expression object: (identifier) @app property: (property_identifier) @_route)
  arguments: (arguments . (object (pair key: (property_identifier) @_m value: (string) @method)))
  (#match? @app "^(app|server|api|fastify)$")
  (#eq? @_route "route") (#eq? @_m "method")) @route.fastify
(call_expression
  function: (member_expression object: (identifier) @app property: (property_identifier) @_route)
  arguments: (arguments . (object (pair key: (property_identifier) @_h value: (identifier) @handler)))
  (#match? @app "^(app|server|api|fastify)$")
  (#eq? @_route "route") (#eq? @_h "handler")) @route.fastify
; A file route's handlers (Next.js's app/**/route.ts, SvelteKit's +server.ts): export function GET() in a file whose
; path is its route (file_routes in language.toml, which name the framework)
(export_statement
  declaration: (function_declaration name: (identifier) @method @handler)
  (#match? @method "^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$")) @route.file
(export_statement
  declaration: (lexical_declaration (variable_declarator name: (identifier) @method @handler))
  (#match? @method "^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$")) @route.file
; ... a Remix route module's loader (GET) and action (POST)
(export_statement
  declaration: (function_declaration name: (identifier) @method @handler)
  (#match? @method "^(loader|action)$")) @route.file
(export_statement
  declaration: (lexical_declaration (variable_declarator name: (identifier) @method @handler))
  (#match? @method "^(loader|action)$")) @route.file
; ... and a file route's default export: the page of app/**/page.tsx, the handler of pages/api/** (in any
; other file no route: it has no path)
(export_statement "default" declaration: (function_declaration name: (identifier) @handler)) @route.file
(export_statement "default" value: (identifier) @handler) @route.file
; ... or the function a default export's call wraps, written there (Nuxt's export default defineEventHandler((event) => ...))
(export_statement "default" value: (call_expression arguments: (arguments . [(arrow_function) (function_expression)] @block .))) @route.file
;
; Tasks: a BullMQ worker, new Worker('emails', handler), named by its queue, in a file that imports bullmq; a
; node-cron job, cron.schedule('*/5 * * * *', handler), named by its schedule, in a file that imports node-cron
(import_statement source: (string (string_fragment) @uses.bullmq) (#eq? @uses.bullmq "bullmq"))
(call_expression function: (identifier) @_require arguments: (arguments . (string (string_fragment) @uses.bullmq))
  (#eq? @_require "require") (#eq? @uses.bullmq "bullmq"))
(new_expression constructor: (identifier) @_worker
  arguments: (arguments . (string (string_fragment) @path) . [(identifier) @handler (member_expression) @handler (function_expression) @block (arrow_function) @block])
  (#eq? @_worker "Worker")
  (#set! requires "bullmq")
  (#set! entry_type "task")) @route.bullmq
(import_statement source: (string (string_fragment) @uses.node-cron) (#eq? @uses.node-cron "node-cron"))
(call_expression function: (identifier) @_require arguments: (arguments . (string (string_fragment) @uses.node-cron))
  (#eq? @_require "require") (#eq? @uses.node-cron "node-cron"))
(call_expression
  function: (member_expression object: (identifier) property: (property_identifier) @_schedule)
  arguments: (arguments . (string (string_fragment) @path) . [(identifier) @handler (member_expression) @handler (function_expression) @block (arrow_function) @block])
  (#eq? @_schedule "schedule")
  (#set! requires "node-cron")
  (#set! entry_type "task")) @route.node-cron
;
; Agenda's jobs, agenda.define('send email report', handler) (options may come between), in a file that imports or
; requires agenda: a task named by its name
(import_statement source: (string (string_fragment) @uses.agenda) (#match? @uses.agenda "^(agenda|@hokify/agenda)$"))
(call_expression function: (identifier) @_require arguments: (arguments . (string (string_fragment) @uses.agenda))
  (#eq? @_require "require") (#match? @uses.agenda "^(agenda|@hokify/agenda)$"))
(call_expression
  function: (member_expression property: (property_identifier) @_define)
  arguments: (arguments . (string (string_fragment) @path) . (_)? . [(identifier) @handler (member_expression) @handler (function_expression) @block (arrow_function) @block] .)
  (#eq? @_define "define")
  (#set! requires "agenda")
  (#set! entry_type "task")) @route.agenda
;
; Socket.IO, in a file that imports or requires socket.io: each event a connection's socket listens to,
; io.on('connection', (socket) => { socket.on('chat message', handler) }), is a message its clients send: an
; rpc_service named by the event, handled by its listener (the socket's own disconnect and error are none). The
; patterns are each grammar's (JavaScript's parameters are identifiers: entrypoints.own.scm; TypeScript's
; required_parameter nodes: typescript/entrypoints.scm)
(import_statement source: (string (string_fragment) @uses.socketio) (#eq? @uses.socketio "socket.io"))
(call_expression function: (identifier) @_require arguments: (arguments . (string (string_fragment) @uses.socketio))
  (#eq? @_require "require") (#eq? @uses.socketio "socket.io"))
;
; GraphQL resolver maps (Apollo Server, GraphQL Yoga, Mercurius, graphql-tools): const resolvers = { Query: { books:
; () => books, author(parent, args) { ... }, book: resolveBook }, Mutation: { ... }, Subscription: { bookAdded: {
; subscribe: ... } } }, each field of a root type's object that field, in a file that imports a GraphQL server, the
; graphql package or one of its tools (graphql-scalars, @graphql-tools/*), or the types of its resolvers (graphql-codegen's
; Resolvers, graphql-tools' IResolvers): a schema's resolvers often live in modules of their own, merged where the server starts
(import_statement source: (string (string_fragment) @uses.graphql)
  (#match? @uses.graphql "^(@apollo/server|apollo-server(-[a-z]+)?|graphql|graphql-[a-z-]+|@graphql-[a-z-]+/.*|mercurius|type-graphql)$"))
(call_expression function: (identifier) @_require arguments: (arguments . (string (string_fragment) @uses.graphql))
  (#eq? @_require "require")
  (#match? @uses.graphql "^(@apollo/server|apollo-server(-[a-z]+)?|graphql|graphql-[a-z-]+|@graphql-[a-z-]+/.*|mercurius)$"))
(import_specifier name: (identifier) @uses.graphql (#match? @uses.graphql "^I?Resolvers$"))
(pair key: (property_identifier) @_root value: (object [
    (pair key: (property_identifier) @path value: [(arrow_function) (function_expression) (object)] @block) @route.graphql
    (pair key: (property_identifier) @path value: [(identifier) (member_expression)] @handler) @route.graphql
    (shorthand_property_identifier) @path @handler @route.graphql
    (method_definition name: (property_identifier) @path body: (_) @block) @route.graphql])
  (#match? @_root "^(Query|Mutation|Subscription)$")
  (#set! requires "graphql") (#set! route "{@_root}.{}") (#set! entry_type "rpc_service"))
;
; tRPC, in a file that imports from @trpc/server or a module of its own named trpc (create-t3-app's
; ~/server/api/trpc): each procedure of a router, createTRPCRouter({ hello: publicProcedure.input(...).query(...) })
; (router(...), t.router(...) too), a chain that ends in .query, .mutation or .subscription, is an rpc_service
; named by its key; a router included under a key, createTRPCRouter({ post: postRouter }) with postRouter imported,
; puts the procedures of its file under that key: post.hello (rag/analysis/entrypoints/mounts.py)
(import_statement source: (string (string_fragment) @uses.trpc) (#match? @uses.trpc "(^@trpc/server|[/~]trpc)$"))
; (a query is served to GET requests, a mutation to POSTs: its @method)
(call_expression
  function: [(identifier) @_router (member_expression property: (property_identifier) @_router)]
  arguments: (arguments . (object (pair
    key: (property_identifier) @path
    value: (call_expression
      function: (member_expression property: (property_identifier) @method)
      arguments: (arguments . [(arrow_function) (function_expression)] @block))) @route.trpc))
  (#match? @_router "^(createTRPCRouter|router|createRouter)$") (#match? @method "^(query|mutation|subscription)$")
  (#set! requires "trpc") (#set! entry_type "rpc_service"))
(call_expression
  function: [(identifier) @_router (member_expression property: (property_identifier) @_router)]
  arguments: (arguments . (object (pair key: (property_identifier) @prefix value: (identifier) @mounted)))
  (#match? @_router "^(createTRPCRouter|router|createRouter)$")) @mount.trpc
;
; Command-line programs. commander: program.command('clone <source>').description('...').option(...).action(clone),
; a command named by the first word of its .command() (the chain's root), handled by the function its .action()
; takes, in a file that imports or requires commander
(import_statement source: (string (string_fragment) @uses.commander) (#eq? @uses.commander "commander"))
(call_expression function: (identifier) @_require arguments: (arguments . (string (string_fragment) @uses.commander))
  (#eq? @_require "require") (#eq? @uses.commander "commander"))
(call_expression
  function: (member_expression property: (property_identifier) @_command)
  arguments: (arguments . (string (string_fragment) @path))
  (#eq? @_command "command")) @chain_root
(call_expression
  function: (member_expression object: (call_expression) @chained property: (property_identifier) @_action)
  arguments: (arguments . [(identifier) @handler (member_expression) @handler (function_expression) @block (arrow_function) @block])
  (#eq? @_action "action")
  (#set! requires "commander")) @command.commander
; yargs: .command('serve [port]', 'start the server', builder, handler), its handler the last of four arguments (of
; three, the last is the builder), in a file that imports or requires yargs
(import_statement source: (string (string_fragment) @uses.yargs) (#match? @uses.yargs "^yargs(/.*)?$"))
(call_expression function: (identifier) @_require arguments: (arguments . (string (string_fragment) @uses.yargs))
  (#eq? @_require "require") (#match? @uses.yargs "^yargs(/.*)?$"))
(call_expression
  function: (member_expression property: (property_identifier) @_command)
  arguments: (arguments . (string (string_fragment) @path) . (_) . (_) . [(identifier) @handler (member_expression) @handler (function_expression) @block (arrow_function) @block] .)
  (#eq? @_command "command")
  (#set! requires "yargs")) @command.yargs
;
; Fastify's autoload (the fastify-cli template): fastify.register(AutoLoad, { dir: path.join(__dirname, 'routes'),
; options: { prefix: '/api' } }) registers the plugins of the files under routes/, each under its folder's path
; (routes/users/index.js: /users), under the options' prefix (rag/analysis/entrypoints/mounts.py); AutoLoad the
; module @fastify/autoload (or fastify-autoload) the file imports
(call_expression
  function: (member_expression property: (property_identifier) @_register)
  arguments: (arguments . (identifier) @mounted . (object) @options)
  (#eq? @_register "register")) @mount.autoload
;
; Next.js's basePath in next.config.js (.mjs, .ts): every page and route of the app under it
(pair key: (property_identifier) @_base value: (string) @prefix (#eq? @_base "basePath")) @mount.base_path
;
; Client-side routes of a single-page app, in a file that imports its router (react-router, vue-router,
; @angular/router): each object of a route table with a path and what it shows ({ path: 'about', component: About },
; React Router's element: <About /> (its component the handler) or Component: About, a lazy () => import(...)),
; under the paths of the routes whose children it is in. The path is the object's first pair, as route tables write
; it: a pattern of two pairs anywhere in an object would try every pair of a big object's (an i18n table's) pairs.
(import_statement source: (string (string_fragment) @uses.client_router @uses.react-router)
  (#match? @uses.react-router "^react-router(-dom)?$"))
(import_statement source: (string (string_fragment) @uses.client_router @uses.vue-router) (#eq? @uses.vue-router "vue-router"))
(import_statement source: (string (string_fragment) @uses.client_router @uses.angular) (#eq? @uses.angular "@angular/router"))
(object
  . (pair key: (property_identifier) @_path value: (string) @path)
  (pair key: (property_identifier) @_shows value: [(identifier) @handler (arrow_function) @block])
  (#eq? @_path "path") (#match? @_shows "^(component|element|Component|loadComponent)$")
  (#set! requires "client_router") (#set! when_used "react-router vue-router angular")) @route.client
(object
  . (pair key: (property_identifier) @_path value: (string) @path)
  (pair key: (property_identifier) @_shows value: (_) @element)
  (#eq? @_path "path") (#eq? @_shows "element") (#match? @element "^<")
  (#set! requires "client_router") (#set! when_used "react-router vue-router angular")) @route.client
(object
  . (pair key: (property_identifier) @_path value: (string) @prefix)
  (pair key: (property_identifier) @_children value: (array))
  (#eq? @_path "path") (#eq? @_children "children")) @prefixed
