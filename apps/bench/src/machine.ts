import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, loadavg, totalmem } from "node:os";
import { fileURLToPath } from "node:url";

/** The machine and software a run measured. */
export interface MachineInfo {
  readonly nproc: number;
  readonly cpu: string;
  readonly memoryGiB: number;
  readonly node: string;
  readonly platform: string;
  /** Versions of the servers' and load generator's packages. */
  readonly packages: Readonly<Record<string, string>>;
  /** Load average (1, 5, 15 min) when the run ended: other work on the machine. */
  readonly loadAverage?: readonly number[];
}

const PACKAGES = [
  "koa",
  "@koa/router",
  "nunjucks",
  "pug",
  "koa-session",
  "koa-body",
  "koa-helmet",
  "pino",
  "@nestjs/core",
  "@nestjs/platform-express",
  "fastify",
  "@fastify/helmet",
  "@fastify/cookie",
  "@fastify/session",
  "@fastify/csrf-protection",
  "hono",
  "@hono/node-server",
  "@adonisjs/core",
  "@adonisjs/session",
  "@adonisjs/shield",
  "autocannon",
  "fw-a",
  "fw-b",
  "@fwkit/koa-host",
  "routing-kernel",
  "@fwkit/security",
  "find-my-way",
];

function versionOf(name: string): string {
  if (name === "find-my-way") {
    // koa-host's dependency, not the bench's: resolve it from koa-host.
    const require = createRequire(fileURLToPath(import.meta.resolve("@fwkit/koa-host")));
    try {
      return (require("find-my-way/package.json") as { version?: string }).version ?? "?";
    } catch {
      return "?";
    }
  }
  try {
    const file = fileURLToPath(import.meta.resolve(`${name}/package.json`));
    return (JSON.parse(readFileSync(file, "utf8")) as { version?: string }).version ?? "?";
  } catch {
    try {
      // Packages without `./package.json` in their exports: read it beside the resolved entry.
      const entry = fileURLToPath(import.meta.resolve(name));
      const root = entry.slice(0, entry.lastIndexOf(`/node_modules/${name}/`) + `/node_modules/${name}/`.length);
      return (JSON.parse(readFileSync(`${root}package.json`, "utf8")) as { version?: string }).version ?? "?";
    } catch {
      return "not installed";
    }
  }
}

/** Describes this machine (nproc, CPU model, memory, Node) and the package versions in use. */
export function machineInfo(): MachineInfo {
  const packages: Record<string, string> = {};
  for (const name of PACKAGES) packages[name] = versionOf(name);
  return {
    nproc: cpus().length,
    cpu: cpus()[0]?.model ?? "unknown",
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    packages,
    loadAverage: loadavg().map((n) => Math.round(n * 100) / 100),
  };
}
