// The config schema: one declaration gives the types, the key check, the defaults, the one reading
// of environment strings and the docs table's rows.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { validateConfigKeys } from "../src/config-keys.js";
import {
  defineConfigSchema,
  type InputOf,
  key,
  renderConfigTable,
  type ResolvedOf,
} from "../src/config-schema/index.js";

class Invalid extends Error {
  constructor(
    readonly path: string,
    readonly expected: string,
    readonly value: unknown,
  ) {
    super(`${path} must be ${expected}, not ${JSON.stringify(value)}`);
  }
}

const schema = defineConfigSchema(
  {
    cookie: key.string({ doc: "Cookie name.", default: "session", pattern: /^[a-z]+$/, expected: "a cookie name" }),
    maxAge: key.int({ doc: "Lifetime in seconds.", default: 86400, min: 1 }),
    secure: key.bool({
      doc: "Secure cookies.",
      default: (config) => config["env"] === "production",
      defaultText: "true in production",
    }),
    sameSite: key.oneOf(["lax", "strict", "none"], { doc: "SameSite.", default: "lax" }),
    token: key.string({ doc: "A secret.", secret: true, env: "SCHEMA_TEST_TOKEN" }),
    names: key.list({ doc: "Names.", default: [], nonEmpty: true }),
    ratio: key.number({ doc: "A ratio.", min: 0, max: 1 }),
    storage: key.block({ maxBytes: key.int({ doc: "Largest upload.", min: 0 }) }, { doc: "Uploads." }),
  },
  { invalid: (path, expected, value) => new Invalid(path, expected, value), alsoReads: ["env"] },
);

