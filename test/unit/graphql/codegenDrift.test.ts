import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.join(__dirname, '../../..');

// The codegen CLI loads ES-module-only dependencies that Jest's CommonJS runtime cannot require on Node 20,
// so it runs in a plain Node child process and hands its outputs back as JSON without writing them.
const GENERATE = `
const { generate, loadCodegenConfig } = require('@graphql-codegen/cli');
(async () => {
  const { config } = await loadCodegenConfig({ configFilePath: 'codegen.yml' });
  const outputs = await generate({ ...config, cwd: process.cwd(), silent: true }, false);
  process.stdout.write(JSON.stringify(outputs.map((o) => ({ filename: o.filename, content: o.content }))));
})().catch((error) => { console.error(error); process.exit(1); });
`;

describe('codegen output', () => {
  it('matches test/generated and web/dashboard/generated (run `npm run codegen` after changing the schema or the operations)', () => {
    const stdout = execFileSync(process.execPath, ['-e', GENERATE], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    const outputs = JSON.parse(stdout) as Array<{ filename: string; content: string }>;
    // The tests' operations, and the dashboard's: a frontend typed by the same schema.
    expect(outputs.map((o) => o.filename).sort()).toEqual([
      'test/generated/graphql.ts',
      'web/dashboard/generated/graphql.ts',
    ]);
    for (const output of outputs) {
      expect(fs.readFileSync(path.resolve(root, output.filename), 'utf8')).toBe(output.content);
    }
  });
});
