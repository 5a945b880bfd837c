/**
 * Checks an app's OpenAPI document with tools nobody in this repository wrote: the document must
 * validate with @readme/openapi-parser, openapi-typescript turns it into types, a client written
 * with openapi-fetch against those types must pass `tsc` (and a file of calls the document forbids
 * must fail it, line by line), and the client module is then imported to call the running app.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { compileErrors, validate } from "@readme/openapi-parser";
import openapiTS, { astToString } from "openapi-typescript";

export { openApiClientSources, type OpenApiTestDocument } from "./openapi-client-cases.js";

const here = dirname(fileURLToPath(import.meta.url));
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

/** What {@link checkOpenApiClient} needs: the document and the client sources to compile against it. */
export interface OpenApiClientCheck {
  readonly document: object;
  /** A module importing `./schema.js` (`paths`) and `openapi-fetch`; it must type-check. */
  readonly client: string;
  /** A module whose every `// @ts-expect-error` line must be an error (calls the document forbids). */
  readonly forbidden: string;
}

/** The checked client module, imported (call its exports to reach the running app), and a clean-up. */
export interface CheckedClient<T> {
  readonly module: T;
  /** The generated `paths` declaration, for assertions. */
  readonly types: string;
  cleanup(): void;
}

/** Validates the document, generates its types, type-checks the client sources and imports the client. */
export async function checkOpenApiClient<T>(check: OpenApiClientCheck): Promise<CheckedClient<T>> {
  const result = await validate(structuredClone(check.document) as never);
  if (!result.valid) throw new Error(`@readme/openapi-parser refused the document:\n${compileErrors(result)}`);
  const types = astToString(await openapiTS(structuredClone(check.document) as never));
  // Inside this package so `openapi-fetch` resolves from its node_modules.
  const dir = mkdtempSync(join(here, "..", ".openapi-check-"));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    writeFileSync(join(dir, "schema.d.ts"), types);
    writeFileSync(join(dir, "client.ts"), check.client);
    writeFileSync(join(dir, "forbidden.ts"), check.forbidden);
    const tsconfig = {
      compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, skipLibCheck: true, types: [], lib: ["ES2023", "DOM"] },
      files: ["schema.d.ts", "client.ts", "forbidden.ts"],
    };
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
    const run = spawnSync(process.execPath, [tsc, "-p", join(dir, "tsconfig.json")], { encoding: "utf8" });
    if (run.status !== 0) throw new Error(`tsc refused the generated client:\n${run.stdout}${run.stderr}\n--- schema.d.ts ---\n${types}`);
    const module = (await import(pathToFileURL(join(dir, "client.ts")).href)) as T;
    return { module, types, cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}
