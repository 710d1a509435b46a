/**
 * The connection string of the database a built server process started for itself (TALLY_DATA_DIR), read from its
 * start-up log, so a test can look at what the server stored the way an operator with database access would.
 */
import type { ServerProcess } from './serverProcess';

export function embeddedDatabaseUri(server: ServerProcess): string {
  for (const line of [...server.logs].reverse()) {
    if (line.msg === 'embedded mongod started' && typeof line.uri === 'string') return line.uri;
    if (/^embedded FerretDB (re)?started$/.test(line.msg ?? '') && typeof line.port === 'number') {
      return `mongodb://127.0.0.1:${line.port}/`;
    }
  }
  throw new Error('the server logged no embedded database start: was it started with MONGODB_URI?');
}
