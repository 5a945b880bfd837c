import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import type { CommandModule } from "yargs";
import { E_RELEASE } from "./errors.js";
import { buildApp } from "./production/build.js";
import { bundleLine } from "./production/server-bundle/build.js";
import { holdRelease } from "./production/release-holders.js";
import { pruneReleases } from "./production/release-prune.js";
import {
  activateRelease,
  currentRelease,
  DEFAULT_KEEP,
  newReleaseId,
  RELEASES_DIR,
  rollbackTarget,
} from "./production/releases.js";
import { RELEASE_CHILD_ENV } from "./run-cli.js";

type RootArgs = { root?: unknown };

const RELOAD =
  "Running `start` processes switch on SIGHUP (a rolling restart: kill -HUP <start's pid>, or systemctl reload <app>); a worker that starts meanwhile (a crash replacement) already serves it.";

/** Names of the release commands in one framework's CLI. */
export interface ReleaseCommandNames {
  /** The framework's CLI name (`fw-a`). */
  readonly framework: string;
  /** Build, migrate, switch: `release` / `:release`. */
  readonly release: string;
  /** Switch back: `release:rollback` / `:release-rollback`. */
  readonly rollback: string;
  /** The framework's migrate command, run in the new release before the switch. */
  readonly migrate: string;
  /** The framework's migration status command (`[x] name` a line): asked when the migrations did not finish. */
  readonly status?: string;
}

/** How a child command ended, and what it printed on stdout (also passed through). */
interface ChildEnd {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
}

/**
 * The child commands of a release, stopped with it: SIGINT/SIGTERM are passed on to the running
 * ones, and a child whose release command died exits (run-cli.ts). A child started after the
 * signal (the status check that tells what was applied) runs, until another signal.
 */
class Children {
  private readonly running = new Set<ReturnType<typeof spawn>>();
  /** The signal that interrupted the release, if one did. */
  signal: NodeJS.Signals | undefined;
  private readonly onSignal = (signal: NodeJS.Signals) => {
    this.signal ??= signal;
    for (const child of this.running) child.kill("SIGTERM");
  };

  constructor() {
    process.on("SIGINT", this.onSignal);
    process.on("SIGTERM", this.onSignal);
  }

  /** Runs this CLI with `args` (same Node flags), its stdout passed through and kept. */
  run(args: readonly string[], echo: boolean): Promise<ChildEnd> {
    const cli = process.argv[1];
    if (!cli) throw new E_RELEASE("cannot find this command line's script to run the migrations with");
    // The IPC channel closes when this process dies, however (SIGKILL): the child then exits (run-cli.ts).
    const child = spawn(process.execPath, [...process.execArgv, cli, ...args], {
      stdio: ["inherit", "pipe", "inherit", "ipc"],
      env: { ...process.env, [RELEASE_CHILD_ENV]: String(process.pid) },
    });
    this.running.add(child);
    let stdout = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (echo) process.stdout.write(chunk);
    });
    return new Promise((done) => {
      child.once("error", (error) => {
        this.running.delete(child);
        done({ code: -1, signal: null, stdout: `${stdout}${error.message}` });
      });
      child.once("close", (code, signal) => {
        this.running.delete(child);
        done({ code, signal, stdout });
      });
    });
  }

  close(): void {
    process.off("SIGINT", this.onSignal);
    process.off("SIGTERM", this.onSignal);
  }
}

/** The migrations a migrate command's output says it applied (`applied <name>` lines). */
const appliedIn = (stdout: string) => [...stdout.matchAll(/^applied (\S+)$/gm)].map((match) => match[1]!);

/** What the status command says is still pending, or why that is unknown. */
async function pendingAfter(children: Children, names: ReleaseCommandNames, dir: string): Promise<string> {
  const how = names.status ? `${names.framework} ${names.status}` : "your framework's migration status command";
  if (!names.status) return `run ${how} to see which migrations are applied`;
  const status = await children.run([names.status, "--root", dir], false);
  if (status.code !== 0)
    return `${how} failed too (exit ${status.code ?? status.signal}); run it once the database answers`;
  const pending = [...status.stdout.matchAll(/^\[ \] (\S+)/gm)].map((match) => match[1]!);
  return pending.length === 0
    ? `every migration is applied (${how}): the database already has this release's schema`
    : `not applied: ${pending.join(", ")} (${how}); an interrupted migration is rolled back where the database runs DDL in a transaction (PostgreSQL, SQLite), not on MySQL/MariaDB`;
}

