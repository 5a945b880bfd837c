// Child process of the reloading dev server: builds the app and listens until SIGTERM.
import { loadAppDefinition } from "@fwkit/koa-host/operations";
import { refreshTypesQuietly } from "./route-types/refresh.js";
import { preloadBeforeTypeScript } from "@fwkit/koa-host/operations";

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2)
  args.set(process.argv[i]!.replace(/^--/, ""), process.argv[i + 1] ?? "");

const root = args.get("root") ?? process.cwd();
const port = Number(args.get("port") ?? 5000);
const hostname = args.get("host") ?? "127.0.0.1";
const appName = args.get("app") || undefined;
const preload = args.get("preload");
if (preload) preloadBeforeTypeScript(preload);

try {
  const definition = await loadAppDefinition(root, appName);
  const host = await definition.create();
  // The app's generated route declaration (typed urlFor) follows the routes at every restart.
  refreshTypesQuietly(definition.root, host.table, (line) => console.log(line));
  await host.listen(port, hostname);
  process.send?.({ type: "listening", url: `http://${hostname}:${port}` });
  console.log(`Serving ${definition.name ?? "app"} on http://${hostname}:${port} (APP_ENV=${host.config.env})`);
  const stop = () => {
    host.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
} catch (error) {
  const code = (error as { code?: unknown }).code;
  const message =
    typeof code === "string" && code.startsWith("E_")
      ? `${code}: ${(error as Error).message}`
      : (error as Error).message;
  console.error(message);
  process.send?.({ type: "failed", message, ...(typeof code === "string" ? { code } : {}) });
  process.exitCode = 1;
}
