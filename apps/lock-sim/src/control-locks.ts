import type { FastifyInstance } from 'fastify';
import type { LockCloud } from './cloud';
import {
  ControlError,
  body,
  capacityOf,
  cardDumpOf,
  failureOf,
  handle,
  isBool,
  isDoorState,
  isInt,
  isIntArray,
  isKind,
  isNullableInt,
  isString,
  lockFeaturesOf,
  optional,
  type Lookups,
} from './control-input';

/**
 * The control API's routes of a lock (control.ts has the world's, the accounts' and the gateways'):
 * create, change, pair and delete it, make its calls fail, act at its door (a passcode, a card, a
 * face), report its door sensor, and change what it holds behind the cloud's back (drift).
 */
export function registerLockControlRoutes(app: FastifyInstance, cloud: LockCloud, { lockOf, ownerIn, checkPairing }: Lookups): void {
  // Locks

  app.post('/sim/locks', (req, reply) =>
    handle(reply, () => {
      const b = body(req.body);
      const account = ownerIn(b);
      const gatewayId = optional(b, 'gatewayId', isInt, 'a gateway id');
      const gatewayIds = optional(b, 'gatewayIds', isIntArray, 'gateway ids') ?? (gatewayId === undefined ? [] : [gatewayId]);
      for (const id of gatewayIds) checkPairing(account ?? cloud.options.username, id);
      const lock = cloud.createLock({
        account,
        ...lockFeaturesOf(b),
        name: optional(b, 'name', isString, 'text'),
        alias: optional(b, 'alias', isString, 'text'),
        battery: optional(b, 'battery', isInt, '0-100'),
        online: optional(b, 'online', isBool, 'true or false'),
        remoteUnlock: optional(b, 'remoteUnlock', isBool, 'true or false'),
        gatewayIds,
        capacity: capacityOf(b),
        latencyMs: optional(b, 'latencyMs', isNullableInt, 'ms or null'),
        clockOffsetMs: optional(b, 'clockOffsetMs', isInt, 'ms'),
      });
      return { lock: cloud.lockState(lock) };
    }),
  );
  app.get('/sim/locks', (_req, reply) => handle(reply, () => ({ locks: Object.values(cloud.state.locks).map((l) => cloud.lockState(l)) })));
  app.get<{ Params: { lockId: string } }>('/sim/locks/:lockId', (req, reply) => handle(reply, () => ({ lock: cloud.lockState(lockOf(req.params.lockId)) })));
  // The lock deleted in the TTLock app (or reset): it leaves its account, with what the cloud kept of it.
  app.delete<{ Params: { lockId: string } }>('/sim/locks/:lockId', (req, reply) =>
    handle(reply, () => {
      const lock = lockOf(req.params.lockId);
      cloud.updateReachability(() => {
        delete cloud.state.locks[String(lock.lockId)];
      });
      return { deleted: lock.lockId };
    }),
  );
  app.patch<{ Params: { lockId: string } }>('/sim/locks/:lockId', (req, reply) =>
    handle(reply, () => {
      const lock = lockOf(req.params.lockId);
      const b = body(req.body);
      const online = optional(b, 'online', isBool, 'true or false');
      const battery = optional(b, 'battery', isInt, '0-100');
      const frozen = optional(b, 'frozen', isBool, 'true or false');
      const remoteUnlock = optional(b, 'remoteUnlock', isBool, 'true or false');
      const features = lockFeaturesOf(b);
      const latencyMs = optional(b, 'latencyMs', isNullableInt, 'ms or null');
      const clockOffsetMs = optional(b, 'clockOffsetMs', isInt, 'ms');
      const capacity = capacityOf(b);
      const name = optional(b, 'name', isString, 'text');
      if (battery !== undefined && (battery < 0 || battery > 100)) throw new ControlError(400, 'battery: 0-100');
      // A WiFi lock reaches the cloud without a gateway: its reachability changes with `wifi`.
      cloud.updateReachability(() => Object.assign(lock, features));
      if (lock.doorSensor) cloud.ensureDoorSensor(lock);
      // A WiFi lock that goes online or offline: TTLock's WiFi lock notify goes to the callback URL.
      const notified = online === undefined ? null : cloud.setLockOnline(lock, online);
      if (battery !== undefined) {
        lock.battery = battery;
        lock.batteryUpdatedAt = cloud.now();
      }
      if (frozen !== undefined) lock.frozen = frozen;
      if (remoteUnlock !== undefined) lock.remoteUnlock = remoteUnlock;
      if (latencyMs !== undefined) lock.latencyMs = latencyMs;
      if (clockOffsetMs !== undefined) lock.clockOffsetMs = clockOffsetMs;
      if (capacity) lock.capacity = { ...lock.capacity, ...capacity };
      if (name !== undefined) lock.lockAlias = name.startsWith('SIM') ? name : `SIM ${name}`;
      cloud.changed();
      return { lock: cloud.lockState(lock), notified };
    }),
  );
  app.post<{ Params: { lockId: string } }>('/sim/locks/:lockId/pair', (req, reply) =>
    handle(reply, () => {
      const lock = lockOf(req.params.lockId);
      const gatewayId = optional(body(req.body), 'gatewayId', isInt, 'a gateway id');
      if (gatewayId === undefined) throw new ControlError(400, 'gatewayId is required');
      checkPairing(cloud.ownerOf(lock), gatewayId);
      cloud.updateReachability(() => {
        if (!lock.gatewayIds.includes(gatewayId)) lock.gatewayIds.push(gatewayId);
      });
      return { lock: cloud.lockState(lock) };
    }),
  );
  app.post<{ Params: { lockId: string } }>('/sim/locks/:lockId/unpair', (req, reply) =>
    handle(reply, () => {
      const lock = lockOf(req.params.lockId);
      const gatewayId = optional(body(req.body), 'gatewayId', isInt, 'a gateway id');
      cloud.updateReachability(() => {
        lock.gatewayIds = gatewayId === undefined ? [] : lock.gatewayIds.filter((id) => id !== gatewayId);
      });
      return { lock: cloud.lockState(lock) };
    }),
  );

  // Failures

  app.post<{ Params: { lockId: string } }>('/sim/locks/:lockId/failures', (req, reply) =>
    handle(reply, () => {
      const lock = lockOf(req.params.lockId);
      cloud.setFailures(lock, [...lock.failures, failureOf(body(req.body))]);
      return { failures: lock.failures };
    }),
  );
  app.delete<{ Params: { lockId: string } }>('/sim/locks/:lockId/failures', (req, reply) =>
    handle(reply, () => {
      const lock = lockOf(req.params.lockId);
      cloud.setFailures(lock, []);
      return { failures: [] };
    }),
  );
  app.post('/sim/failures/next', (req, reply) =>
    handle(reply, () => {
      const b = body(req.body);
      const failure = failureOf(b);
      const lockId = optional(b, 'lockId', isInt, 'a lock id');
      const op = optional(b, 'op', isString, 'a TTLock path such as "keyboardPwd/add" or "oauth2/token"');
      const times = optional(b, 'times', isInt, 'how many calls') ?? 1;
      cloud.queueNextFailure({ code: failure.code, message: failure.message, op, lockId, times });
      return { next: cloud.pendingNextFailures() };
    }),
  );
  app.delete('/sim/failures/next', (_req, reply) =>
    handle(reply, () => {
      cloud.clearNextFailures();
      return { next: [] };
    }),
  );

  // At the door

  app.post<{ Params: { lockId: string } }>('/sim/locks/:lockId/use', (req, reply) =>
    handle(reply, () => {
      const lock = lockOf(req.params.lockId);
      const b = body(req.body);
      const passcode = optional(b, 'passcode', isString, 'digits');
      const cardNumber = optional(b, 'cardNumber', isString, 'digits');
      const cardUid = optional(
        b,
        'cardUid',
        (v): v is string => typeof v === 'string' && /^[0-9A-Fa-f]{8}$/.test(v),
        '8 hexadecimal characters (the card UID)',
      );
      const faceId = optional(b, 'faceId', isInt, 'a face id');
      const faceNumber = optional(b, 'faceNumber', isString, 'a face number');
      const card = b.card === undefined ? undefined : cardDumpOf(b.card);
      // A lock without a keypad, card reader or face module has nothing to take that credential with.
      const kind =
        passcode !== undefined
          ? 'passcode'
          : card !== undefined || cardUid !== undefined || cardNumber !== undefined
            ? 'card'
            : faceId !== undefined || faceNumber !== undefined
              ? 'face'
              : null;
      const lacking = {
        passcode: lock.keypad === false && 'keypad',
        card: lock.cardReader === false && 'card reader',
        face: lock.faceModule === false && 'face module',
      };
      if (kind && lacking[kind]) throw new ControlError(400, `lock ${lock.lockId} has no ${lacking[kind]}`);
      if (passcode !== undefined) return cloud.enterPasscode(lock, passcode);
      if (card !== undefined) return cloud.presentRoomCard(lock, card, cardNumber);
      if (cardUid !== undefined) return cloud.presentCardUid(lock, cardUid);
      if (cardNumber !== undefined) return cloud.presentCard(lock, cardNumber);
      if (faceId !== undefined || faceNumber !== undefined) return cloud.showFace(lock, { faceId, faceNumber });
      throw new ControlError(400, 'one of passcode, cardNumber, cardUid, card, faceId or faceNumber is required');
    }),
  );

  // The door sensor reports the door (TTLock's door sensor notify, notifyType 7)

  app.post<{ Params: { lockId: string } }>('/sim/locks/:lockId/door', (req, reply) =>
    handle(reply, () => {
      const lock = lockOf(req.params.lockId);
      const state = optional(body(req.body), 'state', isDoorState, "'closed', 'open', 'left_open' or 'left_open_long'");
      if (state === undefined) throw new ControlError(400, "state: 'closed', 'open', 'left_open' or 'left_open_long' is required");
      if (!lock.doorSensor) throw new ControlError(400, `lock ${lock.lockId} has no door sensor`);
      return cloud.reportDoor(lock, state);
    }),
  );

  // Drift: changes to the lock the cloud's caller did not make

  app.post<{ Params: { lockId: string } }>('/sim/locks/:lockId/drift', (req, reply) =>
    handle(reply, () => {
      const lock = lockOf(req.params.lockId);
      const b = body(req.body);
      const kind = optional(b, 'kind', isKind, 'passcode, card or face');
      if (!kind) throw new ControlError(400, 'kind: passcode, card or face');
      const action = b.action ?? 'plant';
      const cloudToo = optional(b, 'cloud', isBool, 'true or false');
      if (action === 'plant') {
        const entry = cloud.plantDrift(lock, {
          kind,
          code: optional(b, 'code', isString, 'digits'),
          cardNumber: optional(b, 'cardNumber', isString, 'digits'),
          featureData: optional(b, 'featureData', isString, 'hexadecimal'),
          name: optional(b, 'name', isString, 'text'),
          startDate: optional(b, 'startDate', isInt, 'ms'),
          endDate: optional(b, 'endDate', isNullableInt, 'ms or null'),
          cloud: cloudToo,
        });
        return { planted: entry };
      }
      if (action === 'remove') {
        const removed = cloud.removeDrift(lock, {
          kind,
          id: optional(b, 'id', isInt, 'the credential id'),
          code: optional(b, 'code', isString, 'digits'),
          cardNumber: optional(b, 'cardNumber', isString, 'digits'),
          cloud: cloudToo,
        });
        if (!removed) throw new ControlError(404, `no such ${kind} on the lock`);
        return { removed };
      }
      throw new ControlError(400, 'action: plant or remove');
    }),
  );
}
