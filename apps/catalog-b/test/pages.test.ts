// The catalogue's HTML pages: Pug templates in the catalogue layout, the menu, Markdown, errors.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { menuLinks, startCatalog } from "./helpers.js";

describe("catalog-b pages", () => {
  let catalog: Awaited<ReturnType<typeof startCatalog>>;
  before(async () => {
    catalog = await startCatalog();
  });
  after(() => catalog.close());

  const page = async (path: string) => {
    const res = await fetch(catalog.url + path);
    return { status: res.status, type: res.headers.get("content-type"), html: await res.text() };
  };

  test("the home page lists products in stock and categories, with the menu and the footer", async () => {
    const { status, type, html } = await page("/");
    assert.equal(status, 200);
    assert.equal(type, "text/html; charset=utf-8");
    assert.match(html, /<title>Tea Catalogue<\/title>/);
    assert.match(
      html,
      /<ul class="featured"><li><a href="\/products\/show\/sencha">Sencha<\/a><\/li><li><a href="\/products\/show\/gunpowder">Gunpowder<\/a><\/li><li><a href="\/products\/show\/earl-grey">Earl Grey<\/a><\/li><\/ul>/,
    );
    assert.match(html, /<link rel="stylesheet" href="\/static\/catalog.css">/);
    assert.match(
      html,
      /<p class="site">Tea Catalogue · <a href="\/feed">XML feed<\/a> · <a href="\/api\/products">JSON API<\/a><\/p>/,
    );
    assert.deepEqual(menuLinks(html), [
      "Home /",
      "About /about",
      "Products /products",
      "Categories /categories",
      "XML feed /feed",
    ]);
  });

  test("the about page is Markdown in the catalogue layout, titled by its heading", async () => {
    const { html } = await page("/about");
    assert.match(html, /<title>About the catalogue<\/title>/);
    assert.match(html, /<strong>fw-b<\/strong>/);
    assert.match(html, /<p class="site">/);
  });

  test("products: paginated, searchable; the active menu entry follows the page", async () => {
    const first = await page("/products");
    assert.match(first.html, /Page 1 of 2 \(5 products\)/);
    assert.match(first.html, /<a class="next" href="\/products\?page=2">next<\/a>/);
    assert.match(first.html, /<li class="active"><a href="\/products" aria-current="page">Products<\/a>/);
    const second = await page("/products?page=2");
    assert.match(second.html, /Earl Grey.*Rooibos/s);
    const green = await page("/products?q=green");
    assert.match(green.html, /<h1>Products matching &quot;green&quot;<\/h1>/);
    assert.match(green.html, /Sencha.*Gunpowder/s);
    assert.match((await page("/products?q=zzz")).html, /<p class="empty">Nothing matches.<\/p>/);
  });

  test("a product page escapes data and renders its Markdown description safely", async () => {
    const { html } = await page("/products/show/earl-grey");
    assert.match(html, /<h1>Earl Grey<\/h1>/);
    assert.match(html, /<p class="price">5.80 €<\/p>/);
    assert.match(html, /Black tea with &lt;bergamot&gt; oil\./);
    assert.match((await page("/products/show/sencha")).html, /A <strong>steamed<\/strong> Japanese green tea\./);
  });

  test("categories list their products and link to their XML feed", async () => {
    const list = await page("/categories");
    assert.match(list.html, /<dd>Unoxidised leaves, fresh and grassy. \(2\)<\/dd>/);
    const black = await page("/categories/black");
    assert.match(black.html, /Assam.*Earl Grey/s);
    assert.match(black.html, /<a href="\/feed\/category\/black">This category as XML<\/a>/);
  });

  test("unknown pages and products: the catalogue's 404 page with the 404 status", async () => {
    for (const path of ["/products/show/matcha", "/categories/oolong", "/no/such/page"]) {
      const { status, html } = await page(path);
      assert.equal(status, 404, path);
      assert.match(html, /<h1 class="error">Not found<\/h1>/, path);
    }
    assert.match((await page("/products/show/matcha")).html, /There is no product &quot;matcha&quot;\./);
  });

  test("bad query input is a 400 page that says what to send", async () => {
    for (const path of [
      "/products?page=0",
      "/products?page=abc",
      "/products?page=1&page=2",
      `/products?q=${"x".repeat(101)}`,
      "/products?q=a&q=b",
    ]) {
      const { status, html } = await page(path);
      assert.equal(status, 400, path);
      assert.match(html, /<h1 class="error">400<\/h1>/, path);
    }
    assert.match((await page("/products?page=abc")).html, /The page must be a whole number from 1 up/);
  });

  test("static files are served", async () => {
    const res = await fetch(`${catalog.url}/static/catalog.css`);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /\.products li/);
  });
});
