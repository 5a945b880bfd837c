import { FwB, HTTPError } from "fw-b";
import { navTitle } from "fw-b/decorators";
import { categories, findCategory, findProduct, paginate, products, productsIn, search } from "../lib/catalog.js";
import { pageNumber, searchQuery } from "../lib/input.js";

/** The home page and the about page. */
@navTitle("Home", { order: 0 })
export class Index extends FwB {
  /** `/`: templates/main/Index/index.pug */
  index() {
    return { title: "Tea Catalogue", featured: products.filter((p) => p.inStock).slice(0, 3), categories };
  }

  /** `/about`: returns nothing, so templates/main/Index/about.md is rendered in the layout. */
  @navTitle("About", { order: 9 })
  about() {}
}

/** The product pages under /products. */
@navTitle("Products", { order: 1 })
export class Products extends FwB {
  /** `/products?page=2&q=green` */
  index() {
    const q = searchQuery(this.ctx.query["q"]);
    const page = pageNumber(this.ctx.query["page"]);
    const size = Number(this.config["pageSize"] ?? 10);
    return {
      title: q ? `Products matching "${q}"` : "All products",
      q,
      ...paginate(q ? search(q) : products, page, size),
    };
  }

  /** `/products/show/:slug` */
  show(slug: string) {
    const product = findProduct(slug);
    if (!product) throw HTTPError.NotFound(`There is no product "${slug}".`);
    return { title: product.name, product, category: findCategory(product.category) };
  }
}

/** Categories: `/categories` and `/categories/:slug`. */
@navTitle("Categories", { order: 2 })
export class Categories extends FwB {
  index() {
    return { title: "Categories", categories: categories.map((c) => ({ ...c, count: productsIn(c.slug).length })) };
  }

  get(slug: string) {
    const category = findCategory(slug);
    if (!category) throw HTTPError.NotFound(`There is no category "${slug}".`);
    return { title: category.name, category, products: productsIn(slug) };
  }
}
