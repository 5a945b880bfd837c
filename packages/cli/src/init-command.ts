/**
 * The init command both frameworks have (`fw-a gen:init`, `fw-b :init`): writes the app, then says
 * what to type next, from where the user is: `cd` into the app when it was made elsewhere
 * (`--root`), and `npm install` first when the app's dependencies are not there yet (an app that
 * asks for registry versions).
 */
import { relative, resolve } from "node:path";
import type { CommandModule } from "yargs";
import type { InitOptions, InitResult } from "./generators.js";
import { describeScaffold } from "./scaffold.js";

/** What {@link initCommand} needs from a framework. */
export interface InitCommandSpec {
  /** The command's name (`gen:init`, `:init`). */
  readonly name: string;
  readonly description: string;
  /** The framework's own init (its skeleton on the kit's initApp). */
  init(dir: string, options: InitOptions): InitResult;
  /** What `npm run dev` runs, for the Next line (`fw-a gen:serve`). */
  readonly serve: string;
}

/** The "Next:" line after an init into `root`, typed from `cwd`. */
export function nextSteps(root: string, cwd: string, result: Pick<InitResult, "registry">, serve: string): string {
  // Relative when it reads well (`shop`, `../shop`), else absolute (`/srv/apps/shop`).
  const near = relative(cwd, root);
  const where = near.split(/[\\/]/).filter((part) => part === "..").length > 1 ? root : near;
  const cd = where === "" ? "" : `cd ${/[\s'"$`\\]/.test(where) ? JSON.stringify(where) : where} && `;
  const install = result.registry ? "npm install && " : "";
  return `Next: ${cd}${install}npm run dev   (${serve}; then open http://127.0.0.1:5000)`;
}

/** The init command of a framework: `--registry` / `--no-registry` choose how the app depends on it. */
export function initCommand(spec: InitCommandSpec): CommandModule {
  return {
    command: spec.name,
    describe: spec.description,
    builder: (y) =>
      y.option("registry", {
        type: "boolean",
        describe:
          "depend on the framework's registry version (\"^x.y.z\") and link nothing (the default outside a checkout of the frameworks' repository); --no-registry links the framework's folder instead (file:)",
      }),
    handler: (args) => {
      const root = resolve(String(args["root"] ?? "."));
      const registry = args["registry"] as boolean | undefined;
      const result = spec.init(root, registry === undefined ? {} : { registry });
      describeScaffold(result);
      if (result.skipped.length > 0) console.log(`\n${result.skipped.length} existing file(s) left untouched.`);
      console.log(`\n${nextSteps(root, process.cwd(), result, spec.serve)}`);
    },
  };
}
