// `@cors({ origin: "https://x.example" })`, the form the docs once showed, answered
// `Access-Control-Allow-Origin: *` to every origin because the unknown key was ignored. Whatever a
// framework does with it, it must not be that: either start-up refuses the key naming the known
// ones, or the view answers the named origin only.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import * as fwA from "fw-a";
import * as fwB from "fw-b";
import { cors as fwbCors, renderJson } from "fw-b/decorators";

const root = mkdtempSync(join(tmpdir(), "security-suite-cors-"));
after(() => rmSync(root, { recursive: true, force: true }));

const CONFIG = {
  env: "production",
  secretKey: crypto.randomUUID(),
  logRequests: false,
  batteries: { data: false },
};
const TYPO = { origin: "https://x.example" } as never;

/** Starts `make()` and checks the answer to an unlisted origin, or the start-up refusal. */
async function check(make: () => Promise<fwA.Host>, path: string): Promise<void> {
  let host: fwA.Host;
  try {
    host = await make();
  } catch (error) {
    assert.match(
      (error as Error).message,
      /origins/,
      `the start-up error names the known keys: ${(error as Error).message}`,
    );
    return;
  }
  try {
    const server = await host.listen(0, "127.0.0.1");
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
    const evil = await fetch(url, { headers: { origin: "https://evil.example" } });
    assert.notEqual(evil.headers.get("access-control-allow-origin"), "*", "an unknown key must not mean every origin");
    assert.equal(evil.headers.get("access-control-allow-origin"), null);
    const named = await fetch(url, { headers: { origin: "https://x.example" } });
    assert.equal(named.headers.get("access-control-allow-origin"), "https://x.example");
  } finally {
    await host.close();
  }
}

describe("per-view CORS written as { origin }", () => {
  test("fw-a: @security.cors({ origin }) restricts to that origin or is refused at start-up", async () => {
    await check(async () => {
      @fwA.response.json
      @fwA.security.cors(TYPO)
      class Shared extends fwA.FwA {
        index() {
          return { ok: true };
        }
      }
      return fwA.createApp({ root, modules: [{ name: "main", exports: { Shared } }], config: CONFIG });
    }, "/shared/");
  });

  test("fw-b: @cors({ origin }) restricts to that origin or is refused at start-up", async () => {
    await check(async () => {
      @renderJson
      @fwbCors(TYPO)
      class Shared extends fwB.FwB {
        index() {
          return { ok: true };
        }
      }
      return fwB.createApp({ root, modules: [{ name: "main", exports: { Shared } }], config: CONFIG });
    }, "/shared");
  });
});
