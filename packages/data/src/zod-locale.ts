/**
 * zod's own messages ("Too small: expected string to have >=2 characters") in the request's
 * language, from the locales zod ships (`z.locales.fr()`...). Given per parse, never through the
 * global `z.config`, since two requests at once may speak two languages; a message the schema
 * writes itself (`.min(2, "Name: at least 2 characters")`) still wins.
 */
import type { z } from "zod";

type ZodErrorMap = z.core.$ZodErrorMap;
type ShippedLocales = Record<string, () => { localeError: ZodErrorMap }>;

const MAPS = new Map<string, ZodErrorMap | undefined>();

// zod's locales, imported the first time a zod schema is checked in a language other than English:
// an app that checks no zod schema (or only in English) never loads zod through this package.
let shippedLocales: ShippedLocales | undefined;

/** The name zod gives a language tag's locale: `fr`, `frCA` for `fr-CA`, `ptBR` for `pt-BR`. */
function localeNames(language: string): string[] {
  const [base, region] = language.split("-");
  return region ? [`${base!.toLowerCase()}${region.toUpperCase()}`, base!.toLowerCase()] : [base!.toLowerCase()];
}

/**
 * zod's error map for a language tag (`fr`, `de-AT` falls back to `de`), or undefined for
 * English (zod's default) and for a language zod does not ship. Built once per language; zod is
 * imported by the first call for a language other than English, never again after.
 */
export async function zodErrorMap(language: string): Promise<ZodErrorMap | undefined> {
  if (MAPS.has(language)) return MAPS.get(language);
  const names = localeNames(language);
  if (names.at(-1) === "en") {
    MAPS.set(language, undefined);
    return undefined;
  }
  shippedLocales ??= (await import("zod")).z.locales as ShippedLocales;
  const shipped = shippedLocales;
  let found: ZodErrorMap | undefined;
  for (const name of names) {
    if (name === "en") break;
    if (Object.hasOwn(shipped, name) && typeof shipped[name] === "function") {
      found = shipped[name]().localeError;
      break;
    }
  }
  MAPS.set(language, found);
  return found;
}

/** A zod schema: one whose Standard Schema vendor is zod and that takes a per-parse error map. */
interface ZodLike {
  safeParseAsync(
    value: unknown,
    params: { error: ZodErrorMap },
  ): Promise<{
    success: boolean;
    data?: unknown;
    error?: { issues: readonly { path: PropertyKey[]; message: string }[] };
  }>;
}

/** The schema as a zod schema, when it is one. */
export function asZodSchema(schema: unknown): ZodLike | undefined {
  const standard = (schema as { "~standard"?: { vendor?: unknown } } | null)?.["~standard"];
  return standard?.vendor === "zod" && typeof (schema as Partial<ZodLike>).safeParseAsync === "function"
    ? (schema as ZodLike)
    : undefined;
}
