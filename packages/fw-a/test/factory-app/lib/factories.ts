import { defineFactory } from "fw-a";
import { Note } from "./models.js";

export const Notes = defineFactory(Note, ({ faker, sequence }) => ({
  title: `${faker.lorem.words(2)} ${sequence}`,
  done: false,
}));
