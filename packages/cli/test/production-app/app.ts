// A small app for the production tests: `start`, workers, graceful and rolling restarts, build.
import { existsSync } from "node:fs";
import { createHost } from "@fwkit/koa-host/plugin";
import type { HostPlugin } from "@fwkit/koa-host/plugin";
import { FrameworkError } from "routing-kernel";
import { conventions, responder } from "./lib/base.js";

/** The app entry `start` loads: a view module and a plugin whose readiness a file controls. */
export const app = {
  root: import.meta.dirname,
  async create() {
    // FIXTURE_FAIL_BOOT names a file: while it exists, a worker fails at boot like an app whose
    // database is unreachable (the message carries the URL with its password masked).
    const failFile = process.env["FIXTURE_FAIL_BOOT"];
    if (failFile && existsSync(failFile)) {
      throw new Error(
        "The database postgres://app:****@127.0.0.1:1/app cannot be reached: connect ECONNREFUSED 127.0.0.1:1",
      );
    }
    // FIXTURE_SLOW_BOOT_FILE names a file: while it exists, a worker's boot waits (a slow first
    // connection to a store), having said so on standard output.
    const slowFile = process.env["FIXTURE_SLOW_BOOT_FILE"];
    if (slowFile && existsSync(slowFile)) {
      process.stdout.write(`slow boot in ${process.pid}\n`);
      while (existsSync(slowFile)) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const downFile = process.env["FIXTURE_DOWN_FILE"];
    // FIXTURE_REFUSE_START: a plugin refuses to start after an earlier one opened a handle that
    // keeps the process alive (a database pool), as fw-b's contrib does on unmigrated tables.
    let pool: NodeJS.Timeout | undefined;
    const refusing: HostPlugin[] = process.env["FIXTURE_REFUSE_START"]
      ? [
          {
            name: "pool",
            setup: () => void (pool = setInterval(() => {}, 60_000)),
            close: async () => clearInterval(pool),
          },
          {
            name: "refuses",
            setup() {
              throw new FrameworkError(
                "E_FIXTURE_REFUSED",
                "the fixture refuses to start: run its migrations first",
                500,
              );
            },
          },
        ]
      : [];
    return createHost({
      root: import.meta.dirname,
      conventions,
      responder: () => responder,
      // FIXTURE_GRACE: the shutdown grace in seconds (a test that waits for a cut request).
      config: {
        logRequests: false,
        logLevel: "warn",
        ...(process.env["FIXTURE_GRACE"] ? { shutdownGrace: Number(process.env["FIXTURE_GRACE"]) } : {}),
      },
      plugins: [
        ...refusing,
        {
          name: "store",
          async ready() {
            if (downFile && existsSync(downFile)) throw new Error("the store at 127.0.0.1:1 does not answer");
          },
        },
      ],
    });
  },
};