/**
 * The release commands: `release` builds the app into `releases/<id>/`, runs the migrations of
 * that release, and only then points `current` at it (one rename), then prunes the releases
 * folder (releases-prune.ts); `rollback` points `current` back at the release that served before
 * it (or `--to`).
 */
export function releaseCommands(names: ReleaseCommandNames): CommandModule[] {
  const release: CommandModule<RootArgs, RootArgs & { keep: number }> = {
    command: names.release,
    describe: `build into ${RELEASES_DIR}/<id>/, run its migrations, then switch the current link to it (what start serves)`,
    builder: (y) =>
      y.option("keep", {
        type: "number",
        default: DEFAULT_KEEP,
        describe:
          "releases that served to keep (older ones are removed; never the current one, nor one a running process serves from)",
      }) as never,
    async handler(args) {
      const root = resolve(String(args.root));
      if (!Number.isInteger(args.keep) || args.keep < 1)
        throw new E_RELEASE(`--keep must be a whole number of 1 or more, not ${String(args.keep)}`);
      const previous = currentRelease(root);
      const id = newReleaseId(root);
      const dir = join(root, RELEASES_DIR, id);
      const built = await buildApp({ root, outDir: join(RELEASES_DIR, id) });
      // In use until the switch: a release running at the same time does not prune it.
      const hold = holdRelease(dir);
      console.log(
        `1. Built release ${id}: ${built.compiled} TypeScript file(s) compiled, ${built.copied} other file(s) copied into ${dir}`,
      );
      if (built.bundle) console.log(`   ${bundleLine(built.bundle, dir)}`);
      console.log(`2. Migrations of release ${id} (${names.framework} ${names.migrate}):`);
      const children = new Children();
      try {
        const migrated = await children.run([names.migrate, "--root", dir], true);
        if (migrated.code !== 0 || children.signal) {
          const why = children.signal
            ? `were interrupted (${children.signal}; the migrate command was stopped)`
            : `failed (exit ${migrated.code ?? migrated.signal})`;
          const outcome = await pendingAfter(children, names, dir);
          // Never served: removed, so nothing can switch to it.
          rmSync(dir, { recursive: true, force: true });
          throw new E_RELEASE(
            `the migrations of release ${id} ${why}; ${outcome}. current still points to ${previous ?? "nothing"}. Fix the cause and release again`,
          );
        }
        const applied = appliedIn(migrated.stdout);
        console.log(
          applied.length > 0
            ? `   Migrations applied: ${applied.length} (${applied.join(", ")})`
            : "   Migrations applied: none (no migration was pending)",
        );
      } finally {
        children.close();
      }
      activateRelease(root, id);
      hold.release();
      console.log(`3. current -> ${RELEASES_DIR}/${id}${previous ? ` (was ${previous})` : ""}`);
      const pruned = pruneReleases(root, args.keep);
      if (pruned.removed.length > 0) console.log(`   removed old release(s): ${pruned.removed.join(", ")}`);
      if (pruned.leftovers.length > 0)
        console.log(`   removed leftovers of interrupted commands: ${pruned.leftovers.join(", ")}`);
      for (const { id: kept, pids } of pruned.inUse)
        console.log(`   kept ${kept}: running processes serve from it (pid ${pids.join(", ")})`);
      console.log(`\n${RELOAD}\nBack to the previous release: ${names.framework} ${names.rollback}`);
    },
  };
  const rollback: CommandModule<RootArgs, RootArgs & { to?: string }> = {
    command: names.rollback,
    describe:
      "switch the current link back to the release that served before it (or --to ID); the database schema stays as it is",
    builder: (y) =>
      y.option("to", {
        type: "string",
        describe: "the release id to switch to (one that served: see releases/served)",
      }) as never,
    handler(args) {
      const root = resolve(String(args.root));
      const previous = currentRelease(root);
      const target = rollbackTarget(root, args.to);
      activateRelease(root, target);
      console.log(
        `current -> ${RELEASES_DIR}/${target}${previous ? ` (was ${previous})` : ""}. The database schema is left as it is: migrations are written so that the release before runs on it.\n${RELOAD}`,
      );
    },
  };
  return [release as CommandModule, rollback as CommandModule];
}
