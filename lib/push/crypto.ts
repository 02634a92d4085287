// E2EE push payload encryption: libsodium crypto_secretbox_easy (XSalsa20-Poly1305) with the
// device's push key, the nonce prepended, as standard Base64 (Zulip's get_encrypted_data).
import sodium from 'libsodium-wrappers';

/** The first byte of a push key: which cryptosystem the other 32 bytes are for. */
const SECRETBOX_KEY_PREFIX = 0x31;
const PUSH_KEY_BYTES = 33;
export const NONCE_BYTES = 24;

let ready: Promise<void> | undefined;

/** libsodium compiles its WebAssembly once per process; every caller awaits the same promise. */
export function sodiumReady(): Promise<void> {
  ready ??= sodium.ready;
  return ready;
}

const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Strict standard Base64 (Python's b64decode(validate=True)); undefined when malformed. */
export function decodeStandardBase64(text: string): Buffer | undefined {
  return STANDARD_BASE64.test(text) ? Buffer.from(text, 'base64') : undefined;
}

/** A push key as the client sends it: Base64 of 0x31 followed by the 32-byte secret key. */
export function parsePushKey(text: string): Buffer | undefined {
  const bytes = decodeStandardBase64(text);
  if (!bytes || bytes.length !== PUSH_KEY_BYTES || bytes[0] !== SECRETBOX_KEY_PREFIX) return undefined;
  return bytes;
}

/** Encrypts `plaintext` for a device: Base64(nonce || MAC || ciphertext). Await sodiumReady() first. */
export function encryptForDevice(pushKey: Uint8Array, plaintext: string, nonce: Uint8Array): string {
  if (pushKey.length !== PUSH_KEY_BYTES || pushKey[0] !== SECRETBOX_KEY_PREFIX) throw new Error('unsupported push key');
  if (nonce.length !== NONCE_BYTES) throw new Error('nonce must be 24 bytes');
  const sealed = sodium.crypto_secretbox_easy(Buffer.from(plaintext, 'utf8'), nonce, pushKey.subarray(1));
  return Buffer.concat([nonce, sealed]).toString('base64');
}
