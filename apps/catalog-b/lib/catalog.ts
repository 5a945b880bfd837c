/**
 * The catalogue's data, read-only for now (the data battery will move it to a database). Plain
 * functions so views stay thin.
 */

/** A product category. */
export interface Category {
  readonly slug: string;
  readonly name: string;
  readonly description: string;
}

/** A product of the catalogue. */
export interface Product {
  readonly id: number;
  readonly slug: string;
  readonly name: string;
  readonly category: string;
  readonly price: number;
  readonly inStock: boolean;
  readonly tags: readonly string[];
  /** Markdown, rendered with the `markdown` template helper. */
  readonly description: string;
  readonly updatedAt: Date;
}

/** Every category, in menu order. */
export const categories: readonly Category[] = [
  { slug: "green", name: "Green tea", description: "Unoxidised leaves, fresh and grassy." },
  { slug: "black", name: "Black tea", description: "Fully oxidised leaves, malty and strong." },
  { slug: "herbal", name: "Herbal", description: "Infusions without tea leaves." },
];

/** Every product, newest first. */
export const products: readonly Product[] = [
  {
    id: 1,
    slug: "sencha",
    name: "Sencha",
    category: "green",
    price: 6.5,
    inStock: true,
    tags: ["japan"],
    description: "A **steamed** Japanese green tea.",
    updatedAt: new Date("2024-05-02T09:00:00Z"),
  },
  {
    id: 2,
    slug: "gunpowder",
    name: "Gunpowder",
    category: "green",
    price: 4.2,
    inStock: true,
    tags: ["china", "rolled"],
    description: "Leaves rolled into *pellets*.",
    updatedAt: new Date("2024-04-20T09:00:00Z"),
  },
  {
    id: 3,
    slug: "assam",
    name: "Assam",
    category: "black",
    price: 5,
    inStock: false,
    tags: ["india"],
    description: "Malty, for milk & sugar.",
    updatedAt: new Date("2024-04-11T09:00:00Z"),
  },
  {
    id: 4,
    slug: "earl-grey",
    name: "Earl Grey",
    category: "black",
    price: 5.8,
    inStock: true,
    tags: ["bergamot"],
    description: "Black tea with <bergamot> oil.",
    updatedAt: new Date("2024-03-30T09:00:00Z"),
  },
  {
    id: 5,
    slug: "rooibos",
    name: "Rooibos",
    category: "herbal",
    price: 3.9,
    inStock: true,
    tags: ["south-africa", "caffeine-free"],
    description: "Red bush, naturally sweet.",
    updatedAt: new Date("2024-03-01T09:00:00Z"),
  },
];

/** A product by its URL slug. */
export function findProduct(slug: string): Product | undefined {
  return products.find((product) => product.slug === slug);
}

/** A product by its id as it arrives in a URL (a string). */
export function findProductById(id: string): Product | undefined {
  return /^\d+$/.test(id) ? products.find((product) => product.id === Number(id)) : undefined;
}

/** A category by its URL slug. */
export function findCategory(slug: string): Category | undefined {
  return categories.find((category) => category.slug === slug);
}

/** The products of a category. */
export function productsIn(slug: string): Product[] {
  return products.filter((product) => product.category === slug);
}

/** Products whose name or tags contain `query`, or whose category it names (case-insensitive). */
export function search(query: string): Product[] {
  const needle = query.trim().toLowerCase();
  return products.filter(
    (p) => p.name.toLowerCase().includes(needle) || p.category === needle || p.tags.some((tag) => tag.includes(needle)),
  );
}

/** One page of a list (pages start at 1). */
export function paginate<T>(
  items: readonly T[],
  page: number,
  size: number,
): { items: T[]; page: number; pages: number; total: number } {
  const pages = Math.max(1, Math.ceil(items.length / size));
  return { items: items.slice((page - 1) * size, page * size), page, pages, total: items.length };
}
