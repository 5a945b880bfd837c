/** Escapes text for HTML element content and attribute values (the one HTML escaper of the kit). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
