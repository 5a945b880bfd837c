// The Prometheus deploy files: the scrape configuration passes promtool's check, the Kubernetes pods
// carry the annotations it discovers them by, and both balancers refuse the metrics path.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { parseAllDocuments, parse } from "yaml";
import {
  appMetricsPath,
  deployFiles,
  deployTarget,
  haproxyConfig,
  nginxConfig,
  prometheusConfig,
} from "../../../src/production/deploy/index.js";

const target = deployTarget("/nonexistent/tea-shop", "fw-a", { name: "tea-shop", hosts: ["shop.example.com"] });
const files = deployFiles(target);
const dir = mkdtempSync(join(tmpdir(), "deploy-metrics-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("Prometheus deploy files", () => {
  // Debian's Prometheus is built without Kubernetes discovery: promtool checks the static job.
  test("deploy/prometheus.yml scrapes the nodes' metrics port and passes promtool check config", () => {
    const config = parse(files["deploy/prometheus.yml"]!) as { scrape_configs: Array<Record<string, any>> };
    const [nodes, pods] = config.scrape_configs;
    assert.equal(nodes!["metrics_path"], "/metrics");
    assert.deepEqual(nodes!["static_configs"][0].targets, ["10.0.0.11:9464", "10.0.0.12:9464"]);
    assert.equal(pods!["kubernetes_sd_configs"][0].role, "pod");
    const file = join(dir, "prometheus.yml");
    writeFileSync(
      file,
      prometheusConfig(target, {
        targets: ["127.0.0.1:9464"],
        token: "a-scrape-token-of-some-length",
        scrapeIntervalSeconds: 5,
        kubernetes: false,
      }),
    );
    const checked = spawnSync("promtool", ["check", "config", file], { encoding: "utf8" });
    assert.equal(checked.error, undefined, "promtool runs (apt-get install -y prometheus)");
    assert.equal(checked.status, 0, `${checked.stdout}${checked.stderr}`);
  });

  test("the Deployment's pods carry the prometheus.io annotations and a metrics port; the ConfigMap switches metrics on", () => {
    const docs = parseAllDocuments(files["deploy/kubernetes.yaml"]!).map((doc) => doc.toJS() as Record<string, any>);
    const deployment = docs.find((doc) => doc["kind"] === "Deployment")!;
    assert.deepEqual(deployment["spec"].template.metadata.annotations, {
      "prometheus.io/scrape": "true",
      "prometheus.io/port": "9464",
      "prometheus.io/path": "/metrics",
    });
    assert.ok(
      deployment["spec"].template.spec.containers[0].ports.some(
        (port: { name: string; containerPort: number }) => port.name === "metrics" && port.containerPort === 9464,
      ),
    );
    const configMap = docs.find((doc) => doc["kind"] === "ConfigMap")!;
    assert.equal(configMap["data"].METRICS_ENABLED, "true");
    const service = docs.find((doc) => doc["kind"] === "Service")!;
    assert.ok(!JSON.stringify(service["spec"].ports).includes("9464"), "the Service never exposes the metrics port");
  });

  test("the generated HAProxy and nginx configurations refuse the metrics path", () => {
    assert.match(
      haproxyConfig(target, { servers: ["10.0.0.11:5000"] }),
      /http-request deny deny_status 404 if \{ path \/metrics \}/,
    );
    assert.match(nginxConfig(target, { servers: ["10.0.0.11:5000"] }), /location = \/metrics \{\s+return 404;/);
  });

  test("an app's own metrics.path (its production section included) is what the balancers refuse and Prometheus scrapes", async () => {
    const root = join(dir, "custom-path");
    mkdirSync(join(root, "lib"), { recursive: true });
    writeFileSync(
      join(root, "lib", "config.ts"),
      'export const config = { metrics: { path: "/stats" }, environments: { production: { metrics: { path: "/internal/stats" } } } };\n',
    );
    const path = await appMetricsPath(root);
    assert.equal(path, "/internal/stats");
    assert.equal(await appMetricsPath(join(dir, "no-such-app")), "/metrics", "the default when there is no config");
    const custom = deployFiles(
      deployTarget(root, "fw-a", { name: "tea-shop", hosts: ["shop.example.com"], metricsPath: path }),
    );
    assert.match(
      custom["deploy/haproxy.cfg"]!,
      /http-request deny deny_status 404 if \{ path \/internal\/stats \} \|\| \{ path_beg \/internal\/stats\/ \}/,
    );
    assert.doesNotMatch(custom["deploy/haproxy.cfg"]!, /path \/metrics/);
    assert.match(custom["deploy/nginx.conf"]!, /location = \/internal\/stats \{\s+return 404;/);
    assert.equal((parse(custom["deploy/prometheus.yml"]!) as any).scrape_configs[0].metrics_path, "/internal/stats");
    assert.match(custom["deploy/kubernetes.yaml"]!, /prometheus\.io\/path: \/internal\/stats/);
  });
});
