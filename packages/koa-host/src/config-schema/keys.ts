/**
 * The kinds of config key a schema is written with (`key.string()`, `key.int()`...). Each key
 * carries what the docs table shows (its kind, default, environment variable, description) and
 * how its value is read; the value is read by the one rule of coerce.ts, so a string from the
 * environment means the same thing to every battery.
 */
import { isPlainObject } from "routing-kernel/plugin";
import { coerceBoolean, coerceNumber, coerceStringList, isUnset, NOT_READ } from "./coerce.js";
import { DURATION_EXPECTED, type Duration, parseDuration } from "./duration.js";

/** The config keys a package reads: `true` for a value, a nested declaration for a block. */
export interface ConfigKeys {
  readonly [key: string]: true | ConfigKeys;
}

/** The raw config a schema reads (the app's merged config, or one block of it). */
export type ConfigSource = Readonly<Record<string, unknown>>;

/** What a key's reader is given besides its value. */
export interface ReadContext {
  /** The key's dotted name (`storage.maxBytes`), for errors. */
  readonly path: string;
  /** The whole config being read (for defaults that follow another key, such as `env`). */
  readonly root: ConfigSource;
  /** The environment variables keys fall back to. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Throws the battery's start-up error: the key, what it takes, the value given. */
  invalid(path: string, expected: string, value: unknown): never;
}

/**
 * One key of a schema. `In` is the type an app writes, `Out` the type the battery reads after
 * defaults; `read` is given the value as written (or from the key's environment variable).
 */
export interface ConfigKey<In, Out> {
  /** The kind shown in the docs table (`integer, 1 or more`, `"lax" | "strict"`). */
  readonly kind: string;
  /** One line for the docs table. */
  readonly doc: string;
  /** The environment variable read when the config leaves the key unset. */
  readonly env: string | undefined;
  /** Never shown in errors or docs by value. */
  readonly secret: boolean;
  /** The default as the docs table shows it (Markdown); undefined when there is none. */
  readonly defaultText: string | undefined;
  /** A block's keys (checked for unknown keys at start-up); undefined for a value. */
  readonly keys: ConfigShape | undefined;
  /** True when `keys` only serve the unknown-key check (the value is read as a whole, not key by key). */
  readonly checkOnly?: boolean;
  /** Reads the value (unset: the default) or throws through `context.invalid`. */
  read(value: unknown, context: ReadContext): Out;
  /** Type carrier only: never set. */
  readonly types?: { readonly in: In; readonly out: Out };
}

/** The keys of a schema or block, by name. */
export interface ConfigShape {
  // biome-ignore lint/suspicious/noExplicitAny: any key of any types
  readonly [name: string]: ConfigKey<any, any>;
}

/**
 * A default: a value, or a function of the whole config and the environment variables
 * (`(config) => config.env === "production"`).
 */
export type Default<T> = T | ((root: ConfigSource, env: Readonly<Record<string, string | undefined>>) => T);

/** Options every kind of key takes. */
export interface KeyOptions<T> {
  /** One line for the docs table. */
  readonly doc: string;
  /** The value when the key is unset. Without one, an unset key reads as `undefined`. */
  readonly default?: Default<T>;
  /** How the docs table shows the default, as Markdown (needed when `default` is a function). */
  readonly defaultText?: string;
  /** An environment variable read when the config leaves the key unset (`METRICS_PORT`). */
  readonly env?: string;
  /** A secret: its value is never shown in an error. */
  readonly secret?: boolean;
}

/** `T` when the options give a default, else `T | undefined`. */
export type WithDefault<T, O> = O extends { readonly default: unknown } ? T : T | undefined;

function defaultOf<T>(options: KeyOptions<T>, context: ReadContext): T | undefined {
  const given = options.default;
  return typeof given === "function"
    ? (given as (root: ConfigSource, env: ReadContext["env"]) => T)(context.root, context.env)
    : given;
}

function shownDefault<T>(options: KeyOptions<T>): string | undefined {
  if (options.defaultText !== undefined) return options.defaultText;
  if (options.default === undefined || typeof options.default === "function") return undefined;
  return `\`${JSON.stringify(options.default)}\``;
}

/** A key of one value: `check` reads a set value (or throws through the context). */
function valueKey<In, Out, O extends KeyOptions<Out>>(
  kind: string,
  options: O,
  check: (value: unknown, context: ReadContext) => Out,
): ConfigKey<In, WithDefault<Out, O>> {
  return Object.freeze({
    kind,
    doc: options.doc,
    env: options.env,
    secret: options.secret ?? false,
    defaultText: shownDefault(options),
    keys: undefined,
    read(value: unknown, context: ReadContext): WithDefault<Out, O> {
      if (isUnset(value)) return defaultOf(options, context) as WithDefault<Out, O>;
      const shown = options.secret ? "(hidden)" : value;
      return check(value, { ...context, invalid: (path, expected) => context.invalid(path, expected, shown) });
    },
  });
}

