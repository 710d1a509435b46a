/** What a started embedded server gives back: where to connect, what it is, and how to stop it. */
/** Which server `npm start` starts when MONGODB_URI is unset: `auto` prefers a mongod on PATH, else FerretDB. */
export type EmbeddedEngine = 'auto' | 'mongod' | 'ferretdb';

export interface EmbeddedDatabase {
  readonly uri: string;
  readonly engine: 'mongod' | 'ferretdb';
  /** What the server binary reports for `--version`, if anything. */
  readonly version?: string | undefined;
  /** Where the server keeps its files; undefined for a temporary directory. */
  readonly dataDir?: string | undefined;
  /** The server process's id now (it changes when a supervised server is restarted). */
  readonly pid?: () => number | undefined;
  stop(): Promise<void>;
}
