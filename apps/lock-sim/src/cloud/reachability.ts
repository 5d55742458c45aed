import { TT, ttError } from '../errors';
import type { SimGateway, SimLock } from '../state';
import { MINUTE } from './core';
import { OAuthCloud } from './oauth';

/** A gateway's link to a lock is kept 30 minutes after it last heard the lock (gateway/listByLock). */
const GATEWAY_LINK_TTL_MS = 30 * MINUTE;

/** Gateways: which reach a lock, how long a write through them takes, when they are busy (a layer of LockCloud: see core.ts). */
export class ReachabilityCloud extends OAuthCloud {
  /** The lock can talk to the cloud now: a WiFi lock when it is online, any other through an online gateway of its owner. */
  protected reachable(lock: SimLock): boolean {
    if (lock.wifi) return lock.online;
    return lock.online && this.pairedGateways(lock).some((g) => g.online);
  }

  /** Gateways paired with the lock that belong to its owner (TTLock links only those), best first. */
  private pairedGateways(lock: SimLock): SimGateway[] {
    return lock.gatewayIds
      .map((id) => this.state.gateways[String(id)])
      .filter((g): g is SimGateway => g !== undefined && this.ownerOf(g) === this.ownerOf(lock));
  }

  seenAt(lock: SimLock): number {
    return this.reachable(lock) ? this.now() : lock.lastSeenAt;
  }

  /** Gateways that still count as linked to the lock (heard it within 30 minutes), best first. */
  gatewaysInRange(lock: SimLock): SimGateway[] {
    if (this.now() - this.seenAt(lock) >= GATEWAY_LINK_TTL_MS) return [];
    return this.pairedGateways(lock);
  }

  private defaultLatency(): number {
    const l = this.options.latencyMs;
    if (typeof l === 'number') return l;
    return l[0] + Math.random() * (l[1] - l[0]);
  }

  /**
   * The radio's time for one command to the lock. A lock's own latency is read again while the
   * command waits: a test holds a lock's answer with a long one and lets it go by setting it back
   * (null: the cloud's), and the command then ends at once instead of sleeping out the old value.
   */
  private async radio(lock: SimLock): Promise<void> {
    const start = Date.now();
    const fallback = this.defaultLatency();
    for (;;) {
      const left = (lock.latencyMs ?? fallback) - (Date.now() - start);
      if (left <= 0) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(left, 50)));
    }
  }

  setLatency(latency: number | [number, number]): void {
    this.options.latencyMs = latency;
  }

  setGatewayForcedBusy(gatewayId: number, busy: boolean): void {
    if (busy) this.forcedBusyGateways.add(gatewayId);
    else this.forcedBusyGateways.delete(gatewayId);
  }

  gatewayBusy(gatewayId: number): boolean {
    return this.busyGateways.has(gatewayId) || this.forcedBusyGateways.has(gatewayId);
  }

  /**
   * A command to the lock through its best gateway: -2012 with no gateway in range, -3002 when
   * they are all offline, -3003 while that gateway carries another command, then the latency of
   * the radio, then -3036 if the lock does not answer. `apply` runs when the lock has answered.
   */
  protected async throughGateway<T>(lock: SimLock, apply: () => T): Promise<T> {
    if (lock.frozen) throw ttError(TT.LOCK_FROZEN);
    if (lock.wifi) return this.toWifiLock(lock, apply);
    const inRange = this.gatewaysInRange(lock);
    if (inRange.length === 0) throw ttError(TT.NO_GATEWAY);
    const gateway = inRange.find((g) => g.online);
    if (!gateway) throw ttError(TT.GATEWAY_OFFLINE);
    if (this.gatewayBusy(gateway.gatewayId)) throw ttError(TT.GATEWAY_BUSY);
    this.busyGateways.add(gateway.gatewayId);
    try {
      await this.radio(lock);
      if (this.state.locks[String(lock.lockId)] !== lock) throw ttError(TT.LOCK_NOT_EXIST);
      if (!lock.online) throw ttError(TT.LOCK_OFFLINE);
      lock.lastSeenAt = this.now();
      const result = apply();
      this.changed();
      return result;
    } finally {
      this.busyGateways.delete(gateway.gatewayId);
    }
  }

  /** A WiFi lock takes the command itself: no gateway, the same latency, -3036 when it is offline. */
  private async toWifiLock<T>(lock: SimLock, apply: () => T): Promise<T> {
    await this.radio(lock);
    if (this.state.locks[String(lock.lockId)] !== lock) throw ttError(TT.LOCK_NOT_EXIST);
    if (!lock.online) throw ttError(TT.LOCK_OFFLINE);
    lock.lastSeenAt = this.now();
    const result = apply();
    this.changed();
    return result;
  }
}
