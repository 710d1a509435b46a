/** What a started embedded server gives back: where to connect, what it is, and how to stop it. */
export interface EmbeddedDatabase {
  readonly uri: string;
  readonly engine: 'mongod' | 'ferretdb';
  /** Where the server keeps its files; undefined for a temporary directory. */
  readonly dataDir?: string | undefined;
  /** The server process's id now (it changes when a supervised server is restarted). */
  readonly pid?: () => number | undefined;
  stop(): Promise<void>;
}
