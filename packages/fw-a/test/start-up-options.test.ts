/**
 * fw-a's start-up checks: a mounted app must keep the security battery, and an unknown config key
 * is refused with a suggestion. The shared rules are tested once: decorators both frameworks have
 * are conformance cases (packages/conformance/src/cases/options.ts, csrf-routes.ts), app options a
 * kit test (packages/app-kit/test/app-options.test.ts).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { createApp, defineApp, FwA, request } from "../src/index.js";

const root = mkdtempSync(join(tmpdir(), "fwa-options-"));
const config = { env: "test", logRequests: false, dbUrl: "sqlite::memory:" };
after(() => rmSync(root, { recursive: true, force: true }));

class Index extends FwA {
  index() {
    return "home";
  }
}

class Sub extends FwA {
  @request.post
  act() {
    return "sub acted";
  }
}

describe("fw-a: options checked at start-up", () => {
  test("a mounted app without the security battery is refused when the parent has it", async () => {
    const bare = defineApp({
      root,
      modules: [{ name: "sub", exports: { Sub } }],
      config: { ...config, batteries: { security: false } },
    });
    await assert.rejects(
      createApp({ root, modules: [{ name: "main", exports: { Index } }], config, mounts: { "/bare": bare } }),
      { code: "E_MOUNT_UNGUARDED" },
    );
  });

  test("an unknown config key stops the start with a suggestion", async () => {
    await assert.rejects(
      createApp({ root, modules: [], config: { ...config, csrfExemptPath: ["/x"] } }),
      /Did you mean "csrfExemptPaths"\?/,
    );
  });
});
