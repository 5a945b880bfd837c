// Scaffolds the two apps as a new user would (init, then the settings docs/deployment.md gives),
// adds the small views the tests read (which node answered, cache, signals, a session counter),
// builds them and runs their migrations on the run's PostgreSQL database.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const workspace = fileURLToPath(new URL("../../../", import.meta.url));
/** tsx as an absolute URL: the apps live outside the workspace, where a bare `tsx` does not resolve. */
export const tsxImport = import.meta.resolve("tsx");

/** One of the two frameworks, as its CLI is run here (from its sources, through tsx). */
export interface Framework {
  readonly name: "fw-a" | "fw-b";
  readonly main: string;
  readonly commands: {
    readonly init: string;
    readonly build: string;
    readonly migrate: string;
    readonly release: string;
    readonly releaseRollback: string;
  };
}

export const FW_A: Framework = {
  name: "fw-a",
  main: join(workspace, "packages/fw-a/src/cli/main.ts"),
  commands: {
    init: "gen:init",
    build: "gen:build",
    migrate: "db:migrate",
    release: "release",
    releaseRollback: "release:rollback",
  },
};
export const FW_B: Framework = {
  name: "fw-b",
  main: join(workspace, "packages/fw-b/src/cli/main.ts"),
  commands: {
    init: ":init",
    build: ":build",
    migrate: ":migrate",
    release: ":release",
    releaseRollback: ":release-rollback",
  },
};

/** The node arguments that run a framework's CLI from its sources. */
export function cliArgs(framework: Framework, args: readonly string[]): string[] {
  return ["--conditions=source", `--import=${tsxImport}`, framework.main, ...args];
}

/** Runs a framework command to completion; throws with its output when it fails. */
export function runCommand(
  framework: Framework,
  root: string,
  args: readonly string[],
  env: Record<string, string> = {},
): string {
  const result = spawnSync(process.execPath, cliArgs(framework, [...args, "--root", root]), {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, NODE_OPTIONS: "", ...env },
    timeout: 300_000,
  });
  const output = `${result.stdout}${result.stderr}`;
  if (result.status !== 0)
    assert.fail(`${framework.name} ${args.join(" ")} failed (${result.status ?? result.signal}):\n${output}`);
  return output;
}

/**
 * The environment every node of an app gets (docs/deployment.md, "Configuration"). `mailUrl` is the
 * SMTP server an app that mails (fw-b's contrib auth) sends to: production refuses to start
 * without one, and refuses the development catcher `log:`.
 */
export function productionEnv(
  stores: { dbUrl: string; redisUrl: string; mailUrl?: string },
  prefix: string,
): Record<string, string> {
  return {
    APP_ENV: "production",
    SECRET_KEY: crypto.randomUUID(),
    DB_URL: stores.dbUrl,
    SESSION_URL: `${stores.redisUrl}/0?prefix=${prefix}:sess:`,
    CACHE_URL: `${stores.redisUrl}/1`,
    REDIS_URL: `${stores.redisUrl}/2`,
    ...(stores.mailUrl ? { MAIL_URL: stores.mailUrl } : {}),
    MAIL_FROM: "Shop <shop@example.test>",
    // Mailed links (fw-b's contrib auth) are built from it; production refuses to start without it.
    BASE_URL: "https://shop.example.test",
    TRUST_PROXY: "1",
    LOG_LEVEL: "warn",
  };
}

