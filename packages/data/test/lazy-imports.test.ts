// What importing the data battery loads: zod only once a zod schema is checked in a language
// other than English (its locales), never for an app that checks none.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { packagesLoadedBy } from "@fwkit/test-servers";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const entry = JSON.stringify(new URL("../src/index.ts", import.meta.url).href);

/** A Standard Schema of no library: a non-empty `name`. */
const plainSchema = `{ "~standard": { version: 1, vendor: "plain", validate: (v) => typeof v?.name === "string" && v.name ? { value: v } : { issues: [{ message: "name", path: ["name"] }] } } }`;

test("importing @fwkit/data and validating a schema of another library in French loads no zod", () => {
  const loaded = packagesLoadedBy(
    packageDir,
    `const { validate, ValidationError } = await import(${entry});
const { TRANSLATE_STATE_KEY } = await import("@fwkit/koa-host/plugin");
const ctx = { query: {}, request: { body: { name: "" } }, state: { [TRANSLATE_STATE_KEY]: (k) => k, locale: "fr" } };
const failed = await validate(ctx, ${plainSchema}).catch((error) => error);
if (!(failed instanceof ValidationError)) throw new Error("the plain schema did not refuse the input");`,
  );
  assert.ok(
    loaded.commonjs.has("pino") || loaded.esm.has("dayjs") || loaded.commonjs.has("dayjs"),
    "the recorder works",
  );
  assert.ok(!loaded.esm.has("zod") && !loaded.commonjs.has("zod"), "zod was loaded without a zod schema");
});

test("a zod schema checked in French loads zod's locales then, and its messages are French", () => {
  const loaded = packagesLoadedBy(
    packageDir,
    `const { validate, ValidationError } = await import(${entry});
const { TRANSLATE_STATE_KEY } = await import("@fwkit/koa-host/plugin");
const { z } = await import("zod");
const ctx = { query: {}, request: { body: { name: "x" } }, state: { [TRANSLATE_STATE_KEY]: (k) => k, locale: "fr" } };
const failed = await validate(ctx, z.object({ name: z.string().min(2) })).catch((error) => error);
if (!(failed instanceof ValidationError) || !/^Trop petit/.test(failed.fields.name[0])) throw new Error("not French: " + JSON.stringify(failed.fields));`,
  );
  assert.ok(loaded.esm.has("zod") || loaded.commonjs.has("zod"));
});
