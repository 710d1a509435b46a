import fs from 'node:fs';
import path from 'node:path';
import { printSchemaSdl } from '../../../src/graphql/printSchemaSdl';

describe('schema/schema.graphql', () => {
  it('matches the schema built from the code (run `npm run schema` after changing a type)', () => {
    const committed = fs.readFileSync(path.join(__dirname, '../../../schema/schema.graphql'), 'utf8');
    expect(committed).toBe(printSchemaSdl());
  });
});
