/**
 * A minimal framework on routing-kernel and plain Koa, only to prove the conformance suite green
 * without fw-a or fw-b: a dispatcher that walks `table.entries` in order and answers HEAD,
 * OPTIONS, 405, 308 slash redirects and the method override. Not a model for koa-host.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import Koa, { type Context, type Middleware } from "koa";
import {
  bareOrCalled,
  buildRouteTable,
  defineConventions,
  routePath,
  responseKindTag,
  verbDecorators,
  type Route,
  type RouteTable,
  type Verb,
} from "routing-kernel";
import { patternParams, responseKindOf, sortVerbs, toggleTrailingSlash } from "routing-kernel/plugin";
import type { ConformanceAdapter, ConformanceSkip } from "../src/index.js";

/** The view base class of the mini framework. */
export class MiniView {
  constructor(readonly ctx: Context) {}
}

interface Compiled {
  readonly regex: RegExp;
  readonly names: readonly string[];
  readonly route: Route;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function compile(table: RouteTable): Compiled[] {
  return table.entries.map(({ pattern, route }) => {
    const source = pattern
      .split("/")
      .map((segment) => (segment.startsWith(":") ? "([^/]+)" : escapeRegExp(segment)))
      .join("/");
    return { regex: new RegExp(`^${source}$`), names: patternParams(pattern), route };
  });
}

const OVERRIDES: Readonly<Record<string, Verb>> = { PUT: "PUT", PATCH: "PATCH", DELETE: "DELETE", UPDATE: "PATCH" };

async function overriddenVerb(ctx: Context): Promise<string> {
  let value = ctx.get("x-http-method-override");
  if (!value && ctx.is("application/x-www-form-urlencoded")) {
    let raw = "";
    for await (const chunk of ctx.req) raw += String(chunk);
    value = new URLSearchParams(raw).get("_method") ?? "";
  }
  if (!value) return "POST";
  const verb = OVERRIDES[value.toUpperCase()];
  if (!verb) ctx.throw(400, `Unknown method override "${value}"; use PUT, PATCH, DELETE or UPDATE.`);
  return verb;
}

function dispatcher(table: RouteTable): Middleware {
  const compiled = compile(table);
  const matching = (path: string) =>
    compiled.flatMap((entry) => {
      const match = entry.regex.exec(path);
      return match ? [{ entry, values: match.slice(1) }] : [];
    });
  return async (ctx) => {
    const matches = matching(ctx.path);
    if (matches.length === 0) {
      const twin = toggleTrailingSlash(ctx.path);
      if (twin && matching(twin).length > 0) {
        ctx.status = 308;
        ctx.set("Location", ctx.querystring ? `${twin}?${ctx.querystring}` : twin);
      }
      return; // otherwise Koa answers 404
    }
    const verb = ctx.method === "POST" ? await overriddenVerb(ctx) : ctx.method;
    const wanted = verb === "HEAD" ? "GET" : verb;
    const hit = matches.find(({ entry }) => entry.route.verbs.includes(wanted as Verb));
    if (!hit) {
      const verbs = sortVerbs(matches.flatMap(({ entry }) => entry.route.verbs));
      const allow = [...verbs, ...(verbs.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
      ctx.set("Allow", allow);
      ctx.status = verb === "OPTIONS" ? 204 : 405;
      return;
    }
    const named = new Map<string, string>();
    try {
      hit.entry.names.forEach((name, i) => {
        named.set(name, decodeURIComponent(hit.values[i]!));
      });
    } catch {
      ctx.throw(400, "The URL cannot be decoded.");
    }
    const { route } = hit.entry;
    const args = route.parameters.map((p) => named.get(p.name));
    const view = new (route.viewClass as unknown as new (ctx: Context) => Record<string, (...a: unknown[]) => unknown>)(
      ctx,
    );
    let result = view["beforeRequest"] ? await view["beforeRequest"](route.methodName, ...args) : undefined;
    if (result === undefined) result = await view[route.methodName]!(...args);
    if (view["afterRequest"]) result = await view["afterRequest"](route.methodName, result);
    if (responseKindOf(route) === "json" || typeof result !== "string") {
      ctx.type = "application/json";
      ctx.body = JSON.stringify(result);
    } else {
      ctx.type = "text/plain";
      ctx.body = result;
    }
  };
}

/** The mini framework as a conformance adapter, with either slash policy. */
export function miniAdapter(trailingSlash: boolean, skip?: readonly ConformanceSkip[]): ConformanceAdapter {
  const conventions = defineConventions({ baseClass: MiniView, trailingSlash, reservedNames: ["ctx"] });
  return {
    name: `mini Koa adapter (${trailingSlash ? "paths end with /" : "paths without trailing /"})`,
    trailingSlash,
    Base: MiniView,
    decorators: {
      // The kernel's verb decorators, as fw-a's and fw-b's `request` namespaces are made.
      ...verbDecorators("request"),
      route: (path) => routePath("route", path),
      // Bare or called with nothing, as the seeds write it: options are refused.
      json: bareOrCalled(() => responseKindTag("json", "json"), "json"),
    },
    async build(modules) {
      return buildRouteTable({ conventions, modules });
    },
    async start(modules) {
      const koa = new Koa();
      koa.use(dispatcher(buildRouteTable({ conventions, modules })));
      const server = createServer(koa.callback());
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const { port } = server.address() as AddressInfo;
      return {
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise<void>((resolve) => server.close(() => resolve())),
      };
    },
    ...(skip ? { skip } : {}),
  };
}
