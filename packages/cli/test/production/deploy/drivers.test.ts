// The image of an app gets the drivers its production configuration and the compose file's
// services need, at the batteries' peer ranges, even when the app's package.json lists none of them.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import {
  COMPOSE_ENVIRONMENT,
  configDrivers,
  driverRanges,
  missingDrivers,
  productionDrivers,
} from "../../../src/production/deploy/drivers.js";

const work = mkdtempSync(join(tmpdir(), "deploy-drivers-"));
after(() => rmSync(work, { recursive: true, force: true }));
const packages = fileURLToPath(new URL("../../../../", import.meta.url));
const peers = (name: string) =>
  (
    JSON.parse(readFileSync(join(packages, name, "package.json"), "utf8")) as {
      peerDependencies: Record<string, string>;
    }
  ).peerDependencies;

test("each configured backend names its driver", () => {
  assert.deepEqual(configDrivers({ dbUrl: "postgres://db/app", sessionUrl: "redis://r:6379/0" }), ["ioredis", "pg"]);
  assert.deepEqual(configDrivers({ dbUrl: "mysql://db/app", queueUrl: "redis://r/3" }), [
    "bullmq",
    "ioredis",
    "mysql2",
  ]);
  assert.deepEqual(configDrivers({ dbUrl: "sqlite:data/app.db", queueUrl: "memory:", mailUrl: "smtp://m:25" }), [
    "better-sqlite3",
    "nodemailer",
  ]);
  assert.deepEqual(configDrivers({ passwordAlgorithm: "argon2id", storageUrl: "s3://bucket" }), [
    "@aws-sdk/client-s3",
    "@aws-sdk/s3-request-presigner",
    "@node-rs/argon2",
    "flydrive",
  ]);
  assert.deepEqual(configDrivers(COMPOSE_ENVIRONMENT), ["bullmq", "ioredis", "pg"]);
});

test("the image's package.json adds the drivers the app lacks, at the ranges of the batteries its framework uses", async () => {
  const app = join(work, "shop");
  mkdirSync(join(app, "node_modules"), { recursive: true });
  symlinkSync(join(packages, "fw-a"), join(app, "node_modules", "fw-a"), "dir");
  writeFileSync(join(app, "app.ts"), "export {};\n");
  const manifest = { name: "shop", dependencies: { "fw-a": "^0.1.0", pg: "^8.20.0" } };
  writeFileSync(join(app, "package.json"), JSON.stringify(manifest));
  const ranges = driverRanges(app, "fw-a");
  assert.equal(ranges["pg"], peers("data")["pg"]);
  assert.equal(ranges["bullmq"], peers("jobs")["bullmq"]);
  assert.equal(ranges["ioredis"], peers("security")["ioredis"]);
  const needed = await productionDrivers(app, "x".repeat(48));
  for (const name of ["pg", "ioredis", "bullmq"]) assert.ok(needed.includes(name), `${name} in ${needed.join(", ")}`);
  assert.deepEqual(missingDrivers(manifest, needed, ranges), {
    bullmq: peers("jobs")["bullmq"],
    ioredis: peers("security")["ioredis"],
    ...(needed.includes("better-sqlite3") ? { "better-sqlite3": peers("data")["better-sqlite3"] } : {}),
  });
});
