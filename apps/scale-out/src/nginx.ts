// nginx (from Debian) in front of the nodes with the configuration the deploy command generates,
// plain HTTP on a free port: the alternative to HAProxy that docs/deployment.md gives.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deployTarget, nginxConfig } from "@fwkit/cli";
import type { Framework } from "./apps.js";
import type { AppNode } from "./cluster.js";
import { eventually, freePort, launch, type Proc } from "./processes.js";

/** nginx in front of the nodes. */
export interface NginxBalancer {
  readonly url: string;
  readonly proc: Proc;
  stop(): Promise<void>;
}

/** Starts nginx (fails naming it when it is missing) with the generated configuration. */
export async function startNginx(
  dir: string,
  appRoot: string,
  framework: Framework,
  nodes: readonly AppNode[],
): Promise<NginxBalancer> {
  const port = await freePort();
  const prefix = join(dir, `nginx-${port}`);
  mkdirSync(join(prefix, "logs"), { recursive: true });
  const target = deployTarget(appRoot, framework.name, { hosts: ["127.0.0.1", "localhost"] });
  writeFileSync(
    join(prefix, "site.conf"),
    nginxConfig(target, {
      listen: `127.0.0.1:${port}`,
      servers: nodes.map((node) => `127.0.0.1:${node.port}`),
      tls: false,
    }),
  );
  writeFileSync(
    join(prefix, "nginx.conf"),
    `daemon off;\n# One process: stopping it leaves no worker behind.\nmaster_process off;\npid ${join(prefix, "nginx.pid")};\nerror_log stderr warn;\nevents { worker_connections 8192; }\nhttp {\n  access_log off;\n  include ${join(prefix, "site.conf")};\n}\n`,
  );
  const proc = launch("nginx", ["-p", prefix, "-c", join(prefix, "nginx.conf")]);
  const url = `http://127.0.0.1:${port}`;
  await eventually("nginx to pass requests (apt-get install -y nginx if it is missing)", async () => {
    if (proc.child.exitCode !== null) throw new Error(`nginx exited: ${proc.output()}`);
    return (await fetch(`${url}/readyz`)).status === 200 ? true : undefined;
  });
  return {
    url,
    proc,
    async stop() {
      await proc.stop("SIGQUIT");
    },
  };
}
