/** One page of a list of the api. */
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

/**
 * Every item of a cursor-paginated list, page after page, fetching the next page only when the
 * previous one is consumed: `for await (const volume of client.volumes.iterate()) ...`.
 *
 * @param fetchPage fetches the page after `cursor` (undefined: the first page).
 */
export async function* paginate<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    yield* page.data;
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
}
