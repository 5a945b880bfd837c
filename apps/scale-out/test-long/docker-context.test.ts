// The documented container flow for an app scaffolded outside the repository (init, the deploy
// command, docker build), without Docker: the generated Dockerfile is read (FROM, WORKDIR, ENV, COPY,
// RUN, CMD), every COPY source must exist in the build context and not be left out by the generated
// .dockerignore, and nothing the image installs from (deploy/docker/package.json and its lock file)
// may point outside the context. Then the Dockerfile's steps run in copies of the context as far as
// they can here: the build stage (npm ci from the npm registry, the framework's build), the runtime
// stage (npm ci --omit=dev beside the built app), and its CMD answering /healthz. Both frameworks.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { after, describe, test } from "node:test";
import { FW_A, FW_B, runCommand, type Framework } from "../src/apps.js";
import { eventually, freePort, launch, type Proc } from "../src/processes.js";
import { localSqlitePrebuilds } from "@fwkit/test-servers";

const DEPLOY: Record<Framework["name"], string> = { "fw-a": "gen:deploy", "fw-b": ":deploy" };

/** One instruction of a Dockerfile, continuation lines joined. */
interface Step {
  readonly stage: string;
  readonly instruction: string;
  readonly args: string;
}

function parseDockerfile(text: string): Step[] {
  const steps: Step[] = [];
  let stage = "";
  let pending = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (pending === "" && (line === "" || line.startsWith("#"))) continue;
    if (line.endsWith("\\")) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    const full = `${pending}${line}`.trim();
    pending = "";
    const [instruction, ...rest] = full.split(/\s+/);
    const args = full.slice(instruction!.length).trim();
    if (instruction === "FROM") stage = /\bAS\s+(\S+)/i.exec(args)?.[1] ?? String(rest[0]);
    steps.push({ stage, instruction: instruction!.toUpperCase(), args });
  }
  return steps;
}

/** A COPY's flags (`--from`, `--chown`), sources and destination. */
function copyArgs(args: string): { from?: string; sources: string[]; dest: string } {
  const words = args.split(/\s+/);
  const flags = words.filter((word) => word.startsWith("--"));
  const paths = words.filter((word) => !word.startsWith("--"));
  const from = flags.find((flag) => flag.startsWith("--from="))?.slice("--from=".length);
  return { ...(from ? { from } : {}), sources: paths.slice(0, -1), dest: paths.at(-1)! };
}

/** Docker's .dockerignore rule: patterns anchored at the context root; a matching folder leaves out all it holds. */
function ignoredBy(patterns: readonly string[]): (path: string) => boolean {
  const rules = patterns.map((pattern) => {
    const source = pattern
      .replace(/^\/+|\/+$/g, "")
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/\*\*/g, "\0")
      .replace(/\*/g, "[^/]*")
      .replace(/\?/g, "[^/]")
      .replace(/\0/g, ".*");
    return new RegExp(`^${source}(/.*)?$`);
  });
  return (path) => rules.some((rule) => rule.test(path));
}

/** The build context docker sends: every file of the app not left out by .dockerignore. */
function copyContext(root: string, to: string, ignored: (path: string) => boolean): void {
  cpSync(root, to, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (source) => source === root || !ignored(relative(root, source)),
  });
}

/** Runs a RUN step's shell command in a stage's folder; the test fails with its output when it fails. */
function run(command: string, cwd: string, env: NodeJS.ProcessEnv): void {
  const result = spawnSync("sh", ["-c", command], {
    cwd,
    env,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    timeout: 900_000,
  });
  assert.equal(result.status, 0, `RUN ${command} failed in ${cwd}:\n${result.stdout}\n${result.stderr}`.slice(-6000));
}

/** Every path-like spec in a manifest's dependency fields and overrides. */
function pathSpecs(manifest: Record<string, unknown>): string[] {
  const specs: string[] = [];
  for (const field of ["dependencies", "devDependencies", "optionalDependencies", "overrides"]) {
    for (const spec of Object.values((manifest[field] ?? {}) as Record<string, unknown>))
      if (typeof spec === "string" && /^(file|link|workspace|portal):/.test(spec)) specs.push(spec);
  }
  return specs;
}

/** Paths a lock file names that npm reads from disk: `file:` resolutions and link targets. */
function lockPaths(lock: { packages: Record<string, { resolved?: string; link?: boolean }> }): string[] {
  const paths: string[] = [];
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (entry.resolved?.startsWith("file:")) paths.push(entry.resolved.slice("file:".length));
    else if (entry.link && entry.resolved) paths.push(entry.resolved);
    if (!key.includes("node_modules/") && key !== "") paths.push(key);
  }
  return paths;
}

const insideContext = (path: string) => !path.startsWith("/") && !path.split("/").includes("..");

