import { parse, validate } from 'graphql';
import { buildSchema } from '../../../src/graphql/buildSchema';
import { LIVE_SUBSCRIPTION, TOP_PAGES_QUERY, seriesQuery } from '../../../web/dashboard/seriesQuery';
import { exampleQuery, exampleVariables } from '../../../web/playground/example';

describe('the operations the browser pages send', () => {
  const schema = buildSchema();

  it.each([
    ['the dashboard series query', seriesQuery(3, true)],
    ['the dashboard series query without the site', seriesQuery(1, false)],
    ['the dashboard top pages query', TOP_PAGES_QUERY],
    ['the dashboard live subscription', LIVE_SUBSCRIPTION],
    ["the playground's example", exampleQuery],
  ])('%s is valid against the schema', (_name, source) => {
    expect(validate(schema, parse(source)).map((error) => error.message)).toEqual([]);
  });

  it("prefills the playground with the last hour, ending at the next minute's start", () => {
    expect(JSON.parse(exampleVariables(Date.UTC(2026, 10, 22, 15, 20, 30)))).toEqual({
      from: '2026-11-22T14:21:00.000Z',
      to: '2026-11-22T15:21:00.000Z',
    });
  });
});
