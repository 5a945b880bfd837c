import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { userCommandsFor, userCommandsSource } from "../src/user-commands.js";

function appWithScripts(source: string): string {
  const root = mkdtempSync(join(tmpdir(), "user-commands-"));
  mkdirSync(join(root, "run"));
  writeFileSync(join(root, "run", "scripts.ts"), source);
  return root;
}

test("a run/scripts.ts that fails to load is E_USER_COMMANDS_LOAD naming the file and the cause, not silently no commands", async () => {
  const root = appWithScripts(`throw new Error("boom in the user's scripts");\nexport const commands = [];\n`);
  try {
    await assert.rejects(
      userCommandsFor(["routes", "--root", root], "gen:init"),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, "E_USER_COMMANDS_LOAD");
        assert.match(error.message, /run\/scripts\.ts/);
        assert.match(error.message, /boom in the user's scripts/);
        return true;
      },
    );
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
  const root = appWithScripts(
    `export const commands = [{ command: "hello", describe: "says hello", handler() {} }];\n`,
  );
  try {
    const commands = await userCommandsFor(["hello", "--root", root], ":init");
    assert.deepEqual(
      commands.map((command) => [command.command, command.describe]),
      [["hello", "says hello"]],
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("without tsx (a production install), the built run/scripts.js runs against the built app; with it, the source", () => {
  const root = mkdtempSync(join(tmpdir(), "user-commands-source-"));
  try {
    mkdirSync(join(root, "run"), { recursive: true });
    mkdirSync(join(root, "build", "run"), { recursive: true });
    writeFileSync(join(root, "run", "scripts.ts"), "export const commands = [];\n");
    writeFileSync(join(root, "build", "app.js"), "export const app = {};\n");
    writeFileSync(join(root, "build", "run", "scripts.js"), "export const commands = [];\n");
    assert.deepEqual(userCommandsSource(root, true), {
      file: join(root, "run", "scripts.ts"),
      appRoot: root,
      typescript: true,
    });
    assert.deepEqual(userCommandsSource(root, false), {
      file: join(root, "build", "run", "scripts.js"),
      appRoot: join(root, "build"),
      typescript: false,
    });
    // A folder that is itself a build needs no loader, tsx installed or not.
    for (const tsx of [false, true]) {
      assert.deepEqual(userCommandsSource(join(root, "build"), tsx), {
        file: join(root, "build", "run", "scripts.js"),
        appRoot: join(root, "build"),
        typescript: false,
      });
    }
    // No build and no tsx: the source, so the TypeScript loader names `npm install -D tsx`.
    rmSync(join(root, "build"), { recursive: true });
    assert.deepEqual(userCommandsSource(root, false), {
      file: join(root, "run", "scripts.ts"),
      appRoot: root,
      typescript: true,
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("the start command takes the app's commands from the build it serves, others from the source", async () => {
  const root = mkdtempSync(join(tmpdir(), "user-commands-start-"));
  try {
    mkdirSync(join(root, "run"), { recursive: true });
    mkdirSync(join(root, "build", "run"), { recursive: true });
    writeFileSync(join(root, "app.ts"), "export const app = {};\n");
    writeFileSync(
      join(root, "run", "scripts.ts"),
      `export const commands = [{ command: "from-source", describe: "", handler() {} }];\n`,
    );
    writeFileSync(join(root, "build", "app.js"), "export const app = {};\n");
    writeFileSync(
      join(root, "build", "run", "scripts.js"),
      `export const commands = [{ command: "from-build", describe: "", handler() {} }];\n`,
    );
    const names = async (...argv: string[]) =>
      (await userCommandsFor([...argv, "--root", root], "gen:init")).map((command) => command.command);
    // start serves build/ (JavaScript): loading the sources would put the TypeScript loader in front of it.
    assert.deepEqual(await names("start"), ["from-build"]);
    assert.deepEqual(await names("routes"), ["from-source"]);
    // Without a build, start serves the sources, and their commands go with them.
    rmSync(join(root, "build"), { recursive: true });
    assert.deepEqual(await names("start"), ["from-source"]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
