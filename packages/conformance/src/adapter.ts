import type { ViewModule } from "routing-kernel";

/** A bare TC39 method decorator, used as `@decorators.post`. */
// `any` here so that each framework's own, more precise decorator types are accepted.
export type MethodDecoratorLike = (value: any, context: ClassMethodDecoratorContext<any, any>) => any;

/** A bare TC39 decorator usable on a class or on a method, used as `@decorators.json`. */
export type ClassOrMethodDecoratorLike = (
  value: any,
  context: ClassDecoratorContext<any> | ClassMethodDecoratorContext<any, any>,
) => any;

/** The framework's decorators, in its own idiom, handed to the suite's view classes. */
export interface ConformanceDecorators {
  readonly get: MethodDecoratorLike;
  readonly post: MethodDecoratorLike;
  readonly put: MethodDecoratorLike;
  readonly patch: MethodDecoratorLike;
  readonly delete: MethodDecoratorLike;
  readonly options: MethodDecoratorLike;
  /** Restricts a method to GET, POST, PUT, PATCH and DELETE. */
  readonly all: MethodDecoratorLike;
  /** On a method: replaces its generated path (several give several routes). On a class: the prefix. */
  readonly route: (path: string) => ClassOrMethodDecoratorLike;
  /** Makes a method's (or every method of a class's) return value a JSON response. */
  readonly json: ClassOrMethodDecoratorLike;
}

/**
 * The security part of an adapter: an app with sessions and CSRF on, for the CSRF and session
 * cases. Views of the suite read the token and the session through it.
 */
export interface ConformanceSecurity {
  /**
   * Serves the modules with cookie sessions and CSRF checks on (as the framework ships them), with
   * what `options` adds (config, answers outside the views, a mounted app, files, a log).
   */
  start(modules: ViewModule[], options?: ConformanceAppOptions): Promise<ConformanceServer>;
  /** The framework's per-view CSRF exemption decorator (class or method). */
  readonly csrfExempt: ClassOrMethodDecoratorLike;
  /**
   * The URL of a running session store (Redis) for `sessionUrl`, for the cases about sessions kept
   * outside the cookie; without it they are skipped.
   */
  readonly sessionStore?: () => Promise<string>;
  /** The framework's per-view CORS decorator, called as `@cors({ origin })`; without it the CORS cases are skipped. */
  readonly cors?: (settings: { readonly origin: string }) => ClassOrMethodDecoratorLike;
  /**
   * The framework's rate-limit decorator, called as `@rateLimit({ max, window, by })` (`by` a
   * function of the Koa context); without it the rate-limit cases are skipped.
   */
  // `never`: each framework's own options type is accepted.
  readonly rateLimit?: (options: never) => ClassOrMethodDecoratorLike;
  /** The framework's idempotency-key decorator (bare, class or method); without it the idempotency cases are skipped. */
  readonly idempotent?: ClassOrMethodDecoratorLike;
  /** The CSRF token of the request a view instance serves. */
  csrfToken(view: object): string;
  /** The session of the request a view instance serves (a mutable object). */
  session(view: object): Record<string, unknown>;
}

/** The part of a Koa context a {@link ConformanceHandler}'s middleware reads and writes. */
export interface HandlerContext {
  /** The request's verb, upper-case. */
  readonly method: string;
  /** The request's path, without the query. */
  readonly path: string;
  /** The response body the middleware sets. */
  body: unknown;
}

/**
 * An answer registered outside the views, bypassing decorators: Koa middleware that answers one
 * verb and exact path with a text and passes every other request on. `by` says how the adapter
 * registers it: as a hand-written route for `method` and `path` on the host's router, as app
 * middleware added with `koa.use` once the app is built, or in the `request` phase of a plugin given
 * at start-up.
 */
export interface ConformanceHandler {
  /** How the adapter registers the middleware. */
  readonly by: "router" | "middleware" | "plugin";
  /** The verb it answers (the router's route is for this verb). */
  readonly method: string;
  /** The exact path it answers (the router's route is for this path). */
  readonly path: string;
  /** The Koa middleware. */
  readonly middleware: (ctx: HandlerContext, next: () => Promise<unknown>) => unknown;
}

/** What a case adds to the app that `security.start` serves. */
export interface ConformanceAppOptions {
  /** Config merged over the adapter's own (`csrfExemptPaths`, `bodyLimits`, `cors`, `sessionUrl`...). */
  readonly config?: Readonly<Record<string, unknown>>;
  /** Answers registered outside the views. */
  readonly handlers?: readonly ConformanceHandler[];
  /** An app of these modules mounted at `path` (`mounts` of the app), with the same config. */
  readonly mount?: { readonly path: string; readonly modules: ViewModule[] };
  /** Files written into the app's folder before it starts, by relative path (`static/site.txt`). */
  readonly files?: Readonly<Record<string, string>>;
  /** Gives the app an error page template that lists the flash messages, in the framework's template language. */
  readonly flashErrorPage?: boolean;
}

/** The framework's names of the commands both CLIs have (from the kit's shared commands). */
export interface ConformanceCommands {
  /** Creates the project skeleton (`gen:init`, `:init`). */
  readonly init: string;
  /** The development server (`gen:serve`, `:serve`), whose options include `--port` and `--host`. */
  readonly serve: string;
  /** Lists the routes (`routes`, `:routes`). */
  readonly routes: string;
  /** Makes a migration file of a name (`db:make`, `:make-migration`). */
  readonly makeMigration: string;
  /** Lists the migrations with their state (`db:status`, `:migrations`). */
  readonly migrationStatus: string;
}

