/**
 * Which embedded engine a start uses, decided from facts gathered beforehand (no I/O here): the data directory's
 * record decides, so `auto` never starts an empty engine beside data kept by the other one (issue 30).
 */
import type { EmbeddedEngine } from './EmbeddedDatabase';
import type { EngineName, EngineRecord } from './EngineRecord';
import { engineLabel } from './EngineRecord';

/** The command that moves embedded data to a MongoDB server (`src/cli`). */
export const MIGRATE_COMMAND = 'tally migrate --to URI';

export interface EngineFacts {
  readonly requested: EmbeddedEngine;
  /** The data directory; undefined for a temporary one (tests), which records nothing. */
  readonly dataDir: string | undefined;
  /** What `engine.json` says, if it exists. */
  readonly recorded: EngineRecord | undefined;
  /** Without a record: the modification time of each engine's folder that holds files (data from before records). */
  readonly legacy: Readonly<Partial<Record<EngineName, number>>>;
  /** A mongod that can run without a download: on PATH or downloaded before. */
  readonly mongodInstalled: { readonly path: string; readonly version: string | undefined } | undefined;
  /** A mongod download may be tried (none failed within the last day). */
  readonly mongodDownloadDue: boolean;
}

export type EngineChoice =
  | {
      readonly start: EngineName;
      /**
       * When the start fails: `ferretdb` starts FerretDB instead (no data anywhere yet), `refuse` refuses to start
       * (mongod holds the data), `fail` fails with the start's own error (an explicit engine on new data).
       */
      readonly otherwise: 'ferretdb' | 'refuse' | 'fail';
      /** Write `engine.json` once the engine is up (there is none yet). */
      readonly record: boolean;
      /** Logged at info: how data from before records was recognised. */
      readonly recognised?: string;
      /** Logged at warn: the other engine is available, the data stays where it is, and how to move it. */
      readonly hint?: string;
    }
  | { readonly refuse: string };

export function chooseEngine(facts: EngineFacts): EngineChoice {
  const { requested, dataDir } = facts;
  const holder = facts.recorded ?? legacyHolder(facts.legacy);
  if (dataDir === undefined || holder === undefined) {
    const record = dataDir !== undefined;
    if (requested !== 'auto') return { start: requested, otherwise: 'fail', record };
    const tryMongod = facts.mongodInstalled !== undefined || facts.mongodDownloadDue;
    return tryMongod
      ? { start: 'mongod', otherwise: 'ferretdb', record }
      : { start: 'ferretdb', otherwise: 'fail', record };
  }
  const held = `${engineLabel(holder.engine)}${holder.version === undefined ? '' : ` ${holder.version}`}`;
  if (requested !== 'auto' && requested !== holder.engine) {
    return {
      refuse:
        `TALLY_EMBEDDED_ENGINE=${requested} does not match the data in ${dataDir}, which ${held} holds: ` +
        `start with TALLY_EMBEDDED_ENGINE=${holder.engine} (or auto), or move the data with \`${MIGRATE_COMMAND}\``,
    };
  }
  const other: EngineName = holder.engine === 'mongod' ? 'ferretdb' : 'mongod';
  const recognised =
    facts.recorded === undefined
      ? `${dataDir} has no engine record (data from before records): its folder ${holder.engine}/ says ` +
        `${engineLabel(holder.engine)} holds it` +
        (facts.legacy[other] === undefined ? '' : ` (written last; ${other}/ is left as it is)`)
      : undefined;
  const installed = facts.mongodInstalled;
  const hint =
    holder.engine === 'ferretdb' && installed !== undefined
      ? `mongod${installed.version === undefined ? '' : ` ${installed.version}`} is available (${installed.path}), ` +
        `but the data in ${dataDir} is held by ${held}, which tally keeps using; ` +
        `\`${MIGRATE_COMMAND}\` moves it to a MongoDB server`
      : undefined;
  return {
    start: holder.engine,
    otherwise: holder.engine === 'mongod' ? 'refuse' : 'fail',
    record: facts.recorded === undefined,
    ...(recognised === undefined ? {} : { recognised }),
    ...(hint === undefined ? {} : { hint }),
  };
}

/** The refusal when mongod holds the data but none can be started. */
export function mongodGoneMessage(dataDir: string, version: string | undefined, reason: string): string {
  const held = `mongod${version === undefined ? '' : ` ${version}`}`;
  return (
    `the data in ${dataDir} is held by ${held}, and no mongod could be started (${reason}): ` +
    'put mongod on PATH, or set TALLY_DATA_DIR to another directory to start afresh'
  );
}

/**
 * Data from before records: the one engine folder that holds files; if both do (the silent switch this record
 * ends), the one written last, which is what the user saw last.
 */
function legacyHolder(legacy: EngineFacts['legacy']): EngineRecord | undefined {
  const { ferretdb, mongod } = legacy;
  if (ferretdb === undefined && mongod === undefined) return undefined;
  if (mongod === undefined) return { engine: 'ferretdb' };
  if (ferretdb === undefined) return { engine: 'mongod' };
  return { engine: mongod >= ferretdb ? 'mongod' : 'ferretdb' };
}
