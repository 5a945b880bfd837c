/**
 * Checks an app's OpenAPI document with tools nobody in this repository wrote: the document must
 * validate with @readme/openapi-parser and pass `redocly lint` with Redocly's recommended rules
 * (errors fail, warnings do not), openapi-typescript turns it into types, a client written
 * with openapi-fetch against those types must pass `tsc` (and a file of calls the document forbids
 * must fail it, line by line), and the client module is then imported to call the running app.
 */
import assert from "node:assert/strict";
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
const redocly = join(dirname(createRequire(import.meta.url).resolve("@redocly/cli/package.json")), "bin", "cli.js");

/** One problem `redocly lint --format=json` reports. */
export interface RedoclyProblem {
  readonly ruleId: string;
  readonly severity: "error" | "warn";
  readonly message: string;
  readonly location: ReadonlyArray<{ readonly pointer: string }>;
}

/**
 * Runs `redocly lint` (the @redocly/cli package, offline: no telemetry, no update check) on a
 * document with the recommended rules, minus the rules named in `off`, and gives its problems.
 */
export function redoclyLint(document: object, off: readonly string[] = []): RedoclyProblem[] {
  const dir = mkdtempSync(join(here, "..", ".redocly-lint-"));
  try {
    writeFileSync(join(dir, "openapi.json"), JSON.stringify(document));
    const rules = off.map((rule) => `  ${rule}: off\n`).join("");
    writeFileSync(join(dir, "redocly.yaml"), `extends:\n  - recommended\n${rules ? `rules:\n${rules}` : ""}`);
    const run = spawnSync(
      process.execPath,
      [redocly, "lint", "--config", join(dir, "redocly.yaml"), "--format=json", join(dir, "openapi.json")],
      {
        encoding: "utf8",
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", CI: "true" },
      },
    );
    const start = run.stdout.indexOf("{");
    if (start < 0) assert.fail(`redocly lint gave no JSON report (exit ${run.status}):\n${run.stdout}${run.stderr}`);
    return (JSON.parse(run.stdout.slice(start)) as { problems: RedoclyProblem[] }).problems;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What {@link checkOpenApiClient} needs: the document and the client sources to compile against it. */
export interface OpenApiClientCheck {
  readonly document: object;
  /** A module importing `./schema.js` (`paths`) and `openapi-fetch`; it must type-check. */
  readonly client: string;
  /** A module whose every `// @ts-expect-error` line must be an error (calls the document forbids). */
  readonly forbidden: string;
  /** Recommended Redocly rules that do not apply to this framework (fw-a's paths end with `/`). */
  readonly lintOff?: readonly string[];
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
  if (!result.valid) assert.fail(`@readme/openapi-parser refused the document:\n${compileErrors(result)}`);
  const errors = redoclyLint(check.document, check.lintOff).filter((problem) => problem.severity === "error");
  if (errors.length > 0) {
    assert.fail(
      `redocly lint (recommended rules) found ${errors.length} error(s):\n${errors.map((p) => `${p.ruleId} at ${p.location[0]?.pointer ?? "?"}: ${p.message}`).join("\n")}`,
    );
  }
  const types = astToString(await openapiTS(structuredClone(check.document) as never));
  // Inside this package so `openapi-fetch` resolves from its node_modules.
  const dir = mkdtempSync(join(here, "..", ".openapi-check-"));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    writeFileSync(join(dir, "schema.d.ts"), types);
    writeFileSync(join(dir, "client.ts"), check.client);
    writeFileSync(join(dir, "forbidden.ts"), check.forbidden);
    const tsconfig = {
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
        lib: ["ES2023", "DOM"],
      },
      files: ["schema.d.ts", "client.ts", "forbidden.ts"],
    };
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
    const run = spawnSync(process.execPath, [tsc, "-p", join(dir, "tsconfig.json")], { encoding: "utf8" });
    if (run.status !== 0)
      assert.fail(`tsc refused the generated client:\n${run.stdout}${run.stderr}\n--- schema.d.ts ---\n${types}`);
    const module = (await import(pathToFileURL(join(dir, "client.ts")).href)) as T;
    return { module, types, cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}
