// `fw-a console` as a user drives it: through stdin, one line after each prompt (query a model,
// create a row, see it in the database, urlFor, config), in a pseudo-terminal (tab completes a
// model name, history is kept in the app folder), and in production only after a yes.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer, type AddressInfo } from "node:net";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { connect, modelTimestamps, type Database } from "@fwkit/data";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const main = join(packageDir, "src/cli/main.ts");
const node = [process.execPath, "--conditions=source", "--import", "tsx", main];

/**
 * A console session: runs `fw-a ARGS` (or `command` as given), writes each line after the next
 * prompt and returns everything printed.
 */
function session(
  args: readonly string[],
  lines: readonly string[],
  env: NodeJS.ProcessEnv,
  prompt: string | RegExp = "fw-a(development)> ",
  command: readonly string[] = [...node, ...args],
): Promise<{ output: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), { cwd: packageDir, env: { ...process.env, ...env } });
    let output = "";
    let answered = 0;
    const pending = [...lines];
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const prompts = output.split(prompt).length - 1;
      if (prompts > answered && pending.length > 0) {
        answered = prompts;
        const line = pending.shift()!;
        // A line ending in a tab is typed, completed, and finished by the next line a moment later.
        if (line.endsWith("\t")) {
          child.stdin.write(line);
          setTimeout(() => child.stdin.write(`${pending.shift()}\n`), 700);
        } else child.stdin.write(`${line}\n`);
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the console did not finish:\n${output}`));
      // Only ends a hang: the console loads the app, which a busy machine makes many times slower.
    }, 180_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ output, code });
    });
  });
}

describe("fw-a console", () => {
  // Inside the package so the app's `import ... from "fw-a"` finds the framework.
  const app = join(packageDir, "test", `.console-app-${process.pid}`);
  const data = mkdtempSync(join(tmpdir(), "fw-a-console-"));
  const env = { DB_URL: `sqlite:${join(data, "app.db")}`, APP_ENV: "" };
  let db: Database;

  before(async () => {
    cpSync(join(packageDir, "test/factory-app"), app, { recursive: true });
    db = await connect(env.DB_URL);
    await db.knex.schema.createTable("notes", (table) => {
      table.increments("id");
      table.string("title").notNullable();
      table.boolean("done").notNullable();
      modelTimestamps(table);
    });
  });
  after(async () => {
    await db?.close();
    rmSync(app, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  });

  test("query a model, create a row, and the row is in the database", async () => {
    const { output, code } = await session(
      ["console", "--root", app],
      [
        "await Note.count()",
        'await Note.create({ title: "From the console", done: false })',
        "(await Note.all()).map((note) => note.title)",
        'urlFor("Notes.show", { id: 1 })',
        "config.env",
        ".exit",
      ],
      env,
    );
    assert.equal(code, 0, output);
    assert.match(output, /fw-a console, development environment/);
    assert.match(output, /Models: Note/);
    assert.match(output, /> 0\n/);
    assert.match(output, /title: 'From the console'/);
    assert.match(output, /\[ 'From the console' \]/);
    assert.match(output, /'\/notes\/show\/1\/'/);
    assert.match(output, /'development'/);
    const rows = await db.knex("notes").select("title");
    assert.deepEqual(
      rows.map((row) => row.title),
      ["From the console"],
      "the row the console created is in the database",
    );
  });

  test("in a terminal: tab completes a model's name, and history is kept in the app folder", async () => {
    // script(1) gives the console a pseudo-terminal, as a user's shell does.
    const shell = [...node, "console", "--root", app].map((part) => `'${part}'`).join(" ");
    const { output } = await session([], ["await No\t", ".count()", ".exit"], env, "fw-a(development)> ", [
      "script",
      "-qefc",
      shell,
      "/dev/null",
    ]);
    assert.match(output, /await Note\.count\(\)/, "No<Tab> became Note");
    const history = join(app, ".console_history");
    assert.ok(existsSync(history), "the history file is in the app folder");
    assert.match(readFileSync(history, "utf8"), /^await Note\.count\(\)$/m, "the completed line is in the history");
  });

  test("production asks first: no opens nothing, --yes opens", async () => {
    const production = {
      ...env,
      SECRET_KEY: crypto.randomUUID(),
      BASE_URL: "https://notes.example.test",
    };
    const declined = await session(
      ["console", "--root", app, "--env", "production"],
      ["n"],
      production,
      "Open it? [y/N] ",
    );
    assert.match(declined.output, /PRODUCTION/);
    assert.match(declined.output, /Console not opened\./);
    assert.doesNotMatch(declined.output, /fw-a\(production\)> /);
    const opened = await session(
      ["console", "--root", app, "--env", "production", "--yes"],
      ["config.env", ".exit"],
      production,
      "fw-a(production)> ",
    );
    assert.equal(opened.code, 0, opened.output);
    assert.match(opened.output, /'production'/);
  });

  test("NODE_ENV=production without APP_ENV is production: the answer comes before the app is built, and a console never takes the metrics port", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const production = {
      ...env,
      NODE_ENV: "production",
      SECRET_KEY: randomBytes(32).toString("base64url"),
      BASE_URL: "https://notes.example.test",
      METRICS_ENABLED: "true",
      METRICS_HOST: "127.0.0.1",
      METRICS_PORT: String((taken.address() as AddressInfo).port),
    };
    try {
      // A cache on a Redis nobody listens on: building the app would connect (and log its failure).
      const declined = await session(
        ["console", "--root", app],
        ["n"],
        { ...production, CACHE_URL: "redis://127.0.0.1:1" },
        "Open it? [y/N] ",
      );
      assert.equal(declined.code, 0, declined.output);
      assert.match(declined.output, /PRODUCTION/);
      assert.match(declined.output, /Console not opened\.\n?$/);
      assert.doesNotMatch(declined.output, /ioredis|Unhandled|ECONNREFUSED|Error/);
      const opened = await session(
        ["console", "--root", app, "--yes"],
        ["config.env", ".exit"],
        production,
        "fw-a(production)> ",
      );
      assert.equal(opened.code, 0, opened.output);
      assert.match(opened.output, /'production'/);
      assert.doesNotMatch(opened.output, /E_METRICS_PORT_IN_USE/);
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });
});
