// OUR layer (not Seam's) for Seam's card systems (`acs`), part of seam-fake-server.mjs: Seam's fake
// (1.86) answers systems, entrances and users, but has no `acs/credentials/*` nor `acs/encoders/*`,
// the card itself. What Seam documents of them is added here (docs/seam.md "Card systems"):
// - credentials: create (an `acs_user_id` of the key's workspace, `access_method: card`, the
//   entrances it opens, all of the user's system, `starts_at`/`ends_at`), get, list (by user or
//   system), update (its period), delete; a user deleted takes its credentials with it;
// - encoders: list (by system), get, `encode_credential` (an action attempt ENCODE_CREDENTIAL,
//   answered pending, then a success whose result is the credential, now `is_issued` with a
//   `card_number`, or the error the encoder was told to give next: `no_credential_on_encoder`, no
//   card on it, `incompatible_card_format`, `encoding_interrupted`; or left pending);
// - OUR control routes: a system of a card system's type, its entrances and encoders (ids of their
//   own, as Seam's are UUIDs: the fake counts `acs_entrance1`... anew in each process), what an
//   encoder does next.
// Guesses (the sandbox is out of reach here): the 400 and 404 bodies, the card number's form.
import { randomInt, randomUUID } from 'node:crypto';

/** Card systems whose cards are encoded at the desk (Seam's system types). */
const ENCODED_SYSTEM_TYPES = new Set(['visionline_system', 'assa_abloy_vostio', 'salto_space_system', 'dormakaba_community_site', 'dormakaba_ambiance_site']);

