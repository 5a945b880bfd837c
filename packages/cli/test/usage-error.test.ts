import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { finishCli, frameworkCli, routesCommand, serveCommand } from "../src/commands.js";
import { suggestCommands, typedCommand } from "../src/usage-error.js";

/** Parses a command line of a small CLI (serve and routes commands that do nothing); returns the refusal, if any. */
async function refusal(argv: string[]): Promise<string | undefined> {
  let ran = false;
  const cli = finishCli(
    frameworkCli("fw-x", argv)
      .command({ ...serveCommand("gen:serve"), handler: () => void (ran = true) })
      .command({ ...routesCommand("routes"), handler: () => void (ran = true) }),
    "fw-x",
  );
  try {
    await cli.parseAsync();
  } catch (error) {
    assert.equal(ran, false, "a refused command line runs no command");
    assert.equal((error as { code?: string }).code, "E_CLI_USAGE", "a refused command line is a coded error");
    return (error as Error).message;
  }
  return undefined;
}

test("a mistyped command is refused with the closest command (recommendCommands)", async () => {
  assert.equal(
    await refusal(["gen:serv"]),
    'Unknown command "gen:serv". Did you mean "gen:serve"? fw-x --help lists the commands.',
  );
  assert.equal(
    await refusal(["--root", "/srv/app", "rotues"]),
    'Unknown command "rotues". Did you mean "routes"? fw-x --help lists the commands.',
  );
  assert.equal(await refusal(["frobnicate"]), 'Unknown command "frobnicate": fw-x --help lists the commands.');
});

test("an unknown option is an error naming the closest option and every option the command takes", async () => {
  const message = await refusal(["gen:serve", "--prot", "5001"]);
  assert.match(message ?? "", /^Unknown option --prot \(did you mean "--port"\?\)\. fw-x gen:serve takes: /);
  for (const option of ["--port", "--host", "--reload", "--root", "--app", "--help"])
    assert.ok(message?.includes(option), `${option} in: ${message}`);
  assert.match(
    (await refusal(["routes", "--jsn", "-z"])) ?? "",
    /^Unknown options --jsn \(did you mean "--json"\?\), -z\. fw-x routes takes: .*--json/,
  );
});

test("an argument a command does not take is refused", async () => {
  assert.equal(
    await refusal(["routes", "extra"]),
    'fw-x routes takes no argument "extra": fw-x routes --help shows its usage.',
  );
});

test("a correct command line is accepted", async () => {
  assert.equal(await refusal(["routes", "--json", "--root", "/srv/app"]), undefined);
});

test("the typed command skips options and the values of --root and --app", () => {
  assert.equal(typedCommand(["--root", "x", "--app", "api", "routes"]), "routes");
  assert.equal(typedCommand(["--root=x", "routes"]), "routes");
  assert.equal(typedCommand(["--help"]), undefined);
});

test("an unknown option without a command is refused naming the option, not asking for a command", async () => {
  assert.match((await refusal(["--bogus"])) ?? "", /^Unknown option --bogus\. fw-x takes: .*--root/);
  assert.match(
    (await refusal(["--rot", "/srv/app"])) ?? "",
    /^Unknown option --rot \(did you mean "--root"\?\)\. fw-x takes: /,
  );
  assert.match((await refusal(["-z"])) ?? "", /^Unknown option -z\. fw-x takes: /);
  // Known options alone still ask for a command.
  assert.equal(await refusal(["--root", "/srv/app"]), "Name a command: fw-x --help lists them.");
});

const FW_A = [
  "gen:init",
  "gen:serve",
  "gen:view <name>",
  "routes",
  "gen:build",
  "start",
  "gen:deploy",
  "db:migrate",
  "db:rollback",
  "db:make <name>",
  "db:status",
  "hello [name]",
];
const FW_B = [
  ":init",
  ":serve",
  ":addview <name>",
  ":routes",
  ":build",
  "start",
  ":deploy",
  ":migrate",
  ":make-migration <name>",
  ":user",
  "products:count",
];

test("suggestions come from the CLI's own commands: the same name in its namespace, else close within an edit or two", () => {
  for (const [typed, expected] of [
    ["serve", ["gen:serve"]],
    ["init", ["gen:init"]],
    ["build", ["gen:build"]],
    ["view", ["gen:view"]],
    ["deploy", ["gen:deploy"]],
    ["migrate", ["db:migrate"]],
    ["repl", []],
    ["gen:serv", ["gen:serve"]],
    ["rotues", ["routes"]],
    ["helo", ["hello"]],
    ["frobnicate", []],
  ] as const) {
    assert.deepEqual(suggestCommands(typed, FW_A), expected, `fw-a ${typed}`);
  }
  for (const [typed, expected] of [
    ["serve", [":serve"]],
    [":seed", []],
    ["seed", []],
    [":serv", [":serve"]],
    ["addview", [":addview"]],
    ["make-migration", [":make-migration"]],
    [":migrat", [":migrate"]],
    ["products:cont", ["products:count"]],
  ] as const) {
    assert.deepEqual(suggestCommands(typed, FW_B), expected, `fw-b ${typed}`);
  }
});

/** A CLI with fw-a's command names (that do nothing), for refusals that need the whole list. */
async function refusalOf(argv: string[], version?: string): Promise<{ message?: string; printed: string }> {
  const cli = frameworkCli("fw-x", argv, version);
  for (const command of FW_A) {
    const positional = /<(\w+)>/.exec(command)?.[1];
    cli.command(
      command,
      "x",
      (y) => (positional ? y.positional(positional, { type: "string", demandOption: true }) : y),
      () => undefined,
    );
  }
  let printed = "";
  const log = console.log;
  console.log = (...parts: unknown[]) => void (printed += parts.join(" "));
  try {
    await finishCli(cli.exitProcess(false), "fw-x").parseAsync();
    return { printed };
  } catch (error) {
    return { message: (error as Error).message, printed };
  } finally {
    console.log = log;
  }
}

test("an unknown command names the commands meant, from the real list", async () => {
  assert.equal(
    (await refusalOf(["serve"])).message,
    'Unknown command "serve". Did you mean "gen:serve"? fw-x --help lists the commands.',
  );
  assert.equal((await refusalOf(["repl"])).message, 'Unknown command "repl": fw-x --help lists the commands.');
  assert.equal(
    (await refusalOf(["deploy"])).message,
    'Unknown command "deploy". Did you mean "gen:deploy"? fw-x --help lists the commands.',
  );
});

test("a missing argument is named with the command's usage, not yargs' count", async () => {
  assert.equal(
    (await refusalOf(["gen:view"])).message,
    "fw-x gen:view needs <name>: fw-x gen:view <name>. fw-x gen:view --help shows its usage.",
  );
  assert.equal(
    (await refusalOf(["db:make", "--root", "/srv/app"])).message,
    "fw-x db:make needs <name>: fw-x db:make <name>. fw-x db:make --help shows its usage.",
  );
});

test("--version prints the version of the framework's package", async () => {
  const dir = mkdtempSync(join(tmpdir(), "cli-version-"));
  try {
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "fw-x", version: "3.1.4" }));
    const result = await refusalOf(["--version"], dir);
    assert.equal(result.message, undefined);
    assert.equal(result.printed.trim(), "3.1.4");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("routes --types --openapi is refused: each does something else", async () => {
  assert.match(
    (await refusal(["routes", "--types", "--openapi"])) ?? "",
    /--types writes types\/routes\.d\.ts and --openapi prints a document: run routes once for each\./,
  );
});