describe("defineConfigSchema", () => {
  test("defaults fill unset keys; undefined, null and an empty string are unset", () => {
    const read = schema.resolve({ cookie: "", maxAge: null }, { env: {} });
    assert.deepEqual(
      { ...read, storage: { ...read.storage } },
      {
        cookie: "session",
        maxAge: 86400,
        secure: false,
        sameSite: "lax",
        token: undefined,
        names: [],
        ratio: undefined,
        storage: { maxBytes: undefined },
      },
    );
    assert.equal(schema.resolve({ env: "production" }, { env: {} }).secure, true, "a default that follows env");
  });

  test("strings from the environment: one rule for numbers, booleans and lists", () => {
    for (const [text, value] of [
      ["1", true],
      ["TRUE", true],
      ["yes", true],
      ["on", true],
      ["0", false],
      ["off", false],
      ["No", false],
    ] as const)
      assert.equal(schema.resolve({ secure: text }, { env: {} }).secure, value, text);
    const read = schema.resolve(
      { maxAge: " 60 ", ratio: "0.5", names: "a, b,,c", storage: { maxBytes: "1e3" } },
      { env: {} },
    );
    assert.equal(read.maxAge, 60);
    assert.equal(read.ratio, 0.5);
    assert.deepEqual(read.names, ["a", "b", "c"]);
    assert.equal(read.storage.maxBytes, 1000);
    for (const [name, value] of [
      ["maxAge", "0x10"],
      ["maxAge", "12px"],
      ["maxAge", 1.5],
      ["maxAge", 0],
      ["secure", "maybe"],
      ["ratio", "Infinity"],
      ["ratio", 2],
      ["cookie", 5],
      ["cookie", "Bad;"],
      ["sameSite", "loose"],
      ["names", [""]],
    ] as const) {
      assert.throws(
        () => schema.resolve({ [name]: value }, { env: {} }),
        (error: Invalid) => error.path === name,
        `${name}=${String(value)}`,
      );
    }
    assert.throws(
      () => schema.resolve({ storage: { maxBytes: -1 } }, { env: {} }),
      (error: Invalid) => error.path === "storage.maxBytes",
    );
    assert.throws(
      () => schema.resolve({ storage: 5 }, { env: {} }),
      (error: Invalid) => error.path === "storage",
    );
  });

  test("durations: one reading in every battery, whole milliseconds, a unit or none", () => {
    const timing = defineConfigSchema(
      {
        wait: key.duration({ doc: "A wait.", default: "30s" }),
        beat: key.duration({ doc: "A heartbeat.", default: "15s", min: 1 }),
      },
      { invalid: (path, expected, value) => new Invalid(path, expected, value) },
    );
    assert.deepEqual(timing.resolve({}, { env: {} }), { wait: 30_000, beat: 15_000 });
    for (const [text, ms] of [
      [250, 250],
      ["250", 250],
      [" 5m ", 300_000],
      ["1.5 s", 1500],
      ["2h", 7_200_000],
      ["1d", 86_400_000],
      ["500ms", 500],
      ["0", 0],
    ] as const)
      assert.equal(timing.resolve({ wait: text }, { env: {} }).wait, ms, String(text));
    for (const bad of ["5 minutes", "-1s", "1w", "s", -5, Number.NaN])
      assert.throws(
        () => timing.resolve({ wait: bad }, { env: {} }),
        (error: Invalid) => error.path === "wait" && /30s/.test(error.expected),
        String(bad),
      );
    assert.throws(
      () => timing.resolve({ beat: "0s" }, { env: {} }),
      (error: Invalid) => error.path === "beat" && /at least 1 ms/.test(error.expected),
    );
    assert.match(renderConfigTable([{ owner: "test", schema: timing }]), /\| `wait` \| test \| duration \| `"30s"` \|/);
    assert.throws(() => key.duration({ doc: "Broken.", default: "soon" }), /not a number of milliseconds/);
  });

  test("a key with an environment variable reads it when the config leaves it unset; a secret is never shown", () => {
    assert.equal(schema.resolve({}, { env: { SCHEMA_TEST_TOKEN: "from-env" } }).token, "from-env");
    assert.equal(schema.resolve({ token: "given" }, { env: { SCHEMA_TEST_TOKEN: "from-env" } }).token, "given");
    const secretSchema = defineConfigSchema(
      { token: key.string({ doc: "A secret.", secret: true, pattern: /^.{16,}$/ }) },
      { invalid: (path, expected, value) => new Invalid(path, expected, value) },
    );
    assert.throws(
      () => secretSchema.resolve({ token: "short" }, { env: {} }),
      (error: Invalid) => error.value === "(hidden)",
    );
  });

  test("the start-up check: unknown keys, in blocks too, with a suggestion", () => {
    assert.deepEqual(Object.keys(schema.configKeys).sort(), [
      "cookie",
      "env",
      "maxAge",
      "names",
      "ratio",
      "sameSite",
      "secure",
      "storage",
      "token",
    ]);
    assert.throws(
      () => validateConfigKeys({ maxAg: 1 }, schema.configKeys, "lib/config.ts"),
      /Did you mean "maxAge"\?/,
    );
    assert.throws(
      () => validateConfigKeys({ storage: { maxByte: 1 } }, schema.configKeys, "lib/config.ts"),
      /storage\.maxByte/,
    );
  });

  test("the types follow from the declaration", () => {
    const input: InputOf<typeof schema> = { maxAge: 5, sameSite: "strict", storage: { maxBytes: 1 } };
    // @ts-expect-error -- not one of the values
    const wrong: InputOf<typeof schema> = { sameSite: "loose" };
    const resolved: ResolvedOf<typeof schema> = schema.resolve(input, { env: {} });
    const age: number = resolved.maxAge;
    const token: string | undefined = resolved.token;
    // @ts-expect-error -- no default: may be undefined
    const ratio: number = resolved.ratio;
    void [wrong, age, token, ratio];
  });

  test("the docs table: one row per key, blocks as dotted names", () => {
    const table = renderConfigTable([{ owner: "test", schema }]);
    assert.match(table, /\| `maxAge` \| test \| integer \| `86400` \| - \| Lifetime in seconds\. \|/);
    assert.match(table, /\| `storage\.maxBytes` \|/);
    assert.match(table, /\| `token` \| test \| string \| - \| `SCHEMA_TEST_TOKEN` \|/);
    assert.match(table, /`"lax"` \\\| `"strict"`/);
  });
});
