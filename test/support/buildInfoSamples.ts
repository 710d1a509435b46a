/**
 * `buildInfo` as each supported server answers it, trimmed to what detection may read: MongoDB, tally's patched
 * FerretDB build and the stock one (the FerretDB answers recorded from the builds scripts/ensure-ferretdb.js makes).
 */
export const MONGODB_BUILD_INFO = {
  version: '7.0.14',
  gitVersion: 'ce59cfc6a3c5e5c067dca0d30697edd68d4f5188',
  modules: [],
  ok: 1,
};

export const PATCHED_FERRETDB_BUILD_INFO = {
  version: '7.0.42',
  gitVersion: 'unknown',
  modules: [],
  ferretdbVersion: 'v1.24.2-tally6',
  ferretdbFeatures: { aggregationStages: ['$group', '$match'] },
  ok: 1,
};

/** tally's build from tally18 on: its updates take turns per collection (patch 20). */
export const ATOMIC_FERRETDB_BUILD_INFO = { ...PATCHED_FERRETDB_BUILD_INFO, ferretdbVersion: 'v1.24.2-tally18' };

export const STOCK_FERRETDB_BUILD_INFO = { ...PATCHED_FERRETDB_BUILD_INFO, ferretdbVersion: 'v1.24.2' };
