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
  /** The title in the dashboard's header. */
  readonly title?: string;
}

/** The option names {@link JobsDashboardOptions} takes. */
export const JOBS_DASHBOARD_OPTION_KEYS = ["path", "guard", "readOnly", "title"] as const;

interface BullBoardApi {
  createBullBoard(options: {
    queues: readonly unknown[];
    serverAdapter: unknown;
    options?: { uiConfig?: { boardTitle?: string } };
  }): unknown;
}
interface BullBoardAdapters {
  BullMQAdapter: new (queue: unknown, options?: { readOnlyMode?: boolean }) => unknown;
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
  const driver = queue.driver;
  if (!(driver instanceof BullMQDriver)) throw new E_JOBS_DASHBOARD_UNSUPPORTED(`${queue.kind}:`);
  const api = requireDriver<BullBoardApi>("@bull-board/api", "jobs dashboard");
  const adapters = requireDriver<BullBoardAdapters>("@bull-board/api/bullMQAdapter", "jobs dashboard");
  const { KoaAdapter } = requireDriver<KoaAdapterModule>("@bull-board/koa", "jobs dashboard");
  const serverAdapter = new KoaAdapter();
  serverAdapter.setBasePath(path);
  api.createBullBoard({
    queues: queue
      .queueNames()
      .map((name) => new adapters.BullMQAdapter(driver.queue(name), { readOnlyMode: options.readOnly === true })),
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
    return board(ctx, next);
  };
}
