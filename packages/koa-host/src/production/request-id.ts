import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { Middleware } from "koa";

// The id of the request being served, for the logger's mixin: every line logged while a request
// runs (by the host, a plugin or a view) carries it without anyone passing it along.
const scope = new AsyncLocalStorage<string>();

/** The id of the request this code runs for, if any (the logger adds it to every line as `reqId`). */
export function currentRequestId(): string | undefined {
  return scope.getStore();
}

// Ids from the client are echoed into logs and headers: only short, plain tokens are kept.
const VALID_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/**
 * Gives every request an id: the balancer's (or client's) `X-Request-Id` when it is a plain token
 * of at most 128 characters, else a new UUID; `inner` (the health endpoints) runs inside its scope. It is echoed in the response and is on every log
 * line of the request, so one request can be followed from the balancer's log to the app's.
 */
export function requestIdMiddleware(header: string, inner?: Middleware): Middleware {
  return (ctx, next) => {
    const given = ctx.get(header);
    const id = given && VALID_ID.test(given) ? given : randomUUID();
    ctx.state["requestId"] = id;
    ctx.set(header, id);
    return scope.run(id, inner ? () => inner(ctx, next) : next);
  };
}
