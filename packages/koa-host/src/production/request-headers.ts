/**
 * Every request header the frameworks and batteries read, in one list, with who may write it:
 *
 * - `client`: the client's own statement about itself (its cookies, its token, what it accepts).
 *   Any client may send any value; the code that reads it treats it as the client's word and
 *   never as a fact about the connection or another request.
 * - `proxy`: a statement only a proxy the app trusts may make (the client's address, the scheme,
 *   the public host, the request id, the trace context). It is read only when
 *   `HostRuntime.fromTrustedProxy(ctx)` (the `trustProxy` setting) says the connection comes from
 *   such a proxy; from anyone else it is ignored.
 *
 * A repository test scans every package's sources for header reads and fails on a header missing
 * here; a test over HTTP sends each `proxy` header forged from an untrusted connection and checks
 * that the app does not believe it. A new header read therefore needs a line here, and a new
 * `proxy` header a probe in that test.
 */

/** Who may write a request header the app reads. */
export type HeaderTrust = "client" | "proxy";

/** One header the app reads: who may write it, and what reads it. */
export interface RequestHeaderUse {
  readonly trust: HeaderTrust;
  readonly readBy: string;
}

const client = (readBy: string): RequestHeaderUse => Object.freeze({ trust: "client", readBy });
const proxy = (readBy: string): RequestHeaderUse => Object.freeze({ trust: "proxy", readBy });

/** The request headers read by the host, the frameworks and the batteries (lower case). */
export const REQUEST_HEADERS: Readonly<Record<string, RequestHeaderUse>> = Object.freeze({
  accept: client("error pages and login redirects choose JSON or HTML (ctx.accepts)"),
  "accept-language": client("i18n and fw-b contrib choose the page's language"),
  "access-control-request-method": client("the CORS preflight of a route"),
  authorization: client(
    "bearer auth, the metrics token, the CSRF exemption of bearer requests, idempotency scope, the response cache bypass",
  ),
  "content-length": client("the body parser's limit and the request size metric"),
  "content-type": client("the body parser (ctx.is)"),
  cookie: client("sessions, the CSRF cookie, the theme cookie, the response cache bypass"),
  host: client("ctx.host without a trusted proxy; never used for links (baseUrl is)"),
  ":authority": client("ctx.host over HTTP/2, as Host"),
  "idempotency-key": client("the idempotency of unsafe requests"),
  "if-none-match": client("the realtime browser client's revalidation: a 304 when its ETag still matches"),
  "last-event-id": client(
    "the realtime stream's resume point; a malformed or oversized one is ignored and the stream starts afresh",
  ),
  origin: client("CORS and the CSRF origin check"),
  upgrade: client(
    "a WebSocket handshake on a path a battery claims (the realtime sockets); the app's middleware still answers it first",
  ),
  referer: client("where a refused form goes back to, when it is this app"),
  "user-agent": client("the request's log line and trace attribute"),
  "x-csrf-token": client("the CSRF token of scripts"),
  "x-http-method-override": client("a form's method override (POST only)"),
  "x-forwarded-for": proxy("ctx.ip: the client's address (limits, logs)"),
  "x-forwarded-proto": proxy("ctx.protocol: secure cookies, HSTS, redirects"),
  "x-forwarded-host": proxy("ctx.host behind a proxy"),
  "x-request-id": proxy("the request id of the logs and the answer (requestIdHeader)"),
  traceparent: proxy("the W3C trace context a request's server span continues"),
  tracestate: proxy("the W3C trace context a request's server span continues"),
  baggage: proxy("the W3C baggage read with the trace context"),
});

/** The headers only a trusted proxy may write (see {@link REQUEST_HEADERS}). */
export function proxyHeaders(): string[] {
  return Object.entries(REQUEST_HEADERS)
    .filter(([, use]) => use.trust === "proxy")
    .map(([name]) => name);
}
