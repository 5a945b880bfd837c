/**
 * hashPassword()/needsRehash() called without a policy (fw-a's security.hashPassword,
 * fw-b's hashPassword) use the app's resolved passwordAlgorithm/bcryptCost, inside its requests and
 * outside them (a CLI command, a script); apps that disagree make a call outside requests an error.
 */
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { hashPassword, needsRehash } from "../src/index.js";
import { startApp, View, type TestApp } from "./helpers/app.js";
import { HttpClient } from "@fwkit/test-servers";

class Hash extends View {
  async index() {
    const hash = await hashPassword("correct horse");
    return { hash, rehash: needsRehash(hash) };
  }
}

const ARGON = { passwordAlgorithm: "argon2id", argon2MemoryCost: 1024, argon2TimeCost: 1 };

describe("the free password functions follow the app's config", () => {
  const apps: TestApp[] = [];
  after(async () => {
    for (const app of apps.splice(0)) await app.close();
  });

  test("in a request, the app's algorithm and costs", async () => {
    const argonApp = await startApp({ views: { Hash }, config: ARGON });
    const bcryptApp = await startApp({ views: { Hash }, config: { bcryptCost: 5 } });
    apps.push(argonApp, bcryptApp);
    const fromArgon = (await new HttpClient(argonApp.url).get("/hash")).json<{ hash: string; rehash: boolean }>();
    assert.match(fromArgon.hash, /^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    assert.equal(fromArgon.rehash, false);
    const fromBcrypt = (await new HttpClient(bcryptApp.url).get("/hash")).json<{ hash: string; rehash: boolean }>();
    assert.match(fromBcrypt.hash, /^\$2b\$05\$/);
    assert.equal(fromBcrypt.rehash, false);
    // Outside a request, two apps with different policies: no guess.
    await assert.rejects(hashPassword("correct horse"), { code: "E_PASSWORD_POLICY_AMBIGUOUS" });
    assert.throws(() => needsRehash(fromBcrypt.hash), { code: "E_PASSWORD_POLICY_AMBIGUOUS" });
    for (const app of apps.splice(0)) await app.close();
  });

  test("outside a request, the one app set up in the process; after it closes, the defaults", async () => {
    const app = await startApp({ views: { Hash }, config: ARGON });
    assert.match(await hashPassword("correct horse"), /^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    assert.equal(needsRehash("$2b$12$CwTycUXWue0Thq9StjUM0uJ8.pUrFvV7yq7e2QtTSRbG1TVSVdZJ6"), true);
    assert.match(await hashPassword("explicit", { bcryptCost: 4 }), /^\$2b\$04\$/, "an explicit policy wins");
    await app.close();
    assert.equal(
      needsRehash("$2b$12$CwTycUXWue0Thq9StjUM0uJ8.pUrFvV7yq7e2QtTSRbG1TVSVdZJ6"),
      false,
      "no app: the package defaults (bcrypt 12)",
    );
  });
});
