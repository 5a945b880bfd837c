/**
 * fw-a's decorators and app options are checked at start-up (an unknown
 * option is an error with a suggestion), and a mounted app must keep the security battery. The
 * shared rules of start-up checks (CSRF fails closed whatever registered the route, per-view CORS) are
 * conformance cases (packages/conformance/src/cases/csrf-routes.ts).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { createApp, defineApp, FwA, request, security } from "../src/index.js";

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
  test("@security.cors with an unknown key is E_UNKNOWN_OPTION suggesting the known one", () => {
    assert.throws(() => security.cors({ orign: "https://x.example" } as never), (error: Error & { code?: string }) => {
      assert.equal(error.code, "E_UNKNOWN_OPTION");
      assert.match(error.message, /Did you mean "origin"\?/);
      return true;
    });
  });

  test("@security.csrfExempt and @response.json take no options", () => {
    assert.throws(() => (security.csrfExempt as unknown as (o: unknown) => unknown)({ paths: [] }), { code: "E_UNKNOWN_OPTION" });
  });

  test("a mounted app without the security battery is refused when the parent has it", async () => {
    const bare = defineApp({ root, modules: [{ name: "sub", exports: { Sub } }], config: { ...config, batteries: { security: false } } });
    await assert.rejects(createApp({ root, modules: [{ name: "main", exports: { Index } }], config, mounts: { "/bare": bare } }), { code: "E_MOUNT_UNGUARDED" });
  });

  test("defineApp and createApp refuse an unknown option with a suggestion", async () => {
    assert.throws(() => defineApp({ root, veiws: ["main"] } as never), /defineApp\(options\) has no option "veiws". Did you mean "views"\?/);
    await assert.rejects(createApp({ root, modules: [], mount: {} } as never), /Did you mean "mounts"\?/);
  });

  test("an unknown config key stops the start with a suggestion", async () => {
    await assert.rejects(createApp({ root, modules: [], config: { ...config, csrfExemptPath: ["/x"] } }), /Did you mean "csrfExemptPaths"\?/);
  });
});
