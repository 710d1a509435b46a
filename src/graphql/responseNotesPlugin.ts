/** Adds the request's ResponseNotes to a single result's `extensions` (the `retention` note, issue 30). */
import type { ApolloServerPlugin } from '@apollo/server';
import type { ResponseNotes } from './ResponseNotes';

export function responseNotesPlugin<
  TContext extends { readonly notes: ResponseNotes },
>(): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response, contextValue }) {
          const extensions = contextValue.notes.extensions();
          if (extensions === undefined || response.body.kind !== 'single') return;
          const result = response.body.singleResult;
          result.extensions = { ...result.extensions, ...extensions };
        },
      };
    },
  };
}
