// Jobs are found in jobs/ as views are in views/: every exported job class; a module that throws
// at import is a coded error naming the file.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { pathToFileURL } from "node:url";
import { listJobModules, loadJobModules } from "../src/index.js";
import { here } from "./helpers.js";

const root = mkdtempSync(join(tmpdir(), "jobs-discovery-"));
after(() => rmSync(root, { recursive: true, force: true }));
const source = pathToFileURL(join(here, "..", "src", "index.ts")).href;
const write = (path: string, text: string) => {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), text);
};

test("every job class exported under jobs/ is found, in file order; tests, _private and other exports are not", async () => {
  write(
    "jobs/mail/send-welcome.ts",
    `import { Job } from ${JSON.stringify(source)};\nexport class SendWelcome extends Job { handle() {} }\nexport const notAJob = 1;\n`,
  );
  write(
    "jobs/prune.ts",
    `import { defineJob } from ${JSON.stringify(source)};\nexport const Prune = defineJob({ name: "prune", schema: { "~standard": { version: 1, vendor: "x", validate: (v) => ({ value: v }) } }, handle() {} });\n`,
  );
  write("jobs/_helpers.ts", "throw new Error('never imported');\n");
  write("jobs/prune.test.ts", "throw new Error('never imported');\n");
  assert.deepEqual(
    listJobModules(join(root, "jobs")).map((file) => file.slice(root.length + 1)),
    ["jobs/mail/send-welcome.ts", "jobs/prune.ts"],
  );
  const jobs = await loadJobModules(root);
  assert.deepEqual(
    jobs.map((job) => job.jobName ?? job.name),
    ["SendWelcome", "prune"],
  );
  assert.deepEqual(await loadJobModules(join(root, "nowhere")), []);
});

test("a job module that throws at import is E_JOB_MODULE_FAILED naming the file", async () => {
  write("jobs/broken.ts", "throw new Error('SMTP_HOST is not set');\n");
  await assert.rejects(loadJobModules(root), (error: Error & { code?: string }) => {
    assert.equal(error.code, "E_JOB_MODULE_FAILED");
    assert.match(error.message, /jobs\/broken\.ts failed to load: Error: SMTP_HOST is not set/);
    return true;
  });
});
