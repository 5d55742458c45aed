/**
 * `@console/reader-sim`: simulators of the three local card-reader services a hotel's desk runs
 * (type 1 HTTP on 13570, type 2 USB bridge on 8765, type 3 WebSocket on 39002), one simulated
 * MIFARE Classic 1K encoder with a fingerprint module and a card dispenser behind them, and a
 * control API. Nothing behind it is real hardware. Protocols: docs/readers.md.
 */
export { startReaderSim, READER_PORTS, FREE_PORTS, type ReaderSim, type ReaderSimOptions, type ReaderSimPorts, type ServiceName } from './server';
export { ReaderDevice } from './device';
export { DeviceError, DEVICE, STATUS_TEXT, type DeviceStatus, type InjectedFailure } from './device-status';
export { TYPE1_RETVAL } from './type1';
export { TYPE2_ERRNO } from './type2';
export { TYPE2_CMD, TYPE2_STATUS, KEY_A, KEY_B, encodeCommand, encodeAnswer, decodeCommand } from './frame';
export { TYPE3_CODE } from './type3';
export * as mifare from './mifare';
export type { ReaderSimState, SimCard } from './state';
export { ReaderSimControl, type CardDump } from './control-client';
