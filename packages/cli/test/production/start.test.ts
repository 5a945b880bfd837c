// `start` without a build under cluster workers: the CLI registered tsx through its API (no loader
// flag), as a framework's executable does; each worker gets tsx's loader as a flag and serves the
// TypeScript sources too, instead of failing on "Unknown file extension .ts".
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { freePort, get, killAll, runFixture } from "../production-support.js";

const folder = mkdtempSync(join(tmpdir(), "fw-start-sources-"));
after(() => {
  killAll();
  rmSync(folder, { recursive: true, force: true });
});

test("start --workers 2 with no build serves the sources from both workers when tsx was registered through its API", {
  timeout: 150_000,
}, async () => {
  // What registerTypeScript does in a CLI started as `node bin/fw-a.js`: tsx's API, no --import.
  const api = import.meta.resolve("tsx/esm/api");
  const register = join(folder, "register-tsx.mjs");
  // The script node runs: it registers tsx, then runs the CLI (the next argument) as its own main.
  writeFileSync(
    register,
    `import { register } from ${JSON.stringify(api)};\nimport { pathToFileURL } from "node:url";\n` +
      `register();\nprocess.env.FW_TS_LOADER = "active";\n` +
      `const [cli] = process.argv.splice(1, 1) && process.argv.slice(1, 2);\nawait import(pathToFileURL(cli).href);\n`,
  );
  const port = await freePort();
  const app = runFixture(["start", "--workers", "2", "--port", String(port), "--host", "127.0.0.1"], {}, undefined, [
    register,
  ]);
  await app.waitFor(/warning: no build found/);
  await app.waitFor(/Serving on http:\/\/127\.0\.0\.1:\d+ with 2 workers.*, listening on 127\.0\.0\.1 only/);
  const pids = new Set<string>();
  for (let tries = 0; tries < 40 && pids.size < 2; tries++) {
    const answer = await get(`http://127.0.0.1:${port}/pid`);
    if (answer.status === 200) pids.add(answer.text);
    else await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.equal(pids.size, 2, app.recent());
  assert.doesNotMatch(app.output(), /Unknown file extension|E_WORKERS_FAILED/);
  app.child.kill("SIGTERM");
  assert.equal((await app.exit("start to exit after SIGTERM")).code, 0, app.recent());
});
