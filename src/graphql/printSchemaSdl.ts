/** The SDL committed as schema/schema.graphql: printed from the code so it can never drift unnoticed. */
import { lexicographicSortSchema, printSchema } from 'graphql';
import { buildSchema } from './buildSchema';

export const SCHEMA_HEADER = '# Generated from src/graphql by `npm run schema`. Do not edit.\n\n';

export function printSchemaSdl(): string {
  return `${SCHEMA_HEADER}${printSchema(lexicographicSortSchema(buildSchema()))}\n`;
}
