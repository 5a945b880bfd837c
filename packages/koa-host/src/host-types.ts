/**
 * The types of a built app and of what builds it: `Host`, its options, what a responder gets and
 * the apps mounted under it. Kept apart from `createHost` so the modules a host uses (mounts,
 * OpenAPI, the test client) name these types without importing the module that assembles it.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type Router from "@koa/router";
import type Koa from "koa";
import type { Context } from "koa";
import type { Logger } from "pino";
import type { Conventions, Route, RouteTable, ViewModule } from "routing-kernel";
import type { AppConfig } from "./config.js";
import type { ConfigKeys } from "./config-keys.js";
import type { HostPlugin, HostRuntime } from "./plugin.js";
import type { Responder } from "./responder.js";
import type { UpgradeListener } from "./upgrade.js";

/** What a framework's responder factory receives at start-up. */
export interface ResponderSetup {
  readonly config: AppConfig;
  readonly logger: Logger;
  readonly table: RouteTable;
  /** The app's URL prefix when it is mounted inside another, without a trailing slash ("" otherwise). */
  readonly basePath: string;
  /**
   * Template variables for a request: `url_for`, `request`, `config` and every plugin's locals,
   * in a new object per call that the caller may add to.
   */
  readonly locals: (ctx: Context) => Record<string, unknown>;
}

/** Options of {@link createHost}. */
export interface HostOptions {
  /** The app folder (holds `views/`, `templates/`, `static/`, `lib/config.ts`). */
  readonly root: string;
  /** The framework's routing conventions. */
  readonly conventions: Conventions;
  /** Builds the framework's responder once the table and config exist. */
  readonly responder: (setup: ResponderSetup) => Responder | Promise<Responder>;
  /** View modules already imported; default: every module under `views/` (or `viewModules`). */
  readonly modules?: readonly ViewModule[];
  /** Names of modules under `views/` to load (multi-application); default: all. */
  readonly viewModules?: readonly string[];
  /** Config keys that win over `lib/config.ts` and the environment. */
  readonly config?: Readonly<Record<string, unknown>>;
  /** Batteries, or a function of the resolved config that returns them. */
  readonly plugins?:
    | readonly HostPlugin[]
    | ((config: AppConfig) => readonly HostPlugin[] | Promise<readonly HostPlugin[]>);
  /** A URL prefix the whole app lives under (when mounted inside another app). */
  readonly basePath?: string;
  /** Use this logger instead of creating one. */
  readonly logger?: Logger;
  /**
   * Config keys the framework reads (its batteries' keys too, also when one is switched off);
   * with the host's and every plugin's `configKeys`, the keys an app's config may use.
   */
  readonly configKeys?: ConfigKeys | readonly ConfigKeys[];
}

/** A built app: Koa with the route table mounted, plugins set up, ready to listen. */
export interface Host {
  readonly koa: Koa;
  readonly table: RouteTable;
  readonly config: AppConfig;
  readonly logger: Logger;
  /** What the host shares with its plugins and views (also `ctx.runtime` of every request). */
  readonly runtime: HostRuntime;
  /** The response kind of a route, for listings (from the framework's responder). */
  describe(route: Route): string;
  /** @koa/router for routes written by hand; they run after view routes and share all middleware. */
  readonly router: Router;
  /** The request handler for `http.createServer` (in-process tests use it too). */
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  /**
   * The listener for the server's `upgrade` event, or undefined when no plugin claims an upgrade
   * path (`HostPlugin.upgradePaths`); `listen` wires it, a server made by hand adds it likewise.
   */
  upgradeListener(): UpgradeListener | undefined;
  /** Listens on `hostname:port` (127.0.0.1 and an ephemeral port by default). */
  listen(port?: number, hostname?: string): Promise<Server>;
  /**
   * Serves another host under a path prefix (multi-application); before the first request only.
   * A prefix that would hide one of this app's routes, static folders or mounts is refused
   * (`E_MOUNT_OVERLAP`); `checkMount` runs the same check before the child is built.
   */
  mount(prefix: string, child: Host): void;
  /** Throws the error {@link Host.mount} would for `prefix`, so a refused child need not be built. */
  checkMount(prefix: string): void;
  /** The apps mounted under this one, in mount order (listings include their routes). */
  readonly mounts: readonly MountedApp[];
  /** Stops the server (if listening) and closes every plugin. */
  close(): Promise<void>;
}

/** An app served under a path prefix of another (multi-application). */
export interface MountedApp {
  /** The prefix, without a trailing slash (`/api`). */
  readonly prefix: string;
  readonly host: Host;
}
