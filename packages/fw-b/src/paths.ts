import { fileURLToPath } from "node:url";

/** The fw-b package folder (the same from `src/` under tsx and from `dist/` once built). */
export const PACKAGE_ROOT: string = fileURLToPath(new URL("..", import.meta.url));

/** Templates shipped with fw-b (the default layout); the app's own files of the same name win. */
export const PACKAGE_TEMPLATES: string = fileURLToPath(new URL("../templates", import.meta.url));

/** The files `fw-b :init` copies into a new app. */
export const SCAFFOLD_DIR: string = fileURLToPath(new URL("../scaffold", import.meta.url));
