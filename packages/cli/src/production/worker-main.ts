// The program each cluster worker runs: builds the app, listens on the shared port, tells the
// primary it is ready, and stops gracefully when told (a message, SIGTERM/SIGINT, or the primary
// going away). Options arrive as JSON in FW_START_OPTIONS.
//
// Exiting is a handshake with the primary. node:cluster's round-robin primary hands each
// connection to a worker in a message and keeps its own copy of the socket until the worker
// answers; a worker that exits with such a message unread (it closed its server an instant
// before) leaves that connection open in the primary with nobody to answer it: the client waits
// forever. So a drained worker says "drained" and exits only on the primary's "exit", which the
// primary sends after taking the worker out of its round-robin: every hand-off sent before it has
// arrived and been sent back (the server is closed) by then.
import cluster from "node:cluster";
import { FrameworkError } from "routing-kernel";
import type { ServerOptions } from "./server.js";
import { startProductionServer, type ProductionServer } from "./server.js";
import { isConnectionMessage, isExitMessage, isShutdownMessage, type WorkerMessage } from "./messages.js";

// How long a drained worker waits for the primary's "exit" before exiting anyway.
const EXIT_WAIT_MS = 5000;

// Always with a callback: a message sent after the primary is gone (it stopped while this worker
// booted) is then an error handed to `done`, not an 'error' event that would crash the process.
const send = (message: WorkerMessage | { fw: "exiting" }, done: (error: Error | null) => void = () => {}) =>
  process.send && process.connected ? process.send(message, undefined, {}, done) : done(null);
const options = JSON.parse(process.env["FW_START_OPTIONS"] ?? "{}") as ServerOptions;
let running: ProductionServer | undefined;
let exiting = false;

/** After the drain: exits once the primary allows it (or right away if there is no primary). */
const leave = (code: number) => {
  if (!process.connected) process.exit(code);
  setTimeout(() => process.exit(code), EXIT_WAIT_MS);
  process.once("disconnect", () => process.exit(code));
  process.on("message", (message) => {
    // The last write on the channel: once it is out, so are the answers to earlier hand-offs.
    if (isExitMessage(message)) send({ fw: "exiting" }, () => process.exit(code));
  });
  send({ fw: "drained" });
};

const booted: Promise<ProductionServer | undefined> = startProductionServer(options).then(
  (server) => {
    running = server;
    send({
      fw: "ready",
      url: server.url,
      graceMs: server.settings.shutdownGraceMs,
      pid: process.pid,
      ...(server.bootReadiness.ready ? {} : { unready: server.bootReadiness.failing }),
    });
    return server;
  },
  (error: unknown) => {
    const message =
      error instanceof FrameworkError ? `${error.code}: ${error.message}` : ((error as Error)?.stack ?? String(error));
    send({ fw: "failed", message, code: error instanceof FrameworkError ? error.code : undefined });
    process.exitCode = 1;
    // Let the message reach the primary before the channel closes.
    setTimeout(() => process.exit(1), 50);
    return undefined;
  },
);

/** Drains (after the boot, if it is still under way: the server may already be listening). */
const stop = () => {
  if (exiting) return;
  exiting = true;
  void booted.then(async (server) => {
    // A failed boot exits on its own with code 1.
    if (!server) return;
    try {
      await server.shutdown();
      leave(0);
    } catch (error) {
      server.host.logger.error({ err: error }, `error while stopping: ${(error as Error)?.message ?? String(error)}`);
      leave(1);
    }
  });
};

/** Serves a connection a dead worker never took, which the primary handed here (see handoffs.ts). */
const takeOver = (handle: { close(): void }) => {
  // node:net's listening handle of this server: the same entry node:cluster hands connections to.
  const listening = (
    running?.server as unknown as { _handle?: { onconnection?: (status: number, handle: unknown) => void } } | undefined
  )?._handle;
  if (!exiting && listening?.onconnection) listening.onconnection(0, handle);
  else handle.close();
};

process.on("message", (message, handle) => {
  if (isShutdownMessage(message)) stop();
  else if (isConnectionMessage(message) && handle) takeOver(handle as unknown as { close(): void });
});
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
// The primary died (SIGKILL): nothing hands this worker connections any more (the listening socket
// died with it), but the requests it holds are finished like at SIGTERM. node:cluster exits a
// worker whose channel closes unless `exitedAfterDisconnect` is set, right after emitting the
// worker's "disconnect": this listener runs first and sets it, so the drain is not cut short.
cluster.worker?.on("disconnect", () => {
  if (!running) process.exit(0);
  cluster.worker!.exitedAfterDisconnect = true;
  // Already draining (SIGTERM, the primary's message): the drain goes on and exits.
  if (exiting) return;
  running.host.logger.warn(
    { pid: process.pid, graceMs: running.settings.shutdownGraceMs },
    "the primary is gone: finishing the requests in flight, then exiting",
  );
  stop();
});
// What node:cluster sends itself fails once the primary is dead (a worker still booting asks it
// for the listening port), before the channel is seen closed: the "disconnect" above follows and
// ends the worker, so a broken channel is not a crash. Any other error stays one.
const CHANNEL_BROKEN = new Set(["EPIPE", "ECONNRESET", "ERR_IPC_CHANNEL_CLOSED"]);
cluster.worker?.on("error", (error: NodeJS.ErrnoException) => {
  if (!CHANNEL_BROKEN.has(error.code ?? "")) throw error;
});
