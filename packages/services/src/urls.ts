/** Helpers for the service URLs read from config (`mailUrl`, `storageUrl`, `cacheUrl`, `signalsUrl`). */

/** The URL with its password replaced by `***`, safe to put in logs and error messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@/]*@/, "//$1:***@");
  }
}

/** Parses a URL or returns undefined, so callers raise their own coded error. */
export function tryParseUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}
