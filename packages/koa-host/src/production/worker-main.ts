// The program each cluster worker runs: builds the app, listens on the shared port, tells the
// primary it is ready, and stops gracefully when told (a message, SIGTERM/SIGINT, or the primary
// going away). Options arrive as JSON in FW_START_OPTIONS.
import { FrameworkError } from "routing-kernel";
import type { ServerOptions } from "./server.js";
import { startProductionServer, type ProductionServer } from "./server.js";
import { isShutdownMessage, type WorkerMessage } from "./messages.js";

const send = (message: WorkerMessage) => process.send?.(message);
const options = JSON.parse(process.env["FW_START_OPTIONS"] ?? "{}") as ServerOptions;
let running: ProductionServer | undefined;
let exiting = false;

const stop = () => {
  if (exiting) return;
  exiting = true;
  const done = running ? running.shutdown() : Promise.resolve();
  done.then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`error while stopping: ${(error as Error)?.message ?? String(error)}`);
      process.exit(1);
    },
  );
};

process.on("message", (message) => {
  if (isShutdownMessage(message)) stop();
});
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
// The primary died (SIGKILL): nothing hands this worker connections any more.
process.on("disconnect", stop);

try {
  running = await startProductionServer(options);
  send({ fw: "ready", url: running.url, graceMs: running.settings.shutdownGraceMs, pid: process.pid });
  if (exiting) void running.shutdown();
} catch (error) {
  const message = error instanceof FrameworkError ? `${error.code}: ${error.message}` : ((error as Error)?.stack ?? String(error));
  send({ fw: "failed", message, code: error instanceof FrameworkError ? error.code : undefined });
  process.exitCode = 1;
  // Let the message reach the primary before the channel closes.
  setTimeout(() => process.exit(1), 50);
}
