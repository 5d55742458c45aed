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
    expect(loadConfig({ NODE_ENV: 'production', COMPAT_DES_KEY: 'prodkey1', COMPAT_DES_IV: 'prodiv01', SMS_PROVIDER: 'none' }).isProduction).toBe(true);
  });

  it('refuses to start in production with the development SMS sender, which logs recovery codes', () => {
    const keys = { NODE_ENV: 'production', COMPAT_DES_KEY: 'prodkey1', COMPAT_DES_IV: 'prodiv01' };
    expect(() => loadConfig(keys)).toThrow(/SMS_PROVIDER/);
    expect(() => loadConfig({ ...keys, SMS_PROVIDER: 'dev' })).toThrow(/SMS_PROVIDER/);
    expect(loadConfig({ ...keys, SMS_PROVIDER: 'http', SMS_HTTP_URL: 'https://sms.example.com/send' }).sms.provider).toBe('http');
    expect(loadConfig({ ...keys, SMS_PROVIDER: 'none' }).sms.provider).toBe('none');
    // Outside production the development sender stays the default.
    expect(loadConfig({}).sms.provider).toBe('dev');
  });

  it('names every invalid variable', () => {
    expect(() => loadConfig({ PORT: 'abc', COMPAT_DES_KEY: 'too-long-key' })).toThrow(/PORT[\s\S]*COMPAT_DES_KEY|COMPAT_DES_KEY[\s\S]*PORT/);
  });

  it('needs a URL for the HTTP SMS provider', () => {
    expect(() => loadConfig({ SMS_PROVIDER: 'http' })).toThrow(/SMS_HTTP_URL/);
  });
});
