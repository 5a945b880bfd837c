import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { ViewModule } from "routing-kernel";
import type { ConformanceAdapter, ConformanceServer } from "./adapter.js";
import { allowOf, send, type ClientResponse, type RequestOptions } from "./client.js";
import { E_CONFORMANCE_DUPLICATE_TEST, E_CONFORMANCE_SKIP_REASON } from "./errors.js";

/**
 * The adapter's optional `part` (its security or CLI part) for a group of cases; when the adapter
 * has none, the group registers its one skipped test saying so and gets undefined.
 */
export function adapterPart<K extends "security" | "cli" | "schemas">(
  s: SuiteContext,
  part: K,
  title: string,
): NonNullable<ConformanceAdapter[K]> | undefined {
  const value = s.adapter[part];
  if (!value)
    test(`${title}: not run`, { skip: `${s.adapter.name} declares no ${part} part in its adapter` }, () => {});
  return value ?? undefined;
}

/** Requests to the app of one group, paths relative to its base URL. */
export interface GroupClient {
  get(path: string, options?: RequestOptions): Promise<ClientResponse>;
  send(method: string, path: string, options?: RequestOptions): Promise<ClientResponse>;
  /** What the app logged at levels error, warn and fatal so far (undefined when its adapter records no log). */
  logged(): readonly string[] | undefined;
}

/** What each case file receives: the adapter, path helpers and the group and test functions. */
export interface SuiteContext {
  readonly adapter: ConformanceAdapter;
  /** A generated path under the adapter's slash policy: `p("/blog/comments/42")` -> `/blog/comments/42/` on fw-a. */
  p(path: string): string;
  /** The same path with the other slash policy (the non-canonical twin). */
  twin(path: string): string;
  /** Declares a group of tests served by one app of `modules` (started by `start`, default `adapter.start`). */
  group(
    title: string,
    modules: () => ViewModule[],
    body: (t: GroupTest) => void,
    start?: (modules: ViewModule[]) => Promise<ConformanceServer>,
  ): void;
  /** Declares a group of tests that need no server (start-up errors through `adapter.build`). */
  checks(title: string, body: (t: CheckTest) => void): void;
}

/** Declares one server-less test of a group; the skip list applies by title. */
export type CheckTest = (title: string, fn: () => Promise<void>) => void;

/** Declares one test of a group; the skip list of the adapter applies by title. */
export type GroupTest = (title: string, fn: (client: GroupClient) => Promise<void>) => void;

/** Test titles declared so far, to check the adapter's skip list names only real tests. */
export interface Registry {
  readonly titles: Set<string>;
  readonly skips: Map<string, string>;
}

/** Builds the context the case files use; registers every title for the skip-list check. */
export function createSuiteContext(adapter: ConformanceAdapter, registry: Registry): SuiteContext {
  const p = (path: string): string => {
    if (path === "/") return path;
    const bare = path.replace(/\/+$/, "");
    return adapter.trailingSlash ? `${bare}/` : bare;
  };
  return {
    adapter,
    p,
    twin: (path) => {
      const canonical = p(path);
      return canonical.endsWith("/") ? canonical.slice(0, -1) : `${canonical}/`;
    },
    group(title, modules, body, start = (m) => adapter.start(m)) {
      describe(title, () => {
        let server: ConformanceServer | undefined;
        const client: GroupClient = {
          get: (path, options) => client.send("GET", path, options),
          send: (method, path, options) => {
            assert.ok(server, `the app of "${title}" did not start; see the failure of its before hook`);
            return send(server.url, method, path, options);
          },
          logged: () => server?.logged,
        };
        let active = 0;
        before(async () => {
          // A group whose every test is skipped starts no app.
          if (active > 0) server = await start(modules());
        });
        after(async () => {
          await server?.close();
        });
        body((name, fn) => {
          if (declareTest(registry, name, () => fn(client))) active += 1;
        });
      });
    },
    checks(title, body) {
      describe(title, () => body((name, fn) => declareTest(registry, name, fn)));
    },
  };
}

/**
 * Registers a test title (unique across the suite) and declares it, skipped with its reason if
 * listed. Returns whether the test will run.
 */
function declareTest(registry: Registry, name: string, fn: () => Promise<void>): boolean {
  if (registry.titles.has(name)) throw new E_CONFORMANCE_DUPLICATE_TEST(name);
  registry.titles.add(name);
  const reason = registry.skips.get(name);
  if (reason !== undefined) {
    test(name, { skip: reason }, () => {});
    return false;
  }
  test(name, fn);
  return true;
}

/** Builds the registry of titles and skips, refusing a skip without a reason. */
export function createRegistry(adapter: ConformanceAdapter): Registry {
  const skips = new Map<string, string>();
  for (const skip of adapter.skip ?? []) {
    if (typeof skip.reason !== "string" || skip.reason.trim() === "") {
      throw new E_CONFORMANCE_SKIP_REASON(adapter.name, skip.tests.join(", "));
    }
    for (const name of skip.tests) skips.set(name, `${skip.reason}`);
  }
  return { titles: new Set(), skips };
}

/** Asserts a response's status, with the body in the message to make failures readable. */
export function expectStatus(response: ClientResponse, status: number, what: string): void {
  assert.equal(
    response.status,
    status,
    `${what}: expected ${status}, got ${response.status} with body ${JSON.stringify(response.text.slice(0, 300))}`,
  );
}

/** Asserts a 200 text response with exactly this body. */
export function expectText(response: ClientResponse, body: string, what: string): void {
  expectStatus(response, 200, what);
  assert.equal(response.text, body, what);
}

/** Asserts the `Allow` header lists exactly `verbs` (OPTIONS may be listed too). */
export function expectAllow(response: ClientResponse, verbs: readonly string[], what: string): void {
  const listed = allowOf(response).filter((verb) => verb !== "OPTIONS");
  assert.deepEqual(
    listed,
    [...verbs].filter((verb) => verb !== "OPTIONS").sort(),
    `${what}: Allow is "${String(response.headers["allow"])}"`,
  );
}
