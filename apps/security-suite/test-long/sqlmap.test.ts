// The long form's SQL injection scan: sqlmap (Debian's package) against a form route and a JSON
// route of freshly scaffolded fw-a and fw-b apps in production mode, with bounded settings (batch,
// level 1, risk 1, a time bound). Fails when sqlmap reports an injectable parameter, or does not
// finish in time. scripts/security-long.mjs installs sqlmap first.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { startTarget, type Framework, type Target } from "../src/target.js";

const SQLMAP = process.env["SQLMAP"] ?? "sqlmap";
/** Each scan's time bound, seconds. */
const BOUND = Number(process.env["SQLMAP_TIME_BOUND"] ?? 300);

/** The routes scanned per framework: a GET form over the database and a JSON view over it. */
const ROUTES: Record<Framework, readonly [string, string][]> = {
  "fw-a": [
    ["form", "/posts/search/?q=tea"],
    ["JSON", "/lookup/?id=1"],
  ],
  "fw-b": [
    ["form", "/posts/search?q=tea"],
    ["JSON", "/api/1*"],
  ],
};

/** Runs sqlmap on one URL; answers its output, or fails on the time bound. */
function scan(url: string): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), "sqlmap-"));
  const args = [
    "-u",
    url,
    "--batch",
    "--level=1",
    "--risk=1",
    "--time-sec=2",
    "--timeout=10",
    "--retries=0",
    "--threads=1",
    "--flush-session",
    "--skip-waf",
    `--output-dir=${out}`,
    "--headers=X-Forwarded-Proto: https",
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(SQLMAP, args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), BOUND * 1000);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`sqlmap cannot run (${error.message}): install it with \`apt-get install -y sqlmap\``));
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      rmSync(out, { recursive: true, force: true });
      if (signal === "SIGKILL")
        reject(new Error(`sqlmap did not finish ${url} within ${BOUND} s:\n${output.slice(-2000)}`));
      else resolve(`exit ${code}\n${output}`);
    });
  });
}

for (const framework of process.env["SQLMAP_ONLY"]
  ? [process.env["SQLMAP_ONLY"] as Framework]
  : (["fw-a", "fw-b"] as const)) {
  describe(`sqlmap against a scaffolded ${framework} app in production mode`, () => {
    let app: Target;
    before(async () => {
      app = await startTarget(framework);
    });
    after(() => app?.close());

    if (framework === "fw-b") {
      test("control: sqlmap reports the deliberately concatenated SQL of /posts/unsafe as injectable", async () => {
        const output = await scan(`${app.url}/posts/unsafe?q=tea`);
        assert.match(output, /identified the following injection point/i, output.slice(-3000));
      });
    }

    for (const [kind, path] of ROUTES[framework]) {
      test(`the ${kind} route ${path} has no injectable parameter`, async () => {
        const output = await scan(app.url + path);
        assert.doesNotMatch(
          output,
          /identified the following injection point|is vulnerable|appears to be '.*' injectable/i,
          output.slice(-3000),
        );
        assert.match(
          output,
          /do not appear to be injectable|not injectable/i,
          `sqlmap finished its scan:\n${output.slice(-3000)}`,
        );
        assert.match(app.log(), /"path":"\/(posts\/search|lookup|api\/1)/, "sqlmap's requests reached the app");
      });
    }
  });
}
