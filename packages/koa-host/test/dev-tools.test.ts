import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { importDevTool, resolveDevTool } from "../src/dev-tools.js";

const dir = mkdtempSync(join(tmpdir(), "dev-tools-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("development tools come from the app", () => {
  test("a tool the app installed is found in the app first, by its ES entry", () => {
    const app = join(dir, "app");
    const tool = join(app, "node_modules", "pino-pretty");
    mkdirSync(join(tool, "lib"), { recursive: true });
    writeFileSync(
      join(tool, "package.json"),
      JSON.stringify({ name: "pino-pretty", exports: { ".": { require: "./lib/x.cjs", import: "./lib/x.mjs" } } }),
    );
    writeFileSync(join(tool, "lib", "x.mjs"), "export const fromApp = true;\n");
    assert.equal(resolveDevTool("pino-pretty", "test", app), join(tool, "lib", "x.mjs"));
  });

  test("without it in the app, the copy beside koa-host serves (tsx's ESM API, which registers)", async () => {
    const empty = join(dir, "empty");
    mkdirSync(empty, { recursive: true });
    assert.match(resolveDevTool("tsx/esm/api", "test", empty), /tsx[\\/]dist[\\/]esm[\\/]api[\\/]index\.mjs$/);
    const api = await importDevTool<{ register?: unknown }>("tsx/esm/api", "test", empty);
    assert.equal(typeof api.register, "function");
  });

  test("a tool found nowhere is E_DEV_TOOL_MISSING naming `npm install -D <package>`", () => {
    assert.throws(
      () => resolveDevTool("no-such-dev-tool/sub/path", "build command", dir),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, "E_DEV_TOOL_MISSING");
        assert.match(
          error.message,
          /The build command needs the package "no-such-dev-tool", a development dependency of the app/,
        );
        assert.match(error.message, /npm install -D no-such-dev-tool$/);
        return true;
      },
    );
  });
});
