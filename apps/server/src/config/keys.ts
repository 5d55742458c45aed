import { z } from 'zod';
import type { Refusal } from './variables';

/** Development values of the legacy envelope key and IV; production refuses to start with them. */
export const DEV_COMPAT_DES_KEY = 'slDevK01';
export const DEV_COMPAT_DES_IV = 'slDevIv1';
/** Development key of the signed face-photo URLs (decision 015); production refuses it. */
export const DEV_FACE_PHOTO_SECRET = 'dev-face-photo-secret-not-for-production';
/** Development key under which hotels' card keys are kept (docs/card-format.md); production refuses it. */
export const DEV_CARD_KEY_SECRET = 'dev-card-key-secret-not-for-production';

const eightBytes = (name: string) => z.string().refine((v) => Buffer.byteLength(v, 'utf8') === 8, { message: `${name} must be exactly 8 bytes (UTF-8)` });

/** The install's keys: of hotels' card keys, of face photo URLs, and of the legacy clients' envelope. */
export const keysEnv = z.object({
  /** The key under which hotels' card keys are kept (docs/card-format.md); at least 32 characters. */
  CARD_KEY_SECRET: z.string().min(32, { message: 'CARD_KEY_SECRET must be at least 32 characters' }).default(DEV_CARD_KEY_SECRET),
  /** HMAC key of the short-lived signed URLs of face photos (decision 015); at least 32 characters. */
  FACE_PHOTO_SECRET: z.string().min(32, { message: 'FACE_PHOTO_SECRET must be at least 32 characters' }).default(DEV_FACE_PHOTO_SECRET),
  COMPAT_DES_KEY: eightBytes('COMPAT_DES_KEY').default(DEV_COMPAT_DES_KEY),
  COMPAT_DES_IV: eightBytes('COMPAT_DES_IV').default(DEV_COMPAT_DES_IV),
});
type KeysEnv = z.output<typeof keysEnv>;

/** Production refuses every development key. */
export function keyRefusals(env: KeysEnv, production: boolean): Refusal[] {
  if (!production) return [];
  const refusals: Refusal[] = [];
  if (env.COMPAT_DES_KEY === DEV_COMPAT_DES_KEY || env.COMPAT_DES_IV === DEV_COMPAT_DES_IV) {
    refusals.push({
      path: 'COMPAT_DES_KEY',
      message: 'production refuses the development COMPAT_DES_KEY / COMPAT_DES_IV: set the values your legacy clients use',
    });
  }
  if (env.FACE_PHOTO_SECRET === DEV_FACE_PHOTO_SECRET) {
    refusals.push({
      path: 'FACE_PHOTO_SECRET',
      message: 'production refuses the development FACE_PHOTO_SECRET (anyone could sign face photo URLs with it): set a random value of at least 32 characters',
    });
  }
  if (env.CARD_KEY_SECRET === DEV_CARD_KEY_SECRET) {
    refusals.push({
      path: 'CARD_KEY_SECRET',
      message:
        "production refuses the development CARD_KEY_SECRET (it guards every hotel's card keys): set a random value of at least 32 characters, and keep it: card keys kept under another cannot be read",
    });
  }
  return refusals;
}
