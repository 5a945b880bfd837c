/**
 * The migration commands of both frameworks' CLIs, written once: each framework maps its own
 * command names onto them (fw-a `db:migrate`, `db:rollback`, `db:make`, `db:status`; fw-b
 * `:migrate`, `:rollback`, `:make-migration`, `:migrations`) and says how to open the app's
 * migrations (`migrationCommands`, with fw-b's contrib migrations shipped first).
 */
import { DRAFT_NOTE } from "./migration-drafts.js";
import type { MigrationCommands } from "./migration-commands.js";

/** A yargs command module (structurally: the CLIs add it with `cli.command(module)`). */
export interface MigrationCliCommand {
  readonly command: string;
  readonly describe: string;
  // yargs' Argv, kept structural so this package needs no yargs.
  readonly builder?: (yargs: any) => any;
  readonly handler: (args: Record<string, unknown>) => Promise<void>;
}

/** A framework's names for the four commands (the make command takes `<name>`). */
export interface MigrationCliNames {
  readonly migrate: string;
  readonly rollback: string;
  readonly make: string;
  readonly status: string;
}

function list(names: readonly string[], none: string, verb: string): void {
  if (names.length === 0) console.log(none);
  for (const name of names) console.log(`${verb} ${name}`);
}

/**
 * The four migration commands under a framework's names. `open(args)` gives the app's
 * {@link MigrationCommands} (its config loaded from `args.root`). Output is the same in both
 * frameworks: `applied <name>`, `rolled back <name>`, `created <path>`, and `[x]` / `[ ]` per
 * migration with the draft note.
 */
export function migrationCliCommands(
  names: MigrationCliNames,
  open: (args: Record<string, unknown>) => Promise<MigrationCommands>,
): MigrationCliCommand[] {
  return [
    {
      command: names.migrate,
      describe: "apply pending database migrations",
      handler: async (args) => {
        const migrations = await open(args);
        list(await migrations.migrate(), `Nothing to migrate (${migrations.url}).`, "applied");
      },
    },
    {
      command: names.rollback,
      describe: "undo the last batch of migrations (--all: every batch)",
      builder: (y) => y.option("all", { type: "boolean", default: false, describe: "undo every batch" }),
      handler: async (args) => {
        const migrations = await open(args);
        list(await migrations.rollback({ all: Boolean(args["all"]) }), "Nothing to roll back.", "rolled back");
      },
    },
    {
      command: `${names.make} <name>`,
      describe: "create migrations/<timestamp>_<name>.ts (create_posts makes a posts table)",
      builder: (y) => y.positional("name", { type: "string", demandOption: true }),
      handler: async (args) => {
        const migrations = await open(args);
        console.log(`created ${migrations.make(String(args["name"]))}`);
      },
    },
    {
      command: names.status,
      describe: "list the migrations and whether each is applied",
      handler: async (args) => {
        const migrations = await open(args);
        for (const state of await migrations.status()) {
          console.log(`${state.applied ? "[x]" : "[ ]"} ${state.name}${state.draft ? ` ${DRAFT_NOTE}` : ""}`);
        }
      },
    },
  ];
}
