import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HTTPError, redirect, reply, type ReplyInit } from "@fwkit/koa-host";
import type { ViewModule } from "routing-kernel";
import { renderXml } from "../decorators/index.js";

/** A route whose Pug template the result cases need. */
export interface TemplateFor {
  readonly module: string;
  readonly className: string;
  readonly methodName: string;
}

/** A running test app (what `startTestApp` gives). */
export interface Served {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The result-table part of fw-b's conformance adapter: apps served with one Pug template per
 * listed route (`| template:#{name}`), fw-b's reply, redirect and HTTPError, and `@renderXml`.
 */
export function conformanceResults(startIn: (modules: ViewModule[], root: string) => Promise<Served>) {
  return Object.freeze({
    async start(modules: ViewModule[], templates: readonly TemplateFor[]): Promise<Served> {
      const root = mkdtempSync(join(tmpdir(), "fw-b-conformance-"));
      for (const t of templates) {
        const dir = join(root, "templates", t.module, t.className);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, `${t.methodName}.pug`), "| template:#{name}\n");
      }
      try {
        const served = await startIn(modules, root);
        return {
          url: served.url,
          async close() {
            await served.close();
            rmSync(root, { recursive: true, force: true });
          },
        };
      } catch (error) {
        rmSync(root, { recursive: true, force: true });
        throw error;
      }
    },
    reply: (body: unknown, init: ReplyInit) => reply(body, init),
    redirect: (location: string) => redirect(location),
    httpError: (status: number, message: string) => new HTTPError(status, message),
    xml: renderXml,
  });
}
