/** HTTP verbs a route can answer. `HEAD` is implied by `GET` and answered by the host. */
export type Verb = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";

/** The verbs a view method may be restricted to, in the order `Allow` lists them. */
export const VERBS: readonly Verb[] = Object.freeze(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The verbs that `all` stands for. */
export const ALL_VERBS: readonly Verb[] = Object.freeze(["GET", "POST", "PUT", "PATCH", "DELETE"]);

/** Tells whether a string is one of the {@link VERBS}. */
export function isVerb(value: string): value is Verb {
  return (VERBS as readonly string[]).includes(value);
}

/** Sorts verbs into the canonical order of {@link VERBS} and removes duplicates. */
export function sortVerbs(verbs: Iterable<Verb>): Verb[] {
  const set = new Set(verbs);
  return VERBS.filter((verb) => set.has(verb));
}
