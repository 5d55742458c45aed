import type { GatewayLink, GatewaySummary } from '../provider';
import { list, num, str, PAGE } from './http';
import type { TtlockSession } from './oauth';

/** Gateways: the account's, and the locks each one hears. */

export async function listGateways(s: TtlockSession): Promise<GatewaySummary[]> {
  const items = await s.all('gateway/list', {}, PAGE.gateways, (i) => i.gatewayId);
  return items
    .map((g) => ({
      gatewayId: str(g.gatewayId),
      name: str(g.gatewayName),
      mac: str(g.gatewayMac),
      online: num(g.isOnline) === 1,
      lockCount: num(g.lockNum) ?? 0,
    }))
    .filter((g) => g.gatewayId !== '');
}

export async function gatewayLocks(s: TtlockSession, gatewayId: string): Promise<GatewayLink[]> {
  const answer = await s.call('gateway/listLock', { gatewayId }, 'GET');
  return list(answer)
    .map((l) => {
      const seen = num(l.updateDate);
      return { lockId: str(l.lockId), rssi: num(l.rssi), seenAt: seen !== null && seen > 0 ? new Date(seen) : null };
    })
    .filter((l) => l.lockId !== '');
}
