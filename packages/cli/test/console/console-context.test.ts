import assert from "node:assert/strict";
import { test } from "node:test";
import { consoleModels } from "../../src/console/console-context.js";

test("the console offers the app's models and those other plugins offer (fw-b contrib's User); the app's own name wins", () => {
  const Note = { table: "notes" };
  const AppUser = { table: "users" };
  const ContribUser = { table: "fwb_users" };
  const ContactMessage = { table: "fwb_contact_messages" };
  const data = { name: "data", models: { Note }, database: { knex: {} } };
  const contrib = { name: "fw-b", consoleModels: () => ({ User: ContribUser, ContactMessage }) };
  assert.deepEqual(consoleModels([data, contrib]), { Note, User: ContribUser, ContactMessage });
  const withOwnUser = { ...data, models: { Note, User: AppUser } };
  assert.deepEqual(consoleModels([withOwnUser, contrib]), { Note, User: AppUser, ContactMessage });
  assert.deepEqual(consoleModels([contrib]), { User: ContribUser, ContactMessage }, "without the data plugin's models");
});
