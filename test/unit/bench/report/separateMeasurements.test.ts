import fs from 'node:fs';
import path from 'node:path';
import { separateMeasurements } from '../../../../bench/report/writeReport';

const DOCS = path.join(__dirname, '..', '..', '..', '..', 'docs');

describe('docs/benchmarks.md', () => {
  // Regenerating the report (npm run bench) keeps only what docs/benchmarks/*.md hold after the generated part: a
  // section written into docs/benchmarks.md alone would be lost then.
  it('ends with the separately measured sections exactly as docs/benchmarks/*.md hold them', () => {
    const report = fs.readFileSync(path.join(DOCS, 'benchmarks.md'), 'utf8');
    const appended = separateMeasurements(DOCS);
    expect(appended.length).toBeGreaterThan(0);
    expect(report.endsWith(appended)).toBe(true);
  });
});
