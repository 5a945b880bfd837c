/**
 * Turns a class or method name into a URL segment: `UserAccount` -> `user-account`,
 * `HTTPServer` -> `http-server`, `APIDocs` -> `api-docs`, `Api2Users` -> `api2-users`,
 * `about_us` and `aboutUs` -> `about-us`. Applying it twice changes nothing.
 */
export function kebabCase(name: string): string {
  return name
    .replace(/_/g, "-")
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
    .toLowerCase()
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "");
}
