import { LockProviderError } from '../provider';
import type { SeamSession } from './session';

/**
 * Seam's connect webviews (docs/seam.md, "Linking a lock account"): a page of Seam's where a hotel's
 * owner signs in to the account of a lock brand (August, Yale, Schlage, igloohome and the others Seam
 * reaches) and so links its locks into the hotel's workspace. `connect_webviews/create` gives the page's
 * address; `connect_webviews/get` says whether it was completed (`authorized`) or given up (`failed`).
 */

export type LinkState = 'pending' | 'linked' | 'failed';

export async function createLink(s: SeamSession, workspaceId: string, redirectUrl: string | null): Promise<{ linkId: string; url: string }> {
  const w = (await s.call('connect_webviews/create', 'lock', (seam) =>
    seam.connectWebviews.create(redirectUrl ? { custom_redirect_url: redirectUrl } : {}),
  )) as Record<string, unknown> | null;
  const linkId = typeof w?.connect_webview_id === 'string' ? w.connect_webview_id : '';
  const url = typeof w?.url === 'string' ? w.url : '';
  if (!linkId || !/^https?:\/\//.test(url)) throw new LockProviderError('provider_error', undefined, 'connect_webviews/create answered no page');
  // The fake checks no workspace: the page is this workspace's, or it is nobody's.
  if (typeof w?.workspace_id === 'string' && w.workspace_id !== workspaceId) throw new LockProviderError('provider_error', undefined, 'another workspace');
  return { linkId, url };
}

export async function linkState(s: SeamSession, workspaceId: string, linkId: string): Promise<LinkState> {
  const w = (await s.call('connect_webviews/get', 'lock', (seam) => seam.connectWebviews.get({ connect_webview_id: linkId }))) as Record<
    string,
    unknown
  > | null;
  // Another workspace's page is as unknown as one that does not exist.
  if (typeof w?.workspace_id === 'string' && w.workspace_id !== workspaceId) throw new LockProviderError('lock_not_found', undefined, 'another workspace');
  return w?.status === 'authorized' ? 'linked' : w?.status === 'failed' ? 'failed' : 'pending';
}
