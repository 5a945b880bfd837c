import { HTTPError } from "fw-b";

/**
 * Reads a `?page=` value: absent means 1; anything but a whole number from 1 up is a 400 that
 * says what to send.
 */
export function pageNumber(value: unknown): number {
  if (value === undefined || value === "") return 1;
  if (typeof value !== "string" || !/^\d{1,6}$/.test(value) || Number(value) < 1) {
    throw HTTPError.BadRequest("The page must be a whole number from 1 up, e.g. ?page=2.");
  }
  return Number(value);
}

/** Reads a `?q=` search: at most 100 characters, one value. */
export function searchQuery(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value !== "string") throw HTTPError.BadRequest("Send one search query: ?q=words.");
  if (value.length > 100) throw HTTPError.BadRequest("The search query is longer than 100 characters.");
  return value.trim();
}
