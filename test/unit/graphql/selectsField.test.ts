import { Kind, parse } from 'graphql';
import type { FieldNode, FragmentDefinitionNode, OperationDefinitionNode } from 'graphql';
import { selectsField } from '../../../src/graphql/selectsField';

/** The info a resolver of the operation's first root field gets. */
function infoOf(document: string): Parameters<typeof selectsField>[0] {
  const parsed = parse(document);
  const operation = parsed.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const fragments = Object.fromEntries(
    parsed.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  return { fieldNodes: [operation?.selectionSet.selections[0] as FieldNode], fragments };
}

const VISITOR_PATHS = [['visitors'], ['points', 'visitors'], ['comparison', 'visitorsChange']];

describe('selectsField', () => {
  it.each([
    ['the field itself', '{ s: pageStats { total visitors } }', true],
    ['a point field, under an alias', '{ pageStats { p: points { v: visitors } } }', true],
    ['the comparison change', '{ pageStats { comparison { visitorsChange } } }', true],
    ['an inline fragment', '{ pageStats { ... on PageStats { points { visitors } } } }', true],
    [
      'a named fragment inside a named fragment',
      '{ pageStats { ...A } } fragment A on PageStats { ...B } fragment B on PageStats { visitors }',
      true,
    ],
    ['a field under @include, conservatively', '{ pageStats { visitors @include(if: false) } }', true],
    ['no visitors', '{ pageStats { total points { t hits } comparison { total } } }', false],
    ['visitors of something else at another depth', '{ pageStats { comparison { points { hits } } } }', false],
    [
      'a field named like the path but at the wrong depth',
      '{ pageStats { points { t } comparison { visitors } } }',
      false,
    ],
    ['fragments that refer to each other', '{ pageStats { ...A } } fragment A on PageStats { ...A total }', false],
  ])('finds %s: %s', (_name, document, expected) => {
    expect(selectsField(infoOf(document), VISITOR_PATHS)).toBe(expected);
  });
});
