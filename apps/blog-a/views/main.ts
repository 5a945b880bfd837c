import { FwA } from "fw-a";
import { posts } from "../lib/posts.js";

/** The home page: the latest posts. */
export class Index extends FwA {
  index() {
    return { title: "blog-a", posts };
  }
  about() {
    return {};
  }
}
