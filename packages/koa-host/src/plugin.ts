import type { Context, Middleware } from "koa";
import type { Logger } from "pino";
import type { Route, RouteTable } from "routing-kernel";
import type { AppConfig } from "./config.js";
import type { ConfigKeys } from "./config-keys.js";
import type { RouteLookup } from "./route-lookup.js";
import type { OpenApiContribution } from "./openapi/types.js";
import type { Responder } from "./responder.js";

/**
 * What the host shares with its plugins and views: the app's config, logger, route table, plugins
 * and base path. Every request's context carries it as `ctx.runtime` (set once, on the context
 * prototype; not `ctx.host`, which Koa uses for the Host header), and `Host.runtime` gives it.
 */
export interface HostRuntime {
  readonly config: AppConfig;
  readonly logger: Logger;
  readonly table: RouteTable;
  readonly plugins: readonly HostPlugin[];
  /** URL prefix when the app is mounted inside another, without a trailing slash ("" otherwise). */
  readonly basePath: string;
  /** The apps mounted under this one (their prefix and runtime), in mount order; empty until one is mounted. */
  readonly mounts: readonly { readonly prefix: string; readonly runtime: HostRuntime }[];
  /**
   * What the view dispatcher will do with this request (its route, or that it answers by itself),
   * for app-wide middleware that runs before it (the CSRF check); undefined for a path no view
   * route answers. Matches once per request: the dispatcher reuses the answer.
   */
  lookupRoute(ctx: Context): RouteLookup | undefined;
  /**
   * Whether this request's connection comes from a proxy the app trusts (`trustProxy`): only then
   * does the app believe what the proxy writes for the client (`X-Forwarded-*`, the request id, the
   * W3C trace context). A header any client can write is read through this test, never directly.
   */
  fromTrustedProxy(ctx: Context): boolean;
}

/** What a plugin receives once at start-up. */
export interface PluginContext {
  /** The app's resolved configuration (`env`, `secretKey`, `root` and every battery's keys). */
  readonly config: AppConfig;
  /** The app's pino logger. */
  readonly logger: Logger;
  /** The committed route table. */
  readonly table: RouteTable;
  /** The app's URL prefix when it is mounted inside another, without a trailing slash ("" otherwise). */
  readonly basePath: string;
  /** What the host shares with plugins and views, also `ctx.runtime` of each request. */
  readonly runtime: HostRuntime;
}

/** A folder a plugin has the host serve: `{ prefix: "/_fw-b", dir: "/path/to/files" }`. */
export interface StaticFolder {
  /** URL prefix (under the app's base path), without a trailing slash. */
  readonly prefix: string;
  /** Absolute folder served. */
  readonly dir: string;
}

/**
 * The fields a plugin adds to a request's log line (the security battery: `userId`), read once the
 * request is answered; `undefined` adds none.
 */
export type RequestLogFields = (ctx: Context) => Readonly<Record<string, unknown>> | undefined;

/**
 * What a plugin measures of each request the host's front layer answers (health probes left out):
 * `start` as it begins, `end` once its answer is decided (an error's answer included), given the
 * `performance.now()` reading of its start. No middleware layer of its own: the host calls both.
 */
export interface RequestTimer {
  /** The request begins (its id is set). */
  start?(ctx: Context): void;
  /** The request's answer is decided; `start` is the `performance.now()` reading of its beginning. */
  end(ctx: Context, start: number): void;
}

/**
 * The phases a request goes through, in the order the host runs them. A plugin joins a phase by
 * giving its handler under `phases` (`{ request: () => [session] }`); the host asks each phase's
 * handlers once at start-up, in plugin order, and builds the chain by walking this list:
 *
 * 1. `front`: middleware around everything below (metrics, the request's trace), log line included.
 * 2. The host's own front layer: request id, health probes, the request log line, error answers.
 * 3. `static`: folders served like the app's `static/` (GET and HEAD under their prefix).
 * 4. The host's body parser (other verbs).
 * 5. `request`: app-wide middleware, after body parsing and before routing (session, CSRF).
 * 6. The view dispatcher matches the route (and the method override), then runs, for that route,
 *    `preflight` before the automatic OPTIONS answer of a CORS preflight, or `route` before the view.
 * 7. Routes written by hand on `host.router`.
 * 8. `fallback`: answers for paths nothing above answers (the OpenAPI document), so an app's own
 *    route at the same path wins.
 */
export const HOST_PHASES = ["front", "static", "request", "preflight", "route", "fallback"] as const;

/** One of {@link HOST_PHASES}. */
export type HostPhase = (typeof HOST_PHASES)[number];

/**
 * What a phase handler receives: the plugin's context and the framework's responder, both made
 * before the chain is built (the responder after every plugin's `setup` and `locals`).
 */
export interface PhaseContext extends PluginContext {
  /** The framework's responder (error pages, a maintenance answer). */
  readonly responder: Responder;
}

/** Getters of values on `ctx.state`, by key, each given the request ({@link HostPlugin.stateGetters}). */
export type StateGetters = Readonly<Record<string, (ctx: Context) => unknown>>;

/**
 * A plugin's part of each phase (see {@link HOST_PHASES}), asked once at start-up after every
 * plugin's `setup`: nothing here is decided per request.
 */
