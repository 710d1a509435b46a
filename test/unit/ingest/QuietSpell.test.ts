import { QuietSpell } from '../../../src/ingest/QuietSpell';

/** Arrivals at the given instants (ms), then `needed` asked at `at`. */
function neededAfter(arrivals: readonly number[], at: number, idleMs = 1_000, lookbackMs = 10_000): number {
  const spell = new QuietSpell(idleMs, lookbackMs);
  for (const time of arrivals) spell.arrived(time);
  return spell.needed(at);
}

describe('QuietSpell', () => {
  it.each([
    ['no arrival yet: a quarter of idleMs', [], 0, 250],
    ['one arrival: no gap, a quarter', [1_000], 1_100, 250],
    ['a burst 5 ms apart: a quarter', [0, 5, 10, 15, 20], 30, 250],
    ['gaps of 200 ms: twice them', [0, 200, 400, 600], 700, 400],
    ['the largest gap counts: 300 among 100s', [0, 100, 400, 500, 600], 700, 600],
    ['gaps of 600 ms: capped at idleMs', [0, 600, 1_200], 1_300, 1_000],
    ['a gap of idleMs or more is left out', [0, 5_000, 5_010, 5_020], 5_100, 250],
    ['a gap just under idleMs counts', [0, 999], 1_000, 1_000],
  ])('%s', (_what, arrivals, at, expected) => {
    expect(neededAfter(arrivals, at)).toBe(expected);
  });

  it('remembers a gap for one lookback at least, and forgets it after two', () => {
    // A 300-ms gap at the start of a 10-s lookback.
    const arrivals = [0, 300];
    expect(neededAfter(arrivals, 9_999)).toBe(600);
    expect(neededAfter(arrivals, 10_000)).toBe(600);
    expect(neededAfter(arrivals, 19_999)).toBe(600);
    expect(neededAfter(arrivals, 20_000)).toBe(250);
    // Asked only once the span rotated: the gap from the earlier span is still remembered, then forgotten.
    const spell = new QuietSpell(1_000, 10_000);
    spell.arrived(0);
    spell.arrived(300);
    expect(spell.needed(12_000)).toBe(600);
    expect(spell.needed(22_000)).toBe(250);
  });

  it('seals at most two windows per lookback sooner than a fixed idleMs would', () => {
    // An adversary's traffic: after each early seal, the next arrival comes just as the quiet spell is met. Every
    // quiet spell shorter than idleMs is an extra seal; they must double, so only a quarter and a half fit.
    const spell = new QuietSpell(1_000, 10_000);
    let now = 0;
    spell.arrived(now);
    const early: number[] = [];
    while (now < 9_000) {
      const needed = spell.needed(now);
      if (needed < 1_000) early.push(needed);
      now += needed;
      spell.arrived(now);
    }
    expect(early).toEqual([250, 500]);
  });
});
