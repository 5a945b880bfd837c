/**
 * The seed command of both frameworks' CLIs, written once (fw-a `db:seed`, fw-b `:seed`): it
 * connects as the app does, binds the app's models, and runs `seeds/` (or one file with
 * `--file`). Seeding writes made-up rows, so production refuses unless `--force` says it is meant.
 */
import { join } from "node:path";
import { dataConfig, type DataConfigInput } from "../config.js";
import { connect } from "../connection.js";
import { E_SEED_IN_PRODUCTION } from "../errors.js";
import { loadModels } from "../model-registry.js";
import { runSeeds } from "./run-seeds.js";

/** The seeds folder of an app, under its root. */
export const SEEDS_DIR = "seeds";

/** Options of {@link seedApp}. */
export interface SeedAppOptions {
  /** Run only this seed file. */
  readonly file?: string;
  /** Seed even when the app's environment is production. */
  readonly force?: boolean;
  /** The command users type, for the production refusal's message (`fw-a db:seed`). */
  readonly command?: string;
}

/** Runs the seeds of the app whose config is `config` (`root`, `env`, database URL); returns the names run. */
export async function seedApp(
  config: DataConfigInput & { readonly env?: string },
  options: SeedAppOptions = {},
): Promise<string[]> {
  const env = config.env ?? "development";
  if (env === "production" && !options.force) throw new E_SEED_IN_PRODUCTION(options.command ?? "the seed command");
  const settings = dataConfig(config);
  const db = await connect(settings.dbUrl, { root: settings.appDir, pool: { min: 0, max: 2 } });
  try {
    const models = await loadModels(settings.root, db.knex);
    return await runSeeds(db.knex, join(settings.root, SEEDS_DIR), {
      ...(options.file === undefined ? {} : { file: options.file }),
      models,
      env,
    });
  } finally {
    await db.close();
  }
}

/** A yargs command module (structural, so this package needs no yargs). */
export interface SeedCliCommand {
  readonly command: string;
  readonly describe: string;
  readonly builder: (yargs: any) => any;
  readonly handler: (args: Record<string, unknown>) => Promise<void>;
}

/**
 * The seed command under a framework's name. `config(args)` loads the app's config (from
 * `args.root`). Prints `seeded <file>` per seed, or says there is nothing to run.
 */
export function seedCliCommand(
  name: string,
  framework: string,
  config: (args: Record<string, unknown>) => Promise<DataConfigInput & { readonly env?: string }>,
): SeedCliCommand {
  return {
    command: name,
    describe: "fill the database from seeds/*.ts (--file NAME: one seed; production needs --force)",
    builder: (y) =>
      y
        .option("file", { type: "string", describe: "run only this seed (name with or without .ts)" })
        .option("force", { type: "boolean", default: false, describe: "seed even in production" }),
    handler: async (args) => {
      const loaded = await config(args);
      const file = typeof args["file"] === "string" ? args["file"] : undefined;
      const ran = await seedApp(loaded, {
        ...(file === undefined ? {} : { file }),
        force: Boolean(args["force"]),
        command: `${framework} ${name}`,
      });
      if (ran.length === 0)
        console.log(
          `No seeds to run: add files to ${join(loaded.root, SEEDS_DIR)} that export async function seed({ knex, models }).`,
        );
      for (const seed of ran) console.log(`seeded ${seed}`);
    },
  };
}
