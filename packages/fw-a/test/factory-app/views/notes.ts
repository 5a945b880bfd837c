import { FwA, response } from "fw-a";
import { Note } from "../lib/models.js";

@response.json
export class Notes extends FwA {
  async index() {
    return { titles: (await Note.all()).map((note) => note.title) };
  }
  async show(id: string) {
    const note = await Note.findOrFail(id);
    return { title: note.title, done: Boolean(note.done) };
  }
}
