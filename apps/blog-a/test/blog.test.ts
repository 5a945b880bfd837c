import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { createApp, type Host } from "fw-a";
import { listenForTest } from "fw-a/testing";

const root = fileURLToPath(new URL("..", import.meta.url));

describe("blog-a over real HTTP", () => {
  let app: Host;
  let url = "";
  before(async () => {
    app = await createApp({
      root,
      config: { env: "test", logRequests: false, dbUrl: "sqlite::memory:", autoMigrate: true },
    });
    url = (await listenForTest(app)).url;
  });
  after(() => app.close());

  test("the home page lists posts with links built by url_for", async () => {
    const html = await (await fetch(`${url}/`)).text();
    assert.match(html, /href="\/blog\/hello-fw-a\/"/);
  });

  test("a post page renders its Markdown body", async () => {
    const res = await fetch(`${url}/blog/hello-fw-a/`);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /<strong>classes<\/strong>/);
  });

  test("an unknown post is a 404 page; the about page is a Markdown template", async () => {
    const missing = await fetch(`${url}/blog/nope/`);
    assert.equal(missing.status, 404);
    assert.match(await missing.text(), /There is no post &#34;nope&#34;/);
    assert.match(await (await fetch(`${url}/about/`)).text(), /<h1>About<\/h1>/);
  });

  test("the JSON API lists posts and answers JSON errors", async () => {
    const list = (await (await fetch(`${url}/api/posts/`)).json()) as Array<{ slug: string }>;
    assert.deepEqual(
      list.map((p) => p.slug),
      ["hello-fw-a", "markdown"],
    );
    const one = await fetch(`${url}/api/posts/markdown/`);
    assert.equal(((await one.json()) as { title: string }).title, "Writing in Markdown");
    const missing = await fetch(`${url}/api/posts/nope/`);
    assert.equal(missing.status, 404);
    assert.deepEqual(await missing.json(), { error: { status: 404, message: 'There is no post "nope".' } });
  });

  test("a path without its trailing slash redirects with 308", async () => {
    const res = await fetch(`${url}/blog`, { redirect: "manual" });
    assert.equal(res.status, 308);
    assert.equal(res.headers.get("location"), "/blog/");
  });
});

describe("blog-a pagination", () => {
  test("the post list is paginated and bad page parameters are a 400", async () => {
    const app = await createApp({
      root,
      config: { env: "test", logRequests: false, dbUrl: "sqlite::memory:", autoMigrate: true },
    });
    const { url } = await listenForTest(app);
    try {
      const first = await (await fetch(`${url}/blog/?perPage=1`)).text();
      assert.match(first, /Page 1 of 2/);
      assert.match(first, /href="[^"]*page=2[^"]*"/, "a link to the next page keeps perPage");
      assert.equal((await fetch(`${url}/blog/?page=-3`)).status, 400);
      assert.equal((await fetch(`${url}/blog/?page=abc`)).status, 400);
    } finally {
      await app.close();
    }
  });
});
