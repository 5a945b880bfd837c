import type { ViewModule } from "routing-kernel";

/** A bare TC39 method decorator, used as `@decorators.post`. */
// `any` here so that each framework's own, more precise decorator types are accepted.
export type MethodDecoratorLike = (value: any, context: ClassMethodDecoratorContext<any, any>) => any;

/** A bare TC39 decorator usable on a class or on a method, used as `@decorators.json`. */
export type ClassOrMethodDecoratorLike = (value: any, context: ClassDecoratorContext<any> | ClassMethodDecoratorContext<any, any>) => any;

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
 * cases (SPEC section 5). Views of the suite read the token and the session through it.
 */
export interface ConformanceSecurity {
  /** Serves the modules with cookie sessions and CSRF checks on (as the framework ships them). */
  start(modules: ViewModule[]): Promise<ConformanceServer>;
  /** The framework's per-view CSRF exemption decorator (class or method). */
  readonly csrfExempt: ClassOrMethodDecoratorLike;
  /** The CSRF token of the request a view instance serves. */
  csrfToken(view: object): string;
  /** The session of the request a view instance serves (a mutable object). */
  session(view: object): Record<string, unknown>;
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

/** A running app the suite sends requests to. */
export interface ConformanceServer {
  /** Base URL on 127.0.0.1, such as `http://127.0.0.1:49152` (no trailing slash needed). */
  readonly url: string;
  /** Stops the server and releases everything `start` opened. */
  close(): Promise<void>;
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
 * routing rule of SPEC section 2 over real HTTP.
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
  readonly Base: abstract new (...args: any[]) => object;
  readonly decorators: ConformanceDecorators;
  /** Builds and serves an app of these view modules on 127.0.0.1 and an ephemeral port. */
  start(modules: ViewModule[]): Promise<ConformanceServer>;
  /** Builds the app without serving it; rejects with the framework's start-up error (its `code`). */
  build(modules: ViewModule[]): Promise<unknown>;
  /** Sessions and CSRF; without it the security cases are skipped with that reason. */
  readonly security?: ConformanceSecurity;
  /** The result table; without it the result cases are skipped with that reason. */
  readonly results?: ConformanceResults;
  /** Tests to skip, each group with its reason. */
  readonly skip?: readonly ConformanceSkip[];
}
