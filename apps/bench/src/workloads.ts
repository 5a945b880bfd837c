/**
 * The workloads every server answers, with the exact request and the answer expected. The runner
 * checks each answer before loading a server, and the smoke test checks them all, so a figure in
 * the table always comes from a server that did the right work.
 */
import { EXPECTED_TASKS } from "./servers/relations-fixture.js";

/** Which app configuration of a server a workload needs (one process per scenario). */
/** `production-metrics` and `production-tracing`: the production defaults with metrics, or tracing, on. */
export type Scenario =
  | "basic"
  | "security"
  | "production"
  | "production-metrics"
  | "production-tracing"
  | "db"
  | `routes-${number}`;

/** Names of the request workloads. */
export type WorkloadName =
  | "text"
  | "params"
  | "json"
  | "page-njk"
  | "page-pug"
  | "post-csrf"
  | "session-read"
  | "prod-text"
  | "prod-text-metrics"
  | "prod-text-tracing"
  | "db-read"
  | "db-relations"
  | "db-relations-knex"
  | "last-route";

/** One request workload. */
export interface Workload {
  readonly name: WorkloadName;
  /** A line for the report. */
  readonly title: string;
  readonly scenario:
    | "basic"
    | "security"
    | "production"
    | "production-metrics"
    | "production-tracing"
    | "db"
    | "relations"
    | "routes";
  readonly method: "GET" | "POST";
  /** Path without a trailing slash; fw-a adds its slash. */
  readonly path: string;
  /** JSON request body (POST). */
  readonly body?: unknown;
  readonly status: number;
  readonly contentType: RegExp;
  /** Tells whether an answer body is right. */
  readonly check: (body: string) => boolean;
}

/** The 20 items of the template pages (the same data for every server). */
export const PAGE_ITEMS: ReadonlyArray<{ readonly id: number; readonly name: string; readonly price: string }> =
  Object.freeze(
    Array.from({ length: 20 }, (_, i) =>
      Object.freeze({ id: i + 1, name: `Item <${i + 1}>`, price: (i * 1.25 + 3).toFixed(2) }),
    ),
  );

/** The view data of the template pages. */
export const PAGE_DATA = Object.freeze({ title: "Catalogue", items: PAGE_ITEMS });

/** The body of the text workload. */
export const TEXT_BODY = "Hello, World!";

/** The body of the JSON workload. */
export const JSON_BODY = Object.freeze({ message: "Hello, World!", count: 3, tags: ["a", "b", "c"] });

/** The answer of the two-parameter workload for `a` and `b`. */
export const pairText = (a: string, b: string): string => `pair ${a} ${b}`;

/** The JSON body posted by the POST workload. */
export const POST_BODY = Object.freeze({ title: "A new post", count: 2 });

/** The user stored in the session by the security scenario's login route. */
export const SESSION_USER = "alice";

/** The answer of a generated route: its class and method. */
export const generatedText = (cls: string, method: string): string => `route ${cls}.${method}`;

/** Class name of the `i`-th generated view class (10 methods each). */
export const generatedClass = (i: number): string => `R${String(i).padStart(5, "0")}`;

/** Path of the last-registered generated route of an N-route app. */
export function lastRoutePath(routes: number): string {
  const classes = Math.max(1, Math.ceil(routes / 10));
  return `/${generatedClass(classes - 1).toLowerCase()}/m${(((routes - 1) % 10) + 10) % 10}`;
}

const isJson = (expected: unknown) => (body: string) => {
  try {
    return JSON.stringify(JSON.parse(body)) === JSON.stringify(expected);
  } catch {
    return false;
  }
};

/** Checks a rendered template page: layout, title, 20 escaped items in order. */
export function isPage(body: string): boolean {
  const items = body.match(/<li class="item">/g)?.length ?? 0;
  return (
    body.includes("<title>Catalogue</title>") &&
    body.includes('<nav class="layout">') &&
    items === 20 &&
    body.includes("Item &lt;20&gt;") &&
    body.indexOf("Item &lt;1&gt;") < body.indexOf("Item &lt;2&gt;")
  );
}

