import { existsSync } from "node:fs";
import { join } from "node:path";
import { CURRENT_LINK, currentRelease } from "./releases.js";

/**
 * The built app `start` serves from `root`, or undefined when there is none: the `current`
 * release when it holds `app.js`, else `<root>/<buildDir>` when it holds `app.js`, else the root
 * itself when it is a build (`app.js` and no `app.ts`: a container image holds build/'s content as
 * /app). Read before anything else loads, to find the app's server bundle.
 */
export function builtAppFolder(root: string, buildDir = "build"): string | undefined {
  if (currentRelease(root) !== undefined)
    return existsSync(join(root, CURRENT_LINK, "app.js")) ? join(root, CURRENT_LINK) : undefined;
  const build = join(root, buildDir);
  if (existsSync(join(build, "app.js"))) return build;
  if (existsSync(join(root, "app.js")) && !existsSync(join(root, "app.ts"))) return root;
  return undefined;
}
