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
    patch: "NotePatch",
    item: "note",
  });
  const post = resourceNames("blog_post");
  assert.equal(post.model, "BlogPost");
  assert.equal(post.table, "blog_posts");
  assert.equal(post.plural, "BlogPosts");
  assert.equal(resourceNames("BlogPost").table, "blog_posts");
  assert.equal(resourceNames("Category").table, "categories");
  assert.equal(resourceNames("Box").plural, "Boxes");
  assert.equal(post.item, "blog_post", "one row's key is the singular, not blog_posts_item");
});

test("irregular plurals: Person is people, Child is children", () => {
  const person = resourceNames("Person");
  assert.equal(person.table, "people");
  assert.equal(person.plural, "People");
  assert.equal(person.humanPlural, "people");
  assert.equal(person.item, "person");
  assert.equal(resourceNames("child").table, "children");
  assert.equal(resourceNames("SalesPerson").table, "sales_people");
  assert.equal(resourceNames("Leaf").plural, "Leaves");
});

test("a singular that templates use already keeps the _item suffix", () => {
  assert.equal(resourceNames("Title").item, "title_item");
  assert.equal(resourceNames("Row").item, "row_item");
  assert.equal(resourceNames("Class").item, "class_item", "a reserved word cannot name fw-b's local variable");
});

test("a name that cannot name a model is refused", () => {
  for (const name of ["", "1note", "note-item", "notes/x", "a".repeat(60)]) {
    assert.throws(() => resourceNames(name), { code: "E_RESOURCE_NAME" }, JSON.stringify(name));
  }
});
