import { registerCardDelivery } from './modules/cards/card-delivery';
import { registerCheckOut } from './modules/orders/settlement.service';
import { checkOut } from './modules/stays/check-out';

/**
 * What a module lower in the layers calls of one above it, registered with it (issue 27,
 * docs/decisions/042-one-credential-writer.md): credentials carries cards' kinds to the locks, and a
 * settlement with check-out runs the stay's check-out. createDeps calls it in every process (the
 * API, the worker, the export thread, tests); registering twice is harmless.
 */
export function wireModules(): void {
  registerCardDelivery();
  registerCheckOut(checkOut);
}
