/**
 * A battery's config, declared once: `defineConfigSchema({ sessionMaxAge: key.int({...}) }, {...})`
 * gives the app-facing type (`InputOf`), the resolved type (`ResolvedOf`), the keys for the host's
 * start-up check of unknown keys ("did you mean"), the defaults, the reading of environment strings
 * (coerce.ts, one rule for every battery) and the rows of the docs table (table.ts).
 */
import type { ConfigKeys, ConfigShape, ConfigSource, InputOfShape, ResolvedOfShape } from "./keys.js";
import { readShape } from "./keys.js";

/** Options of {@link defineConfigSchema}. */
export interface ConfigSchemaOptions {
  /**
   * Makes the battery's start-up error for a wrong value: the key's dotted name, what it takes
   * (`an integer from 4 to 31`), the value given (`"(hidden)"` for a secret).
   */
  readonly invalid: (path: string, expected: string, value: unknown) => Error;
  /**
   * Keys the battery reads that another part declares and types (the host's `env`, `secretKey`):
   * added to the start-up check's declaration, never read or typed here.
   */
  readonly alsoReads?: readonly string[];
}

/** Options of {@link ConfigSchema.resolve}. */
export interface ResolveOptions {
  /** The environment variables keys with an `env` name fall back to (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** A battery's declared config (see {@link defineConfigSchema}). */
export interface ConfigSchema<Shape extends ConfigShape> {
  /** The keys, as declared. */
  readonly shape: Shape;
  /** The declaration the host checks an app's config against at start-up (a plugin's `configKeys`). */
  readonly configKeys: ConfigKeys;
  /** Reads every key of the app's config (unset: the environment variable, else the default); a wrong value throws. */
  resolve(source: object, options?: ResolveOptions): ResolvedOfShape<Shape>;
  /** Reads one key (a block, often) of the app's config, the way {@link ConfigSchema.resolve} reads every key. */
  resolveKey<Name extends keyof Shape & string>(
    name: Name,
    source: object,
    options?: ResolveOptions,
  ): ResolvedOfShape<Shape>[Name];
}

/** The config keys as an app writes them (every key optional): what a battery adds to `AppConfig`. */
export type InputOf<Schema> = Schema extends ConfigSchema<infer Shape> ? InputOfShape<Shape> : never;

/** The config as the battery reads it after defaults. */
export type ResolvedOf<Schema> = Schema extends ConfigSchema<infer Shape> ? ResolvedOfShape<Shape> : never;

function declarationOf(shape: ConfigShape): ConfigKeys {
  return Object.freeze(
    Object.fromEntries(
      Object.entries(shape).map(([name, spec]): [string, true | ConfigKeys] => [
        name,
        spec.keys === undefined ? true : declarationOf(spec.keys),
      ]),
    ),
  );
}

/** Declares a battery's config keys once; see the module comment for what it gives. */
export function defineConfigSchema<const Shape extends ConfigShape>(
  shape: Shape,
  options: ConfigSchemaOptions,
): ConfigSchema<Shape> {
  const configKeys = Object.freeze({
    ...Object.fromEntries((options.alsoReads ?? []).map((name) => [name, true as const])),
    ...declarationOf(shape),
  });
  const invalid = (path: string, expected: string, value: unknown): never => {
    throw options.invalid(path, expected, value);
  };
  return Object.freeze({
    shape,
    configKeys,
    resolve(source: object, resolveOptions: ResolveOptions = {}) {
      const root = source as ConfigSource;
      return readShape(shape, root, { root, env: resolveOptions.env ?? process.env, invalid }, "");
    },
    resolveKey<Name extends keyof Shape & string>(name: Name, source: object, resolveOptions: ResolveOptions = {}) {
      const root = source as ConfigSource;
      const one: ConfigShape = { [name]: shape[name] as Shape[Name] };
      const read = readShape(one, root, { root, env: resolveOptions.env ?? process.env, invalid }, "");
      return read[name] as ResolvedOfShape<Shape>[Name];
    },
  });
}
