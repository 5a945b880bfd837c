import { FwA } from "fw-a";

export class Index extends FwA {
  index() {
    return `site home; api at ${this.urlFor("Index.about")}`;
  }
  about() {
    return "about the site";
  }
}
