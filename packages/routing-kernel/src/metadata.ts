import type { Verb } from "./verbs.js";

// TC39 decorators hand every decorator of a class one shared `context.metadata` object, and
// subclasses get an object whose prototype is the parent's. Node 20 has no `Symbol.metadata`, and
// TypeScript only emits metadata when it exists, so it is polyfilled with the registry symbol that
// esbuild and TypeScript both fall back to.
(Symbol as { metadata?: symbol }).metadata ??= Symbol.for("Symbol.metadata");

/** The `Symbol.metadata` symbol, polyfilled where the runtime lacks it. */
export const METADATA: symbol = Symbol.metadata;

// A registry symbol, so two copies of this package read the same metadata.
const STORE = Symbol.for("routing-kernel.store");

/** What decorators recorded about one method. */
export interface MethodMetadata {
  /** Verbs the method is restricted to; empty means "decided by its name". */
  readonly verbs: readonly Verb[];
  /** Paths given by route decorators; empty means "generated". */
  readonly paths: readonly string[];
  /** Framework-defined values (response kind, CSRF exemption, menu title...). */
  readonly tags: Readonly<Record<string, unknown>>;
  /** The metadata object of the class that declared the decorated method. */
  readonly owner: object;
}

/** What decorators recorded about one class. */
export interface ClassMetadata {
  /**
   * Prefix from a class-level route decorator, inherited like any class attribute (Flask-Classful's
   * `route_base`): a subclass is served under its nearest ancestor's prefix unless it sets its own.
   */
  readonly prefix?: string;
  /** Framework-defined values, inherited by subclasses. */
  readonly tags: Readonly<Record<string, unknown>>;
}

interface Store {
  owner: object;
  methods: Map<string, MethodMetadata>;
  prefix?: string;
  /** The metadata object of the class whose decorator set `prefix`. */
  prefixOwner?: object;
  tags: Record<string, unknown>;
}

/** Returns the store of one class's metadata object, copying the parent's on first write. */
function ownStore(metadata: DecoratorMetadataObject): Store {
  const record = metadata as Record<symbol, Store | undefined>;
  if (Object.hasOwn(record, STORE)) return record[STORE]!;
  const inherited = record[STORE];
  const store: Store = {
    owner: metadata,
    methods: new Map(inherited?.methods),
    tags: { ...inherited?.tags },
  };
  if (inherited?.prefix !== undefined) {
    store.prefix = inherited.prefix;
    store.prefixOwner = inherited.prefixOwner ?? inherited.owner;
  }
  Object.defineProperty(record, STORE, { value: store, enumerable: false });
  return store;
}

/** Records something about a method from inside a method decorator. */
export function updateMethodMetadata(
  metadata: DecoratorMetadataObject,
  name: string,
  update: (current: MethodMetadata) => Omit<MethodMetadata, "owner">,
): void {
  const store = ownStore(metadata);
  const existing = store.methods.get(name);
  const current: MethodMetadata =
    existing && existing.owner === metadata ? existing : { verbs: [], paths: [], tags: {}, owner: metadata };
  store.methods.set(name, Object.freeze({ ...update(current), owner: metadata }));
}

/** Records something about a class from inside a class decorator. */
export function updateClassMetadata(
  metadata: DecoratorMetadataObject,
  update: (current: { prefix?: string; tags: Record<string, unknown> }) => void,
): void {
  const store = ownStore(metadata);
  const draft: { prefix?: string; tags: Record<string, unknown> } = { tags: store.tags };
  // The draft shows only a prefix this class set itself: an inherited one is not the class's to change.
  if (store.prefix !== undefined && store.prefixOwner === metadata) draft.prefix = store.prefix;
  update(draft);
  store.tags = draft.tags;
  if (draft.prefix !== undefined) {
    store.prefix = draft.prefix;
    store.prefixOwner = metadata;
  }
}

/** The metadata object a class owns (not one inherited from its parent), if any. */
export function ownMetadataObject(cls: Function): object | undefined {
  return Object.hasOwn(cls, METADATA) ? metadataOf(cls) : undefined;
}

/** A class as decorators leave it: its metadata object (holding the store) under `Symbol.metadata`. */
type DecoratedClass = Function & { readonly [key: symbol]: Record<symbol, Store | undefined> | undefined };

/** The metadata object of `cls`, its own or inherited through its prototype chain. */
function metadataOf(cls: Function): Record<symbol, Store | undefined> | undefined {
  return (cls as DecoratedClass)[METADATA];
}

/**
 * What decorators recorded about a class: its prefix (its own or its nearest ancestor's) and tags
 * inherited from its ancestors (also when the class itself has no decorator and so no metadata
 * object of its own).
 */
export function readClassMetadata(cls: Function): ClassMetadata {
  const store = storeOf(cls);
  const prefix = store?.prefix;
  return prefix === undefined ? { tags: { ...store?.tags } } : { prefix, tags: { ...store?.tags } };
}

/**
 * The class whose route decorator gave `cls` its prefix: `cls` itself, an ancestor it inherits
 * the prefix from, or `undefined` when no class of the chain set one (for error messages).
 */
export function prefixOwnerOf(cls: Function): Function | undefined {
  const owner = storeOf(cls)?.prefixOwner;
  if (owner === undefined) return undefined;
  for (
    let c: Function | null = cls;
    c !== null && c !== Function.prototype;
    c = Object.getPrototypeOf(c) as Function | null
  ) {
    if (ownMetadataObject(c) === owner) return c;
  }
  return undefined;
}

function storeOf(cls: Function): Store | undefined {
  return metadataOf(cls)?.[STORE];
}

/**
 * What decorators recorded about `name` as declared by `declarer` (the class whose prototype
 * owns the method). An override without decorators does not inherit its parent's decorators.
 */
export function readMethodMetadata(cls: Function, declarer: Function, name: string): MethodMetadata | undefined {
  const metadata = metadataOf(cls);
  const entry = metadata?.[STORE]?.methods.get(name);
  if (!entry) return undefined;
  return entry.owner === ownMetadataObject(declarer) ? entry : undefined;
}