/** Options of a string key. */
export interface StringOptions extends KeyOptions<string> {
  /** What a valid value looks like; `expected` describes it for errors (`a cookie name`). */
  readonly pattern?: RegExp;
  readonly expected?: string;
}

function string<const O extends StringOptions>(options: O): ConfigKey<string, WithDefault<string, O>> {
  const expected = options.expected ?? "a string";
  return valueKey<string, string, O>("string", options, (value, context) => {
    if (typeof value !== "string" || (options.pattern && !options.pattern.test(value)))
      return context.invalid(context.path, expected, value);
    return value;
  });
}

/** Options of a number key. */
export interface NumberOptions extends KeyOptions<number> {
  /** Smallest value allowed (inclusive). */
  readonly min?: number;
  /** Largest value allowed (inclusive). */
  readonly max?: number;
  /** Values must be above this one (`above: 0`: positive). */
  readonly above?: number;
  /** What a valid value is, for errors (default: said from the bounds). */
  readonly expected?: string;
}

function bounds(options: NumberOptions, what: string): string {
  if (options.expected) return options.expected;
  if (options.above !== undefined) return `${what} above ${options.above}`;
  if (options.min !== undefined && options.max !== undefined) return `${what} from ${options.min} to ${options.max}`;
  if (options.min !== undefined) return `${what} of ${options.min} or more`;
  if (options.max !== undefined) return `${what} of ${options.max} or less`;
  return what;
}

function numberKey<O extends NumberOptions>(options: O, integer: boolean): ConfigKey<number, WithDefault<number, O>> {
  const expected = bounds(options, integer ? "an integer" : "a number");
  return valueKey(integer ? "integer" : "number", options, (value, context) => {
    const number = coerceNumber(value);
    if (
      number === NOT_READ ||
      (integer && !Number.isInteger(number)) ||
      (options.min !== undefined && number < options.min) ||
      (options.max !== undefined && number > options.max) ||
      (options.above !== undefined && number <= options.above)
    )
      return context.invalid(context.path, expected, value);
    return number;
  });
}

function int<const O extends NumberOptions>(options: O): ConfigKey<number, WithDefault<number, O>> {
  return numberKey(options, true);
}

function number<const O extends NumberOptions>(options: O): ConfigKey<number, WithDefault<number, O>> {
  return numberKey(options, false);
}

function bool<const O extends KeyOptions<boolean>>(options: O): ConfigKey<boolean, WithDefault<boolean, O>> {
  return valueKey("boolean", options, (value, context) => {
    const read = coerceBoolean(value);
    return read === NOT_READ ? context.invalid(context.path, "true or false", value) : read;
  });
}

function oneOf<const T extends string, const O extends KeyOptions<T>>(
  values: readonly T[],
  options: O,
): ConfigKey<T, WithDefault<T, O>> {
  const expected = `one of ${values.join(", ")}`;
  return valueKey(values.map((value) => `\`"${value}"\``).join(" \\| "), options, (value, context) => {
    if (typeof value !== "string" || !(values as readonly string[]).includes(value))
      context.invalid(context.path, expected, value);
    return value as T;
  });
}

/** Options of a list of strings. */
export interface ListOptions extends KeyOptions<readonly string[]> {
  /** Refuse empty strings in the list. */
  readonly nonEmpty?: boolean;
  /** Checks each item; `expected` describes a valid list for errors. */
  readonly item?: RegExp;
  readonly expected?: string;
}

function list<const O extends ListOptions>(
  options: O,
): ConfigKey<readonly string[], WithDefault<readonly string[], O>> {
  const expected = options.expected ?? (options.nonEmpty ? "a list of non-empty strings" : "a list of strings");
  return valueKey("list of strings", options, (value, context) => {
    const read = coerceStringList(value);
    if (
      read === NOT_READ ||
      (options.nonEmpty && read.some((item) => item === "")) ||
      (options.item && read.some((item) => !options.item?.test(item)))
    )
      return context.invalid(context.path, expected, value);
    return Object.freeze(read);
  });
}

/** Options of a key read by the battery's own function. */
export interface CustomOptions<Out> extends KeyOptions<Out> {
  /** The kind shown in the docs table. */
  readonly kind: string;
  /** Reads a set value; throws through `context.invalid` (or the battery's own error). */
  readonly read: (value: unknown, context: ReadContext) => Out;
  /** The keys of an object value, for the start-up check of unknown keys (`cors.orign`). */
  readonly keys?: readonly string[];
}

/**
 * A key whose value has a shape of its own (CORS settings, an exporter object): `In` is what an
 * app writes, `read` checks it. Unset values still take the default.
 */
function custom<In, Out = In>(options: CustomOptions<Out>): ConfigKey<In, Out> {
  const made = valueKey(options.kind, options, options.read) as ConfigKey<In, Out>;
  if (options.keys === undefined) return made;
  const keys = Object.fromEntries(options.keys.map((name) => [name, made]));
  return Object.freeze({ ...made, keys, read: made.read, checkOnly: true });
}

