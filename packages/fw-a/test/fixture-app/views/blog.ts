import { FwA } from "fw-a";

export class Blog extends FwA {
  index() {
    return { posts: [{ id: 1, title: "First" }] };
  }
  comments(id: string) {
    return `comments of ${id}`;
  }
  show(id: string) {
    return { id, body: "# Heading\n\nSome *markdown*." };
  }
}
