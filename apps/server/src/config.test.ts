import { describe, expect, it } from 'vitest';
import { ConfigError, DEV_CARD_KEY_SECRET, DEV_COMPAT_DES_IV, DEV_COMPAT_DES_KEY, DEV_FACE_PHOTO_SECRET, loadConfig } from './config';

const FACE_PHOTO_SECRET = 'a-random-face-photo-secret-of-32-chars+';
const CARD_KEY_SECRET = 'a-random-card-key-secret-of-32-chars+++';

describe('configuration', () => {
  it('has working defaults for a development start', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.embeddedPg.dir).toBe('./data/postgres');
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(config.compat).toEqual({ desKey: DEV_COMPAT_DES_KEY, desIv: DEV_COMPAT_DES_IV });
  });

  it('refuses to start in production with the development key and IV', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', COMPAT_DES_KEY: 'prodkey1' })).toThrow(/COMPAT_DES_KEY/);
    expect(loadConfig({ NODE_ENV: 'production', COMPAT_DES_KEY: 'prodkey1', COMPAT_DES_IV: 'prodiv01', SMS_PROVIDER: 'none', LOCK_PROVIDER: 'none', FACE_PHOTO_SECRET, CARD_KEY_SECRET }).isProduction).toBe(true);
  });

  it('refuses to start in production with the development SMS sender, which logs recovery codes', () => {
    const keys = { NODE_ENV: 'production', COMPAT_DES_KEY: 'prodkey1', COMPAT_DES_IV: 'prodiv01', LOCK_PROVIDER: 'none', FACE_PHOTO_SECRET, CARD_KEY_SECRET };
    expect(() => loadConfig(keys)).toThrow(/SMS_PROVIDER/);
    expect(() => loadConfig({ ...keys, SMS_PROVIDER: 'dev' })).toThrow(/SMS_PROVIDER/);
    expect(loadConfig({ ...keys, SMS_PROVIDER: 'http', SMS_HTTP_URL: 'https://sms.example.com/send' }).sms.provider).toBe('http');
    expect(loadConfig({ ...keys, SMS_PROVIDER: 'none' }).sms.provider).toBe('none');
    // Outside production the development sender stays the default.
    expect(loadConfig({}).sms.provider).toBe('dev');
  });

  it('refuses to start in production without an explicit lock provider, or with the development callback secret', () => {
    const keys = { NODE_ENV: 'production', COMPAT_DES_KEY: 'prodkey1', COMPAT_DES_IV: 'prodiv01', SMS_PROVIDER: 'none', FACE_PHOTO_SECRET, CARD_KEY_SECRET };
    expect(() => loadConfig(keys)).toThrow(/LOCK_PROVIDER/);
    expect(() => loadConfig({ ...keys, LOCK_PROVIDER: 'sim' })).toThrow(/LOCK_CALLBACK_SECRET/);
    expect(loadConfig({ ...keys, LOCK_PROVIDER: 'sim', LOCK_CALLBACK_SECRET: 'a-long-random-secret' }).locks.provider).toBe('sim');
    expect(loadConfig({ ...keys, LOCK_PROVIDER: 'none' }).locks.provider).toBe('none');
    // Outside production the simulator is the default.
    expect(loadConfig({}).locks.provider).toBe('sim');
  });

  it('refuses to start in production with the development key of face photo URLs, and anywhere with a short one', () => {
    const keys = { NODE_ENV: 'production', COMPAT_DES_KEY: 'prodkey1', COMPAT_DES_IV: 'prodiv01', SMS_PROVIDER: 'none', LOCK_PROVIDER: 'none', CARD_KEY_SECRET };
    expect(() => loadConfig(keys)).toThrow(/FACE_PHOTO_SECRET/);
    expect(() => loadConfig({ ...keys, FACE_PHOTO_SECRET: DEV_FACE_PHOTO_SECRET })).toThrow(/FACE_PHOTO_SECRET/);
    expect(loadConfig({ ...keys, FACE_PHOTO_SECRET }).facePhotoSecret).toBe(FACE_PHOTO_SECRET);
    expect(() => loadConfig({ FACE_PHOTO_SECRET: 'too-short' })).toThrow(/FACE_PHOTO_SECRET/);
    // Outside production the development key stays the default.
    expect(loadConfig({}).facePhotoSecret).toBe(DEV_FACE_PHOTO_SECRET);
  });

  it("refuses to start in production with the development secret of the hotels' card keys, and anywhere with a short one", () => {
    const keys = { NODE_ENV: 'production', COMPAT_DES_KEY: 'prodkey1', COMPAT_DES_IV: 'prodiv01', SMS_PROVIDER: 'none', LOCK_PROVIDER: 'none', FACE_PHOTO_SECRET };
    expect(() => loadConfig(keys)).toThrow(/CARD_KEY_SECRET/);
    expect(() => loadConfig({ ...keys, CARD_KEY_SECRET: DEV_CARD_KEY_SECRET })).toThrow(/CARD_KEY_SECRET/);
    expect(loadConfig({ ...keys, CARD_KEY_SECRET }).cardKeySecret).toBe(CARD_KEY_SECRET);
    expect(() => loadConfig({ CARD_KEY_SECRET: 'too-short' })).toThrow(/CARD_KEY_SECRET/);
    expect(loadConfig({}).cardKeySecret).toBe(DEV_CARD_KEY_SECRET);
  });

  it('needs the app credentials for LOCK_PROVIDER=ttlock, not an account', () => {
    expect(() => loadConfig({ LOCK_PROVIDER: 'ttlock' })).toThrow(/TTLOCK_CLIENT_ID[\s\S]*TTLOCK_CLIENT_SECRET/);
    const config = loadConfig({ LOCK_PROVIDER: 'ttlock', TTLOCK_CLIENT_ID: 'id', TTLOCK_CLIENT_SECRET: 'secret' });
    expect(config.locks.ttlock).toMatchObject({ baseUrl: 'https://euapi.ttlock.com', clientId: 'id', region: 'eu' });
    expect(config.locks.legacyTtlockAccount).toBe(false);
    expect(loadConfig({ LOCK_PROVIDER: 'ttlock', TTLOCK_CLIENT_ID: 'id', TTLOCK_CLIENT_SECRET: 'secret', TTLOCK_REGION: 'cn' }).locks.ttlock.baseUrl).toBe('https://cnapi.ttlock.com');
    expect(loadConfig({ LOCK_PROVIDER: 'ttlock', TTLOCK_CLIENT_ID: 'id', TTLOCK_CLIENT_SECRET: 'secret', TTLOCK_BASE_URL: '' }).locks.ttlock.baseUrl).toBe('https://euapi.ttlock.com');
    expect(() => loadConfig({ LOCK_PROVIDER: 'ttlock', TTLOCK_CLIENT_ID: 'id', TTLOCK_CLIENT_SECRET: 'secret', TTLOCK_REGION: 'us' })).toThrow(/TTLOCK_REGION/);
    // An install of the single shared account: its variables are no longer read, and the start says so.
    expect(loadConfig({ LOCK_PROVIDER: 'ttlock', TTLOCK_CLIENT_ID: 'id', TTLOCK_CLIENT_SECRET: 'secret', TTLOCK_USERNAME: 'hotel', TTLOCK_PASSWORD: 'pw' }).locks.legacyTtlockAccount).toBe(true);
  });

  it('takes an empty variable as unset, as docker compose passes them', () => {
    const config = loadConfig({ SMS_HTTP_URL: '', LOCK_CALLBACK_SECRET: '', LOCK_SIM_URL: '', PORT: '' });
    expect(config.port).toBe(3000);
    expect(config.locks.sim.url).toBeUndefined();
  });

  it('names every invalid variable', () => {
    expect(() => loadConfig({ PORT: 'abc', COMPAT_DES_KEY: 'too-long-key' })).toThrow(/PORT[\s\S]*COMPAT_DES_KEY|COMPAT_DES_KEY[\s\S]*PORT/);
  });

  it('needs a URL for the HTTP SMS provider', () => {
    expect(() => loadConfig({ SMS_PROVIDER: 'http' })).toThrow(/SMS_HTTP_URL/);
  });
});
