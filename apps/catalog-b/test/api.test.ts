// The catalogue's JSON API (@renderJson classes under /api) and its XML feed (@renderXml).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { startCatalog } from "./helpers.js";

describe("catalog-b JSON API and XML feed", () => {
  let catalog: Awaited<ReturnType<typeof startCatalog>>;
  before(async () => {
    catalog = await startCatalog();
  });
  after(() => catalog.close());

  const json = async (path: string) => {
    const res = await fetch(catalog.url + path);
    assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8", path);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  test("GET /api/products pages the products", async () => {
    const { status, body } = await json("/api/products");
    assert.equal(status, 200);
    assert.deepEqual([body["page"], body["pages"], body["total"]], [1, 2, 5]);
    assert.deepEqual(
      (body["products"] as Array<{ slug: string }>).map((p) => p.slug),
      ["sencha", "gunpowder", "assam"],
    );
    const second = await json("/api/products?page=2");
    assert.deepEqual(
      (second.body["products"] as Array<{ slug: string }>).map((p) => p.slug),
      ["earl-grey", "rooibos"],
    );
  });

  test("GET /api/products/:id gives one product, dates in ISO 8601; unknown ids are JSON 404s", async () => {
    const { body } = await json("/api/products/3");
    assert.equal(body["name"], "Assam");
    assert.equal(body["updatedAt"], "2024-04-11T09:00:00.000Z");
    for (const id of ["99", "abc", "1e3"]) {
      const missing = await json(`/api/products/${id}`);
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { error: { status: 404, message: `There is no product with id ${id}.` } });
    }
  });

  test("bad paging input is a JSON 400", async () => {
    const bad = await json("/api/products?page=-1");
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body, {
      error: { status: 400, message: "The page must be a whole number from 1 up, e.g. ?page=2." },
    });
  });

  test("categories, with a category's products", async () => {
    const list = await json("/api/categories");
    assert.equal((list.body["categories"] as unknown[]).length, 3);
    const herbal = await json("/api/categories/herbal");
    assert.deepEqual(
      (herbal.body["products"] as Array<{ slug: string }>).map((p) => p.slug),
      ["rooibos"],
    );
    assert.equal((await json("/api/categories/nope")).status, 404);
  });

  test("the API answers only GET: a POST is a JSON 405 with Allow", async () => {
    const res = await fetch(`${catalog.url}/api/products`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get("allow"), "GET, HEAD, OPTIONS");
    assert.equal(((await res.json()) as { error: { status: number } }).error.status, 405);
  });

  test("GET /feed is XML that parses: products as <item>, booleans, dates, tags", async () => {
    const res = await fetch(`${catalog.url}/feed`);
    assert.equal(res.headers.get("content-type"), "application/xml; charset=utf-8");
    const xml = await res.text();
    assert.equal(XMLValidator.validate(xml), true);
    const parsed = new XMLParser({ parseTagValue: false, isArray: (name) => name === "item" }).parse(xml) as {
      response: { title: string; updated: string; products: { item: Array<Record<string, unknown>> } };
    };
    assert.equal(parsed.response.title, "Tea Catalogue");
    assert.equal(parsed.response.updated, "2024-05-02T09:00:00.000Z");
    const items = parsed.response.products.item;
    assert.equal(items.length, 5);
    assert.deepEqual(items[2], {
      id: "3",
      name: "Assam",
      category: "black",
      price: "5",
      inStock: "false",
      tags: { item: ["india"] },
      updated: "2024-04-11T09:00:00.000Z",
    });
  });

  test("a category feed; an unknown category is a JSON 404 (errors of XML views are JSON)", async () => {
    const xml = await (await fetch(`${catalog.url}/feed/category/green`)).text();
    assert.match(xml, /<title>Green tea<\/title>/);
    assert.equal((xml.match(/<name>/g) ?? []).length, 2);
    const missing = await fetch(`${catalog.url}/feed/category/nope`);
    assert.equal(missing.status, 404);
    assert.deepEqual(await missing.json(), { error: { status: 404, message: 'There is no category "nope".' } });
  });

  test("the route table lists each route's response kind", () => {
    const listing = catalog.host.table.toJSON(catalog.host.describe);
    const kinds = Object.fromEntries(listing.map((r) => [r.handler, r.kind]));
    assert.equal(kinds["ProductsApi.index"], "json");
    assert.equal(kinds["Feed.index"], "xml");
    assert.equal(kinds["Products.show"], "html");
  });
});
