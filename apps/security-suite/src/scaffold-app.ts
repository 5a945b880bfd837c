/**
 * The process that scaffolds an app under attack: the framework's init command, two generated
 * resources (the `memos` HTML forms and the `gadgets` JSON API), the drivers the attacked
 * deployment uses declared in its package.json, the suite's files written over it
 * (src/attack-files.ts), then the migrate command. The commands run in this one process through the
 * framework's own command line (`buildCli`), one after the other, as `npx fw-b ...` runs each:
 * loading the framework is most of a command's time, so it is paid once instead of four times.
 * Prints nothing of its own; a failing command prints why and exits non-zero.
 * Usage: node --conditions=source --import tsx scaffold-app.ts <fw-a|fw-b> <empty app folder>
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { runCli } from "@fwkit/cli";
import { XSS_VECTORS } from "@fwkit/test-servers";
import { fwaFiles, fwbFiles } from "./attack-files.js";

const [framework, root] = process.argv.slice(2);
if ((framework !== "fw-a" && framework !== "fw-b") || !root) {
  console.error("usage: scaffold-app.ts <fw-a|fw-b> <empty app folder>");
  process.exit(2);
}

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const COMMANDS = {
  "fw-a": { init: "gen:init", resource: "gen:resource", migrate: "db:migrate" },
  "fw-b": { init: ":init", resource: ":resource", migrate: ":migrate" },
}[framework];
/** Optional drivers the suite's deployments use (Redis sessions and queue, SMTP), with the ranges the batteries accept. */
const SUITE_DRIVERS: Readonly<Record<string, string>> = Object.freeze({
  ioredis: "^5.8.0",
  bullmq: "^5.56.0",
  nodemailer: "^7.0.0",
});

// The framework's command line from its sources, as its `bin` builds it (the package exports no CLI module).
const { buildCli } = (await import(
  pathToFileURL(join(REPO, "packages", framework, "src", "cli", "commands.ts")).href
)) as { buildCli(argv: readonly string[]): Promise<{ parseAsync(): Promise<unknown> }> };

/** Runs one command in the app folder as the framework's executable does; stops this process if it fails. */
async function run(...args: string[]): Promise<void> {
  await runCli(async () => {
    await (await buildCli(args)).parseAsync();
  });
  if (process.exitCode) {
    console.error(`${framework} ${args.join(" ")} failed`);
    process.exit(1);
  }
}

// Commands read the app folder from the working directory (their --root default).
process.chdir(root);
await run(COMMANDS.init);
// Generated resources, as an app has them on day one: an HTML form and a JSON API.
await run(COMMANDS.resource, "Memo", "title:string", "body:text");
await run(COMMANDS.resource, "Gadget", "name:string", "--api");
// The drivers the attacked deployment uses (Redis sessions and queue), declared as an app does:
// drivers load from the app's folder, and a checkout's app that declares one gets the checkout's.
const manifestPath = join(root, "package.json");
const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { dependencies?: Record<string, string> };
manifest.dependencies = { ...manifest.dependencies, ...SUITE_DRIVERS };
writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
const files = framework === "fw-a" ? fwaFiles() : fwbFiles();
files["data/posts.json"] = JSON.stringify(XSS_VECTORS);
for (const [path, content] of Object.entries(files)) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}
// The generated migrations are drafts, which start-up does not apply: the migrate command does.
await run(COMMANDS.migrate);
