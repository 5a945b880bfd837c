/**
 * zod's own messages ("Too small: expected string to have >=2 characters") in the request's
 * language, from the locales zod ships (`z.locales.fr()`...). Given per parse, never through the
 * global `z.config`, since two requests at once may speak two languages; a message the schema
 * writes itself (`.min(2, "Name: at least 2 characters")`) still wins.
 */
import { z } from "zod";

type ZodErrorMap = z.core.$ZodErrorMap;

const MAPS = new Map<string, ZodErrorMap | undefined>();

/** The name zod gives a language tag's locale: `fr`, `frCA` for `fr-CA`, `ptBR` for `pt-BR`. */
function localeNames(language: string): string[] {
  const [base, region] = language.split("-");
  return region ? [`${base!.toLowerCase()}${region.toUpperCase()}`, base!.toLowerCase()] : [base!.toLowerCase()];
}

/**
 * zod's error map for a language tag (`fr`, `de-AT` falls back to `de`), or undefined for
 * English (zod's default) and for a language zod does not ship. Built once per language.
 */
export function zodErrorMap(language: string): ZodErrorMap | undefined {
  if (MAPS.has(language)) return MAPS.get(language);
  let found: ZodErrorMap | undefined;
  const shipped = z.locales as Record<string, () => { localeError: ZodErrorMap }>;
  for (const name of localeNames(language)) {
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
