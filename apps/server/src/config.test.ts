import { describe, expect, it } from 'vitest';
import { ConfigError, DEV_COMPAT_DES_IV, DEV_COMPAT_DES_KEY, loadConfig } from './config';

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
    expect(loadConfig({ NODE_ENV: 'production', COMPAT_DES_KEY: 'prodkey1', COMPAT_DES_IV: 'prodiv01' }).isProduction).toBe(true);
  });

  it('names every invalid variable', () => {
    expect(() => loadConfig({ PORT: 'abc', COMPAT_DES_KEY: 'too-long-key' })).toThrow(/PORT[\s\S]*COMPAT_DES_KEY|COMPAT_DES_KEY[\s\S]*PORT/);
  });

  it('needs a URL for the HTTP SMS provider', () => {
    expect(() => loadConfig({ SMS_PROVIDER: 'http' })).toThrow(/SMS_HTTP_URL/);
  });
});
