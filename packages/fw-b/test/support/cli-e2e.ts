// Shared by fw-b's end-to-end CLI tests (cli-e2e, cli-serve-e2e): the built CLI run in a folder
// outside the workspace, the packages it runs from built when older than their sources, and the
// budgets each step's timeout is derived from.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The fw-b package folder. */
export const packageDir = fileURLToPath(new URL("../..", import.meta.url));
const workspace = join(packageDir, "..", "..");
/** fw-b's executable. */
export const bin = join(packageDir, "bin", "fw-b.js");
const tsc = join(workspace, "node_modules", "typescript", "bin", "tsc");

// Each step's timeout comes from the work it does, with a budget per unit sized for a 2-core
// machine under heavy load (not from how long it takes on a quiet one: a CLI run of 3 s took 51 s
// at a load average of 22): a package build, one run
// of the CLI (Node, tsx and the app loaded), the development server's start, requests and reload.
export const BUILD_MS = 90_000;
export const CLI_RUN_MS = 90_000;
export const SERVE_MS = 120_000;
/** A test's timeout for `runs` runs of the CLI. */
export const cliRuns = (runs: number) => ({ timeout: runs * CLI_RUN_MS });

/** The packages the CLI runs from their dist/ (fw-b and what it depends on). */
export const PACKAGES = [
  "routing-kernel",
  "koa-host",
  "jobs",
  "cli",
  "security",
  "data",
  "services",
  "observability",
  "app-kit",
  "fw-b",
];

/** The newest modification time of the files under `dir` (0 when it does not exist). */
function newest(dir: string): number {
  if (!existsSync(dir)) return 0;
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

/** Runs the built CLI in `cwd` and returns its exit code and output. */
export function fwb(cwd: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NODE_OPTIONS: "" },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A free port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves with fn's first defined answer; fails naming `what` after `ms`. */
export async function eventually<T>(what: string, fn: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await fn();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
}

/** The shop view a user writes over the generated one (an interceptor, an XML feed, a greeting). */
export const SHOP_VIEW = (greeting: string) => `import { FwB } from "fw-b";
import { navTitle, renderXml } from "fw-b/decorators";

@navTitle("Shop", { order: 1 })
export class Shop extends FwB {
  beforeRequest(name: string, ...args: unknown[]) {
    if (this.ctx.query["closed"] === "1") return \`closed (\${name} \${args.join(",")})\`;
    return undefined;
  }
  index() {
    return { title: "Shop", greeting: "${greeting}" };
  }
  item(id: string) {
    return \`item \${id}\`;
  }
  @navTitle("Feed")
  @renderXml
  feed() {
    return { shop: "Tea & more", open: true, items: [1, 2] };
  }
}
`;

/** Builds each package the CLI runs from whose dist/ is older than its src/ (npm test has built them all). */
export function buildStalePackages(): void {
  for (const name of PACKAGES) {
    const dir = join(workspace, "packages", name);
    if (newest(join(dir, "dist")) >= newest(join(dir, "src"))) continue;
    const built = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: dir, encoding: "utf8" });
    assert.equal(built.status, 0, `build of ${name} failed:\n${built.stdout}${built.stderr}`);
  }
}

/** The before-hook timeout of {@link buildStalePackages}: a build per package at most. */
export const BUILD_TIMEOUT = { timeout: PACKAGES.length * BUILD_MS };
