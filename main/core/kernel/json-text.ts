/**
 * An answer already written as JSON, sent as it is by the response serializer (http/serializer.ts).
 *
 * The long lists (issues, runs, comments, agents), one issue's GET, and checkout and release have
 * SQLite write each row as JSON (`json_object`, db/json-row.ts): V8 building a string for every
 * column of every row, and the serializer then writing each of them again, were most of a list
 * page's CPU at 100,000 issues (issue 17). With the test suites' response checks on, the text is
 * parsed and checked against the route's zod schema like any other answer.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/**
 * One answer from its JSON text. The type parameter is what the route's schema describes: handlers
 * answer this in place of it, and the serializer sends the text (the same for the two below).
 */
export function jsonValue<Value>(text: string): Value {
  return new JsonText(text) as unknown as Value;
}

/** A keyset page (`{items, nextCursor}`) from its rows' JSON texts, in order. */
export function jsonPage<Page>(rows: readonly string[], nextCursor: string | null): Page {
  return jsonValue<Page>(`{"items":[${rows.join(',')}],"nextCursor":${JSON.stringify(nextCursor)}}`);
}

/** A plain array answer from its elements' JSON texts, in order. */
export function jsonArray<List>(rows: readonly string[]): List {
  return jsonValue<List>(`[${rows.join(',')}]`);
}

/** A row's JSON object with more members after its own: `{…}` and `"k":v,…` make `{…,"k":v,…}`. */
export function withMembers(objectText: string, members: string): string {
  return objectText.length === 2 ? `{${members}}` : `${objectText.slice(0, -1)},${members}}`;
}
