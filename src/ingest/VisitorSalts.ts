/**
 * The salt of the current period for cookieless beacon visitors, kept in memory while the period lasts: one read of
 * `visitors.salts` per period and process (every instance reads back the same salt), and the sweep that deletes the
 * salts of periods that are over, so their hashes can no longer be linked to anyone.
 */
import type { VisitorSaltStore } from '../store/VisitorSaltStore';
import { saltPeriod } from './saltPeriod';
import type { SaltPeriod, SaltRotation } from './saltPeriod';

export class VisitorSalts {
  private current: { readonly period: SaltPeriod; readonly salt: Promise<Uint8Array> } | undefined;

  constructor(
    private readonly store: Pick<VisitorSaltStore, 'salt' | 'deleteAllBut'>,
    readonly rotation: SaltRotation,
  ) {}

  /** The salt for a hit at `now`; concurrent callers share one read, and a failed read is not kept. */
  saltFor(now: number): Promise<Uint8Array> {
    const current = this.current;
    if (current !== undefined && now >= current.period.from && now < current.period.until) return current.salt;
    const period = saltPeriod(this.rotation, now);
    const salt = this.store.salt(period.id, now);
    const entry = { period, salt };
    this.current = entry;
    salt.catch(() => {
      if (this.current === entry) this.current = undefined;
    });
    return salt;
  }

  /** Deletes every salt but the current period's (at start and periodically); resolves with how many went. */
  sweep(now: number): Promise<number> {
    return this.store.deleteAllBut(saltPeriod(this.rotation, now).id);
  }
}
