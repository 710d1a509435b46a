/** Types of applyPatches.js (plain JavaScript: it runs at install, before TypeScript is compiled). */
export interface PatchedFile {
  readonly path: string;
  readonly created: boolean;
  readonly hunks: ReadonlyArray<{ readonly header: string }>;
}
export function seriesFiles(dir?: string): string[];
export function parsePatch(text: string, name: string): PatchedFile[];
export function applyPatch(src: string, patchFile: string): void;
export function applySeries(src: string, dir?: string): string[];
