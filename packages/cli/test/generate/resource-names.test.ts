import assert from "node:assert/strict";
import { test } from "node:test";
import { resourceNames } from "../../src/generate/resource-names.js";

test("one singular name gives the model, table, view and factory names", () => {
  assert.deepEqual(resourceNames("Note"), {
    model: "Note",
    row: "NoteRow",
    table: "notes",
    module: "notes",
    plural: "Notes",
    human: "note",
    humanPlural: "notes",
    input: "NoteInput",
  });
  const post = resourceNames("blog_post");
  assert.equal(post.model, "BlogPost");
  assert.equal(post.table, "blog_posts");
  assert.equal(post.plural, "BlogPosts");
  assert.equal(resourceNames("BlogPost").table, "blog_posts");
  assert.equal(resourceNames("Category").table, "categories");
  assert.equal(resourceNames("Box").plural, "Boxes");
});

test("a name that cannot name a model is refused", () => {
  for (const name of ["", "1note", "note-item", "notes/x", "a".repeat(60)]) {
    assert.throws(() => resourceNames(name), { code: "E_RESOURCE_NAME" }, JSON.stringify(name));
  }
});
