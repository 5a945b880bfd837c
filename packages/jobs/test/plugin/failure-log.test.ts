// Failed jobs are heard of in the process that runs them: a warning per failed attempt (job, id,
// attempt, error), an error for the last one, and a report on the host's telemetry for the
// metrics; on the in-process queue (development) and on BullMQ (a worker).
import assert from "node:assert/strict";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { fileURLToPath } from "node:url";
import { describe, test } from "node:test";
import { requireServer, serverUrls } from "@fwkit/test-servers";
import { createHost, HostView } from "@fwkit/koa-host/plugin";
import type { JobFailedMessage } from "@fwkit/battery-kit";
import { defineConventions } from "routing-kernel";
import { jobsOf, jobsPlugin } from "../../src/index.js";
import { AlwaysFails } from "../fixtures/failing-app/jobs/always-fails.js";
import { dropPrefix, uniquePrefix, waitFor } from "../helpers.js";

const root = fileURLToPath(new URL("../fixtures/failing-app/", import.meta.url));
class View extends HostView {}
const conventions = defineConventions({ baseClass: View, trailingSlash: false });
const responder = () => ({ prepare: () => () => {}, renderError: () => {}, describe: () => "text" });

interface Line {
  level: number;
  msg: string;
  job?: string;
  id?: string;
  attempt?: number;
  maxAttempts?: number;
  err?: { message: string };
}

async function failThreeTimes(
  config: Record<string, unknown>,
): Promise<{ lines: Line[]; reports: JobFailedMessage[] }> {
  const lines: Line[] = [];
  // The app's logger as pino calls go to it: (fields, message) at a level.
  const at =
    (level: number) =>
    (fields: unknown, msg?: unknown): void => {
      if (typeof fields === "object" && fields !== null) {
        const { err, ...rest } = fields as Record<string, unknown>;
        lines.push({
          ...rest,
          level,
          msg: String(msg),
          ...(err instanceof Error ? { err: { message: err.message } } : {}),
        } as Line);
      }
    };
  const logger: Record<string, unknown> = {
    level: "info",
    trace: at(10),
    debug: at(20),
    info: at(30),
    warn: at(40),
    error: at(50),
    fatal: at(60),
  };
  logger["child"] = () => logger;
  logger["isLevelEnabled"] = () => true;
  const reports: JobFailedMessage[] = [];
  const listen = (message: unknown) => reports.push(message as JobFailedMessage);
  subscribe("fwkit:jobs.failed", listen);
  const host = await createHost({
    root,
    conventions,
    responder,
    modules: [],
    plugins: [jobsPlugin()],
    logger: logger as never,
    config: { logRequests: false, ...config },
  });
  try {
    const { id } = await jobsOf(host)!.dispatch(AlwaysFails, {});
    await waitFor(
      "the third attempt to be logged",
      () => lines.filter((line) => line.job === "AlwaysFails").length >= 3,
    );
    const mine = lines.filter((line) => line.job === "AlwaysFails");
    assert.ok(mine.every((line) => line.id === id));
    return { lines: mine, reports: reports.filter((report) => report.name === "AlwaysFails") };
  } finally {
    unsubscribe("fwkit:jobs.failed", listen);
    await host.close();
  }
}

function assertLogged({ lines, reports }: { lines: Line[]; reports: JobFailedMessage[] }): void {
  assert.deepEqual(
    lines.map((line) => [line.level, line.attempt, line.maxAttempts, line.err?.message]),
    [
      [40, 1, 3, "The mailer is not available"],
      [40, 2, 3, "The mailer is not available"],
      [50, 3, 3, "The mailer is not available"],
    ],
  );
  assert.match(
    lines[0]!.msg,
    /job AlwaysFails \(default:\S+\) failed attempt 1 of 3, will retry: The mailer is not available/,
  );
  assert.match(lines[2]!.msg, /failed after 3 attempts and is kept as failed: The mailer is not available/);
  assert.deepEqual(
    reports.map((report) => [report.attempt, report.final]),
    [
      [1, false],
      [2, false],
      [3, true],
    ],
  );
}

describe("failed jobs are logged and reported", () => {
  test("development (memory:, worked in the web process)", async () => {
    assertLogged(await failThreeTimes({ env: "development", queueUrl: "memory:" }));
  });

  test("a worker on BullMQ (redis://)", async () => {
    await requireServer("redis");
    const prefix = uniquePrefix("failure-log");
    try {
      assertLogged(
        await failThreeTimes({
          env: "production",
          secretKey: crypto.randomUUID(),
          queueUrl: `${serverUrls.redis}?prefix=${prefix}`,
          jobs: { workers: 1 },
        }),
      );
    } finally {
      await dropPrefix(serverUrls.redis, prefix);
    }
  });
});
