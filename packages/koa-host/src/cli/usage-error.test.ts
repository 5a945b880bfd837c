import assert from "node:assert/strict";
import { test } from "node:test";
import { finishCli, frameworkCli, routesCommand, serveCommand } from "./commands.js";
import { typedCommand } from "./usage-error.js";

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
    return (error as Error).message;
  }
  return undefined;
}

test("a mistyped command is refused with the closest command (recommendCommands)", async () => {
  assert.equal(await refusal(["gen:serv"]), 'Unknown command "gen:serv". Did you mean "gen:serve"? fw-x --help lists the commands.');
  assert.equal(await refusal(["--root", "/srv/app", "rotues"]), 'Unknown command "rotues". Did you mean "routes"? fw-x --help lists the commands.');
  assert.equal(await refusal(["frobnicate"]), 'Unknown command "frobnicate": fw-x --help lists the commands.');
});

test("an unknown option is an error naming the closest option and every option the command takes", async () => {
  const message = await refusal(["gen:serve", "--prot", "5001"]);
  assert.match(message ?? "", /^Unknown option --prot \(did you mean "--port"\?\)\. fw-x gen:serve takes: /);
  for (const option of ["--port", "--host", "--reload", "--root", "--app", "--help"]) assert.ok(message?.includes(option), `${option} in: ${message}`);
  assert.match((await refusal(["routes", "--jsn", "-z"])) ?? "", /^Unknown options --jsn \(did you mean "--json"\?\), -z\. fw-x routes takes: .*--json/);
});

test("an argument a command does not take is refused", async () => {
  assert.equal(await refusal(["routes", "extra"]), 'fw-x routes takes no argument "extra": fw-x routes --help shows its usage.');
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
  assert.match((await refusal(["--rot", "/srv/app"])) ?? "", /^Unknown option --rot \(did you mean "--root"\?\)\. fw-x takes: /);
  assert.match((await refusal(["-z"])) ?? "", /^Unknown option -z\. fw-x takes: /);
  // Known options alone still ask for a command.
  assert.equal(await refusal(["--root", "/srv/app"]), "Name a command: fw-x --help lists them.");
});
