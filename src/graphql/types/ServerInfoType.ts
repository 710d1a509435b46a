import { Field, ObjectType } from 'type-graphql';

@ObjectType('DatabaseInfo', { description: 'The MongoDB-compatible server this instance talks to.' })
export class DatabaseInfoType {
  @Field({ description: '"MongoDB" or "FerretDB".' })
  engine!: string;

  @Field({ description: "The engine's own version." })
  version!: string;

  @Field({ description: 'The MongoDB version the engine reports compatibility with.' })
  compatibleWith!: string;

  @Field({ description: 'The database name.' })
  name!: string;
}

@ObjectType('ServerInfo', { description: 'What is serving this API.' })
export class ServerInfoType {
  @Field({ description: 'tally version.' })
  version!: string;

  @Field(() => DatabaseInfoType, { description: 'The database behind it.' })
  database!: DatabaseInfoType;
}