/** Options of a duration key: `default` is a {@link Duration} too; `min` is in milliseconds. */
export interface DurationOptions extends Omit<KeyOptions<number>, "default"> {
  readonly default?: Duration;
  /** The shortest duration accepted, in milliseconds (`1`: zero is refused). */
  readonly min?: number;
}

/** A length of time (`30000`, `"30s"`, `"5m"`), read as whole milliseconds by {@link parseDuration}. */
function duration<const O extends DurationOptions>(options: O): ConfigKey<Duration, WithDefault<number, O>> {
  const min = options.min ?? 0;
  const expected = min > 0 ? `${DURATION_EXPECTED}, at least ${min} ms` : DURATION_EXPECTED;
  const fallback = options.default === undefined ? undefined : parseDuration(options.default);
  if (options.default !== undefined && (fallback === undefined || fallback < min)) {
    throw new TypeError(`The default ${JSON.stringify(options.default)} of a duration key is not ${expected}.`);
  }
  const { default: given, ...rest } = options;
  const made = {
    ...rest,
    defaultText: options.defaultText ?? (given === undefined ? undefined : `\`${JSON.stringify(given)}\``),
  };
  return valueKey<Duration, number, KeyOptions<number>>(
    "duration",
    fallback === undefined ? made : { ...made, default: fallback },
    (value, context) => {
      const ms = parseDuration(value);
      return ms !== undefined && ms >= min ? ms : context.invalid(context.path, expected, value);
    },
  ) as ConfigKey<Duration, WithDefault<number, O>>;
}

/** Options of a block of keys. */
export interface BlockOptions {
  /** One line for the docs table. */
  readonly doc: string;
}

/** The app-facing type of a block or schema: every key optional. */
export type InputOfShape<Shape extends ConfigShape> = {
  readonly [Name in keyof Shape]?: Shape[Name] extends ConfigKey<infer In, unknown> ? In : never;
};

/** The resolved type of a block or schema: each key's type after defaults. */
export type ResolvedOfShape<Shape extends ConfigShape> = {
  readonly [Name in keyof Shape]: Shape[Name] extends ConfigKey<unknown, infer Out> ? Out : never;
};

/**
 * Reads each key of `shape` from `source` (a key unset there falls back to its environment
 * variable), with `prefix` before the names in errors.
 */
export function readShape<Shape extends ConfigShape>(
  shape: Shape,
  source: ConfigSource,
  context: Omit<ReadContext, "path">,
  prefix: string,
): ResolvedOfShape<Shape> {
  const read: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(shape)) {
    let value = source[name];
    if (isUnset(value) && spec.env !== undefined) value = context.env[spec.env];
    read[name] = spec.read(value, { ...context, path: `${prefix}${name}` });
  }
  return Object.freeze(read) as ResolvedOfShape<Shape>;
}

/** A block of keys (`storage: key.block({ maxBytes: key.int(...) })`): read key by key, unset means all defaults. */
function block<const Shape extends ConfigShape>(
  shape: Shape,
  options: BlockOptions,
): ConfigKey<InputOfShape<Shape>, ResolvedOfShape<Shape>> {
  return Object.freeze({
    kind: "block",
    doc: options.doc,
    env: undefined,
    secret: false,
    defaultText: undefined,
    keys: shape,
    read(value: unknown, context: ReadContext) {
      if (value !== undefined && value !== null && !isPlainObject(value))
        context.invalid(context.path, "an object of options", value);
      return readShape(shape, (value ?? {}) as ConfigSource, context, `${context.path}.`);
    },
  });
}

/**
 * A part that is switched on with its block (`contrib: { auth: true }`, `{ auth: { signup: false } }`):
 * unset or `false` reads as `undefined` (off), `true` as every default, an object key by key. The
 * boolean strings of coerce.ts (`"true"`, `"off"`...) switch it as `true`/`false` do.
 */
function section<const Shape extends ConfigShape>(
  shape: Shape,
  options: BlockOptions,
): ConfigKey<boolean | InputOfShape<Shape>, ResolvedOfShape<Shape> | undefined> {
  return Object.freeze({
    kind: "true, false or a block",
    doc: options.doc,
    env: undefined,
    secret: false,
    defaultText: "`false`",
    keys: shape,
    read(value: unknown, context: ReadContext) {
      const on = isUnset(value) ? false : isPlainObject(value) ? value : coerceBoolean(value);
      if (on === NOT_READ) return context.invalid(context.path, "true, false or an object of options", value);
      if (on === false) return undefined;
      return readShape(shape, (on === true ? {} : on) as ConfigSource, context, `${context.path}.`);
    },
  });
}

/** The kinds of key a config schema is written with. */
export const key = Object.freeze({ string, int, number, bool, oneOf, list, duration, custom, block, section });
