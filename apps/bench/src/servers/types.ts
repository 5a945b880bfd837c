import { E_BENCH_RUN } from "../errors.js";
import type { Server } from "node:http";
import type { Scenario } from "../workloads.js";

/** A server started for one scenario. */
export interface RunningServer {
  /** The port it listens on (127.0.0.1). */
  readonly port: number;
  /** Milliseconds spent in named start-up steps (route-table build, app build...). */
  readonly timings: Readonly<Record<string, number>>;
  /** Stops listening and releases everything. */
  close(): Promise<void>;
}

/** Starts a server for a scenario on 127.0.0.1 (port 0: any free port). */
export type StartServer = (scenario: Scenario, port: number) => Promise<RunningServer>;

/** Listens on 127.0.0.1 and resolves with the bound port. */
export function listenOn(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : port);
    });
  });
}

/** Closes a server, dropping idle keep-alive connections first. */
export function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** The route count of a `routes-N` scenario, or undefined. */
export function routeCount(scenario: Scenario): number | undefined {
  const match = /^routes-(\d+)$/.exec(scenario);
  return match ? Number(match[1]) : undefined;
}

/** The error thrown when a server is asked for a scenario it does not implement. */
export function unsupported(server: string, scenario: Scenario): Error {
  return new E_BENCH_RUN(`the ${server} bench server`, `it has no "${scenario}" scenario`);
}

/** Where the bench app's templates live (shared by fw-a, fw-b and hand-written Koa). */
export const SITE_ROOT = new URL("../../site/", import.meta.url);
