/** The documents the query and storage fixtures insert are those tally's upserts would create. */
import type { Document } from 'mongodb';
import { upsertedDocument } from '../../../../bench/suite/counterDocuments';

describe('upsertedDocument', () => {
  it('takes the filter, $setOnInsert, $inc and the $bit operands of an upsert into an empty collection', () => {
    const date = new Date(Date.UTC(2026, 5, 15));
    expect(
      upsertedDocument({
        updateOne: {
          filter: { _id: 'id', 'metadata.site': 's', 'metadata.page': '/' } as Document,
          update: {
            $setOnInsert: { 'metadata.date': date },
            $inc: { daily: 2, 'hourly.3': 2, 'd.source.Google': 2 },
            $bit: { 'v.17': { or: 5 }, 'dv.browser.Chrome.3': { or: 1 } },
          },
          upsert: true,
        },
      }),
    ).toEqual({
      _id: 'id',
      metadata: { site: 's', page: '/', date },
      daily: 2,
      hourly: { 3: 2 },
      d: { source: { Google: 2 } },
      v: { 17: 5 },
      dv: { browser: { Chrome: { 3: 1 } } },
    });
  });

  it('refuses anything but an updateOne upsert', () => {
    expect(() => upsertedDocument({ insertOne: { document: {} } })).toThrow('expected an updateOne upsert');
  });
});
