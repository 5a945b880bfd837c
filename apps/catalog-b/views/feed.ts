import { FwB, HTTPError } from "fw-b";
import { navTitle, renderXml } from "fw-b/decorators";
import { findCategory, products, productsIn, type Product } from "../lib/catalog.js";

const entry = (p: Product) => ({
  id: p.id,
  name: p.name,
  category: p.category,
  price: p.price,
  inStock: p.inStock,
  tags: p.tags,
  updated: p.updatedAt,
});

/** The XML feed: `/feed` and `/feed/category/:slug`, for shops that import the catalogue. */
@renderXml
export class Feed extends FwB {
  /** Every product. */
  @navTitle("XML feed", { order: 8 })
  index() {
    return { title: "Tea Catalogue", updated: products[0]?.updatedAt ?? null, products: products.map(entry) };
  }

  /** The products of one category. */
  category(slug: string) {
    const category = findCategory(slug);
    if (!category) throw HTTPError.NotFound(`There is no category "${slug}".`);
    return { title: category.name, products: productsIn(slug).map(entry) };
  }
}
