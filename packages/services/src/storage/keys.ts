import { randomUUID } from "node:crypto";
import { extname } from "node:path";
import mime from "mime-types";
import { E_STORAGE_KEY_INVALID } from "../errors.js";

const SEGMENT = /^[A-Za-z0-9_!-][A-Za-z0-9._!-]*$/;

/**
 * Returns the key when it is safe to use as a file name in every backend, else throws
 * `E_STORAGE_KEY_INVALID` (400). Keys are `/`-separated names of letters, digits, `.`, `_`, `-`
 * and `!`; a name may not start or end with a dot, so `..`, hidden files, absolute paths,
 * backslashes, control characters and percent-encoded tricks never reach a driver.
 */
export function checkKey(key: unknown): string {
  const fail = (reason: string): never => {
    throw new E_STORAGE_KEY_INVALID(String(key), reason);
  };
  if (typeof key !== "string" || key === "") return fail("it is empty");
  if (key.length > 512) fail("it is longer than 512 characters");
  if (/[\u0000-\u001f\u007f]/.test(key)) fail("it contains a control character");
  if (key.includes("\\")) fail("it contains a backslash");
  if (key.startsWith("/") || /^[A-Za-z]:/.test(key)) fail("it is an absolute path");
  for (const segment of key.split("/")) {
    if (segment === "") fail("it has an empty name (// or a trailing /)");
    if (segment === ".." || segment === ".") fail("it leaves its folder (..)");
    if (segment.length > 255) fail("a name is longer than 255 characters");
    if (segment.startsWith(".") || segment.endsWith(".")) fail("a name starts or ends with a dot");
    if (!SEGMENT.test(segment)) fail("it contains characters other than letters, digits, '.', '_', '-' and '!'");
  }
  return key;
}

/**
 * A fresh, unguessable key for an uploaded file: `<prefix>/<uuid>.<ext>`. The extension is the
 * standard one of the accepted content type (never the client's, so `evil.html` sent as
 * `image/png` is stored as `.png`).
 */
export function uploadKey(contentType: string, prefix?: string): string {
  const extension = mime.extension(contentType);
  const name = extension ? `${randomUUID()}.${extension}` : randomUUID();
  const key = prefix ? `${prefix.replace(/\/+$/, "")}/${name}` : name;
  return checkKey(key);
}

/** The content type a key's extension stands for (`application/octet-stream` when unknown). */
export function typeOfKey(key: string): string {
  return mime.lookup(extname(key)) || "application/octet-stream";
}
