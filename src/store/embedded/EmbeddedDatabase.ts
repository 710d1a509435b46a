/** What a started embedded server gives back: where to connect, what it is, and how to stop it. */
export interface EmbeddedDatabase {
  readonly uri: string;
  readonly engine: 'mongod' | 'ferretdb';
  /** The server's process id when we started it as a child (the benchmarks read its CPU time). */
  readonly pid?: number;
  stop(): Promise<void>;
}
