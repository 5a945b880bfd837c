import { fileURLToPath } from "node:url";
import type { ViewModule } from "routing-kernel";
import type { ConformanceCli, ConformanceCommands } from "./adapter.js";

/** What a framework gives {@link cliAdapter}. */
export interface CliAdapterOptions {
  /** The adapter module's `import.meta.url`: the paths below are relative to it, and a `.ts` URL means it runs from sources. */
  readonly from: string;
  /** The CLI's main module in the sources (`../cli/main.ts`), run through tsx. */
  readonly sources: string;
  /** The CLI's bin once built (`../../bin/fw-a.js`). */
  readonly bin: string;
  /** The framework's names of the shared commands. */
  readonly commands: ConformanceCommands;
  /** The framework's `createApp`. */
  readonly createApp: (options: { readonly root: string; readonly modules: ViewModule[]; readonly config: Record<string, unknown> }) => Promise<{ close(): Promise<void> }>;
}

/**
 * The command-line part of a framework's conformance adapter: its CLI (the sources through tsx
 * when the adapter runs from sources, the built bin otherwise), its names of the shared commands,
 * and `develop`, which builds an app as the development server's child does (env `development`,
 * silent, no request log, the case's config over that) and closes it.
 */
export function cliAdapter(options: CliAdapterOptions): ConformanceCli {
  const fromSources = options.from.endsWith(".ts");
  return Object.freeze({
    argv: Object.freeze(
      fromSources
        ? ["--conditions=source", `--import=${import.meta.resolve("tsx")}`, fileURLToPath(new URL(options.sources, options.from))]
        : [fileURLToPath(new URL(options.bin, options.from))],
    ),
    commands: Object.freeze({ ...options.commands }),
    async develop(root: string, modules: ViewModule[], config: Readonly<Record<string, unknown>>): Promise<void> {
      const app = await options.createApp({ root, modules, config: { env: "development", logLevel: "silent", logRequests: false, ...config } });
      await app.close();
    },
  });
}
