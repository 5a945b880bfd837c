/**
 * Which language a request is answered in, the same way in both frameworks: the logged-in user's
 * setting, then the language chosen for the session (the layout's switcher), then the best match
 * of `Accept-Language`, then the app's fallback.
 */

/** The session key where a visitor's chosen language is kept. */
export const LANGUAGE_SESSION_KEY = "language";

/** A language tag such as `fr` or `pt-BR`. */
export const LANGUAGE_TAG = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/** Parses `Accept-Language` into tags by preference (q-values; order kept on ties). */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header || header.length > 1000) return [];
  return header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((item) => item.tag !== "" && item.tag !== "*" && Number.isFinite(item.q) && item.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((item) => item.tag);
}

/** The offered language a tag names: the same tag in any case, else its primary language (`fr-CA` -> `fr`). */
export function matchLanguage(tag: unknown, languages: readonly string[]): string | undefined {
  if (typeof tag !== "string" || tag === "" || tag.length > 35) return undefined;
  const lower = tag.toLowerCase();
  return (
    languages.find((each) => each.toLowerCase() === lower) ??
    languages.find((each) => each.toLowerCase() === lower.split("-")[0])
  );
}

/** The best offered language for an `Accept-Language` header, or undefined. */
export function negotiateLanguage(header: string | undefined, languages: readonly string[]): string | undefined {
  for (const tag of acceptedLanguages(header)) {
    const found = matchLanguage(tag, languages);
    if (found) return found;
  }
  return undefined;
}

/** What a request says about its language. */
export interface LanguageHints {
  /** The logged-in user's setting (a column such as `users.locale`), if any. */
  readonly user?: unknown;
  /** The language kept in the session (see {@link LANGUAGE_SESSION_KEY}), if any. */
  readonly session?: unknown;
  /** The `Accept-Language` header. */
  readonly acceptLanguage?: string | undefined;
}

/** The request's language: user setting, session choice, `Accept-Language`, fallback, in that order. */
export function chooseLanguage(hints: LanguageHints, languages: readonly string[], fallback: string): string {
  return (
    matchLanguage(hints.user, languages) ??
    matchLanguage(hints.session, languages) ??
    negotiateLanguage(hints.acceptLanguage, languages) ??
    fallback
  );
}
