import type { Scenario, WorkloadName } from "../workloads.js";
import { E_BENCH_OPTION } from "../errors.js";
import type { StartServer } from "./types.js";

/** Names of the bench servers. */
export type ServerName =
  | "raw-http"
  | "bare-koa"
  | "koa-router"
  | "fw-a"
  | "fw-b"
  | "fastify"
  | "hono"
  | "adonis"
  | "nest";

/** What the runner knows of a server. */
export interface ServerInfo {
  readonly name: ServerName;
  /** For the report. */
  readonly label: string;
  /** For the report's production-defaults and db rows, when the server runs other middleware there. */
  readonly productionLabel?: string;
  /** Module file beside this one. */
  readonly file: string;
  /** The workloads it serves (the route-count workload is `last-route`). */
  readonly workloads: readonly WorkloadName[];
  /** Its generated paths end with `/` (fw-a). */
  readonly trailingSlash: boolean;
}

/** Every server, in report order. */
export const SERVERS: readonly ServerInfo[] = Object.freeze([
  {
    name: "raw-http",
    label: "node:http (ceiling)",
    file: "raw-http.js",
    workloads: ["text", "params", "json"],
    trailingSlash: false,
  },
  {
    name: "bare-koa",
    label: "bare Koa (no router)",
    productionLabel: "bare Koa + helmet, session, CSRF check, pino (no router)",
    file: "bare-koa.js",
    workloads: ["text", "params", "json", "prod-text"],
    trailingSlash: false,
  },
  {
    name: "koa-router",
    label: "Koa + @koa/router (hand-written)",
    file: "koa-router.js",
    workloads: ["text", "params", "json", "page-njk", "page-pug", "post-csrf", "session-read", "last-route"],
    trailingSlash: false,
  },
  {
    name: "fw-a",
    label: "fw-a",
    file: "fw-a.js",
    workloads: [
      "text",
      "params",
      "json",
      "page-njk",
      "post-csrf",
      "session-read",
      "prod-text",
      "prod-text-metrics",
      "prod-text-tracing",
      "db-read",
      "db-relations",
      "db-relations-knex",
      "last-route",
    ],
    trailingSlash: true,
  },
  {
    name: "fw-b",
    label: "fw-b",
    file: "fw-b.js",
    workloads: [
      "text",
      "params",
      "json",
      "page-pug",
      "post-csrf",
      "session-read",
      "prod-text",
      "prod-text-metrics",
      "prod-text-tracing",
      "db-read",
      "db-relations",
      "db-relations-knex",
      "last-route",
    ],
    trailingSlash: false,
  },
  // Fastify: bare in the basic scenario, with helmet/cookie/session/csrf-protection in production.
  {
    name: "fastify",
    label: "Fastify 5",
    productionLabel: "Fastify 5 + helmet, cookie, session, csrf-protection",
    file: "fastify.js",
    workloads: ["text", "params", "json", "prod-text", "db-read"],
    trailingSlash: false,
  },
  {
    name: "hono",
    label: "Hono 4 (@hono/node-server)",
    file: "hono.js",
    workloads: ["text", "params", "json"],
    trailingSlash: false,
  },
  // AdonisJS: bare router in the basic scenario, with its session and shield packages in production.
  {
    name: "adonis",
    label: "AdonisJS 6",
    productionLabel: "AdonisJS 6 + session, shield",
    file: "adonis.js",
    workloads: ["text", "params", "json", "prod-text"],
    trailingSlash: false,
  },
  {
    name: "nest",
    label: "NestJS 11 (Express)",
    file: "nest.mjs",
    workloads: ["text", "params", "json"],
    trailingSlash: false,
  },
] satisfies ServerInfo[]);

/** The server of a name (throws for an unknown one). */
export function serverInfo(name: string): ServerInfo {
  const found = SERVERS.find((s) => s.name === name);
  if (!found)
    throw new E_BENCH_OPTION(`Unknown bench server "${name}"; known: ${SERVERS.map((s) => s.name).join(", ")}.`);
  return found;
}

/** A server's module: `start(scenario, port)` and, for route-count servers, `measureTable(routes)`. */
export interface ServerModule {
  readonly start: StartServer;
  readonly measureTable?: (routes: number) => number;
}

/** Imports a server's module. */
export async function loadServer(name: string): Promise<ServerModule> {
  const info = serverInfo(name);
  return (await import(new URL(`./${info.file}`, import.meta.url).href)) as ServerModule;
}

/** The path a server answers a workload path on (fw-a adds its trailing slash). */
export function pathFor(info: ServerInfo, path: string): string {
  return info.trailingSlash && !path.endsWith("/") ? `${path}/` : path;
}

/** Scenario helpers re-exported for the runner. */
export type { Scenario };
