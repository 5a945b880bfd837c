import { redirect, reply, type Redirect, type Reply, type ReplyInit } from "@fwkit/koa-host";
import { bareOrCalled, responseKindTag, type ViewDecorator } from "routing-kernel";
import { makeCacheDecorator } from "@fwkit/services/battery";
import { responseSchemaDecorator } from "./schemas.js";

/**
 * Response helpers of framework A. `@response.json` (on a method or a class) answers with JSON
 * whatever the method returns; `@response.cache(seconds)` caches a GET answer (never one that sets
 * cookies or serves a session); `response.make(body, { status, headers })` sets the status and
 * headers of a result; `response.redirect(url)` redirects.
 */
export const response = Object.freeze({
  json: bareOrCalled(() => responseKindTag("response.json", "json"), "response.json") as ViewDecorator &
    (() => ViewDecorator),
  cache: makeCacheDecorator("response.cache"),
  make: (body: unknown, init: ReplyInit = {}): Reply => reply(body, init),
  status: (status: number, body?: unknown, headers?: Record<string, string>): Reply =>
    reply(body, headers ? { status, headers } : { status }),
  redirect: (location: string, status = 302): Redirect => redirect(location, status),
  /** `@response.schema(201, Schema)`: the answer's schema for that status (OpenAPI), on a method or a class. */
  schema: responseSchemaDecorator,
});
