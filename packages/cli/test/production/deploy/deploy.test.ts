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
import { E_DEPLOY_OPTION } from "../../../src/errors.js";
import {
  deployFiles,
  deployHosts,
  deployTarget,
  haproxyConfig,
  haproxyPemPath,
  nginxCertificatePaths,
  systemdUnit,
  systemdWorkerUnit,
  writeDeployFiles,
} from "../../../src/production/deploy/index.js";

const dir = mkdtempSync(join(tmpdir(), "fw-deploy-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const app = join(dir, "tea-shop");
mkdirSync(app);
writeFileSync(join(app, "app.ts"), "export const app = {};\n");
writeFileSync(join(app, "package.json"), JSON.stringify({ name: "tea-shop", private: true }));
const target = deployTarget(app, "fw-b", { hosts: ["shop.example.com", "www.shop.example.com"] });
const files = deployFiles(target);

// A self-signed certificate, so the real tools load the TLS lines as a deployment would.
const certs = join(dir, "certs");
mkdirSync(certs);
const made = spawnSync(
  "openssl",
  [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    join(certs, "site.key"),
    "-out",
    join(certs, "site.crt"),
    "-days",
    "2",
    "-subj",
    "/CN=shop.example.com",
  ],
  { encoding: "utf8" },
);
if (made.status !== 0) throw new Error(`openssl could not make a test certificate: ${made.stderr}`);
writeFileSync(
  join(certs, "site.pem"),
  readFileSync(join(certs, "site.crt"), "utf8") + readFileSync(join(certs, "site.key"), "utf8"),
);
/** A generated file with its certificate paths pointed at the test certificate. */
const withTestCerts = (text: string) =>
  text
    .replaceAll(haproxyPemPath(target), join(certs, "site.pem"))
    .replaceAll("/usr/local/etc/haproxy/certs/site.pem", join(certs, "site.pem"))
    .replaceAll(nginxCertificatePaths(target).certificate, join(certs, "site.crt"))
    .replaceAll(nginxCertificatePaths(target).key, join(certs, "site.key"));

/** Runs a tool; the test fails naming it when it is not installed (the set-up installs it). */
function tool(command: string, args: readonly string[]): { status: number | null; output: string } {
  const result = spawnSync(command, args, { encoding: "utf8" });
  if (result.error)
    throw new Error(`${command} is not installed (apt-get install -y haproxy nginx systemd): ${result.error.message}`);
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe("deploy files", () => {
  test("the deploy command writes every file once and never overwrites one", () => {
    writeFileSync(join(app, "Dockerfile"), "# mine\n");
    const result = writeDeployFiles({ root: app, framework: "fw-b" });
    assert.deepEqual(result.skipped, ["Dockerfile"]);
    assert.deepEqual(
      [...result.written].sort(),
      Object.keys(files)
        .filter((name) => name !== "Dockerfile")
        .sort(),
    );
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
    assert.match(stages[0]!, /^node:24\S* AS build/);
    // Installs from deploy/docker/ (the image's package.json, lock file and packed framework), never
    // from the app's package.json, whose framework is a path on the machine that ran the deploy command.
    assert.match(
      stages[0]!,
      /^COPY deploy\/docker\/ \.\/deploy\/docker\/\nRUN cp deploy\/docker\/package\.json deploy\/docker\/package-lock\.json \.\/ && npm ci\n/m,
    );
    assert.match(stages[0]!, /^RUN sha256sum -c --quiet deploy\/docker\/package\.json\.sha256/m);
    assert.match(
      stages[0]!,
      /RUN cp deploy\/docker\/package\.json deploy\/docker\/package-lock\.json \.\/ && node node_modules\/fw-b\/bin\/fw-b\.js :build/,
    );
    assert.match(stages[1]!, /^COPY --from=build \/app\/deploy\/docker\/ \.\/deploy\/docker\/$/m);
    assert.match(stages[1]!, /RUN npm ci --omit=dev && rm -rf deploy/);
    assert.match(stages[1]!, /COPY --from=build --chown=node:node \/app\/build \.\//);
    assert.match(stages[1]!, /^USER node$/m);
    assert.match(stages[1]!, /^CMD \["node", "node_modules\/fw-b\/bin\/fw-b\.js", "start"\]$/m);
    assert.ok(stages[1]!.indexOf("USER node") < stages[1]!.indexOf("CMD"));
    assert.match(files[".dockerignore"]!, /^node_modules$/m);
    assert.match(files[".dockerignore"]!, /^\.env$/m);
  });

  test("no generated file carries a usable password: each is an environment reference or a placeholder to replace", () => {
    const passwords: string[] = [];
    for (const [file, text] of Object.entries(files)) {
      for (const match of text.matchAll(/[a-z]+:\/\/[^\s/:@]*:([^\s@]*)@/g)) passwords.push(`${file}: ${match[1]}`);
      for (const match of text.matchAll(/^[^#\n]*PASSWORD[A-Z_]*:\s+([^\s]+)/gm))
        passwords.push(`${file}: ${match[1]}`);
    }
    assert.ok(passwords.length >= 5, passwords.join("\n"));
    const usable = passwords.filter((entry) => !/: (\$\{[A-Z_]+|replace-with-)/.test(entry));
    assert.deepEqual(usable, [], "a default password in a generated file");
    assert.doesNotMatch(files["deploy/kubernetes.yaml"]!, /:password@/);
  });

  test("compose: app replicas behind HAProxy, PostgreSQL and Redis with health checks, migrations as a release step", () => {
    const compose = parse(files["compose.yaml"]!) as Record<string, any>;
    const services = compose["services"] as Record<string, any>;
    assert.deepEqual(Object.keys(services).sort(), ["app", "haproxy", "migrate", "postgres", "redis", "worker"]);
    assert.ok(services["app"].deploy.replicas >= 2);
    assert.equal(services["app"].environment.APP_ENV, "production");
    assert.match(services["app"].environment.DB_URL, /^postgres:\/\/app:.*@postgres:5432\/app$/);
    assert.match(services["app"].environment.SESSION_URL, /^redis:\/\/:.*@redis:6379\/0$/);
    assert.equal(services["app"].environment.TRUST_PROXY, "1");
    // No secret has a fallback: compose refuses to start until each is set; Redis has a password.
    assert.doesNotMatch(files["compose.yaml"]!, /:-/);
    assert.match(services["postgres"].environment.POSTGRES_PASSWORD, /^\$\{POSTGRES_PASSWORD:\?/);
    assert.match(services["app"].environment.DB_URL, /\$\{POSTGRES_PASSWORD:\?/);
    assert.deepEqual(services["redis"].command.slice(-2, -1), ["--requirepass"]);
    assert.match(services["redis"].command.at(-1), /^\$\{REDIS_PASSWORD:\?/);
    for (const key of ["SESSION_URL", "CACHE_URL", "REDIS_URL"])
      assert.match(services["app"].environment[key], /^redis:\/\/:\$\{REDIS_PASSWORD/);
    assert.deepEqual(services["haproxy"].ports, ["80:80", "443:443"]);
    assert.match(services["haproxy"].volumes[1], /^\.\/deploy\/certs:/);
    assert.match(files[".dockerignore"]!, /^deploy\/certs$/m);
    assert.equal(services["app"].depends_on.migrate.condition, "service_completed_successfully");
    assert.deepEqual(services["migrate"].command, ["node", "node_modules/fw-b/bin/fw-b.js", ":migrate"]);
    assert.ok(services["postgres"].healthcheck && services["redis"].healthcheck);
    assert.match(services["haproxy"].volumes[0], /deploy\/haproxy\.compose\.cfg:/);
    // Job workers: the framework's worker command on the app's settings and queue, after the
    // migrations; Redis keeps queued jobs on disk.
    assert.deepEqual(services["worker"].command, [
      "node",
      "node_modules/fw-b/bin/fw-b.js",
      ":work",
      "--concurrency",
      "5",
    ]);
    assert.match(services["app"].environment.QUEUE_URL, /^redis:\/\/:\$\{REDIS_PASSWORD\}@redis:6379\/3$/);
    assert.equal(services["worker"].environment.QUEUE_URL, services["app"].environment.QUEUE_URL);
    assert.equal(services["worker"].depends_on.migrate.condition, "service_completed_successfully");
    assert.ok(services["worker"].deploy.replicas >= 2);
    assert.deepEqual(services["redis"].command.slice(1, 3), ["--appendonly", "yes"]);
  });

  test("Kubernetes: ConfigMap, Secret, migration Job, Deployment with probes on /healthz and /readyz and a preStop pause, Service", () => {
    const docs = parseAllDocuments(files["deploy/kubernetes.yaml"]!).map((doc) => doc.toJS() as Record<string, any>);
    assert.deepEqual(
      docs.map((doc) => doc["kind"]),
      ["ConfigMap", "Secret", "Job", "Deployment", "Deployment", "Service"],
    );
    const worker = docs[4]!["spec"].template.spec;
    assert.deepEqual(worker.containers[0].command, [
      "node",
      "node_modules/fw-b/bin/fw-b.js",
      ":work",
      "--concurrency",
      "5",
    ]);
    assert.ok(worker.terminationGracePeriodSeconds > 30, "running jobs get their grace at SIGTERM");
    // Its metrics on the worker's own port (beside the web process's 9464 on one machine).
    assert.deepEqual(docs[4]!["spec"].template.metadata.annotations, {
      "prometheus.io/scrape": "true",
      "prometheus.io/port": "9465",
      "prometheus.io/path": "/metrics",
    });
    assert.match(docs[1]!["stringData"].QUEUE_URL, /^redis:\/\//);
    const deployment = docs[3]!;
    const pod = deployment["spec"].template.spec;
    const container = pod.containers[0];
    assert.equal(container.livenessProbe.httpGet.path, "/healthz");
    assert.equal(container.readinessProbe.httpGet.path, "/readyz");
    assert.deepEqual(container.lifecycle.preStop.exec.command, ["sleep", "5"]);
    assert.ok(pod.terminationGracePeriodSeconds > 5 + target.graceSeconds, "the grace covers the pause and the drain");
    assert.equal(container.securityContext.runAsNonRoot, true);
    assert.deepEqual(
      container.envFrom.map((from: Record<string, { name: string }>) => Object.values(from)[0]!.name),
      ["tea-shop-config", "tea-shop-secrets"],
    );
    assert.equal(deployment["spec"].strategy.rollingUpdate.maxUnavailable, 0);
    assert.equal(docs[5]!["spec"].selector["app.kubernetes.io/name"], "tea-shop");
    assert.equal(docs[1]!["stringData"].SECRET_KEY.length > 0, true);
    // The migration Job runs once per release: its name carries the release, applied before the pods.
    const job = docs[2]!;
    assert.equal(job["metadata"].name, "tea-shop-migrate-${RELEASE}");
    assert.equal(job["spec"].template.spec.containers[0].image, "tea-shop:${RELEASE}");
    assert.equal(container.image, "tea-shop:${RELEASE}");
    assert.equal(job["metadata"].labels["app.kubernetes.io/component"], "migrate");
    for (const doc of docs.slice(0, 2)) assert.equal(doc["metadata"].labels["app.kubernetes.io/component"], "config");
    assert.match(
      files["deploy/kubernetes.yaml"]!,
      /kubectl apply -l 'app\.kubernetes\.io\/component in \(config,migrate\)'/,
    );
    assert.match(
      files["deploy/kubernetes.yaml"]!,
      /kubectl wait --for=condition=complete .*job\/tea-shop-migrate-\$RELEASE/,
    );
    // Memory from the measured 280-604 MB of a primary and two workers.
    assert.equal(container.resources.limits.memory, "768Mi");
    assert.equal(job["spec"].template.spec.containers[0].resources.limits.memory, "512Mi");
  });

  test("haproxy.cfg and the compose variant pass haproxy -c", () => {
    for (const name of ["deploy/haproxy.cfg", "deploy/haproxy.compose.cfg"]) {
      const file = join(dir, name.replace("/", "-"));
      writeFileSync(file, withTestCerts(files[name]!));
      const { status, output } = tool("haproxy", ["-c", "-f", file]);
      assert.equal(status, 0, `${name}: ${output}`);
      assert.match(files[name]!, /http-check send meth GET uri \/readyz/);
      assert.doesNotMatch(output, /WARNING/, `${name}: ${output}`);
    }
  });

  test("haproxy.cfg: TLS on, plain HTTP redirected, only the app's hosts, the balancer's request id, retries of safe methods only", () => {
    const text = files["deploy/haproxy.cfg"]!;
    assert.match(text, /^ {4}bind :443 ssl crt \/etc\/haproxy\/certs\/tea-shop\.pem alpn h2,http\/1\.1$/m);
    assert.match(text, /^ {4}http-request redirect scheme https code 301 unless \{ ssl_fc \}$/m);
    assert.match(text, /ssl-min-ver TLSv1\.2/);
    assert.match(
      text,
      /^ {4}acl app_host req\.hdr\(host\),lower -m reg \^\(shop\[\.\]example\[\.\]com\|www\[\.\]shop\[\.\]example\[\.\]com\)\(:\[0-9\]\{1,5\}\)\?\$$/m,
    );
    assert.ok(
      text.indexOf("http-request deny deny_status 421 unless app_host") < text.indexOf("http-request redirect"),
      "the Host is checked before anything is built from it",
    );
    assert.match(text, /^ {4}http-request set-header X-Request-Id %\[unique-id\]$/m);
    // A POST a client sent again is two log lines with one Idempotency-Key.
    assert.match(text, /^ {4}http-request capture req\.hdr\(Idempotency-Key\) len 64$/m);
    assert.doesNotMatch(text, /req\.hdr\(x-request-id\)/);
    assert.match(text, /^ {4}http-request disable-l7-retry unless METH_GET or METH_HEAD or METH_OPTIONS$/m);
    assert.match(text, new RegExp(`^    timeout server ${target.graceSeconds + 5}s$`, "m"));
    assert.match(
      files["deploy/haproxy.compose.cfg"]!,
      /bind :443 ssl crt \/usr\/local\/etc\/haproxy\/certs\/site\.pem/,
    );
  });

  test("the public host names: --host, else BASE_URL's host, else a placeholder; a wrong one is refused", () => {
    assert.deepEqual(deployHosts(["Shop.Example.com", "shop.example.com"], {}), ["shop.example.com"]);
    assert.deepEqual(deployHosts(undefined, { BASE_URL: "https://www.tea.example:8443/app" }), ["www.tea.example"]);
    assert.deepEqual(deployHosts(undefined, {}), ["app.example.com"]);
    assert.throws(() => deployHosts(["https://shop.example.com"], {}), E_DEPLOY_OPTION);
    assert.throws(() => deployHosts(["shop.example.com evil.example"], {}), E_DEPLOY_OPTION);
    assert.throws(() => deployHosts(undefined, { BASE_URL: "not a url" }), E_DEPLOY_OPTION);
  });

  test("haproxyConfig for tests and stats: static servers, a bind address, a stats listener", () => {
    const text = haproxyConfig(target, {
      bind: "127.0.0.1:8080",
      servers: ["127.0.0.1:5001", "127.0.0.1:5002"],
      stats: "127.0.0.1:8081",
      tls: false,
    });
    assert.doesNotMatch(text, /ssl crt|redirect scheme/);
    assert.match(text, /server tea-shop1 127\.0\.0\.1:5001 check/);
    assert.match(text, /server tea-shop2 127\.0\.0\.1:5002 check/);
    const file = join(dir, "haproxy-test.cfg");
    writeFileSync(file, text);
    assert.equal(tool("haproxy", ["-c", "-f", file]).status, 0);
  });

  test("nginx.conf passes nginx -t inside a main config, under a temporary prefix", () => {
    const prefix = join(dir, "nginx");
    mkdirSync(join(prefix, "logs"), { recursive: true });
    writeFileSync(join(prefix, "site.conf"), withTestCerts(files["deploy/nginx.conf"]!));
    writeFileSync(
      join(prefix, "nginx.conf"),
      `pid ${join(prefix, "nginx.pid")};\nerror_log ${join(prefix, "logs", "error.log")};\nevents {}\nhttp {\n  access_log off;\n  include ${join(prefix, "site.conf")};\n}\n`,
    );
    const { status, output } = tool("nginx", ["-t", "-p", prefix, "-c", join(prefix, "nginx.conf")]);
    assert.equal(status, 0, output);
    assert.match(output, /syntax is ok/);
    assert.doesNotMatch(output, /\[warn\]/, output);
  });

  test("nginx.conf: TLS on, plain HTTP redirected, no version, explicit timeouts, only the app's hosts, its own request id", () => {
    const text = files["deploy/nginx.conf"]!;
    assert.match(text, /listen 443 ssl http2;/);
    assert.match(text, /ssl_certificate \/etc\/nginx\/certs\/tea-shop\.crt;/);
    assert.match(text, /ssl_protocols TLSv1\.2 TLSv1\.3;/);
    assert.match(text, /return 301 https:\/\/\$host\$request_uri;/);
    // Any other Host: a default server that closes the connection, TLS refused without a certificate.
    assert.match(
      text,
      /listen 80 default_server;\n {4}listen 443 ssl default_server;\n {4}ssl_reject_handshake on;\n {4}server_tokens off;\n {4}return 444;/,
    );
    assert.equal(text.match(/server_name shop\.example\.com www\.shop\.example\.com;/g)?.length, 2);
    const servers = text.split(/^server \{$/m).slice(1);
    assert.equal(servers.length, 3);
    for (const server of servers) assert.match(server, /server_tokens off;/);
    for (const directive of [
      "client_header_timeout",
      "client_body_timeout",
      "send_timeout",
      "proxy_connect_timeout",
      "proxy_send_timeout",
      "proxy_read_timeout",
    ]) {
      assert.match(text, new RegExp(`${directive} \\d+s;`), directive);
    }
    assert.match(text, /proxy_set_header X-Request-Id \$request_id;/);
    assert.doesNotMatch(text, /proxy_next_upstream [^;]*non_idempotent/);
    // Idle upstream connections: nginx closes them well before the app does.
    assert.match(text, /keepalive 32;\n[^}]*keepalive_timeout 4s;/);
    assert.ok(4 < 65, "the app's keepAliveTimeout (server.ts) is 65 s");
  });

  test("the systemd unit passes systemd-analyze verify (when systemd-analyze is installed)", (t) => {
    const probe = spawnSync("systemd-analyze", ["--version"], { encoding: "utf8" });
    if (probe.error) return t.skip("systemd-analyze is not installed here: the unit is verified only where systemd is");
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
      tool("systemd-analyze", ["verify", path])
        .output.split("\n")
        .filter(
          (line) =>
            line.includes(path) &&
            !/Failed to (connect|open)|not running as PID 1|System has not been booted/i.test(line),
        );
    assert.deepEqual(problemsOf(file), []);
    // The check bites: a broken copy of the unit is reported.
    const broken = join(unitDir, "broken-shop.service");
    writeFileSync(broken, unit.replace("KillMode=mixed", "KillMode=sometimes"));
    assert.equal(problemsOf(broken).length, 1);
    // The sandbox: systemd-analyze security rates the generated unit MEDIUM or better (it was 8.5 EXPOSED).
    const security = tool("systemd-analyze", [
      "security",
      "--offline=yes",
      join(dir, "units", "tea-shop.service"),
    ]).output;
    const [, score, level] = /Overall exposure level for .*: (\d+\.\d) (\w+)/.exec(security) ?? [];
    assert.ok(score !== undefined, security);
    assert.ok(["SAFE", "OK", "MEDIUM"].includes(level!), `exposure ${score} ${level}`);
    assert.ok(Number(score) <= 2.0, `exposure ${score} ${level}`);
    assert.match(files["deploy/tea-shop.service"]!, /^ExecReload=\/bin\/kill -HUP \$MAINPID$/m);
    assert.match(files["deploy/tea-shop.service"]!, /^KillMode=mixed$/m);
    assert.ok(existsSync(file));
    // The job worker's unit: verified and rated the same; its stop timeout covers the worker's grace.
    const workerFile = join(unitDir, "tea-shop-worker.service");
    writeFileSync(workerFile, systemdWorkerUnit(target, { dir: app, node: process.execPath, user: "root" }));
    assert.deepEqual(problemsOf(workerFile), []);
    const workerSecurity = tool("systemd-analyze", ["security", "--offline=yes", workerFile]).output;
    assert.ok(
      Number(/Overall exposure level for .*: (\d+\.\d) /.exec(workerSecurity)?.[1] ?? 99) <= 2.0,
      workerSecurity.slice(-300),
    );
    assert.match(
      files["deploy/tea-shop-worker.service"]!,
      /^ExecStart=\S+ \S+\/node_modules\/fw-b\/bin\/fw-b\.js :work --concurrency 5 --grace 30$/m,
    );
    assert.match(files["deploy/tea-shop-worker.service"]!, /^TimeoutStopSec=40$/m);
  });
});
