import type { Deps } from '../../context';
import { LockProviderError } from '../../infra/locks/provider';
import { seal, unseal, type SealPurpose } from '../../infra/seal';

/**
 * A Seam lock account's API key (docs/seam.md, "Lock accounts"), sealed as TTLock tokens are
 * (AES-256-GCM under CARD_KEY_SECRET, bound to the hotel and the account) in the account's
 * `tokensSealed`, under a purpose of its own: a TTLock token blob never opens as a key, nor a key as
 * tokens. Never answered back, never logged; dropped when the account is disconnected.
 */

const SEAM_KEY: SealPurpose = { salt: 'smart-lock-console/lock-accounts', info: 'seam api key v1' };
const boundTo = (a: { id: number; hotelId: number }) => `lock-account:${a.hotelId}:${a.id}`;

export interface SeamKey {
  apiKey: string;
  /** Seam's sandbox workspace (`is_sandbox`): its devices are not real locks. */
  sandbox: boolean;
}

export function sealSeamKey(secret: string, account: { id: number; hotelId: number }, key: SeamKey): string {
  return seal(secret, SEAM_KEY, boundTo(account), JSON.stringify(key));
}

export function openSeamKey(secret: string, account: { id: number; hotelId: number }, sealed: string | null): SeamKey | null {
  if (!sealed) return null;
  const json = unseal(secret, SEAM_KEY, boundTo(account), sealed);
  if (json === null) return null;
  try {
    const k = JSON.parse(json) as Partial<SeamKey>;
    return typeof k.apiKey === 'string' && k.apiKey !== '' ? { apiKey: k.apiKey, sandbox: k.sandbox === true } : null;
  } catch {
    return null;
  }
}

/** The key of a connected Seam account, read when its adapter first calls Seam; none: `account_disconnected`. */
export function seamKeyReader(deps: Deps, account: { id: number; hotelId: number }): () => Promise<SeamKey> {
  return async () => {
    const row = await deps.prisma.lockAccount.findUnique({ where: { id: account.id }, select: { state: true, tokensSealed: true } });
    const key = row && row.state === 'connected' ? openSeamKey(deps.config.cardKeySecret, account, row.tokensSealed) : null;
    if (!key) throw new LockProviderError('account_disconnected', undefined, 'the Seam lock account has no API key');
    return key;
  };
}

const SEAM_WEBHOOK: SealPurpose = { salt: 'smart-lock-console/lock-accounts', info: 'seam webhook secret v1' };

/** A Seam account's webhook signing secret (`whsec_...`), sealed as its key is, under a purpose of its own. */
export function sealSeamWebhookSecret(secret: string, account: { id: number; hotelId: number }, webhookSecret: string): string {
  return seal(secret, SEAM_WEBHOOK, boundTo(account), webhookSecret);
}

export function openSeamWebhookSecret(secret: string, account: { id: number; hotelId: number }, sealed: string | null): string | null {
  return sealed ? unseal(secret, SEAM_WEBHOOK, boundTo(account), sealed) : null;
}
