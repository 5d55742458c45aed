/** The simulated TTLock cloud (LockCloud) and what its callers use of it, from the files of its areas. */
export { LockCloud } from './control';
export {
  beijingMonth,
  CARD_DENYLIST_CAPACITY,
  DEFAULT_TIMEZONE_RAW_OFFSET,
  FEATURE_BIT,
  featureValueOf,
  RECORD,
  reverseCardNumber,
  roomCardTag,
  type Params,
  type SimCall,
  type UseOutcome,
} from './core';
export { cardNumberFromUid } from './door';
export { CARD_KEY_SETS_PER_LOCK } from './room-card';