export interface HostPhases {
  /** Middleware around the whole request; most plugins have none. */
  front?(context: PhaseContext): Middleware | undefined;
  /** Folders the host serves in its own front layer: no middleware of their own per request. */
  static?(context: PhaseContext): readonly StaticFolder[];
  /** App-wide middleware, after body parsing and before routing. */
  request?(context: PhaseContext): readonly Middleware[];
  /**
   * Middleware for the automatic OPTIONS answer of a CORS preflight asking for this route's verb
   * (the route's own CORS policy); it may answer the preflight itself.
   */
  preflight?(route: Route): Middleware | undefined;
  /** Middleware for one route, from its tags (CSRF unless exempt, login required, cache...), before the view. */
  route?(route: Route): Middleware | undefined;
  /** Middleware after the app's view routes and hand-written routes. */
  fallback?(context: PhaseContext): readonly Middleware[];
}

/**
 * A battery plugged into a host (sessions, CSRF, login, data, cache...). Everything a plugin can
 * decide at start-up it decides in `setup` and its `phases`, never per request.
 */
export interface HostPlugin {
  /** Unique name, used in logs, errors and other plugins' `after`. */
  readonly name: string;
  /**
   * Plugins that must come before this one in every phase (`["security"]`: the current user is
   * known before this plugin's middleware runs). The host orders plugins so, keeping the given
   * order otherwise, and refuses to start when one is missing or the constraints form a cycle.
   */
  readonly after?: readonly string[];
  /**
   * The config keys this plugin reads (`{ cacheUrl: true, cache: { sessionCookie: true } }`); the
   * host refuses to start when the app's config has a key no one declared.
   */
  readonly configKeys?: ConfigKeys;
  /** Called once at start-up, in plugin order, before any request. */
  setup?(context: PluginContext): void | Promise<void>;
  /** The plugin's middleware and folders by phase (see {@link HOST_PHASES}). */
  readonly phases?: HostPhases;
  /**
   * Fields added to every line of the app's logger (and `ctx.log`), read when a line is written:
   * the trace and span of the request under way. Asked once when the host makes its logger, before
   * `setup`; a plugin returns `undefined` when it adds nothing, so lines cost nothing extra.
   */
  logFields?(): (() => Record<string, unknown>) | undefined;
  /**
   * Fields this plugin adds to each request's log line, read from the request once it is answered
   * (the security battery: `userId`, from its own slot): the host never reads a battery's request
   * state itself. Asked once at start-up; `undefined` adds nothing.
   */
  requestLogFields?(): RequestLogFields | undefined;
  /**
   * Measures each request the host's front layer answers ({@link RequestTimer}: the metrics'
   * latency, sizes and requests in flight). Asked once when the chain is built, after `setup`;
   * `undefined` measures nothing.
   */
  requestTimer?(): RequestTimer | undefined;
  /**
   * Values this plugin offers on every request's `ctx.state`, each computed by its getter when read
   * (the request's translator: its language is chosen only when a text needs one). The host puts
   * every plugin's getters on the prototype of one state class at start-up, so they cost a request
   * nothing until read: no middleware of their own. Asked once when the chain is built, after
   * `setup`; a key two plugins offer stops the start (`E_STATE_GETTER_TAKEN`).
   */
  stateGetters?(): StateGetters | undefined;
  /**
   * Paths (with the app's base path) whose HTTP upgrade requests (WebSocket handshakes) this plugin
   * takes over: the host runs them through the app's middleware like a GET, and the plugin's own
   * middleware takes the socket with `upgradeOf(ctx)` (see `src/upgrade.ts`). Asked once at listen.
   */
  upgradePaths?(): readonly string[];
  /**
   * True for a plugin whose protection an app mounted inside this one must have too (security:
   * the CSRF check): `mount` refuses a child app without a plugin of the same name.
   */
  readonly requiredInMounts?: boolean;
  /** Template variables for this request (`csrf_token`, `current_user`, `flash`...). */
  locals?(ctx: Context): Record<string, unknown>;
  /**
   * Readiness: resolves when the plugin's outside parts (database, Redis, session store) answer,
   * rejects naming the part that does not. `GET /readyz` asks every plugin that has it, with a
   * short timeout, so a balancer stops sending traffic to a process whose stores are down.
   */
  ready?(): Promise<void>;
  /**
   * Readiness by part (wins over `ready()`): the checks `/readyz` lists by name, each saying
   * whether its failure takes the node out of the balancer (`required`) or only degrades it.
   */
  readiness?(): readonly ReadinessCheck[];
  /** Releases connections and timers at shutdown. */
  close?(): Promise<void>;
  /**
   * The development tools this plugin serves now (`"/_mail (mail previews and caught mails)"`),
   * guarded with `loopbackOnly`; named in the warning when the app listens on another address.
   */
  devTools?(): readonly string[];
  /**
   * The plugin's part of the app's OpenAPI document: its security schemes, and per route what it
   * adds (the security battery: 401 and a session or bearer requirement for guarded views, 403
   * for CSRF-checked unsafe verbs).
   */
  openApi?(): OpenApiContribution;
}

/** A part's state in `/readyz`: it answers, it does not, or (migrations) work is still pending. */
export type ReadinessState = "ok" | "down" | "pending";

/** One part readiness asks about (a plugin's `readiness()`). */
export interface ReadinessCheck {
  /** Its name in `/readyz`'s `checks` (`database`, `migrations`, `sessions`, `cache`): never an address. */
  readonly name: string;
  /**
   * True (default): while it is not ok the node answers 503 and the balancer takes it out.
   * False: the node stays in ("degraded", 200) and only the routes that use the part answer 503,
   * so a shared store that is down does not empty the whole pool at once.
   */
  readonly required?: boolean;
  /**
   * Resolves when the part is ok (or with its state, e.g. "pending"); rejects when it does not
   * answer, with a reason for the operator's log (never shown to clients).
   */
  check(): Promise<ReadinessState | void>;
}
