import { FwB, HTTPError } from "fw-b";
import { renderJson, route } from "fw-b/decorators";
import { categories, findCategory, findProductById, paginate, products, productsIn } from "../lib/catalog.js";
import { pageNumber } from "../lib/input.js";

/** The JSON API for products: every method answers JSON, errors included. */
@route("/api/products")
@renderJson
export class ProductsApi extends FwB {
  /** `GET /api/products?page=N` */
  index() {
    const page = pageNumber(this.ctx.query["page"]);
    const size = Number(this.config["pageSize"] ?? 10);
    const { items, ...meta } = paginate(products, page, size);
    return { products: items, ...meta };
  }

  /** `GET /api/products/:id` */
  get(id: string) {
    const product = findProductById(id);
    if (!product) throw HTTPError.NotFound(`There is no product with id ${id}.`);
    return product;
  }
}

/** The JSON API for categories. */
@route("/api/categories")
@renderJson
export class CategoriesApi extends FwB {
  /** `GET /api/categories` */
  index() {
    return { categories };
  }

  /** `GET /api/categories/:slug`, with its products. */
  get(slug: string) {
    const category = findCategory(slug);
    if (!category) throw HTTPError.NotFound(`There is no category "${slug}".`);
    return { ...category, products: productsIn(slug) };
  }
}
