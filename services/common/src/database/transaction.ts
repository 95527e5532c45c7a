import type pg from 'pg';

/** Anything that runs a query: a pool (no tenant scope) or a client inside a transaction. */
export type Queryable = Pick<pg.ClientBase, 'query'>;

/**
 * Runs `fn` in one transaction on a client of `pool`: BEGIN, `fn`, COMMIT; ROLLBACK and
 * rethrow when `fn` rejects. A client whose ROLLBACK failed is discarded, not reused.
 *
 * @param pool the pool to take a client from.
 * @param fn work to run on the client; the client must not escape `fn`.
 */
export async function inTransaction<T>(pool: pg.Pool, fn: (db: Queryable) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
    throw error;
  } finally {
    client.release(broken);
  }
}
