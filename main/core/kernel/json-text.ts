/**
 * An answer already written as JSON, sent as it is by the response serializer (http/serializer.ts).
 *
 * The long lists (issues, heartbeat runs) have SQLite write each row as JSON (`json_object`): V8
 * building a string for every column of every row, and the serializer then writing each of them
 * again, were most of a page's CPU at 100,000 issues (issue 17). With the test suites' response
 * checks on, the text is parsed and checked against the route's zod schema like any other answer.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/**
 * A keyset page (`{items, nextCursor}`) from its rows' JSON texts, in order. The type parameter is
 * the page the route's schema describes: handlers answer this in place of it (see `JsonText`).
 */
export function jsonPage<Page>(rows: readonly string[], nextCursor: string | null): Page {
  return new JsonText(`{"items":[${rows.join(',')}],"nextCursor":${JSON.stringify(nextCursor)}}`) as unknown as Page;
}

/** A plain array answer from its elements' JSON texts, in order (see `jsonPage`). */
export function jsonArray<List>(rows: readonly string[]): List {
  return new JsonText(`[${rows.join(',')}]`) as unknown as List;
}

/** A row's JSON object with more members after its own: `{…}` and `"k":v,…` make `{…,"k":v,…}`. */
export function withMembers(objectText: string, members: string): string {
  return objectText.length === 2 ? `{${members}}` : `${objectText.slice(0, -1)},${members}}`;
}
