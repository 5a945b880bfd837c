// Every config key of the host, the frameworks, each battery and fw-b is declared in one schema, and
// the schemas share one rule: a misspelt key stops the start naming the known ones (with a "did you
// mean"), and a string from the environment is accepted or refused the same way by every battery.
// Reads the built packages, as scripts/config-table.mjs does.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import { configSections } from "../scripts/config-table.mjs";

interface Spec {
  readonly kind: string;
  readonly keys?: Readonly<Record<string, Spec>>;
  readonly checkOnly?: boolean;
}
interface Schema {
  readonly shape: Readonly<Record<string, Spec>>;
  readonly configKeys: object;
  resolveKey(name: string, source: object, options: { env: object }): unknown;
}
interface Section {
  readonly owner: string;
  readonly schema: Schema;
}

const root = join(import.meta.dirname, "..");
const { mergeConfigKeys, validateConfigKeys } = (await import(
  pathToFileURL(join(root, "packages/koa-host/dist/config-keys.js")).href
)) as {
  mergeConfigKeys(...declarations: object[]): object;
  validateConfigKeys(config: object, keys: object, where: string): void;
};
const sections = (await configSections()) as Section[];
const everyKey = mergeConfigKeys(...sections.map((section) => section.schema.configKeys));

/** Each key of a schema, as its path (`["jobs", "workers"]`) and spec, blocks and sections walked into. */
function* keysOf(shape: Readonly<Record<string, Spec>>, path: readonly string[] = []): Generator<[string[], Spec]> {
  for (const [name, spec] of Object.entries(shape)) {
    yield [[...path, name], spec];
    if (spec.keys && !spec.checkOnly) yield* keysOf(spec.keys, [...path, name]);
  }
}

/** `{ a: { b: value } }` for the path `a.b`. */
function nested(path: readonly string[], value: unknown): Record<string, unknown> {
  return path.reduceRight<unknown>((inner, name) => ({ [name]: inner }), value) as Record<string, unknown>;
}

/** Reads one key through its schema: the value read, or the error thrown. */
function read(schema: Schema, path: readonly string[], value: unknown): { value?: unknown; error?: Error } {
  try {
    let result = schema.resolveKey(path[0]!, nested(path, value), { env: {} });
    for (const name of path.slice(1)) result = (result as Record<string, unknown>)[name];
    return { value: result };
  } catch (error) {
    return { error: error as Error };
  }
}

describe("one rule for every config key", () => {
  test("the host, the frameworks, every battery of the kit and fw-b have a schema", () => {
    const owners = sections.map((section) => section.owner);
    for (const owner of [
      "host",
      "frameworks",
      "observability",
      "security",
      "data",
      "services",
      "jobs",
      "realtime",
      "fw-b",
    ])
      assert.ok(owners.includes(owner), `${owner} in ${owners.join(", ")}`);
  });

  for (const section of sections) {
    test(`${section.owner}: each misspelt key stops the start naming the known ones`, () => {
      let checked = 0;
      for (const [path] of keysOf(section.schema.shape)) {
        const name = path.at(-1)!;
        const wrong = `${name}x`;
        const config = nested([...path.slice(0, -1), wrong], 1);
        assert.throws(
          () => validateConfigKeys(config, everyKey, "lib/config.ts"),
          (error: Error & { code?: string }) => {
            assert.equal(error.code, "E_CONFIG_UNKNOWN_KEY");
            assert.match(error.message, new RegExp(`Did you mean "${name}"\\?`), error.message);
            assert.match(error.message, /Known keys/);
            assert.ok(error.message.includes(name), error.message);
            return true;
          },
          [...path.slice(0, -1), wrong].join("."),
        );
        checked += 1;
      }
      assert.ok(checked > 0);
    });
  }

  const booleans = sections.flatMap((section) =>
    [...keysOf(section.schema.shape)]
      .filter(([, spec]) => spec.kind === "boolean")
      .map(([path]) => ({ section, path })),
  );
  const numbers = sections.flatMap((section) =>
    [...keysOf(section.schema.shape)]
      .filter(([, spec]) => spec.kind === "integer" || spec.kind === "number")
      .map(([path]) => ({ section, path })),
  );

  const durations = sections.flatMap((section) =>
    [...keysOf(section.schema.shape)]
      .filter(([, spec]) => spec.kind === "duration")
      .map(([path]) => ({ section, path })),
  );

  test("a duration's environment string means the same to every battery", () => {
    assert.ok(durations.length >= 8, `${durations.length} duration keys`);
    const owners = new Set(durations.map(({ section }) => section.owner));
    assert.ok(owners.size >= 2, [...owners].join(", "));
    for (const { section, path } of durations) {
      const where = `${section.owner}: ${path.join(".")}`;
      for (const [text, ms] of [
        ["30s", 30_000],
        [" 5m ", 300_000],
        ["1.5 s", 1500],
        ["2h", 7_200_000],
        ["1d", 86_400_000],
        ["250ms", 250],
        ["250", 250],
      ] as const)
        assert.equal(read(section.schema, path, text).value, ms, `${where}: ${text}`);
      for (const text of ["soon", "5 minutes", "-1s", "1w", "0x10"])
        assert.ok(read(section.schema, path, text).error, `${where} refuses ${text}`);
    }
  });

  test("a boolean's environment string means the same to every battery", () => {
    assert.ok(booleans.length >= 10, `${booleans.length} boolean keys`);
    const owners = new Set(booleans.map(({ section }) => section.owner));
    assert.ok(owners.size >= 5, [...owners].join(", "));
    for (const { section, path } of booleans) {
      const where = `${section.owner}: ${path.join(".")}`;
      for (const text of ["true", "1", "yes", "on", " TRUE "])
        assert.equal(read(section.schema, path, text).value, true, where);
      for (const text of ["false", "0", "no", "off", "Off"])
        assert.equal(read(section.schema, path, text).value, false, where);
      for (const text of ["maybe", "2", "y", "enabled"])
        assert.ok(read(section.schema, path, text).error, `${where} refuses ${text}`);
    }
  });

  test("a number's environment string means the same to every battery", () => {
    assert.ok(numbers.length >= 20, `${numbers.length} number keys`);
    const owners = new Set(numbers.map(({ section }) => section.owner));
    assert.ok(owners.size >= 5, [...owners].join(", "));
    let compared = 0;
    for (const { section, path } of numbers) {
      const where = `${section.owner}: ${path.join(".")}`;
      // The string form of a value the key takes (its default) reads as that value, spaces around ignored.
      const typed = read(section.schema, path, undefined).value;
      if (typeof typed === "number") {
        assert.equal(read(section.schema, path, String(typed)).value, typed, where);
        assert.equal(read(section.schema, path, ` ${typed} `).value, typed, where);
        assert.ok(read(section.schema, path, `${typed}px`).error, `${where} refuses "${typed}px"`);
        compared += 1;
      }
      for (const text of ["0x10", "Infinity", "12px", "ten", "1,5"])
        assert.ok(read(section.schema, path, text).error, `${where} refuses ${text}`);
      // Unset in the environment (an empty variable) is unset: the default.
      assert.equal(read(section.schema, path, "").value, typed, where);
    }
    assert.ok(compared >= 15, `${compared} keys compared with their default`);
  });
});
