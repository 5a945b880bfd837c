import { existsSync } from "node:fs";
import type { Context } from "koa";
import type { Logger } from "pino";
import type { HostPlugin, ReadinessCheck, ReadinessState } from "../plugin.js";
import { isDraining } from "./lifecycle.js";
import type { ProductionSettings } from "./settings.js";

/**
 * What one readiness probe found. `checks` is what `/readyz` shows: each part by name with its
 * state, never an address, a user or a driver's message. `failing` holds the reasons of the parts
 * that are not ok, for the operator's log only.
 */
export interface Readiness {
  /** False when a required part is not ok (the node answers 503 and leaves the balancer). */
  readonly ready: boolean;
  /** True when only optional parts are down: the node stays in, the routes using them answer 503. */
  readonly degraded: boolean;
  readonly checks: Readonly<Record<string, ReadinessState>>;
  readonly failing: Readonly<Record<string, string>>;
}

/** One check's answer: its state and, when not ok, why (logged, never answered). */
interface Outcome {
  readonly state: ReadinessState;
  readonly reason?: string;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The readiness checks of the plugins: those a plugin lists (`readiness()`), and for a plugin
 * with only the older `ready()` hook one required check under the plugin's name.
 */
export function readinessChecks(plugins: readonly HostPlugin[]): ReadinessCheck[] {
  return plugins.flatMap((plugin): ReadinessCheck[] => {
    if (plugin.readiness) return [...plugin.readiness()];
    const ready = plugin.ready?.bind(plugin);
    return ready ? [{ name: plugin.name, required: true, check: async () => void (await ready()) }] : [];
  });
}

async function run(check: ReadinessCheck, timeoutMs: number): Promise<Outcome> {
  try {
    const state =
      (await withTimeout(
        Promise.resolve().then(() => check.check()),
        timeoutMs,
      )) ?? "ok";
    return state === "ok" ? { state } : { state, reason: state };
  } catch (error) {
    return { state: "down", reason: (error as Error)?.message ?? String(error) };
  }
}

function summary(checks: readonly ReadinessCheck[], outcomes: readonly Outcome[]): Readiness {
  const states: Record<string, ReadinessState> = {};
  const failing: Record<string, string> = {};
  let ready = true;
  let degraded = false;
  checks.forEach((check, index) => {
    const outcome = outcomes[index]!;
    states[check.name] = outcome.state;
    if (outcome.state === "ok") return;
    failing[check.name] = outcome.reason ?? outcome.state;
    if (check.required === false) degraded = true;
    else ready = false;
  });
  return { ready, degraded: ready && degraded, checks: states, failing };
}

/** Asks every readiness check of the plugins, at once, each within `timeoutMs` (no cache: start-up and tests). */
export async function checkReadiness(plugins: readonly HostPlugin[], timeoutMs: number): Promise<Readiness> {
  const checks = readinessChecks(plugins);
  return summary(checks, await Promise.all(checks.map((check) => run(check, timeoutMs))));
}

/**
 * Readiness with each check's answer kept for `cacheMs` (a balancer probing every node every
 * second, and several balancers, then cost the stores one query per interval, not one per probe;
 * probes arriving together share the check in flight). A check whose state changes is logged once,
 * with its reason, at warn level (back to ok at info).
 */
export function cachedReadiness(
  plugins: readonly HostPlugin[],
  timeoutMs: number,
  cacheMs: number,
  logger?: Logger,
): () => Promise<Readiness> {
  let checks: ReadinessCheck[] | undefined;
  const kept = new Map<ReadinessCheck, { until: number; outcome: Promise<Outcome> }>();
  const last = new Map<string, ReadinessState>();
  const ask = (check: ReadinessCheck): Promise<Outcome> => {
    const now = Date.now();
    const entry = kept.get(check);
    if (entry && entry.until > now) return entry.outcome;
    const outcome = run(check, timeoutMs).then((answer) => {
      const before = last.get(check.name) ?? "ok";
      last.set(check.name, answer.state);
      if (answer.state !== before) {
        const fields = { check: check.name, state: answer.state, required: check.required !== false };
        if (answer.state === "ok") logger?.info(fields, `readiness: ${check.name} is ok again`);
        else
          logger?.warn(
            { ...fields, reason: answer.reason },
            `readiness: ${check.name} is ${answer.state}: ${answer.reason}`,
          );
      }
      return answer;
    });
    // Kept from when the answer arrives, so a slow store is not asked again at once.
    kept.set(check, { until: Number.POSITIVE_INFINITY, outcome });
    void outcome.then(() => kept.set(check, { until: Date.now() + cacheMs, outcome }));
    return outcome;
  };
  return async () => {
    // Asked on the first probe: the plugins' setup has run by then.
    checks ??= readinessChecks(plugins);
    return summary(checks, await Promise.all(checks.map(ask)));
  };
}

/** Answers a health or readiness probe; `undefined` for any other path (decided without a promise). */
export type HealthProbe = (ctx: Context) => Promise<void> | undefined;

/**
 * `GET /healthz` (liveness: the process answers) and `GET /readyz` (readiness: each check by name
 * with its state; 503 while a required one is not ok, such as the database or pending migrations,
 * and while shutting down so the balancer drains the process; 200 "degraded" when only optional
 * ones are down, such as a Redis cache or session store). The answer names parts, never addresses
 * or users: the reasons go to the log. The request front asks it before the request log, sessions
 * and CSRF: a probe every second costs no log line, no session and no cookie. Undefined when both are off.
 */
export function healthProbe(
  settings: ProductionSettings,
  plugins: readonly HostPlugin[],
  logger?: Logger,
  appRoot?: string,
): HealthProbe | undefined {
  const { healthPath, readyPath, readyTimeoutMs, readyCacheMs } = settings;
  if (!healthPath && !readyPath) return undefined;
  const readiness = cachedReadiness(plugins, readyTimeoutMs, readyCacheMs, logger);
  const filesGone = appFolderWatch(appRoot, logger);
  const answer = async (ctx: Context, path: string): Promise<void> => {
    if (ctx.method !== "GET" && ctx.method !== "HEAD") {
      ctx.status = 405;
      ctx.set("Allow", "GET, HEAD");
      ctx.body = { status: "error", message: `${path} answers GET and HEAD only.` };
      return;
    }
    ctx.set("Cache-Control", "no-store");
    if (path === healthPath) {
      ctx.body = { status: "ok" };
      return;
    }
    if (isDraining()) {
      ctx.status = 503;
      ctx.body = { status: "draining", checks: {} };
      return;
    }
    if (filesGone()) {
      ctx.status = 503;
      ctx.body = { status: "unavailable", checks: { files: "down" } };
      return;
    }
    const found = await readiness();
    ctx.status = found.ready ? 200 : 503;
    ctx.body = { status: found.ready ? (found.degraded ? "degraded" : "ok") : "unavailable", checks: found.checks };
  };
  return (ctx) => {
    const path = ctx.path;
    return path === healthPath || path === readyPath ? answer(ctx, path) : undefined;
  };
}

/**
 * True once the folder the app was loaded from is gone (a release folder deleted under a running
 * process): its templates and static files can no longer be read, so readiness answers 503 and the
 * balancer stops sending it traffic. Logged once, at error level.
 */
function appFolderWatch(appRoot: string | undefined, logger?: Logger): () => boolean {
  if (appRoot === undefined) return () => false;
  let logged = false;
  return () => {
    if (existsSync(appRoot)) return false;
    if (!logged) {
      logged = true;
      logger?.error(
        { check: "files", appRoot },
        `readiness: the app folder ${appRoot} is gone (deleted under this running process); restart it (SIGHUP for start) to serve the current release`,
      );
    }
    return true;
  };
}
