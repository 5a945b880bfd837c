import type { AddressInfo } from "node:net";
import type { Host } from "fw-b";
import { app } from "../app.js";

/** The catalogue built from its real entry (app.ts) and listening on 127.0.0.1. */
export async function startCatalog(): Promise<{ host: Host; url: string; close(): Promise<void> }> {
  const host = await app.create({ config: { env: "test", logRequests: false } });
  const server = await host.listen(0, "127.0.0.1");
  const { port } = server.address() as AddressInfo;
  return { host, url: `http://127.0.0.1:${port}`, close: () => host.close() };
}

/** The text of every link of the navigation menu: `Title /url`. */
export function menuLinks(html: string): string[] {
  const nav = html.slice(html.indexOf('<nav class="fwb-nav"'), html.indexOf("</nav>"));
  return [...nav.matchAll(/<a href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map((m) => `${m[2]} ${m[1]}`);
}