const OPS_B = `import { FwB, signal } from "fw-b";
import { renderJson } from "fw-b/decorators";
import { Product } from "../lib/models.js";

const received: string[] = [];
signal<{ text: string }>("scaleout.ping").connect((payload) => {
  received.push(payload.text);
});

/** What the scale-out tests read: which node answered, the shared cache, signals, a database round trip. */
@renderJson
export class Ops extends FwB {
  whoami() {
    const user = this.currentUser as { username?: string } | undefined;
    return { node: process.env["NODE_NAME"] ?? "", pid: process.pid, user: user?.username ?? null, ip: this.ctx.ip, secure: this.ctx.secure };
  }
  async cacheSet(key: string, value: string) {
    await this.services.cache.set(\`scaleout:\${key}\`, value, 300);
    return { ok: true, node: process.env["NODE_NAME"] ?? "" };
  }
  async cacheGet(key: string) {
    return { value: (await this.services.cache.get<string>(\`scaleout:\${key}\`)) ?? null, node: process.env["NODE_NAME"] ?? "" };
  }
  async ping(text: string) {
    await signal<{ text: string }>("scaleout.ping").send({ text });
    return { ok: true, node: process.env["NODE_NAME"] ?? "" };
  }
  received() {
    return { node: process.env["NODE_NAME"] ?? "", received };
  }
  /** The load target: a cache read (Redis) and a query (PostgreSQL). */
  async touch() {
    await this.services.cache.get("scaleout:touch");
    return { products: await Product.count() };
  }
  async slow(ms = "500") {
    // Tests that stop a process mid-request wait for this line, not for a guessed time.
    console.log(\`slow request started in \${process.pid}\`);
    await new Promise((resolve) => setTimeout(resolve, Math.min(Number(ms) || 0, 10_000)));
    return { ok: true };
  }
}
`;

const CONFIG_B = `import { defineConfig } from "fw-b";

/** Production settings come from the environment (docs/deployment.md); these are the app's own. */
export const config = defineConfig({
  appName: "shop",
  contrib: { auth: {}, maintenance: true },
  signals: { names: ["scaleout.ping"] },
});
`;

const OPS_A = `import { FwA, request, response, security, signal } from "fw-a";
import { Note } from "../lib/models.js";

const received: string[] = [];
signal<{ text: string }>("scaleout.ping").connect((payload) => {
  received.push(payload.text);
});

/** What the scale-out tests read: which node answered, a session counter, CSRF, cache, signals. */
@response.json
export class Ops extends FwA {
  whoami() {
    const session = this.ctx.session as { visits?: number } | null;
    return { node: process.env["NODE_NAME"] ?? "", pid: process.pid, visits: session?.visits ?? 0, ip: this.ctx.ip, secure: this.ctx.secure };
  }
  visit() {
    const session = this.ctx.session as { visits?: number };
    session.visits = (session.visits ?? 0) + 1;
    return { node: process.env["NODE_NAME"] ?? "", visits: session.visits };
  }
  token() {
    return { token: security.csrfToken(this.ctx), node: process.env["NODE_NAME"] ?? "" };
  }
  @request.post
  submit() {
    return { ok: true, node: process.env["NODE_NAME"] ?? "" };
  }
  async cacheSet(key: string, value: string) {
    await this.services.cache.set(\`scaleout:\${key}\`, value, 300);
    return { ok: true, node: process.env["NODE_NAME"] ?? "" };
  }
  async cacheGet(key: string) {
    return { value: (await this.services.cache.get<string>(\`scaleout:\${key}\`)) ?? null, node: process.env["NODE_NAME"] ?? "" };
  }
  async ping(text: string) {
    await signal<{ text: string }>("scaleout.ping").send({ text });
    return { ok: true };
  }
  received() {
    return { node: process.env["NODE_NAME"] ?? "", received };
  }
  async touch() {
    await this.services.cache.get("scaleout:touch");
    return { notes: await Note.count() };
  }
  async slow(ms = "500") {
    // Tests that stop a process mid-request wait for this line, not for a guessed time.
    console.log(\`slow request started in \${process.pid}\`);
    await new Promise((resolve) => setTimeout(resolve, Math.min(Number(ms) || 0, 10_000)));
    return { ok: true };
  }
}
`;

const CONFIG_A = `import { defineConfig } from "fw-a";

/** Production settings come from the environment (docs/deployment.md); these are the app's own. */
export const config = defineConfig({
  appName: "notes",
  signals: { names: ["scaleout.ping"] },
});
`;

