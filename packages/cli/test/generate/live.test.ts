import assert from "node:assert/strict";
import { test } from "node:test";
import { parseFields } from "../../src/generate/fields.js";
import { addLiveChannel, liveBroadcastSource, liveListedSource } from "../../src/generate/live.js";
import { resourceNames } from "../../src/generate/resource-names.js";

const config = `import { defineConfig } from "fw-a";

export const config = defineConfig({
  appName: "todo",
});
`;

const content = (result: ReturnType<ReturnType<typeof addLiveChannel>>) => {
  assert.ok("content" in result, JSON.stringify(result));
  return result.content;
};

test("--live declares the list page's channel in the config once, and each further resource's", () => {
  const once = content(addLiveChannel(resourceNames("Todo"))(config));
  assert.match(
    once,
    /defineConfig\(\{\n {2}realtime: \{\n {4}channels: \{\n.*\n {6}todos: \{ public: true \},\n {4}\},\n {2}\},\n {2}appName/,
  );
  assert.equal(content(addLiveChannel(resourceNames("Todo"))(once)), once, "the same channel is not added twice");
  const twice = content(addLiveChannel(resourceNames("blog_post"))(once));
  assert.match(twice, / {6}blog_posts: \{ public: true \},\n {6}todos: \{ public: true \},/);
});

test("a config with its own realtime key is left for the user, with the line to add", () => {
  const own = config.replace("appName", "realtime: { channels: { news: { public: true } } },\n  appName");
  const result = addLiveChannel(resourceNames("Todo"))(own);
  assert.ok("skipped" in result);
  assert.match(result.skipped, /realtime: \{ channels: \{ todos: \{ public: true \} \} \}/);
});

test("the broadcast carries what the list shows, never other columns", () => {
  const names = resourceNames("Todo");
  const fields = parseFields(["title:string", "secret:string", "done:boolean"]);
  const shown = fields.filter((field) => field.name !== "secret");
  const source = liveListedSource(names, shown);
  assert.match(source, /return \{ id: row\.id, title: row\.title, done: row\.done \? "yes" : "no" \};/);
  assert.doesNotMatch(source, /secret/);
  assert.equal(liveBroadcastSource(names, "deleted", "id"), 'await broadcast("todos", "deleted", { id: Number(id) });');
  assert.equal(
    liveBroadcastSource(names, "created", "created.id"),
    'await broadcast("todos", "created", await listed(created.id));',
  );
});