/** The command-line part of an adapter, for the rules of the shared CLI commands. */
export interface ConformanceCli {
  /** Node arguments that run the framework's CLI: its main module, after a loader when it is TypeScript. */
  readonly argv: readonly string[];
  /** The framework's names of the shared commands. */
  readonly commands: ConformanceCommands;
  /**
   * Builds the app of `modules` in `root` as the development server's child does (env
   * `development`, so start-up migration runs), with `config` over it, then closes it.
   */
  develop(root: string, modules: ViewModule[], config: Readonly<Record<string, unknown>>): Promise<void>;
}

/** A route whose template the results part writes (`templates/<module>/<className>/<methodName>`). */
export interface ConformanceTemplate {
  readonly module: string;
  readonly className: string;
  readonly methodName: string;
}

/**
 * The result-table part of an adapter (what a view's return value becomes, per response kind):
 * the framework's reply, redirect and HTTP error helpers, its XML decorator if it has one, and an
 * app served with templates.
 */
export interface ConformanceResults {
  /**
   * Serves the modules as `start` does, with a template for each listed route that renders the
   * text `template:` followed by its `name` variable (nothing when absent), in the framework's
   * own template language.
   */
  start(modules: ViewModule[], templates: readonly ConformanceTemplate[]): Promise<ConformanceServer>;
  /** The framework's reply helper: a body with a status and headers. */
  reply(body: unknown, init: { status?: number; headers?: Record<string, string> }): unknown;
  /** The framework's redirect helper (302). */
  redirect(location: string): unknown;
  /** The framework's HTTP error of a status (`HTTPError.NotFound(message)`). */
  httpError(status: number, message: string): unknown;
  /** Makes results XML, when the framework has such a decorator; without it the XML rows are not run. */
  readonly xml?: ClassOrMethodDecoratorLike;
}

/**
 * The declared-schema part of an adapter: the framework's decorators that declare a route's query
 * and body schema (any Standard Schema), and an app that checks them before the method runs (the
 * data battery on, and sessions, which carry a refused form's messages back; the suite's views are
 * CSRF-exempt through the security part's decorator). Views read the parsed value with the base class's
 * `input(schema)` and validate on their own with `validate(schema)`.
 */
export interface ConformanceSchemas {
  /** Serves the modules with declared schemas checked (the data battery on) and sessions (the security battery). */
  start(modules: ViewModule[]): Promise<ConformanceServer>;
  /** The framework's query-schema decorator (`@request.query(S)`, `@query(S)`). */
  // `never`: each framework's own schema type is accepted.
  query(schema: never): ClassOrMethodDecoratorLike;
  /** The framework's body-schema decorator (`@request.body(S)`, `@body(S)`). */
  body(schema: never): ClassOrMethodDecoratorLike;
}

/** A running app the suite sends requests to. */
export interface ConformanceServer {
  /** Base URL on 127.0.0.1, such as `http://127.0.0.1:49152` (no trailing slash needed). */
  readonly url: string;
  /** Stops the server and releases everything `start` opened. */
  close(): Promise<void>;
  /**
   * The lines the app logged at levels error, warn and fatal (with their stacks), when the adapter
   * records them (`security.start` does).
   */
  readonly logged?: readonly string[];
}

/** Tests a framework does not pass yet, and why. A skipped test shows its reason. */
export interface ConformanceSkip {
  /** Why these tests are skipped (required, non-empty). */
  readonly reason: string;
  /** Test titles as the suite names them (see the suite's output). */
  readonly tests: readonly string[];
}

/**
 * What a framework gives the suite. Modeled on Hono's `runTest({ newRouter, skip })`: the suite
 * declares view classes with `Base` and `decorators`, serves them with `start`, and expects every
 * routing rule of docs/routing.md over real HTTP.
 *
 * `start` must serve the modules as a plain app: no CSRF check (the suite sends no token), no
 * login, strings answered as the response body, and `decorators.json` answered as JSON.
 */
export interface ConformanceAdapter {
  /** The framework's name, shown in test titles. */
  readonly name: string;
  /** True when generated paths end with `/` (fw-a), false when they do not (fw-b). */
  readonly trailingSlash: boolean;
  /** The framework's view base class. */
  readonly Base: abstract new (
    ...args: any[]
  ) => object;
  readonly decorators: ConformanceDecorators;
  /** Builds and serves an app of these view modules on 127.0.0.1 and an ephemeral port. */
  start(modules: ViewModule[]): Promise<ConformanceServer>;
  /** Builds the app without serving it; rejects with the framework's start-up error (its `code`). */
  build(modules: ViewModule[]): Promise<unknown>;
  /** Sessions and CSRF; without it the security cases are skipped with that reason. */
  readonly security?: ConformanceSecurity;
  /** The result table; without it the result cases are skipped with that reason. */
  readonly results?: ConformanceResults;
  /** The command line; without it the CLI cases are skipped with that reason. */
  readonly cli?: ConformanceCli;
  /** Declared schemas; without it the declared-schema cases are skipped with that reason. */
  readonly schemas?: ConformanceSchemas;
  /** Tests to skip, each group with its reason. */
  readonly skip?: readonly ConformanceSkip[];
}
