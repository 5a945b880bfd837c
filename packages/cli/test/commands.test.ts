import assert from "node:assert/strict";
import { resolve } from "node:path";
import { test } from "node:test";
import { appTarget, flagValue, serveCommand } from "../src/commands.js";

test("--root and --app are read in both spellings before yargs runs", () => {
  assert.equal(flagValue(["routes", "--root", "/srv/app"], "--root"), "/srv/app");
  assert.equal(flagValue(["routes", "--root=/srv/app"], "--root"), "/srv/app");
  assert.equal(flagValue(["routes"], "--root"), undefined);
  assert.deepEqual(appTarget(["x", "--root", "rel", "--app=api"]), { root: resolve("rel"), appName: "api" });
});

test("the serve command refuses a port that is not 0..65535 with E_START_OPTION, as start does", async () => {
  const command = serveCommand(":serve");
  for (const port of [Number.NaN, -1, 70000, 1.5]) {
    await assert.rejects(
      Promise.resolve(command.handler({ root: ".", port, host: "127.0.0.1", reload: false, _: [], $0: "x" } as never)),
      { code: "E_START_OPTION", message: /^--port must be a whole number from 0 to 65535, not / },
    );
  }
});
