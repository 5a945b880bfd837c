// Every request header the frameworks and batteries read is listed, once, with who may write it
// (packages/koa-host/src/production/request-headers.ts): a header read anywhere in a package's
// sources without a line there fails here, so none is believed by accident. The headers only a
// trusted proxy may write are checked over HTTP in packages/observability/test/trusted-proxy-headers.test.ts.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { REQUEST_HEADERS } from "../packages/koa-host/src/production/request-headers.js";

const root = fileURLToPath(new URL("..", import.meta.url));
// Test tooling reads the headers of answers, not of requests.
const SKIPPED = new Set(["test-servers", "conformance"]);

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (["node_modules", "dist", "testing"].includes(entry.name)) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(full));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) out.push(full);
  }
  return out;
}

// A request: `ctx`, `this.ctx`, `ctx.request`, `ctx.req`, `req`, `request`, or `this` inside a Koa request override.
const REQUEST = String.raw`\b(?:this\.ctx|ctx|this|req|request)(?:\.request|\.req)?`;
/** Patterns of a header read; the first group is the name (a string or a constant's name). */
const READS: readonly RegExp[] = [
  new RegExp(`${REQUEST}\\.get\\(\\s*("[^"]+"|'[^']+'|[A-Z][A-Z0-9_]*)\\s*\\)`, "g"),
  new RegExp(`${REQUEST}\\.headers?\\[\\s*("[^"]+"|'[^']+'|[A-Za-z_.()]+)\\s*\\]`, "g"),
  new RegExp(`${REQUEST}\\.headers?\\.([a-z][a-z0-9]*)\\b(?!\\()`, "g"),
];
/** Reads that name no header literally, with the headers they read. */
const INDIRECT: ReadonlyArray<[RegExp, readonly string[]]> = [
  // The W3C propagators read the trace context and baggage of the headers handed to them.
  [/propagation\.extract\([^;\n]*\bheaders\b/g, ["traceparent", "tracestate", "baggage"]],
  // The configurable request id header (requestIdHeader, x-request-id by default).
  [/ctx\.req\.headers\[header\]/g, ["x-request-id"]],
];
// Not header reads: a Map's or a store's get, and methods on the headers object itself.
const NOT_HEADERS = new Set(["has", "set", "get", "entries", "keys", "values", "foreach", "append"]);

/** The header names a source file reads, each with where. */
function readsOf(file: string): Array<{ name: string; where: string }> {
  const text = readFileSync(file, "utf8");
  const found: Array<{ name: string; where: string }> = [];
  const lineOf = (index: number) => text.slice(0, index).split("\n").length;
  const where = (index: number) => `${file.slice(root.length)}:${lineOf(index)}`;
  for (const pattern of READS) {
    for (const match of text.matchAll(pattern)) {
      let name = match[1]!;
      if (/^["']/.test(name)) name = name.slice(1, -1);
      else if (/^[A-Z][A-Z0-9_]*$/.test(name)) {
        const constant = new RegExp(`const ${name}\\s*=\\s*["']([^"']+)["']`).exec(text);
        name = constant ? constant[1]! : `(constant ${name})`;
      } else if (pattern !== READS[2]) {
        // A name computed at run time: listed in INDIRECT, or unknown.
        if (INDIRECT.some(([indirect]) => new RegExp(indirect.source).test(match[0]))) continue;
        name = `(computed: ${match[0]})`;
      }
      if (NOT_HEADERS.has(name.toLowerCase())) continue;
      found.push({ name: name.toLowerCase(), where: where(match.index!) });
    }
  }
  for (const [pattern, names] of INDIRECT) {
    for (const match of text.matchAll(pattern))
      for (const name of names) found.push({ name, where: where(match.index!) });
  }
  return found;
}

test("every request header read in a package's sources is listed with who may write it", () => {
  const reads = readdirSync(join(root, "packages"))
    .filter((name) => !SKIPPED.has(name))
    .flatMap((name) => sources(join(root, "packages", name, "src")))
    .flatMap(readsOf);
  const names = new Set(reads.map((read) => read.name));
  // The scan finds what it must (or it is broken): one header of each kind of read.
  for (const expected of [
    "authorization",
    "x-forwarded-for",
    "traceparent",
    "x-request-id",
    "idempotency-key",
    "cookie",
  ])
    assert.ok(names.has(expected), `the scan finds ${expected}: ${[...names].join(", ")}`);
  const unlisted = reads.filter((read) => !Object.hasOwn(REQUEST_HEADERS, read.name));
  assert.deepEqual(
    unlisted.map((read) => `${read.name} (${read.where})`),
    [],
    "list each header in packages/koa-host/src/production/request-headers.ts, saying whether only a trusted proxy may write it",
  );
});
