import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { packagesLoadedBy, modulesLoadedBy } from "@fwkit/test-servers";
import { plainStartLine, START_OPTIONS } from "../src/start-entry.js";

const cliDir = fileURLToPath(new URL("..", import.meta.url));
const fixtureCli = fileURLToPath(new URL("./production-app/cli.ts", import.meta.url));

test("a plain start line is read with start's defaults, from the environment where start reads them", () => {
  assert.deepEqual(plainStartLine(["start"], "start", {}), {
    root: process.cwd(),
    port: 5000,
    host: "0.0.0.0",
  });
  assert.deepEqual(plainStartLine(["start"], "start", { PORT: "8080", HOST: "127.0.0.1", WEB_CONCURRENCY: "3" }), {
    root: process.cwd(),
    workers: 3,
    port: 8080,
    host: "127.0.0.1",
  });
  assert.deepEqual(
    plainStartLine(
      ["start", "--workers", "2", "--port=5001", "--host", "::", "--job-workers=4", "--root", "/srv/app", "--app=shop"],
      "start",
      { PORT: "8080" },
    ),
    { root: "/srv/app", app: "shop", workers: 2, port: 5001, host: "::", jobWorkers: 4 },
  );
  assert.deepEqual(plainStartLine(["start", "--root", "app"], "start", {})?.root, resolve("app"));
});

test("every other line is left to the full command line, which reads it with its own messages", () => {
  for (const line of [
    [],
    ["serve"],
    ["start", "--help"],
    ["start", "-h"],
    ["start", "--version"],
    ["start", "--prot", "5000"],
    ["start", "--port"],
    ["start", "--port", "abc"],
    ["start", "--port", "-1"],
    ["start", "--port", "1.5"],
    ["start", "--workers", "0x10"],
    ["start", "--port", "1", "--port", "2"],
    ["start", "--jobWorkers", "2"],
    ["start", "--no-workers"],
    ["start", "--host", ""],
    ["start", "--host", "--port"],
    ["start", "extra"],
  ]) {
    assert.equal(plainStartLine(line, "start", {}), undefined, line.join(" "));
  }
});

test("the options read are start's options: the full command line declares the same ones", () => {
  assert.deepEqual(Object.keys(START_OPTIONS).sort(), ["host", "job-workers", "port", "workers"]);
  // `start --help` is not a plain line: the full command line answers it, with the options it declares.
  const help = spawnSync(process.execPath, ["--conditions=source", "--import", "tsx", fixtureCli, "start", "--help"], {
    cwd: cliDir,
    encoding: "utf8",
    env: { ...process.env, NODE_OPTIONS: "" },
  });
  assert.equal(help.status, 0, help.stderr);
  const declared = [...help.stdout.matchAll(/^\s+--([a-z-]+)/gm)].map((match) => match[1]);
  for (const name of Object.keys(START_OPTIONS)) assert.ok(declared.includes(name), `--${name} in ${help.stdout}`);
});

test("the start entry loads no command-line parser, no generator, no other command and no server", () => {
  const script = `const { plainStartLine } = await import("@fwkit/cli/start");
if (!plainStartLine(["start"])) throw new Error("not a plain start line");`;
  const loaded = packagesLoadedBy(cliDir, script);
  const modules = modulesLoadedBy(cliDir, script);
  assert.ok(
    modules.esm.some((url) => url.includes("/cli/src/production/start-line.")),
    "the recorder lists what the start entry loads",
  );
  for (const parser of ["yargs", "yargs-parser", "cliui", "string-width"]) {
    assert.ok(!loaded.esm.has(parser) && !loaded.commonjs.has(parser), `${parser} was loaded`);
  }
  // The server's modules load once the executable knows whether the build's server bundle holds them.
  for (const server of ["pino", "koa"]) {
    assert.ok(!loaded.esm.has(server) && !loaded.commonjs.has(server), `${server} was loaded`);
  }
  assert.deepEqual(
    modules.esm.filter((url) => /\/(koa-host|battery-kit)\/src\//.test(url)),
    [],
  );
  const commands = modules.esm.filter((url) =>
    /\/cli\/src\/(generate|generators|scaffold|console|jobs|init-command)/.test(url),
  );
  assert.deepEqual(commands, []);
});
