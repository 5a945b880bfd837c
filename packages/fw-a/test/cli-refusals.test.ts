// The fw-a CLI refuses what it cannot do and says why (issue 15.16): a run/scripts.ts that fails to
// load, a mistyped command, an unknown option. Run from the sources (tsx), no build needed.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";

const main = fileURLToPath(new URL("../src/cli/main.ts", import.meta.url));
const cli = (cwd: string, ...args: string[]) =>
  spawnSync(process.execPath, ["--conditions=source", `--import=${import.meta.resolve("tsx")}`, main, ...args], { cwd, encoding: "utf8", env: { ...process.env, FW_TS_LOADER: "" } });

describe("fw-a CLI refusals", () => {
  let dir = "";
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "fw-a-refusals-"));
    mkdirSync(join(dir, "run"));
    writeFileSync(join(dir, "run", "scripts.ts"), 'throw new Error("broken on purpose");\nexport const commands = [];\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("a run/scripts.ts that fails to load stops a command with the error and a non-zero exit", () => {
    const result = cli(dir, "routes");
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, /E_USER_COMMANDS_LOAD/);
    assert.match(result.stderr, /run\/scripts\.ts/);
    assert.match(result.stderr, /broken on purpose/);
  });

  test("gen:init still runs next to a broken run/scripts.ts", () => {
    const result = cli(dir, "gen:init");
    assert.equal(result.status, 0, result.stderr);
    assert.doesNotMatch(result.stderr, /E_USER_COMMANDS_LOAD/);
  });

  test("a mistyped command gets the closest command, an unknown option the known ones", () => {
    const empty = mkdtempSync(join(tmpdir(), "fw-a-typo-"));
    try {
      const typo = cli(empty, "gen:serv");
      assert.notEqual(typo.status, 0);
      assert.match(typo.stderr, /Did you mean "gen:serve"\?/);
      const option = cli(empty, "gen:serve", "--prot", "5001");
      assert.notEqual(option.status, 0);
      assert.match(option.stderr, /Unknown option --prot \(did you mean "--port"\?\)/);
      assert.match(option.stderr, /--host/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  test("an unknown option without a command is refused naming the option, not asking for a command", () => {
    const empty = mkdtempSync(join(tmpdir(), "fw-a-bogus-"));
    try {
      const result = cli(empty, "--bogus");
      assert.notEqual(result.status, 0);
      assert.match(result.stderr, /Unknown option --bogus\. fw-a takes: .*--root/);
      assert.doesNotMatch(result.stderr, /Name a command/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
