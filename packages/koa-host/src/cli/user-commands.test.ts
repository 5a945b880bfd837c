import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { userCommandsFor } from "./user-commands.js";

function appWithScripts(source: string): string {
  const root = mkdtempSync(join(tmpdir(), "user-commands-"));
  mkdirSync(join(root, "run"));
  writeFileSync(join(root, "run", "scripts.ts"), source);
  return root;
}

test("a run/scripts.ts that fails to load is E_USER_COMMANDS_LOAD naming the file and the cause, not silently no commands", async () => {
  const root = appWithScripts(`throw new Error("boom in the user's scripts");\nexport const commands = [];\n`);
  try {
    await assert.rejects(userCommandsFor(["routes", "--root", root], "gen:init"), (error: Error & { code?: string }) => {
      assert.equal(error.code, "E_USER_COMMANDS_LOAD");
      assert.match(error.message, /run\/scripts\.ts/);
      assert.match(error.message, /boom in the user's scripts/);
      return true;
    });
    // The init command runs whatever state the folder is in.
    assert.deepEqual(await userCommandsFor(["gen:init", "--root", root], "gen:init"), []);
    assert.deepEqual(await userCommandsFor(["--root", root, "gen:init"], "gen:init"), []);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("a run/scripts.ts whose commands export is not a list is refused", async () => {
  const root = appWithScripts(`export const commands = { hello: () => 1 };\n`);
  try {
    await assert.rejects(userCommandsFor(["hello", "--root", root], ":init"), /E_USER_COMMANDS_LOAD|must be a list/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("the commands of a run/scripts.ts that loads become CLI commands", async () => {
  const root = appWithScripts(`export const commands = [{ command: "hello", describe: "says hello", handler() {} }];\n`);
  try {
    const commands = await userCommandsFor(["hello", "--root", root], ":init");
    assert.deepEqual(commands.map((command) => [command.command, command.describe]), [["hello", "says hello"]]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
