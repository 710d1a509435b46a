/** Test helper: the sketch of visitors from..to−1 of one deterministic stream (splitmix64 with `seed`). */
import { splitmix64 } from '../../../../src/domain/visitors/splitmix64';
import { VisitorSketch } from '../../../../src/domain/visitors/VisitorSketch';

export function sketchOf(precision: number, seed: number, from: number, to: number): VisitorSketch {
  const sketch = VisitorSketch.empty(precision);
  for (let visitor = from; visitor < to; visitor++) sketch.add(splitmix64(seed, visitor));
  return sketch;
}
