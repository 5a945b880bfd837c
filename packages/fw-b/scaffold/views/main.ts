import { FwB, HTTPError } from "fw-b";
import { navTitle, renderJson, renderXml, route } from "fw-b/decorators";
import { Product } from "../lib/models.js";

/** The home page: `/` renders templates/main/Index/index.pug with the returned keys. */
@navTitle("Home")
export class Index extends FwB {
  async index() {
    return { title: "{{name}}", products: await Product.query().orderBy("id") };
  }
}

/** A JSON API under /api: every method answers JSON, errors too. */
@route("/api")
@renderJson
export class Api extends FwB {
  /** GET /api */
  async index() {
    return { products: await Product.query().orderBy("id") };
  }

  /** GET /api/:id */
  async get(id: string) {
    const product = await Product.find(id);
    if (!product) throw HTTPError.NotFound(`There is no product ${id}.`);
    return product;
  }

  /** GET /api/feed as XML. */
  @renderXml
  async feed() {
    return { products: await Product.query().orderBy("id"), updated: new Date() };
  }
}
