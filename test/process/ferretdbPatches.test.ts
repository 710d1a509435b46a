/**
 * CI's run of the FerretDB patch series with Go's own tools: `node scripts/ensure-ferretdb.js --test-patches` applies
 * scripts/ferretdb/patches/ to a copy of FerretDB 1.24.2's source, checks every patched file with `gofmt -l`, runs
 * `go vet` on the packages the series touches and their own `go test` with tally's tests (scripts/ferretdb/tests/)
 * beside them. In this tier because it runs the Go toolchain for a minute or two (module proxy for the test
 * dependencies), which the unit tier must not.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../../src/projectRoot';

const goInstalled = (process.env.PATH ?? '')
  .split(path.delimiter)
  .some((dir) => dir !== '' && fs.existsSync(path.join(dir, 'go')));

// Without Go there is no FerretDB build to check (such machines use a mongod); the skip says so in the summary.
const itWithGo = goInstalled ? it : it.skip;

describe('the FerretDB patch series', () => {
  itWithGo(
    'is formatted, passes go vet and the patched packages’ tests (skipped without Go: nothing is built then)',
    async () => {
      const script = path.join(projectRoot(), 'scripts', 'ensure-ferretdb.js');
      const { stdout } = await promisify(execFile)(process.execPath, [script, '--test-patches'], {
        cwd: projectRoot(),
        maxBuffer: 16 * 1024 * 1024,
      });
      expect(stdout).toMatch(/^gofmt: \d+ patched files formatted$/m);
      expect(stdout).toMatch(/^go vet: .* ok$/m);
      for (const pkg of [
        'internal/handler/sjson',
        'internal/types',
        'internal/handler',
        'internal/handler/common',
        'internal/backends/sqlite',
        'internal/util/resource',
      ]) {
        expect(stdout).toMatch(new RegExp(`^ok\\s+github\\.com/FerretDB/FerretDB/${pkg}\\s`, 'm'));
      }
    },
    300_000,
  );
});
