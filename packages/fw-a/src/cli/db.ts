import { loadConfig, type AppConfig } from "@fwkit/koa-host";
import { registerTypeScript } from "@fwkit/cli";
import { migrationCommands, type MigrationCommands } from "@fwkit/data/plugin";

/** The migration commands of the app in `root` (its config, database URL and migrations folder). */
export async function appMigrations(root: string): Promise<MigrationCommands> {
  await registerTypeScript();
  const config = await loadConfig(root);
  return migrationCommands(config, { typesFrom: "fw-a" });
}

/** The config of the app in `root`, as the seed command reads it (its environment, database and folder). */
export async function appConfig(root: string): Promise<AppConfig> {
  await registerTypeScript();
  return loadConfig(root, { logRequests: false });
}
