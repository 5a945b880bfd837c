import { FwB, HTTPError } from "fw-b";
import { navTitle, renderJson, renderXml, route } from "fw-b/decorators";
import { findProduct, products } from "../lib/models.js";

/** The home page: `/` renders templates/main/Index/index.pug with the returned keys. */
@navTitle("Home")
export class Index extends FwB {
  index() {
    return { title: "{{name}}", products };
  }
}

/** A JSON API under /api: every method answers JSON, errors too. */
@route("/api")
@renderJson
export class Api extends FwB {
  /** GET /api */
  index() {
    return { products };
  }

  /** GET /api/:id */
  get(id: string) {
    const product = findProduct(id);
    if (!product) throw HTTPError.NotFound(`There is no product ${id}.`);
    return product;
  }

  /** GET /api/feed as XML. */
  @renderXml
  feed() {
    return { products, updated: new Date() };
  }
}
