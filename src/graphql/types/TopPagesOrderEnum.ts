/** Registers the TopPagesOrder enum with its playground documentation. */
import { registerEnumType } from 'type-graphql';
import { TopPagesOrder } from '../../query/TopPagesOrder';

registerEnumType(TopPagesOrder, {
  name: 'TopPagesOrder',
  description: "What topPages ranks pages by; a node's `hits` is that count.",
  valuesConfig: {
    HITS: { description: 'Pageviews (the default).' },
    ENTRIES: { description: 'Visits that entered on the page (entry pages), counted in the hour of their first hit.' },
    EXITS: {
      description: 'Visits whose last pageview was on the page (exit pages), counted in the hour of their first hit.',
    },
  },
});

export { TopPagesOrder };
