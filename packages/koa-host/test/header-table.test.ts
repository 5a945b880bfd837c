import assert from "node:assert/strict";
import { createServer, type ServerResponse } from "node:http";
import { connect as connectHttp2, createServer as createHttp2Server } from "node:http2";
import { connect } from "node:net";
import { test } from "node:test";
import { checkedHeaders, setTokenHeader, writesHeaderTable } from "../src/header-table.js";

const SECURITY = [
  ["content-security-policy", "default-src 'self';object-src 'none';upgrade-insecure-requests"],
  ["x-content-type-options", "nosniff"],
  ["x-frame-options", "SAMEORIGIN"],
  ["referrer-policy", "no-referrer"],
] as const;

/** The raw response head one request gets from a server answering with `answer` (the date line left out). */
async function rawHead(answer: (res: ServerResponse) => void): Promise<string> {
  const server = createServer((_req, res) => {
    answer(res);
    res.end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as { port: number };
    const raw = await new Promise<string>((resolve, reject) => {
      let text = "";
      const socket = connect(port, "127.0.0.1", () => {
        socket.end("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
      });
      socket.setEncoding("latin1");
      socket.on("data", (chunk: string) => void (text += chunk));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
    const head = raw.slice(0, raw.indexOf("\r\n\r\n"));
    return head
      .split("\r\n")
      .filter((line) => !line.startsWith("Date: "))
      .join("\n");
  } finally {
    server.close();
  }
}

test("this Node's header table is written straight (Node 22 and 24, the versions the project supports)", () => {
  assert.equal(writesHeaderTable, true);
});

test("the headers go out byte for byte as res.setHeader sends them, after and before other headers", async () => {
  const headers = checkedHeaders(SECURITY);
  const bySetHeader = await rawHead((res) => {
    res.setHeader("X-Request-Id", "abc");
    for (const [name, value] of SECURITY) res.setHeader(name, value);
    res.setHeader("Content-Type", "text/plain");
  });
  const byTable = await rawHead((res) => {
    res.setHeader("X-Request-Id", "abc");
    headers.set(res);
    res.setHeader("Content-Type", "text/plain");
  });
  assert.equal(byTable, bySetHeader);
  assert.match(byTable, /\nx-frame-options: SAMEORIGIN\n/);
  assert.match(byTable, /^HTTP\/1\.1 200 OK\nX-Request-Id: abc\ncontent-security-policy: /);

  // On a response with no header yet too.
  const first = await rawHead((res) => headers.set(res));
  assert.match(
    first,
    /^HTTP\/1\.1 200 OK\ncontent-security-policy: default-src 'self';[^\n]*\nx-content-type-options: nosniff\n/,
  );
});

test("a header set straight is read, replaced (never doubled) and removed as any other, in any casing", async () => {
  const headers = checkedHeaders(SECURITY);
  const head = await rawHead((res) => {
    headers.set(res);
    assert.equal(res.getHeader("X-Frame-Options"), "SAMEORIGIN");
    assert.equal(res.hasHeader("referrer-policy"), true);
    assert.deepEqual(
      res.getHeaderNames(),
      SECURITY.map(([name]) => name),
    );
    res.setHeader("X-Frame-Options", "DENY");
    res.removeHeader("REFERRER-POLICY");
    res.appendHeader("x-content-type-options", "other");
  });
  assert.match(head, /\nX-Frame-Options: DENY\n/);
  assert.equal(head.match(/x-frame-options/gi)?.length, 1);
  assert.doesNotMatch(head, /referrer-policy/i);
  assert.match(head, /\nx-content-type-options: nosniff\nx-content-type-options: other\n/);
  // None of it reached the next response (appendHeader changes an entry in place).
  const next = await rawHead((res) => headers.set(res));
  assert.match(next, /\nx-content-type-options: nosniff\nx-frame-options: SAMEORIGIN\nreferrer-policy: no-referrer\n/);
});

test("a table made here inherits nothing: names such as constructor or __proto__ are headers like any other", async () => {
  const head = await rawHead((res) => {
    setTokenHeader(res, "x-request-id", "1");
    assert.equal(res.hasHeader("constructor"), false);
    assert.equal(res.getHeader("toString"), undefined);
    res.setHeader("__proto__", "a");
    res.setHeader("constructor", "b");
    assert.deepEqual(res.getHeaderNames(), ["x-request-id", "__proto__", "constructor"]);
    assert.deepEqual({ ...res.getHeaders() }, { "x-request-id": "1", ["__proto__"]: "a", constructor: "b" });
  });
  assert.match(head, /\nx-request-id: 1\n__proto__: a\nconstructor: b\n/);
});

test("headers to remove are removed first, in any casing, and the list's own headers win over earlier ones", async () => {
  const headers = checkedHeaders([["x-frame-options", "SAMEORIGIN"]], ["X-Powered-By"]);
  const head = await rawHead((res) => {
    res.setHeader("X-Powered-By", "Express");
    res.setHeader("X-Frame-Options", "ALLOW");
    headers.set(res);
  });
  assert.doesNotMatch(head, /powered/i);
  assert.match(head, /^HTTP\/1\.1 200 OK\nx-frame-options: SAMEORIGIN\nConnection: close\n/);
  assert.equal(head.match(/x-frame-options/gi)?.length, 1);
});

test("a bad name or value is refused when the list is made, with Node's own error, not on a request", () => {
  assert.throws(() => checkedHeaders([["x bad", "1"]]), { code: "ERR_INVALID_HTTP_TOKEN" });
  assert.throws(() => checkedHeaders([["x-ok", "a\r\nSet-Cookie: x=1"]]), { code: "ERR_INVALID_CHAR" });
});

test("once the headers are sent, setting them throws as res.setHeader does", async () => {
  const headers = checkedHeaders(SECURITY);
  let thrown: unknown;
  await rawHead((res) => {
    res.flushHeaders();
    try {
      headers.set(res);
    } catch (error) {
      thrown = error;
    }
  });
  assert.equal((thrown as { code?: string } | undefined)?.code, "ERR_HTTP_HEADERS_SENT");
});

test("a token header is set, replaced and sent once", async () => {
  const head = await rawHead((res) => {
    setTokenHeader(res, "x-request-id", "first");
    setTokenHeader(res, "x-request-id", "Xk3_9aZq-1f");
    assert.equal(res.getHeader("X-Request-Id"), "Xk3_9aZq-1f");
  });
  assert.match(head, /^HTTP\/1\.1 200 OK\nx-request-id: Xk3_9aZq-1f\n/);
  assert.equal(head.match(/x-request-id/g)?.length, 1);
});

test("an HTTP/2 compatibility response, which has no such table, gets the headers through setHeader", async () => {
  const headers = checkedHeaders(SECURITY, ["x-powered-by"]);
  const server = createHttp2Server((_req, res) => {
    setTokenHeader(res as never, "x-request-id", "h2-1");
    headers.set(res as never);
    res.end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const client = connectHttp2(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
  try {
    const received = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const stream = client.request({ ":path": "/" });
      stream.on("response", resolve);
      stream.on("error", reject);
      stream.resume();
    });
    assert.equal(received["x-request-id"], "h2-1");
    for (const [name, value] of SECURITY) assert.equal(received[name], value);
  } finally {
    client.close();
    server.close();
  }
});
