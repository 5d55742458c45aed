import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets kept in the database (a hotel's card key sets, its lock accounts' tokens): AES-256-GCM
 * under a key derived from CARD_KEY_SECRET for one purpose (HKDF with the purpose's own salt and
 * label), bound to what they belong to (the additional data: `hotel:12`, `lock-account:12:3`), so a
 * value copied to another row does not open. Sealed text: `v1.<iv>.<tag>.<ciphertext>` (base64url).
 */

export interface SealPurpose {
  salt: string;
  info: string;
}

const VERSION = 'v1';

function keyOf(secret: string, purpose: SealPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.from(purpose.salt, 'utf8'), Buffer.from(purpose.info, 'utf8'), 32));
}

export function seal(secret: string, purpose: SealPurpose, boundTo: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret, purpose), iv);
  cipher.setAAD(Buffer.from(boundTo, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

/** The plaintext, or null when it cannot be opened (another secret, another row, altered). */
export function unseal(secret: string, purpose: SealPurpose, boundTo: string, sealed: string): string | null {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || !body) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secret, purpose), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(boundTo, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
