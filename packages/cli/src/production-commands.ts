import { randomBytes } from "node:crypto";
import type { CommandModule } from "yargs";
import { buildApp } from "./production/build.js";
import { bundleLine } from "./production/server-bundle/build.js";
import { currentRelease } from "./production/releases.js";
import { runStart } from "./production/start-command.js";
import { START_OPTIONS } from "./production/start-line.js";
import { describeScaffold } from "./scaffold.js";
import { appOf, type AppArgs } from "./app-args.js";

/**
 * What follows a build, in the release order of docs/deployment.md: migrate, then start (or SIGHUP a
 * running start); `release`, the command that does build, migrate and switch in one step on a host
 * that keeps its app folder, is named beside. With a `current` release (its id), a note comes first:
 * start serves that release, not build/.
 */
export function releaseSteps(framework: string, migrate: string, release?: string, current?: string): string[] {
  // `start` serves the `current` link ahead of build/, so once the app folder has releases a plain
  // build would otherwise look deployed while the old release goes on being served.
  const served =
    current === undefined
      ? []
      : [
          `Note: this folder has releases: start serves current (releases/${current}), not build/.` +
            (release ? ` Release this code with ${framework} ${release} (build, migrate, switch current),` : "") +
            " or remove the current link to serve build/.",
        ];
  return [
    ...served,
    "Next, in this order:",
    `  1. APP_ENV=production ${framework} ${migrate}   (against the production database)`,
    `  2. APP_ENV=production ${framework} start   (SECRET_KEY set; PORT or --port), or SIGHUP a running start`,
    ...(release
      ? [
          `On a host that keeps the app folder, ${framework} ${release} builds, migrates and switches releases in that order.`,
        ]
      : []),
  ];
}

/**
 * The build command (`gen:build`, `:build`): compiles the app to `build/` for `start`, then prints
 * the next release steps (`migrate` and `release`: the framework's names of those commands).
 */
export function buildCommand(
  command: string,
  framework: string,
  migrate = "migrate",
  release?: string,
): CommandModule<AppArgs, AppArgs & { out: string; bundle: boolean }> {
  return {
    command,
    describe: "compile the app's TypeScript to JavaScript in build/ (what start serves in production)",
    builder: (y) =>
      y
        .option("out", {
          type: "string",
          default: "build",
          describe: "the output folder under the app folder",
        })
        .option("bundle", {
          type: "boolean",
          default: true,
          describe: "also write the server bundle start loads in one file (--no-bundle: start loads the build's files)",
        }) as never,
    async handler(args) {
      const { root } = appOf(args);
      const result = await buildApp({ root, outDir: args.out, bundle: args.bundle });
      console.log(
        `Built ${result.compiled} TypeScript file(s) and copied ${result.copied} other file(s) into ${result.outDir}`,
      );
      if (result.bundle) console.log(bundleLine(result.bundle, result.outDir));
      for (const line of releaseSteps(framework, migrate, release, currentRelease(root))) console.log(line);
    },
  };
}

/**
 * The production server command (`start` in both frameworks): workers, port, host, job workers
 * ({@link START_OPTIONS}). A framework's executable reads a plain `start` line itself
 * (`plainStartLine`) and this command reads every other.
 */
export function startCommand(
  command: string,
): CommandModule<AppArgs, AppArgs & { workers?: number; port: number; host: string; jobWorkers?: number }> {
  return {
    command,
    describe: "serve the built app in production: cluster workers, health checks, graceful and rolling restarts",
    builder: (y) => {
      for (const [name, option] of Object.entries(START_OPTIONS)) {
        const fallback = option.fallback(process.env);
        y.option(name, {
          type: option.type,
          describe: option.describe,
          ...(fallback !== undefined ? { default: fallback } : {}),
        });
      }
      return y as never;
    },
    async handler(args) {
      const { root, appName } = appOf(args);
      await runStart({
        root,
        ...(appName ? { app: appName } : {}),
        ...(args.workers !== undefined ? { workers: args.workers } : {}),
        port: args.port,
        host: args.host,
        ...(args.jobWorkers !== undefined ? { jobWorkers: args.jobWorkers } : {}),
      });
    },
  };
}

/** The deploy files command (`gen:deploy`, `:deploy`): writes deploy/ files, never overwriting. */
export function deployCommand(
  command: string,
  framework: string,
): CommandModule<AppArgs, AppArgs & { host?: string[] }> {
  return {
    command,
    describe: "write deployment files: Dockerfile, compose, HAProxy, nginx, systemd, Kubernetes (never overwrites)",
    builder: (y) =>
      y.option("host", {
        type: "string",
        array: true,
        describe:
          "a public host name of the app (repeatable; default the host of BASE_URL): the balancers refuse any other Host",
      }) as never,
    async handler(args) {
      const { appDeployPaths, productionDrivers, writeDeployFiles } = await import("./production/deploy/index.js");
      const root = appOf(args).root;
      const result = writeDeployFiles({
        root,
        framework,
        // The balancers refuse the app's own metrics path and stream its own realtime path, not
        // only the defaults.
        ...(await appDeployPaths(root)),
        drivers: await productionDrivers(root, randomBytes(32).toString("base64url")),
        ...(args.host ? { hosts: args.host.map(String) } : {}),
      });
      describeScaffold(result);
      if (result.skipped.length > 0) console.log(`\n${result.skipped.length} existing file(s) left untouched.`);
      for (const path of result.refreshed) console.log(`  update  ${path}`);
      const added = Object.entries(result.drivers).map(([name, range]) => `${name}@${range}`);
      if (added.length > 0)
        console.log(
          `\nThe image installs the drivers its production config needs that package.json does not list: ${added.join(", ")}. Add them to the app too (npm install ${Object.keys(result.drivers).join(" ")}) to run it the same way here.`,
        );
      console.log(
        "\nCommit deploy/docker/ with the app: the image installs from it (docker build .). Run this command again after changing package.json or upgrading the framework.",
      );
      if (!args.host?.length && !process.env["BASE_URL"]) {
        console.log(
          "\nThe balancer configs serve the placeholder host app.example.com only: run again with --host <name> (or BASE_URL set), or edit them.",
        );
      }
    },
  };
}
