/**
 * @module fw-b/contrib
 * Reserved for fw-b's contrib modules (auth pages, contact, error pages, admin, maintenance), which
 * a later issue adds. Nothing is exported yet.
 */
export {};
