/**
 * Declares an argument as `@Arg` does, but hands the resolver its value as graphql-js coerced it: plain objects, not
 * instances of the input classes. type-graphql rebuilds every input object of an `@Arg` as an instance, walking its
 * field metadata (a linear search over every input type per field) and copying each value; for `recordHits`' hundred
 * `HitInput`s that cost about half as much as graphql-js's own coercion, on the path every batched hit takes. Only for
 * arguments whose classes carry no methods or getters: the resolver reads fields, nothing else.
 */
import { createParameterDecorator } from 'type-graphql';
import type { ArgOptions, ParameterDecorator } from 'type-graphql';

/** What `@Arg` takes as its type (type-graphql does not export the name). */
type ReturnTypeFunc = NonNullable<NonNullable<Parameters<typeof createParameterDecorator>[1]>['arg']>['typeFunc'];

export function PlainArg(name: string, typeFunc: ReturnTypeFunc, options?: ArgOptions): ParameterDecorator {
  return createParameterDecorator(({ args }) => (args as Record<string, unknown>)[name], {
    arg: { name, typeFunc, ...(options === undefined ? {} : { options }) },
  });
}
