import type { Context } from "koa";
import type { HostPlugin } from "../plugin.js";
import { isDraining } from "./lifecycle.js";
import type { ProductionSettings } from "./settings.js";

/** What one readiness probe found: every plugin asked, the failing ones with their reason. */
export interface Readiness {
  readonly ready: boolean;
  readonly failing: Readonly<Record<string, string>>;
}

function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Asks every plugin with a `ready()` hook, at once, each within `timeoutMs`. */
export async function checkReadiness(plugins: readonly HostPlugin[], timeoutMs: number): Promise<Readiness> {
  const failing: Record<string, string> = {};
  await Promise.all(
    plugins
      .filter((plugin) => plugin.ready)
      .map(async (plugin) => {
        try {
          await withTimeout(Promise.resolve().then(() => plugin.ready!()), timeoutMs);
        } catch (error) {
          failing[plugin.name] = (error as Error)?.message ?? String(error);
        }
      }),
  );
  return { ready: Object.keys(failing).length === 0, failing };
}

/** Answers a health or readiness probe; `undefined` for any other path (decided without a promise). */
export type HealthProbe = (ctx: Context) => Promise<void> | undefined;

/**
 * `GET /healthz` (liveness: the process answers) and `GET /readyz` (readiness: every plugin's
 * outside parts answer; 503 naming the failing ones otherwise, and 503 while shutting down so the
 * balancer drains the process). The request front asks it before the request log, sessions and
 * CSRF: a probe every second costs no log line, no session and no cookie. Undefined when both are off.
 */
export function healthProbe(settings: ProductionSettings, plugins: readonly HostPlugin[]): HealthProbe | undefined {
  const { healthPath, readyPath, readyTimeoutMs } = settings;
  if (!healthPath && !readyPath) return undefined;
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
      ctx.body = { status: "draining", failing: {} };
      return;
    }
    const readiness = await checkReadiness(plugins, readyTimeoutMs);
    ctx.status = readiness.ready ? 200 : 503;
    ctx.body = { status: readiness.ready ? "ok" : "unavailable", failing: readiness.failing };
  };
  return (ctx) => {
    const path = ctx.path;
    return path === healthPath || path === readyPath ? answer(ctx, path) : undefined;
  };
}
