import type { Context } from "koa";
import type { Route } from "routing-kernel";

/** Turns one view result into a response; prepared once per route at start-up. */
export type RespondFn = (ctx: Context, result: unknown) => void | Promise<void>;

/** What an error response needs. */
export interface ErrorInfo {
  readonly status: number;
  /** Client-safe message. */
  readonly message: string;
  /** The thrown value (never sent to clients). */
  readonly error: unknown;
  /** The stack, only in development. */
  readonly stack?: string;
  /** The matched route, if any. */
  readonly route?: Route;
}

/** A framework's response rules, plugged into the host. */
export interface Responder {
  /** Decides once, at start-up, how the results of `route` become responses. */
  prepare(route: Route): RespondFn;
  /** Writes an error response (HTML page, JSON or XML body). */
  renderError(ctx: Context, info: ErrorInfo): void | Promise<void>;
  /** The response kind for route listings (`html`, `json`, `xml`, `text`...). */
  describe(route: Route): string;
}
