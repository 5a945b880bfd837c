// A small app for the production tests: `start`, workers, graceful and rolling restarts, build.
import { existsSync } from "node:fs";
import { createHost } from "@fwkit/koa-host";
import { conventions, responder } from "./lib/base.js";

/** The app entry `start` loads: a view module and a plugin whose readiness a file controls. */
export const app = {
  root: import.meta.dirname,
  async create() {
    // FIXTURE_FAIL_BOOT names a file: while it exists, a worker fails at boot like an app whose
    // database is unreachable (the message carries the URL with its password masked).
    const failFile = process.env["FIXTURE_FAIL_BOOT"];
    if (failFile && existsSync(failFile)) {
      throw new Error("The database postgres://app:****@127.0.0.1:1/app cannot be reached: connect ECONNREFUSED 127.0.0.1:1");
    }
    const downFile = process.env["FIXTURE_DOWN_FILE"];
    return createHost({
      root: import.meta.dirname,
      conventions,
      responder: () => responder,
      config: { logRequests: false, logLevel: "warn" },
      plugins: [
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
