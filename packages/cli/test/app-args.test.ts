// The app a command builds knows what the process is for while its batteries set up: a command
// (listings, the job commands, the console, scripts) opens no metrics port, a job worker its own;
// the role is back to what it was once the command is done.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { processRole } from "@fwkit/battery-kit";
import { withApp } from "../src/app-args.js";

const root = mkdtempSync(join(tmpdir(), "fw-app-args-"));
after(() => rmSync(root, { recursive: true, force: true }));

// An app whose create() records the process's role at the time the batteries would read it.
writeFileSync(
  join(root, "app.mjs"),
  `import { processRole } from ${JSON.stringify(import.meta.resolve("@fwkit/battery-kit"))};
export const roles = [];
export const app = {
  root: ${JSON.stringify(root)},
  async create() {
    roles.push(processRole());
    return { close: async () => {} };
  },
};
`,
);

test("withApp builds the app as a command by default, as a worker when asked, and restores the role", async () => {
  const { roles } = (await import(join(root, "app.mjs"))) as { roles: string[] };
  assert.equal(processRole(), "serve");
  await withApp({ root }, () => assert.equal(processRole(), "serve", "the role lasts while the app is built"));
  await withApp({ root }, () => undefined, {}, "worker");
  assert.deepEqual(roles, ["command", "worker"]);
  assert.equal(processRole(), "serve");
});
