import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ConformanceCli } from "../adapter.js";
import { adapterPart, type SuiteContext } from "../suite.js";

const TITLE = "the shared CLI commands (issues 15.7 and 15.16)";

/** A command line's exit status and output. */
interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `fn` in a new temporary folder, removed afterwards. */
async function inTemporaryFolder(prefix: string, fn: (dir: string) => Promise<void> | void): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), `conformance-${prefix}-`));
  try {
    await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Whether the SQLite database file has a table `table` with a column `column`. SQLite keeps each
 * table's CREATE statement as text in the file's schema table, so this needs no driver.
 */
function sqliteHas(file: string, table: string, column?: string): boolean {
  if (!existsSync(file)) return false;
  const text = readFileSync(file).toString("latin1");
  const create = new RegExp(`CREATE TABLE [\`"']?${table}[\`"']?\\s*\\(([^)]*)\\)`, "i").exec(text);
  return create !== null && (column === undefined || new RegExp(`[\`"'\\s(,]${column}[\`"'\\s]`).test(create[1]!));
}

/**
 * The rules of the kit's shared commands, run through the framework's CLI under its own command
 * names: a run/scripts.ts that fails to load stops every command but init;
 * a mistyped command or option gets a suggestion; a migration made by the make command is a draft
 * that start-up migration holds back until it is edited.
 */
export function commandCases(s: SuiteContext): void {
  const part = adapterPart(s, "cli", TITLE);
  if (!part) return;
  const cli: ConformanceCli = part;
  const { commands } = cli;
  const run = (cwd: string, ...args: string[]): Run => {
    // FW_TS_LOADER cleared: the CLI registers its TypeScript loader itself, as from a shell.
    const result = spawnSync(process.execPath, [...cli.argv, ...args], {
      cwd,
      encoding: "utf8",
      env: { ...process.env, FW_TS_LOADER: "" },
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };
  const withBrokenScripts = (fn: (dir: string) => void) =>
    inTemporaryFolder("broken-scripts", (dir) => {
      mkdirSync(join(dir, "run"));
      writeFileSync(
        join(dir, "run", "scripts.ts"),
        'throw new TypeError("broken on purpose");\nexport const commands = [];\n',
      );
      fn(dir);
    });

  s.checks(TITLE, (t) => {
    t("a run/scripts.ts that fails to load stops a command with the error and a non-zero exit", () =>
      withBrokenScripts((dir) => {
        const result = run(dir, commands.routes);
        assert.notEqual(result.status, 0);
        assert.match(result.stderr, /E_USER_COMMANDS_LOAD/);
        assert.match(result.stderr, /run\/scripts\.ts/);
        assert.match(result.stderr, /broken on purpose/);
      }),
    );

    t("the init command still runs next to a broken run/scripts.ts", () =>
      withBrokenScripts((dir) => {
        const result = run(dir, commands.init);
        assert.equal(result.status, 0, result.stderr);
        assert.doesNotMatch(result.stderr, /E_USER_COMMANDS_LOAD/);
      }),
    );

    t("a mistyped command gets the closest command, an unknown option the known ones", () =>
      inTemporaryFolder("typo", (dir) => {
        const typo = run(dir, commands.serve.slice(0, -1));
        assert.notEqual(typo.status, 0);
        assert.match(typo.stderr, new RegExp(`Did you mean "${commands.serve}"\\?`));
        const option = run(dir, commands.serve, "--prot", "5001");
        assert.notEqual(option.status, 0);
        assert.match(option.stderr, /Unknown option --prot \(did you mean "--port"\?\)/);
        assert.match(option.stderr, /--host/);
      }),
    );

    t("an unknown option without a command is refused naming the option, not asking for a command", () =>
      inTemporaryFolder("bogus", (dir) => {
        const result = run(dir, "--bogus");
        assert.notEqual(result.status, 0);
        assert.match(result.stderr, new RegExp(`Unknown option --bogus\\. ${s.adapter.name} takes: .*--root`));
        assert.doesNotMatch(result.stderr, /Name a command/);
      }),
    );

    t("a migration made by the make command is not applied at start-up until it is edited", () =>
      inTemporaryFolder("drafts", async (root) => {
        class Index extends s.adapter.Base {
          index() {
            return "home";
          }
        }
        const database = join(root, "data", "app.db");
        // As the development server's child does after each change: build the app, then close it.
        const restart = () =>
          cli.develop(root, [{ name: "main", exports: { Index } }], { dbUrl: "sqlite:data/app.db" });

        const made = run(root, commands.makeMigration, "create_widgets");
        assert.equal(made.status, 0, made.stderr);
        const file = /(\/\S+_create_widgets\.ts)/.exec(made.stdout)?.[1];
        assert.ok(file, made.stdout);

        const waiting = run(root, commands.migrationStatus);
        assert.equal(waiting.status, 0, waiting.stderr);
        assert.match(
          waiting.stdout,
          /create_widgets\s+\(draft: not applied at start-up until edited/,
          "the status command says why it waits",
        );
        await restart();
        assert.equal(
          sqliteHas(database, "widgets"),
          false,
          "the restart that follows the make command applies nothing",
        );

        writeFileSync(
          file,
          readFileSync(file, "utf8").replace(
            'table.increments("id");',
            'table.increments("id");\n    table.string("colour");',
          ),
        );
        await restart();
        assert.equal(
          sqliteHas(database, "widgets", "colour"),
          true,
          "the edited migration is applied at the next start",
        );
        assert.doesNotMatch(run(root, commands.migrationStatus).stdout, /draft/);
      }),
    );
  });
}
