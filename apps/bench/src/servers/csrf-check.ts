import { timingSafeEqual } from "node:crypto";

/** Methods that change state: the only ones a CSRF guard checks (a GET costs it nothing). */
export const UNSAFE_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Whether the token a client sent matches the secret kept in its session, compared in constant
 * time; a session without a secret never matches (fails closed). Used by the hand-written Koa
 * servers so that they check CSRF the way the frameworks do.
 */
export function csrfMatches(sent: string, secret: unknown): boolean {
  const expected = Buffer.from(typeof secret === "string" ? secret : "");
  const given = Buffer.from(sent);
  return expected.length > 0 && given.length === expected.length && timingSafeEqual(given, expected);
}
