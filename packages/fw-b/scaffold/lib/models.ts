/**
 * The app's data. Start with plain data; move it to database models when the data battery is
 * plugged in (see the fw-b guide).
 */
export interface Product {
  readonly id: number;
  readonly name: string;
  readonly price: number;
}

/** Sample products shown by the home page and the API. */
export const products: readonly Product[] = [
  { id: 1, name: "Green tea", price: 4.5 },
  { id: 2, name: "Black tea", price: 3.9 },
];

/** Finds a product by its id (as it arrives in a URL: a string). */
export function findProduct(id: string): Product | undefined {
  return products.find((product) => String(product.id) === id);
}
