import type { HttpClientOptions } from "@fwkit/test-servers";

/**
 * The client options of an attacker or a victim: the `X-Forwarded-Proto: https` a TLS-terminating
 * proxy adds in production, so the apps under attack (configured with `trustProxy`) treat requests
 * as HTTPS and send their `Secure` cookies.
 */
export const BEHIND_TLS: HttpClientOptions = { headers: { "x-forwarded-proto": "https" } };
