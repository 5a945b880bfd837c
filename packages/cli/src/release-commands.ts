import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import type { CommandModule } from "yargs";
import { E_RELEASE } from "./errors.js";
import { buildApp } from "./production/build.js";
import {
  activateRelease,
  currentRelease,
  DEFAULT_KEEP,
  newReleaseId,
  pruneReleases,
  RELEASES_DIR,
  rollbackTarget,
} from "./production/releases.js";

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
}

/** Runs the framework's migrate command on a release folder, as this CLI (same Node flags). */
function migrateRelease(names: ReleaseCommandNames, dir: string): number | null {
  const cli = process.argv[1];
  if (!cli) throw new E_RELEASE("cannot find this command line's script to run the migrations with");
  const result = spawnSync(process.execPath, [...process.execArgv, cli, names.migrate, "--root", dir], {
    stdio: "inherit",
    env: process.env,
  });
  return result.status;
}

/**
 * The release commands: `release` builds the app into `releases/<id>/`, runs the migrations of
 * that release, and only then points `current` at it (one rename), then removes the oldest
 * releases beyond `--keep`; `rollback` points `current` back at the release before it (or `--to`).
 */
export function releaseCommands(names: ReleaseCommandNames): CommandModule[] {
  const release: CommandModule<RootArgs, RootArgs & { keep: number }> = {
    command: names.release,
    describe: `build into ${RELEASES_DIR}/<id>/, run its migrations, then switch the current link to it (what start serves)`,
    builder: (y) =>
      y.option("keep", {
        type: "number",
        default: DEFAULT_KEEP,
        describe: "releases to keep (the oldest beyond are removed; never the current one)",
      }) as never,
    async handler(args) {
      const root = resolve(String(args.root));
      if (!Number.isInteger(args.keep) || args.keep < 1)
        throw new E_RELEASE(`--keep must be a whole number of 1 or more, not ${String(args.keep)}`);
      const previous = currentRelease(root);
      const id = newReleaseId(root);
      const dir = join(root, RELEASES_DIR, id);
      const built = await buildApp({ root, outDir: join(RELEASES_DIR, id) });
      console.log(
        `1. Built release ${id}: ${built.compiled} TypeScript file(s) compiled, ${built.copied} other file(s) copied into ${dir}`,
      );
      console.log(`2. Migrations of release ${id} (${names.framework} ${names.migrate}):`);
      const status = migrateRelease(names, dir);
      if (status !== 0) {
        // Never served: removed, so a rollback cannot land on it.
        rmSync(dir, { recursive: true, force: true });
        throw new E_RELEASE(
          `the migrations of release ${id} failed (exit ${status}); current still points to ${previous ?? "nothing"}. Fix them and release again`,
        );
      }
      activateRelease(root, id);
      console.log(`3. current -> ${RELEASES_DIR}/${id}${previous ? ` (was ${previous})` : ""}`);
      const pruned = pruneReleases(root, args.keep);
      if (pruned.length > 0) console.log(`   removed old release(s): ${pruned.join(", ")}`);
      console.log(`\n${RELOAD}\nBack to the previous release: ${names.framework} ${names.rollback}`);
    },
  };
  const rollback: CommandModule<RootArgs, RootArgs & { to?: string }> = {
    command: names.rollback,
    describe: "switch the current link back to the release before it (or --to ID); the database schema stays as it is",
    builder: (y) =>
      y.option("to", { type: "string", describe: "the release id to switch to (see the releases/ folder)" }) as never,
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
