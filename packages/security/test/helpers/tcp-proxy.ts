/**
 * A TCP forwarder on 127.0.0.1 that can be stopped and started on the same port: it stands in for
 * a store that goes down and comes back, without touching the real server other suites use.
 */
import { createConnection, createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

/** A stoppable forwarder to one target. */
export interface TcpProxy {
  readonly port: number;
  /** Refuses new connections and cuts the open ones. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
}

/** Reserves a free port and forwards it to `targetPort`; starts stopped when `stopped` is set. */
export async function tcpProxy(targetPort: number, options: { stopped?: boolean } = {}): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const listening = createServer((client) => {
        const upstream = createConnection({ host: "127.0.0.1", port: targetPort });
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      listening.once("error", reject);
      listening.listen(port, "127.0.0.1", () => {
        server = listening;
        resolve((listening.address() as AddressInfo).port);
      });
    });
  const stop = async () => {
    const closing = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
  };
  const port = await listen(0);
  if (options.stopped) await stop();
  return {
    port,
    stop,
    async start() {
      if (!server) await listen(port);
    },
  };
}
