import { randomUUID } from "node:crypto";
import type { Middleware } from "koa";

// Ids from the client are echoed into logs and headers: only short, plain tokens are kept.
const VALID_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/**
 * Gives every request an id: the balancer's (or client's) `X-Request-Id` when it is a plain token
 * of at most 128 characters, else a new UUID; `inner` (the health endpoints) runs after it. It is
 * echoed in the response, kept as `ctx.state.requestId`, and is the `reqId` of the request's log
 * line and of every line logged through `ctx.log`, so one request can be followed from the
 * balancer's log to the app's. No AsyncLocalStorage scope: on Node 20 one turns promise hooks on
 * for every promise of the process (about a tenth of a plain request's CPU, issue 20).
 */
export function requestIdMiddleware(header: string, inner?: Middleware): Middleware {
  return (ctx, next) => {
    const given = ctx.get(header);
    const id = given && VALID_ID.test(given) ? given : randomUUID();
    ctx.state["requestId"] = id;
    ctx.set(header, id);
    return inner ? inner(ctx, next) : next();
  };
}
