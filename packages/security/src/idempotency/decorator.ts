import { bareOrCalled, setTag, type ViewDecorator } from "routing-kernel";

/** Route tag set by {@link idempotent}. */
export const IDEMPOTENT_TAG = "security.idempotent";

/**
 * Makes a view class or method honour an `Idempotency-Key`: an unsafe request (POST, PUT, PATCH,
 * DELETE) that carries one runs once; a repeat gets the first answer again (`Idempotent-Replayed:
 * true`), 409 while the first is still running, 422 when the key came with another request.
 * Usable bare (`@idempotent`) or called (`@idempotent()`).
 */
export const idempotent = bareOrCalled<ViewDecorator>(() => setTag("idempotent", IDEMPOTENT_TAG, true), "idempotent");
