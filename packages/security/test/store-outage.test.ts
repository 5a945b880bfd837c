/**
 * A session store that cannot be reached gives 503 with a clear message (never a hang or a 500),
 * and the app recovers by itself when the store is back. The store is reached through a TCP
 * forwarder that is stopped and started on the same port, so the real servers stay up.
 */
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { BlobServiceClient } from "@azure/storage-blob";
import {
  requireServer,
  serverSkip,
  serverUrls,
  startAzurite,
  startS3,
  type AzuriteServer,
  type S3Server,
} from "@fwkit/test-servers";
import { getSession } from "../src/index.js";
import { startApp, View, type TestApp } from "./helpers/app.js";
import { HttpClient, type HttpAnswer } from "@fwkit/test-servers";
import { tcpProxy, type TcpProxy } from "./helpers/tcp-proxy.js";

class Index extends View {
  setValue() {
    getSession(this.ctx).value = String(this.ctx.query["value"]);
    return { ok: true };
  }

  readValue() {
    return { value: getSession(this.ctx).value ?? null };
  }
}

const run = `${process.pid}_${Date.now().toString(36)}`;

/**
 * Retries until the app answers 200 again (reconnects take up to a second or two on a quiet
 * machine; the 60 s bound only ends a hang on a busy one).
 */
async function eventually(request: () => Promise<HttpAnswer>): Promise<HttpAnswer> {
  let last: HttpAnswer | undefined;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    last = await request();
    if (last.status === 200) return last;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return last!;
}

/**
 * The refusal a store outage gives: 503 naming the store. How soon is the store's own bound (its
 * connect and command timeouts); a hang past it would fail the test by its timeout, so no duration
 * is asserted (a busy machine stretches any wall-clock figure).
 */
function assertUnavailable(response: HttpAnswer, kind: string): void {
  assert.equal(response.status, 503, response.text);
  assert.match(response.text, new RegExp(`the ${kind} session store cannot be reached`));
}

function outageCase(
  name: string,
  kind: string,
  options: {
    skip?: string | false;
    target: () => Promise<{ port: number; url: (port: number) => string; close?: () => Promise<void> }>;
  },
) {
  describe(`store outage: ${name}`, { skip: options.skip ?? false }, () => {
    let app: TestApp | undefined;
    let proxy: TcpProxy | undefined;
    let close: (() => Promise<void>) | undefined;
    after(async () => {
      // The store comes back so connections close cleanly, then everything is shut.
      await proxy?.start();
      await app?.close();
      await proxy?.stop();
      await close?.();
    });

    test("503 while the store is down (from start-up and mid-life), recovery when it returns", async () => {
      const target = await options.target();
      close = target.close;
      proxy = await tcpProxy(target.port, { stopped: true });
      app = await startApp({
        views: { Index },
        security: { sessionUrl: target.url(proxy.port), sessionSweepInterval: 0 },
      });
      const client = new HttpClient(app.url);
      const unavailable: string[] = [];
      const down = await client.get("/set-value?value=kept");
      unavailable.push(down.text);
      assertUnavailable(down, kind);
      assert.ok(
        app.logLines.some((line) => line.includes(`the ${kind} session store failed`)),
        "the cause is logged for the operator",
      );
      await proxy.start();
      const set = await eventually(() => client.get("/set-value?value=kept"));
      assert.equal(set.status, 200, set.text);
      await proxy.stop();
      const downAgain = await client.get("/read-value");
      unavailable.push(downAgain.text);
      assertUnavailable(downAgain, kind);
      await proxy.start();
      const read = await eventually(() => client.get("/read-value"));
      assert.equal(read.status, 200, read.text);
      assert.equal(read.json().value, "kept", "the session written before the outage is read after it");
      // The store's secret (Azure's account key, a database password) is in no log line and no answer.
      const secret = decodeURIComponent(new URL(target.url(proxy.port)).password);
      if (secret.length >= 16) {
        const leaks = (text: string) => text.includes(secret) || text.includes(encodeURIComponent(secret));
        assert.ok(app.logLines.length > 0);
        assert.equal(app.logLines.filter(leaks).length, 0, "no log line shows the secret");
        assert.equal(leaks(unavailable.join("\n")), false, "no 503 answer shows the secret");
      }
    });
  });
}

const portOf = (url: string) => Number(new URL(url).port);
const withPort = (url: string, port: number) => {
  const parsed = new URL(url);
  parsed.port = String(port);
  return parsed.toString();
};

outageCase("redis", "redis", {
  skip: serverSkip.skip,
  target: async () => {
    await requireServer("redis");
    return {
      port: portOf(serverUrls.redis),
      url: (port) => `${withPort(serverUrls.redis, port)}?prefix=sess_outage_${run}:`,
    };
  },
});

outageCase("postgres", "postgres", {
  skip: serverSkip.skip,
  target: async () => {
    await requireServer("postgres");
    return {
      port: portOf(serverUrls.postgres),
      url: (port) => `${withPort(serverUrls.postgres, port)}?table=sess_outage_${run}`,
    };
  },
});

outageCase("mariadb", "mysql", {
  skip: serverSkip.skip,
  target: async () => {
    await requireServer("mysql");
    return {
      port: portOf(serverUrls.mysql),
      url: (port) => `${withPort(serverUrls.mysql, port)}?table=sess_outage_${run}`,
    };
  },
});

let s3: S3Server | undefined;
outageCase("s3 (s3rver)", "s3", {
  target: async () => {
    s3 = await startS3(["security-outage"]);
    return {
      port: portOf(s3.endpoint),
      url: (port) =>
        `s3://S3RVER:S3RVER@security-outage/x?endpoint=${encodeURIComponent(`http://127.0.0.1:${port}`)}&region=us-east-1`,
      close: () => s3!.close(),
    };
  },
});

let gcs: S3Server | undefined;
outageCase("gs:// (Cloud Storage XML API, on s3rver)", "gcs", {
  target: async () => {
    gcs = await startS3(["security-gcs-outage"]);
    return {
      port: portOf(gcs.endpoint),
      url: (port) =>
        `gs://S3RVER:S3RVER@security-gcs-outage/x?endpoint=${encodeURIComponent(`http://127.0.0.1:${port}`)}`,
      close: () => gcs!.close(),
    };
  },
});

let azurite: AzuriteServer | undefined;
outageCase("azblob:// (Azurite)", "azure", {
  target: async () => {
    azurite = await startAzurite();
    await BlobServiceClient.fromConnectionString(azurite.connectionString)
      .getContainerClient("security-outage")
      .create();
    return {
      port: azurite.port,
      url: (port) =>
        `azblob://${azurite!.account}:${encodeURIComponent(azurite!.key)}@security-outage/x?endpoint=${encodeURIComponent(`http://127.0.0.1:${port}/${azurite!.account}`)}`,
      close: () => azurite!.close(),
    };
  },
});
