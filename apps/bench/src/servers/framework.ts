import { fileURLToPath } from "node:url";
import type { Host } from "@fwkit/koa-host";
import type { HostPlugin } from "@fwkit/koa-host/plugin";
import { buildRouteTable, type Conventions, type ViewModule } from "routing-kernel";
import { E_BENCH_RUN } from "../errors.js";
import { generatedViewModule } from "../generate.js";
import { prepareDb, type DbTargets } from "./db-fixture.js";
import type { Scenario } from "../workloads.js";
import { SITE_ROOT, routeCount, unsupported, type RunningServer } from "./types.js";

/** The secret key of the bench apps (production mode needs one). */
export const BENCH_SECRET = crypto.randomUUID();

/** What the bench needs to know of a framework to serve its scenarios. */
export interface FrameworkSpec {
  readonly name: string;
  readonly conventions: Conventions;
  readonly base: abstract new (...args: never[]) => unknown;
  /** The framework's `createApp`. */
  readonly createApp: (options: {
    root: string;
    modules: readonly ViewModule[];
    config: Record<string, unknown>;
    plugins: readonly HostPlugin[];
  }) => Promise<Host>;
  /** The view modules of the basic and security scenarios. */
  readonly views: { readonly basic: Record<string, unknown>; readonly security: Record<string, unknown> };
}

/**
 * The parts of the production defaults `pnpm bench --cpu --parts` measures by leaving each out, one
 * process per part: the server reads the part to leave out from BENCH_WITHOUT.
 */
export const PRODUCTION_PARTS = {
  "request-line": { label: "the request log line", config: { logRequests: false } },
  "security-headers": { label: "the security headers", config: { securityHeaders: false } },
  "security-battery": {
    label: "the security battery (headers, session check, CSRF guard)",
    config: { batteries: { security: false, data: false, services: false } },
  },
} as const;

/** A part of {@link PRODUCTION_PARTS}. */
export type ProductionPart = keyof typeof PRODUCTION_PARTS;

/** The production config without the part BENCH_WITHOUT names (none when it is unset). */
function withoutPart(config: Record<string, unknown>): Record<string, unknown> {
  const part = process.env["BENCH_WITHOUT"];
  if (!part) return config;
  if (!(part in PRODUCTION_PARTS))
    throw new E_BENCH_RUN(`BENCH_WITHOUT=${part}`, `known parts: ${Object.keys(PRODUCTION_PARTS).join(", ")}`);
  return { ...config, ...PRODUCTION_PARTS[part as ProductionPart].config };
}

/**
 * Production config with request logging off, as for every other server in the bench (none of
 * them logs per request), and the built-in batteries off: hand-written Koa has no session, database
 * or services either. The security scenario turns the security battery on, without security
 * headers (hand-written Koa sends none). The production scenario is what a scaffolded app runs with
 * in production (its lib/config.ts sets `logLevel: "info"`): security headers, cookie sessions, the
 * CSRF guard and one request log line, all at their defaults; the data and services batteries stay
 * off because the text route touches neither (and neither do the peers). The db scenario is the same
 * with sessions in Redis and the data battery on PostgreSQL.
 */
export function benchConfig(scenario: Scenario, db?: DbTargets): Record<string, unknown> {
  const production = { env: "production", secretKey: BENCH_SECRET, logLevel: "info" };
  if (scenario === "production")
    return withoutPart({ ...production, batteries: { security: true, data: false, services: false } });
  // The same, with Prometheus metrics (their own port) or OpenTelemetry spans (made, not exported) on.
  if (scenario === "production-metrics")
    return {
      ...production,
      batteries: { security: true, data: false, services: false },
      metrics: { enabled: true, port: 0, host: "127.0.0.1" },
    };
  if (scenario === "production-tracing")
    return {
      ...production,
      batteries: { security: true, data: false, services: false },
      // BENCH_VIEW_SPANS=1: the view's own span too, as `tracing.viewSpans: true` gives it.
      tracing: { enabled: true, exporter: "none", ...(process.env["BENCH_VIEW_SPANS"] === "1" && { viewSpans: true }) },
    };
  // The same production defaults, sessions in Redis and the data battery on PostgreSQL.
  if (scenario === "db") {
    if (!db) throw new E_BENCH_RUN("the db scenario", "it needs PostgreSQL and Redis (prepareDb())");
    return {
      ...production,
      sessionUrl: `${db.redisUrl}?prefix=bench-sess:`,
      dbUrl: db.dbUrl,
      batteries: { security: true, data: true, services: false },
    };
  }
  const base = { env: "production", secretKey: BENCH_SECRET, logRequests: false, logLevel: "warn" };
  if (scenario === "security")
    return { ...base, batteries: { security: true, data: false, services: false }, securityHeaders: false };
  return { ...base, batteries: { security: false, data: false, services: false } };
}

function modulesFor(spec: FrameworkSpec, scenario: Scenario): ViewModule[] {
  const routes = routeCount(scenario);
  if (routes !== undefined) return [generatedViewModule(spec.base, routes)];
  if (scenario === "basic") return [{ name: "main", exports: spec.views.basic }];
  // A scaffolded app has POST routes too: the security views give the CSRF guard one to refuse.
  if (scenario === "production" || scenario === "production-metrics" || scenario === "production-tracing")
    return [{ name: "main", exports: { ...spec.views.basic, ...spec.views.security } }];
  if (scenario === "security" || scenario === "db") return [{ name: "main", exports: spec.views.security }];
  throw unsupported(spec.name, scenario);
}

/** Builds a framework app for a scenario (not listening); the in-process harness uses it directly. */
export async function frameworkHost(spec: FrameworkSpec, scenario: Scenario): Promise<Host> {
  const modules = modulesFor(spec, scenario);
  const db = scenario === "db" ? await prepareDb() : undefined;
  return spec.createApp({ root: fileURLToPath(SITE_ROOT), modules, config: benchConfig(scenario, db), plugins: [] });
}

/** Starts a framework app for a scenario and listens on `port`. */
export async function startFramework(spec: FrameworkSpec, scenario: Scenario, port: number): Promise<RunningServer> {
  const modules = modulesFor(spec, scenario);
  const db = scenario === "db" ? await prepareDb() : undefined;
  const t0 = performance.now();
  const host = await spec.createApp({
    root: fileURLToPath(SITE_ROOT),
    modules,
    config: benchConfig(scenario, db),
    plugins: [],
  });
  const appBuild = performance.now() - t0;
  const server = await host.listen(port, "127.0.0.1");
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : port,
    timings: { appBuild },
    close: () => host.close(),
  };
}

/** Milliseconds to build the route table of an N-route app (the kernel alone, in this process). */
export function measureFrameworkTable(spec: FrameworkSpec, routes: number): number {
  const modules = [generatedViewModule(spec.base, routes)];
  const t0 = performance.now();
  buildRouteTable({ conventions: spec.conventions, modules });
  return performance.now() - t0;
}
