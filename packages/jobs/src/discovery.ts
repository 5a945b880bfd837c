/**
 * Finds an app's jobs: every module under `jobs/` (as views are found under `views/`), and in each
 * every exported job class. A module that throws at import is `E_JOB_MODULE_FAILED` naming it.
 */
import { join, relative, sep } from "node:path";
import { listModuleFiles } from "@fwkit/koa-host/plugin";
import { E_JOB_MODULE_FAILED } from "./errors.js";
import { Job, type JobClass } from "./job.js";
import { importAppModule } from "@fwkit/battery-kit";

/**
 * The module files under `jobsDir` (skipping `_*`, `.*`, tests and declarations), sorted: the host's
 * rule for `views/` (koa-host's `listModuleFiles`), so a file is a job module exactly when it would be a view module.
 */
export function listJobModules(jobsDir: string): string[] {
  return listModuleFiles(jobsDir);
}

/** True for a class extending {@link Job} (or one `defineJob` made), even from another copy of the package. */
export function isJobClass(value: unknown): value is JobClass {
  if (typeof value !== "function") return false;
  if (value.prototype instanceof Job) return true;
  // Two copies of the package (built and source) each have their Job: match by shape.
  return (
    typeof (value.prototype as { handle?: unknown } | undefined)?.handle === "function" &&
    typeof (value as { dispatch?: unknown }).dispatch === "function"
  );
}

/**
 * Imports every module of `<root>/jobs` (or `folder`) and returns the job classes they export, in
 * file order. TypeScript files need the tsx loader, which the CLIs register.
 */
export async function loadJobModules(root: string, folder = "jobs"): Promise<JobClass[]> {
  const jobsDir = join(root, folder);
  const jobs: JobClass[] = [];
  for (const file of listJobModules(jobsDir)) {
    let exports: Record<string, unknown>;
    try {
      exports = await importAppModule(file);
    } catch (error) {
      throw Object.assign(
        new E_JOB_MODULE_FAILED(relative(root, file).split(sep).join("/"), (error as Error).stack ?? String(error)),
        { cause: error },
      );
    }
    for (const value of Object.values(exports)) if (isJobClass(value) && !jobs.includes(value)) jobs.push(value);
  }
  return jobs;
}
