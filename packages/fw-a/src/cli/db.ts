import { loadConfig } from "@fwkit/koa-host";
import { registerTypeScript } from "@fwkit/cli";
import { migrationCommands, type MigrationCommands } from "@fwkit/data/plugin";

/** The migration commands of the app in `root` (its config, database URL and migrations folder). */
export async function appMigrations(root: string): Promise<MigrationCommands> {
  await registerTypeScript();
  const config = await loadConfig(root);
  return migrationCommands(config, { typesFrom: "fw-a" });
}
