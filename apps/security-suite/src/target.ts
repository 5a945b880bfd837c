/**
 * A freshly scaffolded app under attack: `fw-a gen:init` or `fw-b :init` in a temporary folder with
 * two generated resources (the `memos` HTML forms and the `gadgets` JSON API), the suite's files written over it (src/attack-files.ts), then the app started in its own process in
 * production mode (APP_ENV=production, SECRET_KEY set), its output kept as the error log.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { randomBytes } from "node:crypto";
import { requireServer, startSmtp, XSS_VECTORS, type SmtpServer } from "@fwkit/test-servers";
import { fwaFiles, fwbFiles } from "./attack-files.js";

/** The two frameworks the suite attacks. */
export type Framework = "fw-a" | "fw-b";

/** A user the suite creates in an fw-b app before it starts. */
export interface SuiteUser {
  readonly username: string;
  readonly email: string;
  readonly password: string;
}

/** A running app under attack. */
export interface Target {
  readonly framework: Framework;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** The app folder. */
  readonly root: string;
  /** Everything the app wrote to stdout and stderr so far (its request and error log). */
  log(): string;
  /**
   * A position in the log after every request sent so far has been logged: a marker request is
   * sent and its log line awaited, so a later slice holds only what later requests caused.
   */
  markLog(): Promise<number>;
  /** Paths as the framework spells them: fw-a ends paths with a slash, fw-b does not. */
  path(path: string): string;
  /** The Redis key prefix of the app's sessions, when it runs with Redis sessions. */
  readonly sessionPrefix?: string;
  /** The Redis key prefix of the app's job queue (mails go through it), when it runs with one. */
  readonly queuePrefix?: string;
  /** The SMTP server an fw-b app mails to (`MAIL_URL`): production refuses to start without a transport. */
  readonly mail?: SmtpServer;
  close(): Promise<void>;
}

const SUITE_DIR = fileURLToPath(new URL("../", import.meta.url));
const REPO = join(SUITE_DIR, "..", "..");
/** The secret key the attacked apps run with: random, as production demands (a weak or placeholder key is refused). */
export const SECRET_KEY = randomBytes(32).toString("base64url");
/** The public address the apps build mailed links from (`BASE_URL`), whatever Host a request names. */
export const BASE_URL = "https://suite-b.example";

/** tsx's loader by its file URL: the app folders are outside the workspace, so `--import tsx` would not resolve there. */
const TSX = import.meta.resolve("tsx");

let marks = 0;

const INIT: Record<Framework, string> = { "fw-a": "gen:init", "fw-b": ":init" };
const RESOURCE: Record<Framework, string> = { "fw-a": "gen:resource", "fw-b": ":resource" };
const MIGRATE: Record<Framework, string> = { "fw-a": "db:migrate", "fw-b": ":migrate" };
/** Optional drivers the suite's deployments use (Redis sessions and queue, SMTP), with the ranges the batteries accept. */
const SUITE_DRIVERS: Readonly<Record<string, string>> = Object.freeze({
  ioredis: "^5.8.0",
  bullmq: "^5.56.0",
  nodemailer: "^7.0.0",
});

