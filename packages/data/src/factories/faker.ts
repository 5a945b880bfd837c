/**
 * The faker instance every factory shares. `@faker-js/faker` is a development dependency of the
 * app (a production install never needs it), found from the app folder like the other development
 * tools. It is seeded with a fixed number so that the same factories give the same data on every
 * run: a failing test or a seeded database can be reproduced.
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Faker } from "@faker-js/faker";
import { E_FAKER_MISSING } from "../errors.js";

/** The seed factories start from, unless `FAKER_SEED` or {@link seedFactories} says otherwise. */
export const DEFAULT_FAKER_SEED = 1;

let loaded: Promise<Faker> | undefined;
let pendingSeed: number | undefined;
const resetHooks = new Set<() => void>();

function initialSeed(): number {
  const fromEnv = process.env["FAKER_SEED"];
  const parsed = fromEnv === undefined || fromEnv === "" ? Number.NaN : Number(fromEnv);
  return Number.isSafeInteger(parsed) ? parsed : DEFAULT_FAKER_SEED;
}

/** Finds faker from the app folder (the working directory), then from this package. */
function fakerUrl(): string {
  const tried: string[] = [];
  for (const from of [join(process.cwd(), "package.json"), import.meta.url]) {
    try {
      return pathToFileURL(createRequire(from).resolve("@faker-js/faker")).href;
    } catch (error) {
      tried.push(error instanceof Error ? error.message.split("\n")[0]! : String(error));
    }
  }
  throw new E_FAKER_MISSING(tried.join("; "));
}

/** The shared faker, loaded on first use and seeded (`FAKER_SEED`, else {@link DEFAULT_FAKER_SEED}). */
export function factoryFaker(): Promise<Faker> {
  loaded ??= (async () => {
    const { faker } = (await import(fakerUrl())) as { faker: Faker };
    faker.seed(pendingSeed ?? initialSeed());
    return faker;
  })();
  // A failed load is tried again on the next call (after npm install -D @faker-js/faker).
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}

/**
 * Starts the factories' data over: faker is seeded with `seed` (default: `FAKER_SEED` or 1) and every
 * factory's sequence goes back to 1. Call it in a test's `beforeEach` for the same rows in every test.
 */
export async function seedFactories(seed: number = initialSeed()): Promise<void> {
  pendingSeed = seed;
  if (loaded) (await loaded).seed(seed);
  for (const reset of resetHooks) reset();
}

/** Registers a factory's sequence reset, run by {@link seedFactories}. */
export function onFactoryReset(reset: () => void): void {
  resetHooks.add(reset);
}
