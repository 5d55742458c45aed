/**
 * `@console/lock-sim`: a simulator of the TTLock Open API v3 (the subset the server's TTLock
 * adapter speaks), with a control API under `/sim/...`. Nothing behind it is a real lock.
 */
export { startLockSim, SIM_DEFAULTS, type LockSim, type LockSimOptions } from './server';
export {
  beijingMonth,
  CARD_DENYLIST_CAPACITY,
  CARD_KEY_SETS_PER_LOCK,
  cardNumberFromUid,
  DEFAULT_TIMEZONE_RAW_OFFSET,
  FEATURE_BIT,
  featureValueOf,
  LockCloud,
  RECORD,
  reverseCardNumber,
  roomCardTag,
  type SimCall,
  type UseOutcome,
} from './cloud';
export { TT, TtlockError } from './errors';
export { callbackFields, doorSensorNotifyFields, DOOR_RECORD_TYPE, gatewayNotifyFields, wifiLockNotifyFields, type CallbackDelivery } from './callback';
export { isTooSimple, floorToLocalHour } from './passcodes';
export { simFaceFeatureData, isSimFeatureDataFor, FACE_PHOTO_MAX_BYTES } from './faces';
export type {
  SimState,
  SimAccount,
  SimAccountKind,
  SimRegion,
  SimLock,
  SimGateway,
  SimPasscode,
  SimCard,
  SimFace,
  SimRecord,
  SimHotelCard,
  SimCardKey,
  SimDoorSensor,
  SimDoorState,
  CardNumberOrder,
  RandomPeriod,
  InjectedFailure,
} from './state';
/** Helpers for tests that drive the simulator: a bare TTLock client with the control API, and a callback receiver. */
export { SimClient, startReceiver } from './test-client';
