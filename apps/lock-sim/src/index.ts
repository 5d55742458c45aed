/**
 * `@console/lock-sim`: a simulator of the TTLock Open API v3 (the subset the server's TTLock
 * adapter speaks), with a control API under `/sim/...`. Nothing behind it is a real lock.
 */
export { startLockSim, SIM_DEFAULTS, type LockSim, type LockSimOptions } from './server';
export { CARD_DENYLIST_CAPACITY, CARD_KEY_SETS_PER_LOCK, LockCloud, RECORD, roomCardTag, type UseOutcome } from './cloud';
export { TT, TtlockError } from './errors';
export { callbackFields, type CallbackDelivery } from './callback';
export { isTooSimple } from './passcodes';
export { simFaceFeatureData, isSimFeatureDataFor, FACE_PHOTO_MAX_BYTES } from './faces';
export type { SimState, SimLock, SimGateway, SimPasscode, SimCard, SimFace, SimRecord, SimHotelCard, SimCardKey, InjectedFailure } from './state';
/** Helpers for tests that drive the simulator: a bare TTLock client with the control API, and a callback receiver. */
export { SimClient, startReceiver } from './test-client';
