// OUR layer (not Seam's), part of seam-fake-server.mjs: Seam's webhooks, which its fake lacks. A
// workspace's endpoint (control /webhook) receives every event OUR layer adds for that workspace
// (a code set, a device offline, ...), POSTed as JSON and signed with Svix's own library, as Seam's
// webhooks are (Svix: `webhook-id`, `webhook-timestamp`, `webhook-signature`). Sent once: Svix's
// retries are not imitated; what was sent and what failed is counted.
import { randomUUID } from 'node:crypto';
import { Webhook } from 'svix';

export function createWebhooks() {
  /** workspace_id -> { url, signer } */
  const endpoints = new Map();
  const counts = { sent: 0, failed: 0 };
  return {
    /** The workspace's endpoint and its signing secret (`whsec_...`); no url: none. */
    set(workspaceId, url, secret) {
      if (url) endpoints.set(workspaceId, { url, signer: new Webhook(secret) });
      else endpoints.delete(workspaceId);
      return { workspace_id: workspaceId, url: url ?? null };
    },
    /** An event to its workspace's endpoint, if it has one (not awaited: Seam sends after its own answer). */
    send(event) {
      const endpoint = endpoints.get(event?.workspace_id);
      if (!endpoint) return;
      const body = JSON.stringify(event);
      const id = `msg_${randomUUID()}`;
      const at = new Date();
      const headers = {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': endpoint.signer.sign(id, at, body),
      };
      fetch(endpoint.url, { method: 'POST', headers, body }).then(
        (res) => (res.ok ? (counts.sent += 1) : (counts.failed += 1)),
        () => (counts.failed += 1),
      );
    },
    counts: () => ({ ...counts }),
  };
}
