// fw-a's security.hashPassword / security.needsRehash ignored the app's
// passwordAlgorithm and bcryptCost (the start-up log said argon2id, the hash was $2b$12$). They now
// read the one policy the security battery resolved, in a view and outside requests alike.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { createApp, FwA, response, security, type Host } from "../src/index.js";
import { listenForTest } from "../src/testing/index.js";

class Passwords extends FwA {
  @response.json
  async index() {
    const hash = await security.hashPassword("correct horse");
    return {
      hash,
      rehash: security.needsRehash(hash),
      oldNeedsRehash: security.needsRehash("$2b$12$CwTycUXWue0Thq9StjUM0uJ8.pUrFvV7yq7e2QtTSRbG1TVSVdZJ6"),
    };
  }
}

describe("fw-a security.hashPassword follows the app's password config", () => {
  const root = mkdtempSync(join(tmpdir(), "fw-a-password-policy-"));
  let host: Host;
  let url = "";
  before(async () => {
    host = await createApp({
      root,
      modules: [{ name: "main", exports: { Passwords } }],
      config: {
        env: "test",
        logRequests: false,
        dbUrl: "sqlite::memory:",
        passwordAlgorithm: "argon2id",
        argon2MemoryCost: 1024,
        argon2TimeCost: 1,
      },
    });
    url = (await listenForTest(host)).url;
  });
  after(async () => {
    await host.close();
    rmSync(root, { recursive: true, force: true });
  });

  test("in a view, argon2id with the configured costs; an old bcrypt hash needs a rehash", async () => {
    const res = await fetch(`${url}/passwords/`);
    const text = await res.text();
    assert.equal(res.status, 200, text);
    const body = JSON.parse(text) as { hash: string; rehash: boolean; oldNeedsRehash: boolean };
    assert.match(body.hash, /^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    assert.equal(body.rehash, false);
    assert.equal(body.oldNeedsRehash, true);
  });

  test("outside a request (a script or command of the app), the same policy", async () => {
    assert.match(await security.hashPassword("correct horse"), /^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
  });
});
