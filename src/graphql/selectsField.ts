/**
 * Whether a resolver's field selects a sub-field at some path (`['points', 'visitors']`), through aliases, inline
 * fragments and named fragments. Used to read costly fields (visitor sketches) only for queries that show them. A
 * field under @skip or @include counts as selected: reading too much is safe, reading too little is not.
 */
import type { FragmentDefinitionNode, GraphQLResolveInfo, SelectionSetNode } from 'graphql';
import { Kind } from 'graphql';

export type SelectionInfo = Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>;

/** True when any of `paths` is selected below the resolver's field. */
export function selectsField(info: SelectionInfo, paths: ReadonlyArray<readonly string[]>): boolean {
  const roots = info.fieldNodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
  return paths.some((path) => reaches(roots, path, info.fragments));
}

function reaches(
  sets: readonly SelectionSetNode[],
  path: readonly string[],
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
): boolean {
  const [name, ...rest] = path;
  if (name === undefined) return true;
  const next: SelectionSetNode[] = [];
  let found = false;
  const visit = (set: SelectionSetNode, seen: Set<string>): void => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value !== name) continue;
        found = true;
        if (selection.selectionSet) next.push(selection.selectionSet);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        visit(selection.selectionSet, seen);
      } else {
        const fragment = fragments[selection.name.value];
        if (fragment && !seen.has(fragment.name.value))
          visit(fragment.selectionSet, new Set([...seen, fragment.name.value]));
      }
    }
  };
  for (const set of sets) visit(set, new Set());
  if (!found) return false;
  return rest.length === 0 || reaches(next, rest, fragments);
}
