/**
 * @module @fwkit/jobs/dashboard
 * The jobs dashboard: bull-board (its Koa adapter) over the app's BullMQ queues, as a Koa
 * middleware under a path, behind a guard the app writes (production: admins only).
 */
import type { Context, Middleware, Next } from "koa";
import { checkOptionKeys } from "routing-kernel";
import { BullMQDriver } from "./drivers/bullmq.js";
import { requireDriver } from "./drivers/load.js";
import { E_JOB_OPTION_INVALID, E_JOBS_DASHBOARD_UNSUPPORTED } from "./errors.js";
import type { JobQueue } from "./queue.js";

/** What {@link jobsDashboard} takes. */
export interface JobsDashboardOptions {
  /** Where it is served (default `"/jobs"`). */
  readonly path?: string;
  /**
   * Who may see it: true lets the request through; false answers 403. It may also answer itself
   * (a redirect to the login page) and return false. Without a guard everyone may: set one in production.
   */
  readonly guard?: (ctx: Context) => boolean | Promise<boolean>;
  /** Show the jobs without the buttons that retry, remove or promote them (default false). */
  readonly readOnly?: boolean;
  /**
   * Allow the actions that write a job's data: add a job, edit a job's (or a schedule's) data
   * (default false: they answer 403). Whatever they write, a worker still checks it against the
   * job's schema, and a sealed job runs only payloads the app sealed.
   */
  readonly edit?: boolean;
  /** The title in the dashboard's header. */
  readonly title?: string;
}

/** The option names {@link JobsDashboardOptions} takes. */
export const JOBS_DASHBOARD_OPTION_KEYS = ["path", "guard", "readOnly", "edit", "title"] as const;

// Payload fields shown as "[redacted]": what their names say is a secret (a link with a token too).
const SECRET_FIELD = /pass(word|phrase)?$|secret|token|api[-_]?key|authori[sz]ation|cookie|credential|signature|link/i;

/** A job's data or result as the dashboard shows it: fields named like a secret are redacted. */
export function redactForDashboard(value: unknown, depth = 0): unknown {
  if (depth > 20 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => redactForDashboard(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, field]) => [
      key,
      SECRET_FIELD.test(key) && field !== null && field !== undefined && field !== ""
        ? "[redacted]"
        : redactForDashboard(field, depth + 1),
    ]),
  );
}

/** The dashboard's routes that write a job's data (bull-board's add and edit actions). */
function writesJobData(method: string, rest: string): boolean {
  if (method === "POST" && /^\/api\/queues\/[^/]+\/add\/?$/.test(rest)) return true;
  if (method === "PATCH" && /^\/api\/queues\/[^/]+\/[^/]+\/update-data\/?$/.test(rest)) return true;
  return method === "PATCH" && /^\/api\/queues\/[^/]+\/job-schedulers\/[^/]+\/?$/.test(rest);
}

interface BullBoardApi {
  createBullBoard(options: {
    queues: readonly unknown[];
    serverAdapter: unknown;
    options?: { uiConfig?: { boardTitle?: string } };
  }): unknown;
}
interface BullBoardAdapters {
  BullMQAdapter: new (
    queue: unknown,
    options?: { readOnlyMode?: boolean },
  ) => { setFormatter(field: "data" | "returnValue", format: (value: unknown) => unknown): void };
}
interface KoaAdapterModule {
  KoaAdapter: new () => {
    setBasePath(path: string): unknown;
    registerPlugin(options?: { mount?: string }): Middleware;
  };
}

/**
 * A Koa middleware serving bull-board at `path` for the queue's BullMQ queues (every queue its jobs
 * use). Needs `QUEUE_URL=redis://...` (else `E_JOBS_DASHBOARD_UNSUPPORTED`) and the optional
 * packages `@bull-board/api` and `@bull-board/koa` (else `E_JOBS_DRIVER_MISSING`).
 */
export function jobsDashboard(queue: JobQueue, options: JobsDashboardOptions = {}): Middleware {
  checkOptionKeys("jobsDashboard() options", options, JOBS_DASHBOARD_OPTION_KEYS);
  const path = options.path ?? "/jobs";
  if (typeof path !== "string" || !/^\/[A-Za-z0-9/_-]*[A-Za-z0-9_-]$/.test(path))
    throw new E_JOB_OPTION_INVALID("jobsDashboard()", "path", 'a path such as "/admin/jobs" (no trailing slash)', path);
  if (options.guard !== undefined && typeof options.guard !== "function")
    throw new E_JOB_OPTION_INVALID("jobsDashboard()", "guard", "a function (ctx) => boolean", options.guard);
  if (options.edit !== undefined && typeof options.edit !== "boolean")
    throw new E_JOB_OPTION_INVALID("jobsDashboard()", "edit", "true or false", options.edit);
  const driver = queue.driver;
  if (!(driver instanceof BullMQDriver)) throw new E_JOBS_DASHBOARD_UNSUPPORTED(`${queue.kind}:`);
  const api = requireDriver<BullBoardApi>("@bull-board/api", "jobs dashboard");
  const adapters = requireDriver<BullBoardAdapters>("@bull-board/api/bullMQAdapter", "jobs dashboard");
  const { KoaAdapter } = requireDriver<KoaAdapterModule>("@bull-board/koa", "jobs dashboard");
  const serverAdapter = new KoaAdapter();
  serverAdapter.setBasePath(path);
  api.createBullBoard({
    queues: queue.queueNames().map((name) => {
      const adapter = new adapters.BullMQAdapter(driver.queue(name), { readOnlyMode: options.readOnly === true });
      adapter.setFormatter("data", (data) => redactForDashboard(data));
      adapter.setFormatter("returnValue", (value) => redactForDashboard(value));
      return adapter;
    }),
    serverAdapter,
    ...(options.title ? { options: { uiConfig: { boardTitle: options.title } } } : {}),
  });
  const board = serverAdapter.registerPlugin();
  return async (ctx: Context, next: Next) => {
    if (ctx.path !== path && !ctx.path.startsWith(`${path}/`)) return next();
    if (options.guard && !(await options.guard(ctx))) {
      // A guard that answered (a redirect) keeps its answer; otherwise 403.
      if (ctx.status === 404 && ctx.body === undefined) ctx.status = 403;
      return;
    }
    if (options.edit !== true && writesJobData(ctx.method, ctx.path.slice(path.length))) {
      ctx.status = 403;
      ctx.body = {
        error:
          "Adding jobs and editing job data are off on this dashboard; dispatch jobs from the app, or turn them on with the dashboard's edit option.",
      };
      return;
    }
    return board(ctx, next);
  };
}
