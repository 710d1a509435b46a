import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../../../src/projectRoot';
import {
  FORMAT_BUILDS,
  ferretdbBuild,
  ferretdbDowngradeRefusal,
  readableAfterStart,
  readableFrom,
} from '../../../../src/store/embedded/ferretdbDataFormat';

/** The tag of the build this checkout makes, as scripts/ensure-ferretdb.js names it (read, not run). */
const PATCH_TAG = /const PATCH_TAG = '([^']+)'/.exec(
  fs.readFileSync(path.join(projectRoot(), 'scripts', 'ensure-ferretdb.js'), 'utf8'),
)?.[1];

describe('ferretdbBuild', () => {
  test.each([
    ['v1.24.2-tally21', 21],
    ['1.24.2-tally9', 9],
    ['v1.24.2', 0],
    ['v2.0.0', 0],
    ['v1.24.2-dev', undefined],
    ['db version v8.0.4', undefined],
    [undefined, undefined],
  ])('%s → %s', (version, build) => {
    expect(ferretdbBuild(version)).toBe(build);
  });
});

describe('readableFrom: the oldest build that reads what a build wrote', () => {
  test.each([
    [0, 0],
    [13, 0],
    [14, 14],
    [15, 14],
    [16, 16],
    [20, 16],
    [21, 21],
    [22, 22],
    [99, 22],
  ])('tally%i → tally%i', (build, oldest) => {
    expect(readableFrom(build)).toBe(oldest);
  });

  it('the build this checkout makes reads its own data (a format change raises PATCH_TAG, not the other way round)', () => {
    const build = ferretdbBuild(`v1.24.2-${PATCH_TAG ?? '(none found)'}`) as number;
    expect(build).toBeGreaterThanOrEqual(FORMAT_BUILDS[FORMAT_BUILDS.length - 1] as number);
    expect(readableFrom(build)).toBeLessThanOrEqual(build);
  });
});

describe('ferretdbDowngradeRefusal', () => {
  test.each([
    [{ lastVersion: 'v1.24.2-tally21' }, 'v1.24.2-tally21', false],
    [{ lastVersion: 'v1.24.2-tally20' }, 'v1.24.2-tally21', false],
    [{ lastVersion: 'v1.24.2-tally23' }, 'v1.24.2-tally22', false],
    [{ lastVersion: 'v1.24.2-tally22' }, 'v1.24.2-tally21', true],
    [{ lastVersion: 'v1.24.2-tally15' }, 'v1.24.2-tally14', false],
    [{ lastVersion: 'v1.24.2' }, 'v1.24.2-tally10', false],
    [{ lastVersion: 'v1.24.2-tally21' }, 'v1.24.2-tally20', true],
    [{ lastVersion: 'v1.24.2-tally16' }, 'v1.24.2-tally15', true],
    [{ lastVersion: 'v1.24.2-tally14' }, 'v1.24.2', true],
    // A later build's own figure, for a form this code cannot know of.
    [{ lastVersion: 'v1.24.2-tally30', readableFrom: 30 }, 'v1.24.2-tally29', true],
    [{ lastVersion: 'v1.24.2-tally30', readableFrom: 30 }, 'v1.24.2-tally30', false],
    [{ readableFrom: 21 }, 'v1.24.2-tally20', true],
    [{}, 'v1.24.2-tally10', false],
    [{ lastVersion: 'v1.24.2-tally21' }, undefined, false],
    [{ lastVersion: 'something else' }, 'v1.24.2-tally10', false],
  ])('data written by %j, started with %s: refused %s', (written, running, refused) => {
    expect(ferretdbDowngradeRefusal('/data', written, running) !== undefined).toBe(refused);
  });

  it('says which build wrote the data, which builds read it, which one this is, and what to do', () => {
    expect(ferretdbDowngradeRefusal('/data', { lastVersion: 'v1.24.2-tally22' }, 'v1.24.2-tally20')).toBe(
      "the data in /data was last written by FerretDB v1.24.2-tally22, in a form only tally's builds from tally22 " +
        'on read, and this one is FerretDB v1.24.2-tally20: start it with the tally that wrote it or a later one, ' +
        'or set TALLY_DATA_DIR to another directory to start afresh',
    );
  });
});

describe('readableAfterStart: what the record says once a build started on the data', () => {
  test.each([
    [undefined, 'v1.24.2-tally21', 21],
    [undefined, 'v1.24.2-tally22', 22],
    [undefined, 'v1.24.2-tally13', 0],
    [undefined, 'v1.24.2', 0],
    [undefined, undefined, 0],
    [{ lastVersion: 'v1.24.2-tally16' }, 'v1.24.2-tally21', 21],
    [{ lastVersion: 'v1.24.2-tally16' }, 'v1.24.2-tally20', 16],
    [{ lastVersion: 'v1.24.2-tally30', readableFrom: 30 }, 'v1.24.2-tally31', 30],
    [{ readableFrom: 16 }, undefined, 16],
  ])('written by %j, then %s started: %i', (written, running, figure) => {
    expect(readableAfterStart(written, running)).toBe(figure);
  });
});