/** Optional drivers the scale-out deployments use (PostgreSQL, Redis sessions, cache and queue, SMTP), with the ranges the batteries accept. */
const DEPLOYMENT_DRIVERS: Readonly<Record<string, string>> = Object.freeze({
  pg: "^8.23.1",
  ioredis: "^5.8.0",
  bullmq: "^5.56.0",
  nodemailer: "^7.0.0",
});

/**
 * The drivers an app that exports metrics and traces installs (docs/observability.md: prom-client, the SDK, the OTLP
 * exporter and the Redis and HTTP instrumentations), with the ranges the observability battery accepts.
 */
export const TRACING_DRIVERS: Readonly<Record<string, string>> = Object.freeze({
  "@opentelemetry/api": "^1.10.0",
  "prom-client": "^15.1.3",
  "@opentelemetry/sdk-trace-node": "^2.12.1",
  "@opentelemetry/sdk-trace-base": "^2.12.1",
  "@opentelemetry/resources": "^2.12.1",
  "@opentelemetry/exporter-trace-otlp-http": "^0.223.1",
  "@opentelemetry/instrumentation": "^0.223.0",
  "@opentelemetry/instrumentation-ioredis": "^0.71.0",
  "@opentelemetry/instrumentation-http": "^0.223.0",
});

/**
 * Adds drivers to a scaffolded app's dependencies, as an app declares what its config uses
 * (drivers load from the app's folder; an app of the checkout that declares one, not installed
 * yet, gets the checkout's).
 */
export function declareDrivers(root: string, drivers: Readonly<Record<string, string>>): void {
  const manifestPath = join(root, "package.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { dependencies?: Record<string, string> };
  manifest.dependencies = { ...manifest.dependencies, ...drivers };
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
}

/** Scaffolds one app and adds the tests' settings and views (no build, no migration); returns its folder. */
export function scaffoldApp(framework: Framework, dir: string): string {
  const root = join(dir, framework === FW_B ? "shop" : "notes");
  mkdirSync(root, { recursive: true });
  runCommand(framework, root, [framework.commands.init]);
  declareDrivers(root, DEPLOYMENT_DRIVERS);
  writeFileSync(join(root, "lib", "config.ts"), framework === FW_B ? CONFIG_B : CONFIG_A);
  writeFileSync(join(root, "views", "ops.ts"), framework === FW_B ? OPS_B : OPS_A);
  return root;
}

/** Scaffolds, configures, builds and migrates one app; returns its folder. */
export function prepareApp(framework: Framework, dir: string, env: Record<string, string>): string {
  const root = scaffoldApp(framework, dir);
  runCommand(framework, root, [framework.commands.build]);
  runCommand(framework, root, [framework.commands.migrate], env);
  return root;
}

/**
 * The sources of a next release: a migration adding a column (waiting `sleepSeconds` first, so a
 * worker can crash while it runs) and a load target that reads the column, which answers 500 on
 * the old schema (its answer gains a `withSku` field).
 */
export function writeNextRelease(framework: Framework, root: string, sleepSeconds: number): void {
  const [table, model, key] = framework === FW_B ? ["products", "Product", "products"] : ["notes", "Note", "notes"];
  writeFileSync(
    join(root, "migrations", "20990101000000_add_sku.ts"),
    `import type { Knex } from "${framework.name}";

/** A SKU column (waits first: a worker may crash while this runs). */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("select pg_sleep(${sleepSeconds})");
  await knex.schema.alterTable("${table}", (table) => {
    table.string("sku", 40);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("${table}", (table) => {
    table.dropColumn("sku");
  });
}
`,
  );
  const ops = framework === FW_B ? OPS_B : OPS_A;
  const before = `return { ${key}: await ${model}.count() };`;
  if (!ops.includes(before)) assert.fail(`the ops view has no line ${before}`);
  writeFileSync(
    join(root, "views", "ops.ts"),
    ops.replace(
      before,
      `return { ${key}: await ${model}.count(), withSku: (await ${model}.where({ sku: "tea-1" } as never)).length };`,
    ),
  );
}
