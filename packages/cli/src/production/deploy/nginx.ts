import { REALTIME_PATH, safeName, type DeployTarget } from "./options.js";

/** Options of {@link nginxConfig}. */
export interface NginxOptions {
  /** The port (or `address:port`) of plain HTTP (default 80): it only redirects to HTTPS unless `plainHttp` is "serve". */
  readonly listen?: string;
  /** The app processes, `host:port` each. */
  readonly servers: readonly string[];
  /**
   * TLS ends at nginx: the port and the certificate and key files (default 443 and
   * {@link nginxCertificatePaths}); false for plain HTTP only (tests on one machine).
   */
  readonly tls?: { readonly listen: string; readonly certificate: string; readonly key: string } | false;
  /** Plain HTTP with TLS on: "redirect" to HTTPS (default), or "serve" it as well. */
  readonly plainHttp?: "redirect" | "serve";
  /** The host names served (default the target's): nginx closes the connection for any other `Host`. */
  readonly hosts?: readonly string[];
}

/** Where the generated nginx config expects the certificate (full chain) and its key. */
export function nginxCertificatePaths(target: DeployTarget): { readonly certificate: string; readonly key: string } {
  const name = safeName(target.name);
  return { certificate: `/etc/nginx/certs/${name}.crt`, key: `/etc/nginx/certs/${name}.key` };
}

// What every server block says about itself and its clients: no version, bounded waits.
const HARDENING = `    server_tokens off;
    client_header_timeout 10s;
    client_body_timeout 10s;
    send_timeout 30s;
    keepalive_timeout 10s;`;

/**
 * An nginx alternative (an http-context file for /etc/nginx/conf.d/): TLS at nginx (plain HTTP
 * redirected), only the app's own host names (any other `Host` gets its connection closed, 444),
 * the same forwarded headers, a request id nginx assigns, no client trace context, passive health
 * (a process whose connection fails or times out twice is skipped for 5 s; its own answers, 503
 * included, pass through; open-source nginx has no active checks, so readiness is not polled),
 * retries of requests that could not be sent (nginx never sends a POST again once it went out), and
 * idle upstream connections closed by nginx before the app would close them.
 */
export function nginxConfig(target: DeployTarget, options: NginxOptions): string {
  const upstream = safeName(target.name);
  const tls = options.tls === false ? undefined : (options.tls ?? { listen: "443", ...nginxCertificatePaths(target) });
  const hosts = (options.hosts ?? target.hosts).join(" ");
  const plain = options.listen ?? "80";
  const realtimePath = target.realtimePath ?? REALTIME_PATH;
  // A map's variable is global to nginx's http context: one per app, so two apps' files coexist.
  const upgrade = `connection_upgrade_${upstream.replace(/-/g, "_")}`;
  // What nginx tells the app about the client, in every block that passes a request on (a block
  // with a proxy_set_header of its own inherits none): the request id and trace context are
  // nginx's or none, never the client's.
  const forwarded = `        proxy_http_version 1.1;
        # A WebSocket handshake passes its Upgrade on; any other request keeps the idle connection
        # to the app for the next one (Connection "").
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $${upgrade};
        # $host is one of server_name's names here: other Host values never reach this block.
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header X-Forwarded-Host $host;
        # nginx's own id for every request; one a client sent is replaced.
        proxy_set_header X-Request-Id $request_id;
        # A client's trace context and baggage are dropped (an empty value is not sent): they
        # would name the trace of its requests in the app's logs and force their export.
        proxy_set_header traceparent "";
        proxy_set_header tracestate "";
        proxy_set_header baggage "";
        # Only a connection that failed or timed out counts against a process (max_fails) and is
        # tried on another: the app's own answers, a 503 while its Redis is down included, pass
        # through as they are (counting them would mark every process down and answer 502).
        # A POST, PATCH or LOCK already sent is never sent again (no non_idempotent).
        proxy_next_upstream error timeout;
        proxy_next_upstream_tries 3;
        proxy_connect_timeout 3s;
        proxy_send_timeout 10s;`;
  const locations = `    client_max_body_size 12m;

    # Metrics are Prometheus's, scraped on each node's metrics port: never served to the public.
    location = ${target.metricsPath} {
        return 404;
    }
    location ^~ ${target.metricsPath.replace(/\/+$/, "")}/ {
        return 404;
    }

    location = ${target.healthPath} {
        access_log off;
        proxy_pass http://${upstream};
${forwarded}
    }

    # The realtime stream on the app's realtime.path (server-sent events, and WebSockets when they
    # upgrade on this path): each event goes to the client as it comes (no buffering, whatever the
    # app's headers say), and a stream may be silent for 75 s, five of the app's heartbeats
    # (realtime.heartbeat, 15 s), before nginx gives up on it.
    location = ${realtimePath} {
        proxy_pass http://${upstream};
${forwarded}
        proxy_buffering off;
        proxy_cache off;
        proxy_read_timeout 75s;
    }

    location / {
        proxy_pass http://${upstream};
${forwarded}
        # The app's shutdown grace (${target.graceSeconds} s) plus 5 s: the longest a request waits for an answer.
        proxy_read_timeout ${target.graceSeconds + 5}s;
    }`;
  const app = (listen: string, secure: boolean) => `server {
    listen ${listen}${secure ? " ssl http2" : ""};
    server_name ${hosts};
${HARDENING}
${
  secure && tls
    ? `    ssl_certificate ${tls.certificate};
    ssl_certificate_key ${tls.key};
    ssl_protocols TLSv1.2 TLSv1.3;
    ssl_ciphers ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305;
    ssl_session_tickets off;
    add_header Strict-Transport-Security "max-age=31536000" always;
`
    : ""
}${locations}
}`;
  const redirect = `server {
    listen ${plain};
    server_name ${hosts};
${HARDENING}
    return 301 https://$host$request_uri;
}`;
  return `# nginx in front of ${target.name} (generated by the framework's deploy command; edit freely).
# Put it in /etc/nginx/conf.d/. Before starting: the certificate (full chain) and its key at
# ${tls ? `${tls.certificate} and ${tls.key}` : "(TLS is off)"}, and every public host name of the app on the
# server_name lines (gen:deploy --host sets them). Open-source nginx checks servers passively only:
# HAProxy (deploy/haproxy.cfg) also takes a process out when ${target.readyPath} says its database or Redis is down.
# Connection: upgrade for a WebSocket handshake (Upgrade sent), empty otherwise (keep-alive to the app).
map $http_upgrade $${upgrade} {
    default upgrade;
    "" "";
}

upstream ${upstream} {
    least_conn;
${options.servers.map((address) => `    server ${address} max_fails=2 fail_timeout=5s;`).join("\n")}
    keepalive 32;
    # nginx closes an idle connection to the app after 4 s: before the app's own 65 s, and before the
    # 5 s a draining process keeps its idle connections open, so nginx never sends a request on a
    # connection the app is closing (the app answers "Connection: close" while it drains).
    keepalive_timeout 4s;
}

# Any other Host, or none: the connection is closed without an answer (and no TLS handshake).
server {
    listen ${plain} default_server;
${tls ? `    listen ${tls.listen} ssl default_server;\n    ssl_reject_handshake on;\n` : ""}    server_tokens off;
    return 444;
}

${tls ? `${options.plainHttp === "serve" ? app(plain, false) : redirect}\n\n${app(tls.listen, true)}` : app(plain, false)}
`;
}
