// The generated deploy files, checked by the real tools where they exist here (haproxy -c,
// nginx -t, systemd-analyze verify) and the YAML parsed and asserted; the generator never
// overwrites a file.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { parse, parseAllDocuments } from "yaml";
import { deployFiles, deployTarget, haproxyConfig, nginxConfig, systemdUnit, writeDeployFiles } from "./index.js";

const dir = mkdtempSync(join(tmpdir(), "fw-deploy-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const app = join(dir, "tea-shop");
mkdirSync(app);
writeFileSync(join(app, "app.ts"), "export const app = {};\n");
writeFileSync(join(app, "package.json"), JSON.stringify({ name: "tea-shop", private: true }));
const target = deployTarget(app, "fw-b");
const files = deployFiles(target);

/** Runs a tool; the test fails naming it when it is not installed (the set-up installs it). */
function tool(command: string, args: readonly string[]): { status: number | null; output: string } {
  const result = spawnSync(command, args, { encoding: "utf8" });
  if (result.error) throw new Error(`${command} is not installed (apt-get install -y haproxy nginx systemd): ${result.error.message}`);
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe("deploy files", () => {
  test("the deploy command writes every file once and never overwrites one", () => {
    writeFileSync(join(app, "Dockerfile"), "# mine\n");
    const result = writeDeployFiles({ root: app, framework: "fw-b" });
    assert.deepEqual(result.skipped, ["Dockerfile"]);
    assert.deepEqual([...result.written].sort(), Object.keys(files).filter((name) => name !== "Dockerfile").sort());
    assert.equal(readFileSync(join(app, "Dockerfile"), "utf8"), "# mine\n");
    const again = writeDeployFiles({ root: app, framework: "fw-b" });
    assert.deepEqual(again.written, []);
  });

  test("the deploy command refuses a folder without an app", () => {
    assert.throws(() => writeDeployFiles({ root: dir, framework: "fw-b" }), /E_APP_NOT_FOUND|No app could be loaded/);
  });

  test("Dockerfile: a build stage that builds, a runtime stage with npm ci --omit=dev as the non-root node user", () => {
    const text = files["Dockerfile"]!;
    const stages = text.split(/^FROM /m).slice(1);
    assert.equal(stages.length, 2);
    assert.match(stages[0]!, /^node:20\S* AS build/);
    // Installs from deploy/docker/ (the image's package.json, lock file and packed framework), never
    // from the app's package.json, whose framework is a path on the machine that ran the deploy command.
    assert.match(stages[0]!, /^COPY deploy\/docker\/ \.\/deploy\/docker\/\nRUN cp deploy\/docker\/package\.json deploy\/docker\/package-lock\.json \.\/ && npm ci\n/m);
    assert.match(stages[0]!, /^RUN sha256sum -c --quiet deploy\/docker\/package\.json\.sha256/m);
    assert.match(stages[0]!, /RUN cp deploy\/docker\/package\.json deploy\/docker\/package-lock\.json \.\/ && node node_modules\/fw-b\/bin\/fw-b\.js :build/);
    assert.match(stages[1]!, /^COPY --from=build \/app\/deploy\/docker\/ \.\/deploy\/docker\/$/m);
    assert.match(stages[1]!, /RUN npm ci --omit=dev && rm -rf deploy/);
    assert.match(stages[1]!, /COPY --from=build --chown=node:node \/app\/build \.\//);
    assert.match(stages[1]!, /^USER node$/m);
    assert.match(stages[1]!, /^CMD \["node", "node_modules\/fw-b\/bin\/fw-b\.js", "start"\]$/m);
    assert.ok(stages[1]!.indexOf("USER node") < stages[1]!.indexOf("CMD"));
    assert.match(files[".dockerignore"]!, /^node_modules$/m);
    assert.match(files[".dockerignore"]!, /^\.env$/m);
  });

  test("compose: app replicas behind HAProxy, PostgreSQL and Redis with health checks, migrations as a release step", () => {
    const compose = parse(files["compose.yaml"]!) as Record<string, any>;
    const services = compose["services"] as Record<string, any>;
    assert.deepEqual(Object.keys(services).sort(), ["app", "haproxy", "migrate", "postgres", "redis"]);
    assert.ok(services["app"].deploy.replicas >= 2);
    assert.equal(services["app"].environment.APP_ENV, "production");
    assert.match(services["app"].environment.DB_URL, /^postgres:\/\/app:.*@postgres:5432\/app$/);
    assert.match(services["app"].environment.SESSION_URL, /^redis:\/\/redis:6379/);
    assert.equal(services["app"].environment.TRUST_PROXY, "1");
    assert.equal(services["app"].depends_on.migrate.condition, "service_completed_successfully");
    assert.deepEqual(services["migrate"].command, ["node", "node_modules/fw-b/bin/fw-b.js", ":migrate"]);
    assert.ok(services["postgres"].healthcheck && services["redis"].healthcheck);
    assert.deepEqual(services["haproxy"].ports, ["80:80"]);
    assert.match(services["haproxy"].volumes[0], /deploy\/haproxy\.compose\.cfg:/);
  });

  test("Kubernetes: ConfigMap, Secret, migration Job, Deployment with probes on /healthz and /readyz and a preStop pause, Service", () => {
    const docs = parseAllDocuments(files["deploy/kubernetes.yaml"]!).map((doc) => doc.toJS() as Record<string, any>);
    assert.deepEqual(docs.map((doc) => doc["kind"]), ["ConfigMap", "Secret", "Job", "Deployment", "Service"]);
    const deployment = docs[3]!;
    const pod = deployment["spec"].template.spec;
    const container = pod.containers[0];
    assert.equal(container.livenessProbe.httpGet.path, "/healthz");
    assert.equal(container.readinessProbe.httpGet.path, "/readyz");
    assert.deepEqual(container.lifecycle.preStop.exec.command, ["sleep", "5"]);
    assert.ok(pod.terminationGracePeriodSeconds > 5 + target.graceSeconds, "the grace covers the pause and the drain");
    assert.equal(container.securityContext.runAsNonRoot, true);
    assert.deepEqual(container.envFrom.map((from: Record<string, { name: string }>) => Object.values(from)[0]!.name), ["tea-shop-config", "tea-shop-secrets"]);
    assert.equal(deployment["spec"].strategy.rollingUpdate.maxUnavailable, 0);
    assert.equal(docs[4]!["spec"].selector["app.kubernetes.io/name"], "tea-shop");
    assert.equal(docs[1]!["stringData"].SECRET_KEY.length > 0, true);
  });

  test("haproxy.cfg and the compose variant pass haproxy -c", () => {
    for (const name of ["deploy/haproxy.cfg", "deploy/haproxy.compose.cfg"]) {
      const file = join(dir, name.replace("/", "-"));
      writeFileSync(file, files[name]!);
      const { status, output } = tool("haproxy", ["-c", "-f", file]);
      assert.equal(status, 0, `${name}: ${output}`);
      assert.match(files[name]!, /http-check send meth GET uri \/readyz/);
    }
  });

  test("haproxyConfig for tests and stats: static servers, a bind address, a stats listener", () => {
    const text = haproxyConfig(target, { bind: "127.0.0.1:8080", servers: ["127.0.0.1:5001", "127.0.0.1:5002"], stats: "127.0.0.1:8081" });
    assert.match(text, /server tea-shop1 127\.0\.0\.1:5001 check/);
    assert.match(text, /server tea-shop2 127\.0\.0\.1:5002 check/);
    const file = join(dir, "haproxy-test.cfg");
    writeFileSync(file, text);
    assert.equal(tool("haproxy", ["-c", "-f", file]).status, 0);
  });

  test("nginx.conf passes nginx -t inside a main config, under a temporary prefix", () => {
    const prefix = join(dir, "nginx");
    mkdirSync(join(prefix, "logs"), { recursive: true });
    writeFileSync(join(prefix, "site.conf"), files["deploy/nginx.conf"]!);
    writeFileSync(join(prefix, "nginx.conf"), `pid ${join(prefix, "nginx.pid")};\nerror_log ${join(prefix, "logs", "error.log")};\nevents {}\nhttp {\n  access_log off;\n  include ${join(prefix, "site.conf")};\n}\n`);
    const { status, output } = tool("nginx", ["-t", "-p", prefix, "-c", join(prefix, "nginx.conf")]);
    assert.equal(status, 0, output);
    assert.match(output, /syntax is ok/);
  });

  test("the systemd unit passes systemd-analyze verify (when systemd-analyze is installed)", (t) => {
    const probe = spawnSync("systemd-analyze", ["--version"], { encoding: "utf8" });
    if (probe.error) return t.skip("systemd-analyze is not installed here (the issue asks for it only where available)");
    const unitDir = join(dir, "units");
    mkdirSync(unitDir, { recursive: true });
    // The unit as generated, pointed at this machine's node and a folder that exists.
    const unit = systemdUnit(target, { dir: app, node: process.execPath, user: "root" });
    const file = join(unitDir, "tea-shop.service");
    writeFileSync(file, unit);
    mkdirSync(join(app, "node_modules", "fw-b", "bin"), { recursive: true });
    writeFileSync(join(app, "node_modules", "fw-b", "bin", "fw-b.js"), "");
    // systemd-analyze exits 0 on some parse errors: the lines naming the file are the verdict.
    const problemsOf = (path: string) =>
      tool("systemd-analyze", ["verify", path]).output.split("\n").filter((line) => line.includes(path) && !/Failed to (connect|open)|not running as PID 1|System has not been booted/i.test(line));
    assert.deepEqual(problemsOf(file), []);
    // The check bites: a broken copy of the unit is reported.
    const broken = join(unitDir, "broken-shop.service");
    writeFileSync(broken, unit.replace("KillMode=mixed", "KillMode=sometimes"));
    assert.equal(problemsOf(broken).length, 1);
    assert.match(files["deploy/tea-shop.service"]!, /^ExecReload=\/bin\/kill -HUP \$MAINPID$/m);
    assert.match(files["deploy/tea-shop.service"]!, /^KillMode=mixed$/m);
    assert.ok(existsSync(file));
  });
});
