import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * This package's folder: development tools the command line runs (esbuild, chokidar) are looked up
 * in the app first, then here (the workspace, or an install that hoisted them).
 */
export const CLI_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
