/**
 * Declares an argument as `@Arg` does, but hands the resolver its value as graphql-js coerced it: plain objects, not
 * instances of the input classes. type-graphql rebuilds every input object of an argument as an instance, walking
 * its field metadata (a linear search over every input type per field) and copying each value; for `recordHits`'
 * hundred `HitInput`s that cost about half as much as graphql-js's own coercion, on the path every batched hit takes.
 * type-graphql does that for a custom parameter that declares an argument too (and then drops the result), so the
 * value must not reach it: passPlainArguments wraps each such field's resolver to hand type-graphql the arguments
 * without it, and the value beside them. Only for arguments whose classes carry no methods or getters: the resolver
 * reads fields, nothing else.
 */
import type { GraphQLFieldResolver, GraphQLSchema } from 'graphql';
import { createParameterDecorator } from 'type-graphql';
import type { ArgOptions, ParameterDecorator } from 'type-graphql';

/** What `@Arg` takes as its type (type-graphql does not export the name). */
type ReturnTypeFunc = NonNullable<NonNullable<Parameters<typeof createParameterDecorator>[1]>['arg']>['typeFunc'];

/** Where a wrapped resolver keeps the arguments as coerced, beside those type-graphql gets. */
const AS_COERCED = Symbol('arguments as coerced');

/** Plain arguments by root field name (a resolver method's name: none of them is renamed). */
const plainArguments = new Map<string, Set<string>>();

export function PlainArg(name: string, typeFunc: ReturnTypeFunc, options?: ArgOptions): ParameterDecorator {
  const declare = createParameterDecorator(
    ({ args }) => ((args as Record<symbol, Record<string, unknown>>)[AS_COERCED] as Record<string, unknown>)[name],
    { arg: { name, typeFunc, ...(options === undefined ? {} : { options }) } },
  );
  return (prototype, propertyKey, index) => {
    const field = String(propertyKey);
    const names = plainArguments.get(field) ?? new Set<string>();
    plainArguments.set(field, names.add(name));
    declare(prototype, propertyKey, index);
  };
}

/** Makes every field with a PlainArg hand type-graphql its arguments without the plain ones (see above). */
export function passPlainArguments(schema: GraphQLSchema): GraphQLSchema {
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()];
  for (const [fieldName, names] of plainArguments) {
    const field = roots.map((root) => root?.getFields()[fieldName]).find((found) => found !== undefined);
    const resolve = field?.resolve;
    if (field === undefined || resolve === undefined) {
      throw new Error(`PlainArg is declared on ${fieldName}, which is no root field of the schema`);
    }
    const wrapped: GraphQLFieldResolver<unknown, unknown> = (root, args: Record<string, unknown>, context, info) => {
      const withheld: Record<string | symbol, unknown> = { [AS_COERCED]: args };
      for (const key of Object.keys(args)) if (!names.has(key)) withheld[key] = args[key];
      return resolve(root, withheld, context, info);
    };
    field.resolve = wrapped;
  }
  return schema;
}