export function createAcs(db, { json, refused, attemptAnswer }) {
  /** acs_encoder_id → the encodes left pending on it: [{ attemptId, credential }] (OUR control's /acs/complete ends them). */
  const pending = new Map();
  /** acs_credential_id → credential */
  const credentials = new Map();
  /** acs_encoder_id → encoder */
  const encoders = new Map();
  /** acs_encoder_id → what its next encode does: 'success' (a card on it), an error type, or 'pending'. */
  const next = new Map();

  const state = () => db.getState();
  const userOf = (id, ws) => state().acs_users.find((u) => u.acs_user_id === id && u.workspace_id === ws);
  const entranceOf = (id) => state().acs_entrances.find((e) => e.acs_entrance_id === id);
  const mine = (id, ws, map) => {
    const found = typeof id === 'string' ? map.get(id) : undefined;
    return found && found.workspace_id === ws ? found : undefined;
  };
  const iso = (value) => (typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : undefined);
  const notFound = (type, message) => refused(404, type, `OUR layer: ${message}`);
  const invalid = (message) => refused(400, 'invalid_input', `OUR layer: ${message}`);

  /** The credential written on a card: issued, with the number the system gives it. */
  const issue = (credential) => ({
    ...Object.assign(credential, { is_issued: true, issued_at: new Date().toISOString(), card_number: String(randomInt(1_000_000_000, 9_999_999_999)) }),
  });

  const routes = {
    '/acs/credentials/create'(body, ws) {
      const user = userOf(body?.acs_user_id, ws);
      if (!user) return notFound('acs_user_not_found', 'no such access control user');
      if (body.access_method !== 'card') return invalid('only card credentials are encoded here');
      const entranceIds = Array.isArray(body.allowed_acs_entrance_ids) ? body.allowed_acs_entrance_ids : [];
      if (!entranceIds.every((id) => entranceOf(id)?.acs_system_id === user.acs_system_id))
        return invalid('every entrance must be of the user\u2019s access control system');
      const startsAt = iso(body.starts_at);
      const endsAt = iso(body.ends_at);
      if (!startsAt || !endsAt || endsAt <= startsAt) return invalid('starts_at and ends_at are required, ends_at after starts_at');
      const credential = {
        acs_credential_id: randomUUID(),
        acs_user_id: user.acs_user_id,
        acs_system_id: user.acs_system_id,
        workspace_id: ws,
        access_method: 'card',
        card_number: null,
        is_issued: false,
        issued_at: null,
        is_multi_phone_sync_credential: false,
        starts_at: startsAt,
        ends_at: endsAt,
        created_at: new Date().toISOString(),
        display_name: user.full_name ?? '',
        errors: [],
        warnings: [],
        allowed_acs_entrance_ids: [...entranceIds],
      };
      credentials.set(credential.acs_credential_id, credential);
      return json(200, { ok: true, acs_credential: credential });
    },
    '/acs/credentials/get'(body, ws) {
      const credential = mine(body?.acs_credential_id, ws, credentials);
      return credential ? json(200, { ok: true, acs_credential: credential }) : notFound('acs_credential_not_found', 'no such credential');
    },
    '/acs/credentials/list'(body, ws) {
      const list = [...credentials.values()].filter(
        (c) =>
          c.workspace_id === ws &&
          (!body?.acs_user_id || c.acs_user_id === body.acs_user_id) &&
          (!body?.acs_system_id || c.acs_system_id === body.acs_system_id),
      );
      return json(200, { ok: true, acs_credentials: list, pagination: { has_next_page: false, next_page_cursor: null, next_page_url: null } });
    },
    '/acs/credentials/update'(body, ws) {
      const credential = mine(body?.acs_credential_id, ws, credentials);
      if (!credential) return notFound('acs_credential_not_found', 'no such credential');
      const endsAt = body.ends_at === undefined ? credential.ends_at : iso(body.ends_at);
      if (!endsAt || endsAt <= credential.starts_at) return invalid('ends_at must be after starts_at');
      credential.ends_at = endsAt;
      return json(200, { ok: true });
    },
    '/acs/credentials/delete'(body, ws) {
      const credential = mine(body?.acs_credential_id, ws, credentials);
      if (!credential) return notFound('acs_credential_not_found', 'no such credential');
      credentials.delete(credential.acs_credential_id);
      return json(200, { ok: true });
    },
    '/acs/encoders/list'(body, ws) {
      const systems = new Set([body?.acs_system_id, ...(Array.isArray(body?.acs_system_ids) ? body.acs_system_ids : [])].filter(Boolean));
      const list = [...encoders.values()].filter((e) => e.workspace_id === ws && (systems.size === 0 || systems.has(e.acs_system_id)));
      return json(200, { ok: true, acs_encoders: list, pagination: { has_next_page: false, next_page_cursor: null, next_page_url: null } });
    },
    '/acs/encoders/get'(body, ws) {
      const encoder = mine(body?.acs_encoder_id, ws, encoders);
      return encoder ? json(200, { ok: true, acs_encoder: encoder }) : notFound('acs_encoder_not_found', 'no such encoder');
    },
    '/acs/encoders/encode_credential'(body, ws) {
      const encoder = mine(body?.acs_encoder_id, ws, encoders);
      if (!encoder) return notFound('acs_encoder_not_found', 'no such encoder');
      const credential = mine(body?.acs_credential_id, ws, credentials);
      if (!credential) return notFound('acs_credential_not_found', 'no such credential');
      if (credential.acs_system_id !== encoder.acs_system_id) return invalid('the encoder is of another access control system');
      const then = next.get(encoder.acs_encoder_id) ?? 'success';
      if (then === 'pending') {
        const answer = attemptAnswer('ENCODE_CREDENTIAL');
        const { action_attempt } = JSON.parse(answer.body.toString('utf8'));
        pending.set(encoder.acs_encoder_id, [...(pending.get(encoder.acs_encoder_id) ?? []), { attemptId: action_attempt.action_attempt_id, credential }]);
        return answer;
      }
      if (then !== 'success') return attemptAnswer('ENCODE_CREDENTIAL', { status: 'error', error: { type: then, message: `OUR layer: ${then}` } });
      return attemptAnswer('ENCODE_CREDENTIAL', { status: 'success', result: issue(credential) });
    },
  };

  return {
    /** Answers a request of OUR routes, or null for the fake's own (after which `afterForward` runs). */
    handle(path, body, ws) {
      const route = routes[path];
      if (!route) return null;
      if (!ws) return refused(401, 'unauthorized', 'OUR layer: no workspace for this key');
      return route(body, ws);
    },
    /** A user Seam deleted takes its credentials with it. */
    afterForward(path, body, answer) {
      if (path === '/acs/users/delete' && answer.status === 200)
        for (const c of [...credentials.values()]) if (c.acs_user_id === body?.acs_user_id) credentials.delete(c.acs_credential_id);
    },
    ops: {
      '/acs/add_system': ({ workspace_id, name = 'Visionline', system_type = 'visionline_system', connected_account_id = 'john_connected_account_id' }) => {
        if (!ENCODED_SYSTEM_TYPES.has(system_type) && system_type !== 'brivo_account') throw new Error(`OUR layer: no system type ${system_type}`);
        return db.addAcsSystem({ acs_system_id: randomUUID(), external_type: system_type, name, workspace_id, connected_account_id });
      },
      '/acs/add_entrance': ({ acs_system_id, name, door_category = 'guest' }) => {
        const entrance = db.addAcsEntrance({ acs_system_id, visionline_metadata: { door_name: name, door_category } });
        const id = randomUUID();
        db.setState({ acs_entrances: state().acs_entrances.map((e) => (e.acs_entrance_id === entrance.acs_entrance_id ? { ...e, acs_entrance_id: id } : e)) });
        return { ...entrance, acs_entrance_id: id };
      },
      '/acs/add_encoder': ({ acs_system_id, display_name = 'Front desk encoder' }) => {
        const system = state().acs_systems.find((s) => s.acs_system_id === acs_system_id);
        if (!system) throw new Error(`OUR layer: no system ${acs_system_id}`);
        const encoder = {
          acs_encoder_id: randomUUID(),
          acs_system_id,
          workspace_id: system.workspace_id,
          connected_account_id: system.connected_account_id,
          display_name,
          errors: [],
          created_at: new Date().toISOString(),
        };
        encoders.set(encoder.acs_encoder_id, encoder);
        return encoder;
      },
      /** What the encoder's next encodes do: 'success', 'pending', or an error type of Seam's. */
      '/acs/encoder': ({ acs_encoder_id, then }) => {
        next.set(acs_encoder_id, then);
        return { acs_encoder_id, then };
      },
      '/acs/credentials': () => [...credentials.values()],
      /** The encodes left pending on an encoder end as written (a card was on it all along): how many. */
      '/acs/complete': ({ acs_encoder_id }) => {
        const waiting = pending.get(acs_encoder_id) ?? [];
        pending.delete(acs_encoder_id);
        for (const { attemptId, credential } of waiting) db.updateActionAttempt({ action_attempt_id: attemptId, status: 'success', result: issue(credential) });
        return { completed: waiting.length };
      },
    },
  };
}
