/** What a started embedded server gives back: where to connect, what it is, and how to stop it. */
export interface EmbeddedDatabase {
  readonly uri: string;
  readonly engine: 'mongod' | 'ferretdb';
  stop(): Promise<void>;
}
