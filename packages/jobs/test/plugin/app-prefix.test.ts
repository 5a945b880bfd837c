// The jobs battery's default Redis key prefix is the app's own (`fwkit-<package.json name>`): two
// apps on one Redis database, each with its worker, never take each other's jobs; jobs.prefix and
// a ?prefix= in QUEUE_URL still choose it.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import type { Host } from "@fwkit/koa-host";
import { createHost, HostView } from "@fwkit/koa-host/plugin";
import { requireServer, serverUrls } from "@fwkit/test-servers";
import { Redis } from "ioredis";
import { defineConventions } from "routing-kernel";
import { z } from "zod";
import { defineJob, jobsOf, jobsPlugin } from "../../src/index.js";
import { appQueuePrefix } from "../../src/plugin/app-prefix.js";
import { dropPrefix, waitFor } from "../helpers.js";

class View extends HostView {}
const conventions = defineConventions({ baseClass: View, trailingSlash: false });
const responder = () => ({ prepare: () => () => {}, renderError: () => {}, describe: () => "text" });
const quiet = { level: "silent", trace() {}, debug() {}, info() {}, warn() {}, error() {}, fatal() {} } as Record<
  string,
  unknown
>;
quiet["child"] = () => quiet;

const roots: string[] = [];
function appFolder(manifest: Record<string, unknown> | undefined): string {
  const root = mkdtempSync(join(tmpdir(), "jobs-app-prefix-"));
  if (manifest) writeFileSync(join(root, "package.json"), JSON.stringify(manifest));
  roots.push(root);
  return root;
}

/** Both apps have a job of the same name (apps often do), each recording which app ran it. */
const ranBy: Array<{ app: string; from: string }> = [];
const deliverOf = (app: string) =>
  defineJob({
    name: "Deliver",
    schema: z.object({ from: z.string() }),
    handle(payload) {
      ranBy.push({ app, from: payload.from });
    },
  });

function start(root: string, app: string, jobs: Record<string, unknown>, queueUrl = serverUrls.redis): Promise<Host> {
  return createHost({
    root,
    conventions,
    responder,
    modules: [],
    plugins: [jobsPlugin({ jobs: [deliverOf(app)] })],
    logger: quiet as never,
    config: { env: "development", logRequests: false, queueUrl, jobs: { dashboard: false, ...jobs } },
  });
}

async function keysUnder(prefix: string): Promise<number> {
  const redis = new Redis(serverUrls.redis);
  try {
    return (await redis.keys(`${prefix}:*`)).length;
  } finally {
    redis.disconnect();
  }
}

describe("the jobs battery's Redis key prefix", () => {
  const tag = randomBytes(4).toString("hex");
  const prefixes = [
    `fwkit-shop-${tag}`,
    `fwkit-tracker-${tag}`,
    `fwjobs-test-explicit-${tag}`,
    `fwjobs-test-url-${tag}`,
  ];
  after(async () => {
    for (const prefix of prefixes) await dropPrefix(serverUrls.redis, prefix);
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  test("is fwkit-<the package.json name>, reduced to what a prefix may hold", () => {
    assert.equal(appQueuePrefix(appFolder({ name: "shop" })), "fwkit-shop");
    assert.equal(appQueuePrefix(appFolder({ name: "@acme/shop" })), "fwkit-acme-shop");
    assert.equal(appQueuePrefix(appFolder({ name: "x".repeat(80) })).length, 50);
    assert.equal(appQueuePrefix(appFolder({ private: true })), "fwkit");
    assert.equal(appQueuePrefix(appFolder(undefined)), "fwkit");
  });

  test("two apps with different names on one Redis database do not take each other's jobs", async () => {
    await requireServer("redis");
    const shop = appFolder({ name: `shop-${tag}`, type: "module" });
    const tracker = appFolder({ name: `tracker-${tag}`, type: "module" });
    // The tracker's worker runs; the shop has none yet (its workers are down, or on another node).
    const trackerApp = await start(tracker, "tracker", { workers: 1 });
    const shopWeb = await start(shop, "shop", { workers: 0 });
    let shopWorker: Host | undefined;
    try {
      await jobsOf(shopWeb)!.queue!.dispatchByName("Deliver", { from: "shop" });
      await jobsOf(trackerApp)!.queue!.dispatchByName("Deliver", { from: "tracker" });
      await waitFor("the tracker's own job to run", () => ranBy.some((run) => run.from === "tracker"));
      assert.deepEqual(ranBy, [{ app: "tracker", from: "tracker" }], "the tracker's worker ran only its own job");
      assert.ok((await keysUnder(`fwkit-shop-${tag}`)) > 0, "the shop's job is kept under the shop's prefix");
      shopWorker = await start(shop, "shop", { workers: 1 });
      await waitFor("the shop's job to run on the shop's worker", () => ranBy.length === 2);
      assert.deepEqual(ranBy[1], { app: "shop", from: "shop" });
    } finally {
      await shopWorker?.close();
      await shopWeb.close();
      await trackerApp.close();
    }
  });

  test("jobs.prefix, and a ?prefix= in QUEUE_URL, still choose the prefix", async () => {
    await requireServer("redis");
    const root = appFolder({ name: `prefixed-${tag}` });
    const explicit = await start(root, "explicit", { prefix: `fwjobs-test-explicit-${tag}` });
    const fromUrl = await start(root, "url", {}, `${serverUrls.redis}?prefix=fwjobs-test-url-${tag}`);
    try {
      await jobsOf(explicit)!.queue!.dispatchByName("Deliver", { from: "explicit" });
      await jobsOf(fromUrl)!.queue!.dispatchByName("Deliver", { from: "url" });
      assert.ok((await keysUnder(`fwjobs-test-explicit-${tag}`)) > 0);
      assert.ok((await keysUnder(`fwjobs-test-url-${tag}`)) > 0);
      assert.equal(await keysUnder(`fwkit-prefixed-${tag}`), 0);
    } finally {
      await explicit.close();
      await fromUrl.close();
    }
  });
});