/** Every request workload (route-count workloads are added per size by the runner). */
export const WORKLOADS: readonly Workload[] = Object.freeze([
  {
    name: "text",
    title: "text route",
    scenario: "basic",
    method: "GET",
    path: "/text",
    status: 200,
    contentType: /^text\/plain/,
    check: (b) => b === TEXT_BODY,
  },
  {
    name: "params",
    title: "two path parameters",
    scenario: "basic",
    method: "GET",
    path: "/items/pair/42/7",
    status: 200,
    contentType: /^text\/plain/,
    check: (b) => b === pairText("42", "7"),
  },
  {
    name: "json",
    title: "JSON route",
    scenario: "basic",
    method: "GET",
    path: "/api/data",
    status: 200,
    contentType: /^application\/json/,
    check: isJson(JSON_BODY),
  },
  {
    name: "page-njk",
    title: "Nunjucks page (layout, 20 items)",
    scenario: "basic",
    method: "GET",
    path: "/page",
    status: 200,
    contentType: /^text\/html/,
    check: isPage,
  },
  {
    name: "page-pug",
    title: "Pug page (layout, 20 items)",
    scenario: "basic",
    method: "GET",
    path: "/pug-page",
    status: 200,
    contentType: /^text\/html/,
    check: isPage,
  },
  {
    name: "post-csrf",
    title: "POST JSON body + CSRF (cookie session)",
    scenario: "security",
    method: "POST",
    path: "/account/submit",
    body: POST_BODY,
    status: 200,
    contentType: /^application\/json/,
    check: isJson({ ok: true, user: SESSION_USER, title: POST_BODY.title, count: POST_BODY.count }),
  },
  {
    name: "session-read",
    title: "session read (cookie store)",
    scenario: "security",
    method: "GET",
    path: "/account/whoami",
    status: 200,
    contentType: /^application\/json/,
    check: isJson({ user: SESSION_USER }),
  },
  {
    // The production defaults of a scaffolded app: security headers, cookie session, CSRF guard and
    // one JSON log line per request; the request carries no session cookie (a visitor's first GET).
    name: "prod-text",
    title: "text route, scaffold production defaults (headers, session, CSRF, request log)",
    scenario: "production",
    method: "GET",
    path: "/text",
    status: 200,
    contentType: /^text\/plain/,
    check: (b) => b === TEXT_BODY,
  },
  {
    // The cost of observability: the same request with Prometheus metrics on (a port of their own),
    // and with OpenTelemetry tracing on (spans made, none exported: the exporter's own cost is the
    // collector's), each reported as a ratio to prod-text.
    name: "prod-text-metrics",
    title: "text route, production defaults + metrics on",
    scenario: "production-metrics",
    method: "GET",
    path: "/text",
    status: 200,
    contentType: /^text\/plain/,
    check: (b) => b === TEXT_BODY,
  },
  {
    name: "prod-text-tracing",
    title: "text route, production defaults + tracing on",
    scenario: "production-tracing",
    method: "GET",
    path: "/text",
    status: 200,
    contentType: /^text\/plain/,
    check: (b) => b === TEXT_BODY,
  },
  {
    // The user from a session kept in Redis, and one row by primary key from PostgreSQL.
    name: "db-read",
    title: "Redis session read + one PostgreSQL row",
    scenario: "db",
    method: "GET",
    path: "/account/profile",
    status: 200,
    contentType: /^application\/json/,
    check: isJson({ user: SESSION_USER, item: { id: 1, name: "Item <1>", price: "3.00" } }),
  },
  {
    // 100 tasks with their project and two assignees each, through the models' preloads (three
    // queries), and the same list written by hand with knex joins (two queries), on the db
    // scenario's servers; run when named (`--scenarios=db,relations`, see NAMED_SCENARIOS).
    name: "db-relations",
    title: "list with relations: 100 tasks, project and assignees preloaded (PostgreSQL)",
    scenario: "relations",
    method: "GET",
    path: "/account/tasks",
    status: 200,
    contentType: /^application\/json/,
    check: isJson({ tasks: EXPECTED_TASKS }),
  },
  {
    name: "db-relations-knex",
    title: "list with relations: the same 100 tasks by hand with knex joins (PostgreSQL)",
    scenario: "relations",
    method: "GET",
    path: "/account/joined",
    status: 200,
    contentType: /^application\/json/,
    check: isJson({ tasks: EXPECTED_TASKS }),
  },
] satisfies Workload[]);

/** The route-count workload for an N-route app: the last-registered route. */
export function lastRouteWorkload(routes: number): Workload {
  const path = lastRoutePath(routes);
  const [, cls = "", method = ""] = path.split("/");
  return {
    name: "last-route",
    title: `last of ${routes} routes`,
    scenario: "routes",
    method: "GET",
    path,
    status: 200,
    contentType: /^text\/plain/,
    check: (b) => b === generatedText(cls.toUpperCase(), method),
  };
}

/** Path of the security scenario's set-up route: puts the user in the session, answers `{ token }`. */
export const LOGIN_PATH = "/account/login";
