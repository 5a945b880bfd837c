/**
 * A freshly scaffolded app under attack: `fw-a gen:init` or `fw-b :init` in a temporary folder with
 * two generated resources (the `memos` HTML forms and the `gadgets` JSON API), the suite's files
 * written over it (src/attack-files.ts; src/scaffold-app.ts does all this), then the app started in its own process in
 * production mode (APP_ENV=production, SECRET_KEY set), its output kept as the error log.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { randomBytes } from "node:crypto";
import { requireServer, startSmtp, type SmtpServer } from "@fwkit/test-servers";

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
/** The secret key the attacked apps run with: random, as production demands (a weak or placeholder key is refused). */
export const SECRET_KEY = randomBytes(32).toString("base64url");
/** The public address the apps build mailed links from (`BASE_URL`), whatever Host a request names. */
export const BASE_URL = "https://suite-b.example";

/** tsx's loader by its file URL: the app folders are outside the workspace, so `--import tsx` would not resolve there. */
const TSX = import.meta.resolve("tsx");

let marks = 0;

/**
 * Scaffolds an app with the framework's init command, two generated resources and the suite's files
 * written over it, its migrations applied (src/scaffold-app.ts, one process for every command).
 */
export function scaffold(framework: Framework): string {
  const root = mkdtempSync(join(tmpdir(), `security-suite-${framework}-`));
  const result = spawnSync(
    process.execPath,
    ["--conditions=source", "--import", TSX, join(SUITE_DIR, "src", "scaffold-app.ts"), framework, root],
    { cwd: root, encoding: "utf8", env: { ...process.env, FW_TS_LOADER: "" } },
  );
  if (result.status !== 0)
    assert.fail(`scaffolding the ${framework} app failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
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
