/** Writes schema/schema.graphql from the code (`npm run schema`). A unit test fails when it is stale. */
import fs from 'node:fs';
import path from 'node:path';
import { printSchemaSdl } from '../src/graphql/printSchemaSdl';
import { projectRoot } from '../src/projectRoot';

const file = path.join(projectRoot(), 'schema', 'schema.graphql');
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(file, printSchemaSdl());
console.log(`wrote ${path.relative(process.cwd(), file)}`);
