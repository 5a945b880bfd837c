// A small app for the job commands' tests: the jobs battery's plugin on the queue JOBS_CLI_QUEUE_URL names.
import type { CreateOverrides } from "@fwkit/koa-host";
import { createHost } from "@fwkit/koa-host/plugin";
import { jobsPlugin } from "@fwkit/jobs";
import { conventions, responder } from "../../production-app/lib/base.js";

/** The app entry the commands load. */
export const app = {
  root: import.meta.dirname,
  create(overrides: CreateOverrides = {}) {
    return createHost({
      root: import.meta.dirname,
      conventions,
      responder: () => responder,
      modules: [],
      plugins: [jobsPlugin()],
      config: {
        env: "test",
        logLevel: "silent",
        logRequests: false,
        queueUrl: process.env["JOBS_CLI_QUEUE_URL"],
        ...overrides.config,
      },
    });
  },
};
