/**
 * Checks that translation catalogs agree: every key of one language exists in the others, and
 * each translation uses the same `{{placeholders}}` as the reference language. Plural keys
 * (`key_one`, `key_other`, ...) count as one key that must have every plural form the language's
 * grammar uses (Intl.PluralRules: French and Spanish `one`, `many`, `other`; German `one`, `other`).
 */

/** A language's strings by flat key. */
export type Catalog = Readonly<Record<string, string>>;

const PLURAL = /^(.*)_(zero|one|two|few|many|other)$/;
const PLACEHOLDER = /\{\{\s*([^}\s]+)\s*\}\}/g;

/** The `{{names}}` a string interpolates, sorted, each once. */
export function placeholders(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((match) => match[1]!))].sort();
}

/** The keys of a catalog with plural forms folded: base key -> the forms present (empty for a plain key). */
function folded(catalog: Catalog): Map<string, Set<string>> {
  const keys = new Map<string, Set<string>>();
  for (const key of Object.keys(catalog)) {
    const plural = PLURAL.exec(key);
    const base = plural ? plural[1]! : key;
    const forms = keys.get(base) ?? new Set<string>();
    if (plural) forms.add(plural[2]!);
    keys.set(base, forms);
  }
  return keys;
}

/**
 * Every disagreement between the catalogs, as readable lines (empty when they agree). The first
 * language given is the reference for placeholders.
 */
export function compareCatalogs(catalogs: Readonly<Record<string, Catalog>>): string[] {
  const problems: string[] = [];
  const languages = Object.keys(catalogs);
  const reference = languages[0];
  if (!reference) return problems;
  const shapes = new Map(languages.map((language) => [language, folded(catalogs[language]!)]));
  const allKeys = new Set(languages.flatMap((language) => [...shapes.get(language)!.keys()]));
  for (const base of [...allKeys].sort()) {
    const pluralSomewhere = languages.some((language) => (shapes.get(language)!.get(base)?.size ?? 0) > 0);
    for (const language of languages) {
      const forms = shapes.get(language)!.get(base);
      if (!forms) {
        problems.push(
          `${language}: the key "${base}" is missing (${languages.filter((other) => shapes.get(other)!.has(base)).join(", ")} have it)`,
        );
        continue;
      }
      if (pluralSomewhere) {
        const needed = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
        const missing = needed.filter((form) => !forms.has(form));
        if (missing.length > 0)
          problems.push(
            `${language}: the plural key "${base}" lacks the form(s) ${missing.map((form) => `${base}_${form}`).join(", ")}`,
          );
        if (forms.size === 0)
          problems.push(`${language}: "${base}" is a plain key where other languages have plural forms`);
      }
      const key = pluralSomewhere ? `${base}_other` : base;
      const text = catalogs[language]![key];
      const expected = catalogs[reference]![key];
      if (text === undefined || expected === undefined || language === reference) continue;
      const have = placeholders(text).join(", ");
      const want = placeholders(expected).join(", ");
      if (have !== want)
        problems.push(`${language}: "${key}" uses the placeholders [${have}] where ${reference} uses [${want}]`);
    }
  }
  return problems;
}
