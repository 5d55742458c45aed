import CryptoJS from 'crypto-js';
import type { FastifyInstance } from 'fastify';
import type { TConfig } from '../config';

/**
 * A legacy client as the old consoles are written: CryptoJS DES-CBC with PKCS#7 over the JSON
 * payload plus `action: "manage"`, posted form-encoded as `data` and `language`.
 */
export function legacyClient(app: FastifyInstance, config: TConfig, defaults: { language?: string; ip?: string } = {}) {
  const key = CryptoJS.enc.Utf8.parse(config.compat.desKey);
  const iv = CryptoJS.enc.Utf8.parse(config.compat.desIv);
  const encrypt = (text: string) => CryptoJS.DES.encrypt(text, key, { iv, mode: CryptoJS.mode.CBC, padding: CryptoJS.pad.Pkcs7 }).toString();
  const decrypt = (text: string) => CryptoJS.DES.decrypt(text, key, { iv, mode: CryptoJS.mode.CBC, padding: CryptoJS.pad.Pkcs7 }).toString(CryptoJS.enc.Utf8);

  async function raw(path: string, body: string, headers: Record<string, string> = {}) {
    const res = await app.inject({
      method: 'POST',
      url: `/manage/${path}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: body,
      remoteAddress: defaults.ip ?? '127.0.0.1',
    });
    return { status: res.statusCode, contentType: res.headers['content-type'], body: res.body, decoded: () => JSON.parse(decrypt(res.body)) as LegacyResponse };
  }

  async function call<T = unknown>(path: string, payload: Record<string, unknown> = {}, options: { token?: string; language?: string } = {}) {
    const language = options.language ?? defaults.language ?? 'zh-CN';
    const data = encrypt(JSON.stringify({ ...payload, action: 'manage' }));
    const headers: Record<string, string> = { language };
    if (options.token) headers['x-token'] = options.token;
    const res = await raw(path, new URLSearchParams({ data, language }).toString(), headers);
    return { ...(res.decoded() as LegacyResponse<T>), status: res.status, contentType: res.contentType };
  }

  return { call, raw, encrypt, decrypt };
}

export interface LegacyResponse<T = unknown> {
  errno: number;
  errmsg: string;
  data: T;
}