/** Runs the framework's CLI from its sources (no build needed), as a user runs `npx fw-b ...`. */
function cli(framework: Framework, cwd: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): void {
  const main = join(REPO, "packages", framework, "src", "cli", "main.ts");
  const result = spawnSync(process.execPath, ["--conditions=source", "--import", TSX, main, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, FW_TS_LOADER: "", ...env },
  });
  if (result.status !== 0)
    assert.fail(`${framework} ${args.join(" ")} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
}

/** Scaffolds an app with the framework's init command and writes the suite's files over it. */
export function scaffold(framework: Framework): string {
  const root = mkdtempSync(join(tmpdir(), `security-suite-${framework}-`));
  cli(framework, root, [INIT[framework]]);
  // Generated resources, as an app has them on day one: an HTML form and a JSON API.
  cli(framework, root, [RESOURCE[framework], "Memo", "title:string", "body:text"]);
  cli(framework, root, [RESOURCE[framework], "Gadget", "name:string", "--api"]);
  // The drivers the attacked deployment uses (Redis sessions and queue), declared as an app does:
  // drivers load from the app's folder, and a checkout's app that declares one gets the checkout's.
  const manifestPath = join(root, "package.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { dependencies?: Record<string, string> };
  manifest.dependencies = { ...manifest.dependencies, ...SUITE_DRIVERS };
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  const files = framework === "fw-a" ? fwaFiles() : fwbFiles();
  files["data/posts.json"] = JSON.stringify(XSS_VECTORS);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  // The generated migrations are drafts, which start-up does not apply: the migrate command does.
  cli(framework, root, [MIGRATE[framework]]);
  return root;
}

/** `/a/b?x` as the framework serves it: `/a/b/?x` in fw-a, `/a/b?x` in fw-b. */
function spell(framework: Framework, path: string): string {
  const at = path.indexOf("?");
  const [pathname, query] = at < 0 ? [path, ""] : [path.slice(0, at), path.slice(at)];
  const bare = pathname.replace(/\/+$/, "");
  if (bare === "") return `/${query}`;
  return `${framework === "fw-a" ? `${bare}/` : bare}${query}`;
}

/** Scaffolds and starts an app in production mode; fails with the app's output if it does not start. */
export async function startTarget(
  framework: Framework,
  options: { users?: readonly SuiteUser[]; redisSessions?: boolean; redisQueue?: boolean } = {},
): Promise<Target> {
  // Sessions (and so the failed-login counters) in Redis, as the attacked deployment had them; a
  // key prefix of this run's own.
  const sessionPrefix = options.redisSessions ? `suite-${framework}-${randomBytes(6).toString("hex")}:` : undefined;
  const sessionUrl = sessionPrefix ? `${await requireServer("redis")}?prefix=${sessionPrefix}` : undefined;
  // The job queue on Redis too (by default with Redis sessions), worked by the node itself: contrib
  // mails become jobs, as deployed.
  const queuePrefix =
    (options.redisQueue ?? options.redisSessions)
      ? `suite-${framework}-jobs-${randomBytes(6).toString("hex")}`
      : undefined;
  const queueUrl = queuePrefix ? `${await requireServer("redis")}?prefix=${queuePrefix}` : undefined;
  const root = scaffold(framework);
  const mail = framework === "fw-b" ? await startSmtp() : undefined;
  const child: ChildProcess = spawn(
    process.execPath,
    ["--conditions=source", "--import", TSX, join(SUITE_DIR, "src", "serve.ts"), root],
    {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        APP_ENV: "production",
        NODE_ENV: "production",
        SECRET_KEY,
        BASE_URL,
        ...(mail ? { MAIL_URL: mail.url } : {}),
        FW_TS_LOADER: "",
        ...(options.users ? { SUITE_USERS: JSON.stringify(options.users) } : {}),
        ...(sessionUrl ? { SESSION_URL: sessionUrl } : {}),
        ...(queueUrl ? { QUEUE_URL: queueUrl, JOB_WORKERS: "1" } : {}),
      },
    },
  );
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const onData = () => {
      const match = /LISTENING (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code) =>
      reject(new Error(`the ${framework} app exited (${code}) before listening:\n${output}`)),
    );
  }).catch(async (error: unknown) => {
    await mail?.close();
    throw error;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    framework,
    url: `http://127.0.0.1:${port}`,
    root,
    log: () => output,
    async markLog() {
      const marker = `/__suite-log-mark-${++marks}`;
      await fetch(`http://127.0.0.1:${port}${marker}`).then((res) => res.arrayBuffer());
      for (let tries = 0; !output.includes(marker); tries++) {
        if (tries > 200) assert.fail(`the app never logged ${marker}:\n${output.slice(-1000)}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return output.length;
    },
    path: (path) => spell(framework, path),
    ...(sessionPrefix ? { sessionPrefix } : {}),
    ...(queuePrefix ? { queuePrefix } : {}),
    ...(mail ? { mail } : {}),
    async close() {
      child.kill("SIGTERM");
      await exited;
      await mail?.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
