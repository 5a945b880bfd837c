import { randomBytes } from "node:crypto";
import type { Context } from "koa";
import { setTokenHeader } from "../header-table.js";
import { requestIdSlot } from "../request-state.js";

// Ids from the client are echoed into logs and headers: only short, plain tokens are kept.
const VALID_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

// This process's ids: a random prefix (48 bits, base64url) and a counter. Unique across the
// processes of a deployment without a UUID per request (a UUID, and the longer string
// every header check and log line then scans, cost about 2% of a cookie-less GET).
const PREFIX = randomBytes(6).toString("base64url");
let counter = 0;

/** A new request id of this process: its random prefix, `-`, and a base-36 counter (`Xk3_9aZq-1f`). */
export function newRequestId(): string {
  counter = counter === Number.MAX_SAFE_INTEGER ? 1 : counter + 1;
  return `${PREFIX}-${counter.toString(36)}`;
}

/**
 * Gives a request its id: the balancer's id in `header` (lower case, checked at start-up) when the connection comes from
 * a trusted proxy (`trustProxy`) and the id is a plain token of at most 128 characters, else a new
 * one ({@link newRequestId}): a client must not write another request's id into the logs. It is
 * echoed in the response and kept as `ctx.state.requestId`, the `reqId` of the request's log line
 * and of every line logged through `ctx.log`, so one request can be followed from the balancer's
 * log to the app's. No AsyncLocalStorage scope: on Node 20 one turns promise hooks on for every
 * promise of the process (about a tenth of a plain request's CPU).
 */
export function assignRequestId(ctx: Context, header: string, fromTrustedProxy: boolean): void {
  const given = fromTrustedProxy ? ctx.req.headers[header] : undefined;
  const id = typeof given === "string" && VALID_ID.test(given) ? given : newRequestId();
  requestIdSlot.set(ctx, id);
  // Either id is made of token characters only: Node's value check has nothing to find.
  setTokenHeader(ctx.res, header, id);
}
