import type { TSharedDoorKind } from '@console/shared';
import type { TCredentialDoor } from '@console/shared/dto';
import { lockDisplayName } from './lock-ref';

/** What a credential's DTO says of the shared door it is on (docs/shared-doors.md). */
export type CredentialDoorDto = TCredentialDoor;

export const DOOR_SELECT = { id: true, name: true, alias: true, sharedKind: true, providerLockId: true } as const;

export function doorDto(lock: { id: number; name: string; alias: string; sharedKind: TSharedDoorKind | null } | null): CredentialDoorDto | null {
  return lock ? { lockId: lock.id, name: lockDisplayName(lock), kind: lock.sharedKind } : null;
}
