import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';
import { DEV_CARD_KEY_SECRET, DEV_COMPAT_DES_IV, DEV_COMPAT_DES_KEY, DEV_FACE_PHOTO_SECRET } from './config/keys';
import { deskReaderEnvironment, readerConnectSources, withReaderSim } from './infra/readers';

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

  it('reads OUTBOUND_PRIVATE_ADDRESSES, and FEED_PRIVATE_ADDRESSES, its former name, when it is unset', () => {
    expect(loadConfig({}).feeds.privateAddresses).toBe(false);
    expect(loadConfig({ OUTBOUND_PRIVATE_ADDRESSES: 'true' }).feeds.privateAddresses).toBe(true);
    expect(loadConfig({ FEED_PRIVATE_ADDRESSES: 'true' }).feeds.privateAddresses).toBe(true);
    expect(loadConfig({ OUTBOUND_PRIVATE_ADDRESSES: 'false', FEED_PRIVATE_ADDRESSES: 'true' }).feeds.privateAddresses).toBe(false);
  });

  it('refuses to start in production with the development key and IV', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', COMPAT_DES_KEY: 'prodkey1' })).toThrow(/COMPAT_DES_KEY/);
    expect(
      loadConfig({
        NODE_ENV: 'production',
        COMPAT_DES_KEY: 'prodkey1',
        COMPAT_DES_IV: 'prodiv01',
        SMS_PROVIDER: 'none',
        LOCK_PROVIDER: 'none',
        FACE_PHOTO_SECRET,
        CARD_KEY_SECRET,
      }).isProduction,
    ).toBe(true);
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
    const keys = {
      NODE_ENV: 'production',
      COMPAT_DES_KEY: 'prodkey1',
      COMPAT_DES_IV: 'prodiv01',
      SMS_PROVIDER: 'none',
      LOCK_PROVIDER: 'none',
      CARD_KEY_SECRET,
    };
    expect(() => loadConfig(keys)).toThrow(/FACE_PHOTO_SECRET/);
    expect(() => loadConfig({ ...keys, FACE_PHOTO_SECRET: DEV_FACE_PHOTO_SECRET })).toThrow(/FACE_PHOTO_SECRET/);
    expect(loadConfig({ ...keys, FACE_PHOTO_SECRET }).facePhotoSecret).toBe(FACE_PHOTO_SECRET);
    expect(() => loadConfig({ FACE_PHOTO_SECRET: 'too-short' })).toThrow(/FACE_PHOTO_SECRET/);
    // Outside production the development key stays the default.
    expect(loadConfig({}).facePhotoSecret).toBe(DEV_FACE_PHOTO_SECRET);
  });

  it("refuses to start in production with the development secret of the hotels' card keys, and anywhere with a short one", () => {
    const keys = {
      NODE_ENV: 'production',
      COMPAT_DES_KEY: 'prodkey1',
      COMPAT_DES_IV: 'prodiv01',
      SMS_PROVIDER: 'none',
      LOCK_PROVIDER: 'none',
      FACE_PHOTO_SECRET,
    };
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
    expect(loadConfig({ LOCK_PROVIDER: 'ttlock', TTLOCK_CLIENT_ID: 'id', TTLOCK_CLIENT_SECRET: 'secret', TTLOCK_REGION: 'cn' }).locks.ttlock.baseUrl).toBe(
      'https://cnapi.ttlock.com',
    );
    expect(loadConfig({ LOCK_PROVIDER: 'ttlock', TTLOCK_CLIENT_ID: 'id', TTLOCK_CLIENT_SECRET: 'secret', TTLOCK_BASE_URL: '' }).locks.ttlock.baseUrl).toBe(
      'https://euapi.ttlock.com',
    );
    expect(() => loadConfig({ LOCK_PROVIDER: 'ttlock', TTLOCK_CLIENT_ID: 'id', TTLOCK_CLIENT_SECRET: 'secret', TTLOCK_REGION: 'us' })).toThrow(/TTLOCK_REGION/);
    // An install of the single shared account: its variables are no longer read, and the start says so.
    expect(
      loadConfig({ LOCK_PROVIDER: 'ttlock', TTLOCK_CLIENT_ID: 'id', TTLOCK_CLIENT_SECRET: 'secret', TTLOCK_USERNAME: 'hotel', TTLOCK_PASSWORD: 'pw' }).locks
        .legacyTtlockAccount,
    ).toBe(true);
  });

  it('takes an empty variable as unset, as docker compose passes them', () => {
    const config = loadConfig({ SMS_HTTP_URL: '', LOCK_CALLBACK_SECRET: '', LOCK_SIM_URL: '', PORT: '' });
    expect(config.port).toBe(3000);
    expect(config.locks.sim.url).toBeUndefined();
  });

  it('names every invalid variable', () => {
    expect(() => loadConfig({ PORT: 'abc', COMPAT_DES_KEY: 'too-long-key' })).toThrow(/PORT[\s\S]*COMPAT_DES_KEY|COMPAT_DES_KEY[\s\S]*PORT/);
  });

  it("reads the install's mail sender, the sender domains it allows and the hourly limit of a hotel (issue 27 §8)", () => {
    expect(loadConfig({}).mail).toEqual({ smtpUrl: undefined, from: null, allowedSenderDomains: [], hotelHourlyLimit: 200 });
    const mail = loadConfig({
      SMTP_URL: 'smtp://mail.example.com:587',
      SMTP_FROM: '"Smart Lock Console" <noreply@console.example>',
      SMTP_ALLOWED_SENDER_DOMAINS: ' Harbour-Hotel.com, example.org. ,',
      SMTP_HOTEL_HOURLY_LIMIT: '0',
    }).mail;
    expect(mail).toMatchObject({
      from: { name: 'Smart Lock Console', address: 'noreply@console.example' },
      allowedSenderDomains: ['harbour-hotel.com', 'example.org'],
      hotelHourlyLimit: 0,
    });
    expect(loadConfig({ SMTP_FROM: 'noreply@console.example' }).mail.from).toEqual({ name: '', address: 'noreply@console.example' });
    for (const from of ['not an address', 'Console <noreply@console.example>\r\nBcc: x@example.com', 'a@b.example\n']) {
      expect(() => loadConfig({ SMTP_FROM: from }), JSON.stringify(from)).toThrow(/SMTP_FROM/);
    }
    for (const domains of ['example', 'exa mple.com', 'a@example.com', '*.example.com']) {
      expect(() => loadConfig({ SMTP_ALLOWED_SENDER_DOMAINS: domains }), domains).toThrow(/SMTP_ALLOWED_SENDER_DOMAINS/);
    }
    expect(() => loadConfig({ SMTP_HOTEL_HOURLY_LIMIT: '-1' })).toThrow(/SMTP_HOTEL_HOURLY_LIMIT/);
  });

  it('needs a URL for the HTTP SMS provider', () => {
    expect(() => loadConfig({ SMS_PROVIDER: 'http' })).toThrow(/SMS_HTTP_URL/);
  });

  describe('the database', () => {
    const PRODUCTION = {
      NODE_ENV: 'production',
      COMPAT_DES_KEY: 'prodkey1',
      COMPAT_DES_IV: 'prodiv01',
      SMS_PROVIDER: 'none',
      LOCK_PROVIDER: 'none',
      FACE_PHOTO_SECRET,
      CARD_KEY_SECRET,
    };
    /** What node-postgres (the pool, the migration runner) connects to with that URL. */
    const connectsTo = (url: string) => {
      const client = new pg.Client({ connectionString: url });
      return { host: client.host, port: client.port, user: client.user, password: client.password, database: client.database };
    };

    it('is made of PGHOST, PGPORT, PGUSER, PGPASSWORD and PGDATABASE when DATABASE_URL is unset, whatever the password holds', () => {
      // What `openssl rand -base64` gives, and every character a URL gives a meaning to.
      for (const password of ['ab/cd+ef=', 'a#b?c%d@e:f', '%41%zz', 'x y&z=1;\\"\'', '秘密']) {
        const config = loadConfig({ PGHOST: 'postgres', PGUSER: 'smartlock', PGPASSWORD: password, PGDATABASE: 'smart lock' });
        expect(connectsTo(config.databaseUrl!), password).toEqual({ host: 'postgres', port: 5432, user: 'smartlock', password, database: 'smart lock' });
      }
      expect(connectsTo(loadConfig({ PGHOST: '10.0.0.5', PGPORT: '6543', PGUSER: 'me' }).databaseUrl!)).toEqual({
        host: '10.0.0.5',
        port: 6543,
        user: 'me',
        password: null,
        database: 'me',
      });
      expect(connectsTo(loadConfig({ PGHOST: '/var/run/postgresql', PGUSER: 'me', PGDATABASE: 'db' }).databaseUrl!)).toMatchObject({
        host: '/var/run/postgresql',
        user: 'me',
        database: 'db',
      });
      // DATABASE_URL wins; neither: the embedded PostgreSQL.
      expect(loadConfig({ DATABASE_URL: 'postgresql://a@h/db', PGHOST: 'other' }).databaseUrl).toBe('postgresql://a@h/db');
      expect(loadConfig({ PGPASSWORD: 'ignored', PGUSER: 'ignored' }).databaseUrl).toBeUndefined();
    });

    it('refuses a DATABASE_URL whose password was pasted in unescaped, and says how to pass it', () => {
      for (const password of ['ab/cd', 'a#b', 'a?b', '%zz']) {
        expect(() => loadConfig({ DATABASE_URL: `postgresql://smartlock:${password}@postgres:5432/smartlock` }), password).toThrow(
          /DATABASE_URL[\s\S]*percent-encode[\s\S]*PGPASSWORD/,
        );
      }
      const escaped = `postgresql://smartlock:${encodeURIComponent('a#b/c?d%e')}@postgres:5432/smartlock`;
      expect(connectsTo(loadConfig({ DATABASE_URL: escaped }).databaseUrl!).password).toBe('a#b/c?d%e');
    });

    it('refuses the placeholder password of the example in production, in parts or in a URL', () => {
      expect(() => loadConfig({ ...PRODUCTION, PGHOST: 'postgres', PGUSER: 'smartlock', PGPASSWORD: 'change-me' })).toThrow(
        /PGPASSWORD: production refuses the database password "change-me"[\s\S]*openssl rand/,
      );
      expect(() => loadConfig({ ...PRODUCTION, PGHOST: 'postgres', PGPASSWORD: 'ChangeMe' })).toThrow(/PGPASSWORD/);
      expect(() => loadConfig({ ...PRODUCTION, DATABASE_URL: 'postgresql://smartlock:change-me@postgres/smartlock' })).toThrow(
        /DATABASE_URL: production refuses/,
      );
      expect(loadConfig({ ...PRODUCTION, PGHOST: 'postgres', PGPASSWORD: 'q3/Ot#x?9%Zr+1' }).databaseUrl).toMatch(/^postgresql:/);
      // Outside production (the tests, a developer's database) it is not judged.
      expect(loadConfig({ PGHOST: 'postgres', PGPASSWORD: 'change-me' }).databaseUrl).toMatch(/change-me/);
    });
  });

  it('takes a lock callback secret only of characters a URL path keeps as they are', () => {
    expect(() => loadConfig({ LOCK_CALLBACK_SECRET: 'abc/def+ghi=jkl012345' })).toThrow(/LOCK_CALLBACK_SECRET[\s\S]*openssl rand -hex/);
    expect(loadConfig({ LOCK_CALLBACK_SECRET: 'a1b2c3d4e5f6a7b8c9d0e1f2' }).locks.callbackSecret).toBe('a1b2c3d4e5f6a7b8c9d0e1f2');
  });

  it("takes the addresses of the hotel's own reader software on the loopback address, and tells the console and its CSP (issue 17 §5)", () => {
    const config = loadConfig({ READER_SIM: '0', READER_TYPE1_URL: 'http://127.0.0.1:23570/', READER_TYPE3_URL: 'ws://localhost:39002' });
    expect(config.readers.urls).toEqual({ type1: 'http://127.0.0.1:23570', type2: undefined, type3: 'ws://localhost:39002' });
    expect(deskReaderEnvironment(config)).toEqual({ simulated: false, urls: { type1: 'http://127.0.0.1:23570', type3: 'ws://localhost:39002' } });
    expect(readerConnectSources(config)).toEqual(expect.arrayContaining(['http://127.0.0.1:13570', 'http://127.0.0.1:23570', 'ws://localhost:39002']));
    // The usual address is no news; the simulator, when it runs, is where the readers are.
    expect(deskReaderEnvironment(loadConfig({ READER_SIM: '0', READER_TYPE1_URL: 'http://127.0.0.1:13570' }))).toEqual({ simulated: false, urls: {} });
    const sim = withReaderSim(config, {
      urls: { type1: 'http://127.0.0.1:41000', type2: 'http://127.0.0.1:8765', type3: 'ws://127.0.0.1:39002', control: 'http://127.0.0.1:13580' },
    });
    expect(deskReaderEnvironment(sim)).toEqual({ simulated: true, urls: { type1: 'http://127.0.0.1:41000' } });
    // Anything but a loopback URL of the type's scheme is refused at start.
    for (const [name, value] of [
      ['READER_TYPE1_URL', 'http://192.168.1.20:13570'],
      ['READER_TYPE1_URL', 'ws://127.0.0.1:13570'],
      ['READER_TYPE2_URL', 'http://127.0.0.1:8765/bridge'],
      ['READER_TYPE3_URL', 'http://127.0.0.1:39002'],
      ['READER_TYPE3_URL', 'not a url'],
    ] as const) {
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(ConfigError);
    }
  });
});
