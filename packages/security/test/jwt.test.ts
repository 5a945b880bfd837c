import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { describe, test } from "node:test";
import { SignJWT } from "jose";
import { resolveSecurityConfig } from "../src/config.js";
import { resolveJwtKeys, signJwt, verifyJwt, type JwtKeys } from "../src/jwt.js";

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

function pems(type: "rsa" | "ed25519") {
  const { privateKey, publicKey } =
    type === "rsa" ? generateKeyPairSync("rsa", { modulusLength: 2048 }) : generateKeyPairSync("ed25519");
  return {
    jwtPrivateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    jwtPublicKey: publicKey.export({ type: "spki", format: "pem" }).toString(),
  };
}

async function keysFor(options: Record<string, unknown>): Promise<JwtKeys> {
  return resolveJwtKeys(resolveSecurityConfig({ env: "test", secretKey: "jwt-test-secret" }, options));
}

async function rejectsWith(promise: Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  await assert.rejects(promise, (error: Error & { code?: string; status?: number }) => {
    assert.equal(error.code, code);
    assert.equal(error.status, 401);
    if (message) assert.match(error.message, message);
    return true;
  });
}

describe("JWT", () => {
  for (const [algorithm, extra] of [
    ["HS256", {}],
    ["RS256", pems("rsa")],
    ["EdDSA", pems("ed25519")],
  ] as const) {
    test(`${algorithm}: signs and verifies, with iat and exp`, async () => {
      const keys = await keysFor({ jwtAlgorithm: algorithm, ...extra });
      const token = await signJwt({ sub: "42", role: "admin" }, keys);
      assert.equal(JSON.parse(Buffer.from(token.split(".")[0]!, "base64url").toString()).alg, algorithm);
      const claims = await verifyJwt(token, keys);
      assert.equal(claims.sub, "42");
      assert.equal(claims["role"], "admin");
      assert.ok(typeof claims.exp === "number" && claims.exp > Date.now() / 1000);
      assert.equal(claims.exp! - claims.iat!, 3600, "one hour by default");
    });
  }

  test("an expired token is refused with E_BEARER_TOKEN_EXPIRED", async () => {
    const keys = await keysFor({});
    const token = await new SignJWT({ sub: "1" })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuedAt(1000)
      .setExpirationTime(2000)
      .sign(keys.signingKey!);
    await rejectsWith(verifyJwt(token, keys), "E_BEARER_TOKEN_EXPIRED");
  });

  test("a token signed with another key, tampered with, or malformed is refused", async () => {
    const keys = await keysFor({});
    const other = await keysFor({ jwtSecret: "someone else's secret" });
    const token = await signJwt({ sub: "1" }, keys);
    await rejectsWith(verifyJwt(await signJwt({ sub: "1" }, other), keys), "E_BEARER_TOKEN_INVALID", /signature/);
    const [header, , signature] = token.split(".");
    await rejectsWith(
      verifyJwt(`${header}.${b64({ sub: "admin", exp: 9e9 })}.${signature}`, keys),
      "E_BEARER_TOKEN_INVALID",
      /signature/,
    );
    for (const bad of ["", "abc", "a.b", "a.b.c.d", "###.###.###", `${"a".repeat(9000)}.b.c`, "e30.e30.e30"]) {
      await rejectsWith(verifyJwt(bad, keys), "E_BEARER_TOKEN_INVALID");
    }
  });

  test('alg "none" and algorithm confusion (an RS256 public key used as an HS256 secret) are refused', async () => {
    const keys = await keysFor({});
    await rejectsWith(
      verifyJwt(`${b64({ alg: "none", typ: "JWT" })}.${b64({ sub: "admin", exp: 9e9 })}.`, keys),
      "E_BEARER_TOKEN_INVALID",
    );
    const rsa = pems("rsa");
    const rsaKeys = await keysFor({ jwtAlgorithm: "RS256", ...rsa });
    const forged = await new SignJWT({ sub: "admin" })
      .setProtectedHeader({ alg: "HS256" })
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode(rsa.jwtPublicKey));
    await rejectsWith(verifyJwt(forged, rsaKeys), "E_BEARER_TOKEN_INVALID", /algorithm/);
  });

  test("a token without exp is refused; issuer and audience are enforced when configured", async () => {
    const keys = await keysFor({ jwtIssuer: "https://issuer.test", jwtAudience: "api" });
    const noExp = await new SignJWT({ sub: "1" })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer("https://issuer.test")
      .setAudience("api")
      .sign(keys.signingKey!);
    await rejectsWith(verifyJwt(noExp, keys), "E_BEARER_TOKEN_INVALID", /exp/);
    const good = await signJwt({ sub: "1" }, keys, { expiresIn: 60 });
    assert.equal((await verifyJwt(good, keys)).aud, "api");
    const otherIssuer = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer("evil")
      .setAudience("api")
      .setExpirationTime("1h")
      .sign(keys.signingKey!);
    await rejectsWith(verifyJwt(otherIssuer, keys), "E_BEARER_TOKEN_INVALID", /iss/);
  });

  test("a verify-only app (public key only) cannot sign, and a key of the wrong type is a config error", async () => {
    const { jwtPublicKey } = pems("ed25519");
    const keys = await keysFor({ jwtAlgorithm: "EdDSA", jwtPublicKey });
    await assert.rejects(signJwt({}, keys), { code: "E_JWT_KEY_MISSING" });
    await assert.rejects(keysFor({ jwtAlgorithm: "RS256", jwtPublicKey }), { code: "E_SECURITY_CONFIG_INVALID" });
    await assert.rejects(keysFor({ jwtAlgorithm: "RS256", jwtPublicKey: "not a pem" }), {
      code: "E_SECURITY_CONFIG_INVALID",
    });
    assert.throws(() => resolveSecurityConfig({ secretKey: "x" }, { jwtAlgorithm: "RS256" }), {
      code: "E_SECURITY_CONFIG_INVALID",
    });
  });
});
