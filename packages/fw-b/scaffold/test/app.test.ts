// An example test with fw-b's test client: the app is built from this folder in the `test`
// environment and requests go through it in memory (no port). Run with `npm test`.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { testClient, type AppTestClient } from "fw-b/testing";
import { SetPrice } from "../jobs/set-price.js";

let client: AppTestClient;

before(async () => {
  // A fresh in-memory database per run, migrated at start.
  client = await testClient(join(import.meta.dirname, ".."), {
    config: { dbUrl: "sqlite::memory:", autoMigrate: true },
  });
});
after(() => client.close());

test("the JSON API lists the products", async () => {
  const res = await client.get(client.urlFor("Api.index"));
  assert.equal(res.status, 200);
  const body = res.json<{ products: { name: string }[] }>();
  assert.deepEqual(
    body.products.map((product) => product.name),
    ["Green tea", "Black tea"],
  );
});

test("the XML feed names the products", async () => {
  const res = await client.get(client.urlFor("Api.feed"));
  assert.equal(res.type, "application/xml");
  assert.deepEqual(
    res
      .xml()
      .findAll("name")
      .map((name) => name.text),
    ["Green tea", "Black tea"],
  );
});

test("an unknown product is a 404 in JSON", async () => {
  const res = await client.get(client.urlFor("Api.get", { id: 999 }));
  assert.equal(res.status, 404);
});

test("a dispatched job waits in the test queue until runAll runs it", async () => {
  await SetPrice.dispatch({ productId: 1, price: 4.2 });
  assert.deepEqual(
    client.jobs.dispatched(SetPrice).map((job) => job.payload),
    [{ productId: 1, price: 4.2 }],
  );
  assert.equal(await client.jobs.runAll(), 1);
  const res = await client.get(client.urlFor("Api.get", { id: 1 }));
  assert.equal(Number(res.json<{ price: number | string }>().price), 4.2);
});