for (const framework of [FW_B, FW_A]) {
  describe(`${framework.name}: the generated Dockerfile builds a scaffolded app`, () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), `docker-context-${framework.name}-`)));
    let proc: Proc | undefined;
    after(async () => {
      await proc?.stop("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    });

    test("every COPY source is in the context, nothing installed points outside it, the stages' RUN steps and CMD work", async () => {
      const root = join(dir, "tea-shop");
      mkdirSync(root);
      runCommand(framework, root, [framework.commands.init]);
      runCommand(framework, root, [DEPLOY[framework.name]]);

      const steps = parseDockerfile(readFileSync(join(root, "Dockerfile"), "utf8"));
      const ignored = ignoredBy(
        readFileSync(join(root, ".dockerignore"), "utf8")
          .split("\n")
          .map((line) => line.trim())
          .filter((line) => line && !line.startsWith("#")),
      );
      for (const step of steps.filter((s) => s.instruction === "COPY" && !copyArgs(s.args).from)) {
        for (const source of copyArgs(step.args).sources) {
          const path = source.replace(/\/+$/, "");
          assert.ok(existsSync(join(root, path)), `COPY ${source}: not in the build context`);
          if (path !== ".") assert.equal(ignored(path), false, `COPY ${source}: left out by .dockerignore`);
        }
      }

      // What the image installs from names nothing outside the context.
      const manifest = JSON.parse(readFileSync(join(root, "deploy/docker/package.json"), "utf8")) as Record<
        string,
        unknown
      >;
      const lock = JSON.parse(readFileSync(join(root, "deploy/docker/package-lock.json"), "utf8")) as {
        packages: Record<string, { resolved?: string; link?: boolean }>;
      };
      const named = [
        ...pathSpecs(manifest)
          .filter((spec) => spec.startsWith("file:"))
          .map((spec) => spec.slice("file:".length)),
        ...lockPaths(lock),
      ];
      assert.ok(
        named.some((path) => path.endsWith(".tgz") && basename(path).startsWith(`${framework.name}-`)),
        `the framework is installed from its packed copy: ${named.join(", ")}`,
      );
      for (const spec of pathSpecs(manifest)) assert.match(spec, /^file:|^\$/, `no workspace or link spec: ${spec}`);
      for (const path of named) {
        assert.ok(insideContext(path), `${path} points outside the build context`);
        assert.ok(existsSync(join(root, path)), `${path} is not in the build context`);
        assert.equal(ignored(path), false, `${path} is left out by .dockerignore`);
      }
      assert.equal(
        lock.packages[`node_modules/${framework.name}`]?.link,
        undefined,
        "the framework is a packed copy, not a link",
      );

      // The stages, each in its own folder standing for its /app, with a private npm cache (the
      // runtime stage cleans its cache).
      const stages: Record<string, string> = {};
      const env: Record<string, NodeJS.ProcessEnv> = {};
      // The stages' installs get the workspace's better-sqlite3 binding as the prebuilt binary an image
      // build downloads (this machine cannot): the same file, without minutes of compiling per stage.
      const base = {
        ...process.env,
        NODE_OPTIONS: "",
        npm_config_cache: join(dir, "npm-cache"),
        npm_config_fund: "false",
        npm_config_audit: "false",
        npm_config_update_notifier: "false",
        ...localSqlitePrebuilds(join(dir, "prebuilds")),
      };
      const mapped = (stage: string, path: string) => join(stages[stage]!, path.replace(/^\/app\/?/, ""));
      for (const step of steps) {
        const folder = stages[step.stage];
        if (step.instruction === "FROM") {
          stages[step.stage] = join(dir, `stage-${step.stage}`);
          env[step.stage] = { ...base };
          mkdirSync(stages[step.stage]!);
        } else if (step.instruction === "WORKDIR") {
          assert.equal(step.args, "/app", "the stages work in /app");
        } else if (step.instruction === "ENV") {
          for (const [, name, value] of step.args.matchAll(/(\w+)=(\S+)/g)) env[step.stage]![name!] = value;
        } else if (step.instruction === "COPY") {
          const { from, sources, dest } = copyArgs(step.args);
          const target = join(folder!, dest);
          for (const source of sources) {
            if (!from && source === ".") {
              copyContext(root, folder!, ignored);
              continue;
            }
            const path = from ? mapped(from, source) : join(root, source);
            assert.ok(existsSync(path), `COPY ${step.args}: ${source} does not exist`);
            if (lstatSync(path).isDirectory()) cpSync(path, target, { recursive: true, verbatimSymlinks: true });
            else {
              mkdirSync(target, { recursive: true });
              cpSync(path, join(target, basename(path)));
            }
          }
        } else if (step.instruction === "RUN") {
          run(step.args, folder!, env[step.stage]!);
        }
      }
      const runtime = stages["runtime"]!;
      assert.deepEqual(readdirSync(join(runtime, "node_modules")).includes(framework.name), true);
      assert.equal(
        existsSync(join(runtime, "node_modules", "tsx")),
        false,
        "the runtime install is production-only (no tsx)",
      );
      assert.equal(
        existsSync(join(runtime, "node_modules", "esbuild")),
        false,
        "the runtime install is production-only (no esbuild)",
      );
      assert.equal(existsSync(join(runtime, "deploy")), false, "the packed copies are not left in the image");
      assert.ok(existsSync(join(runtime, "app.js")), "the runtime stage holds the built app");

      // CMD, with the image's ENV; on 127.0.0.1 and a free port here.
      const cmd = JSON.parse(steps.findLast((step) => step.instruction === "CMD")!.args) as string[];
      const port = await freePort();
      proc = launch(cmd[0] === "node" ? process.execPath : cmd[0]!, cmd.slice(1), {
        cwd: runtime,
        env: {
          ...env["runtime"],
          PORT: String(port),
          HOST: "127.0.0.1",
          WEB_CONCURRENCY: "1",
          SECRET_KEY: crypto.randomUUID(),
          BASE_URL: "http://127.0.0.1",
          LOG_LEVEL: "warn",
        },
      });
      const health = await eventually("/healthz answering", async () => {
        const response = await fetch(`http://127.0.0.1:${port}/healthz`);
        return response.status === 200 ? response : undefined;
      });
      assert.equal(health.status, 200, proc.output());
      const stopped = await proc.stop("SIGTERM");
      assert.equal(stopped.code, 0, proc.output());
    });
  });
}
