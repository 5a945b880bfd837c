/**
 * Turns a class or method name into a URL segment: `UserAccount` -> `user-account`,
 * `HTTPServer` -> `http-server`, `APIDocs` -> `api-docs`, `Api2Users` -> `api2-users`,
 * `about_us` and `aboutUs` -> `about-us`. Applying it twice changes nothing.
 */
export function kebabCase(name: string): string {
  // Most method names (`index`, `show`, `m0`) are already a segment: none of the rules below
  // would change them, so they skip the six regular expressions (a start-up cost per route).
  if (isLowerAlphanumeric(name)) return name;
  return name
    .replace(/_/g, "-")
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
    .toLowerCase()
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "");
}

/** True for a non-empty string of `a-z` and `0-9` only. */
function isLowerAlphanumeric(name: string): boolean {
  if (name.length === 0) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) return false;
  }
  return true;
}
