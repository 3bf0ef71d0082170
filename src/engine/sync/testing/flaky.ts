/**
 * A transport that wraps a real one (HttpTransport to a real server, in the server fuzz) and makes
 * the network unreliable the way it is in the field, under a seeded rng: the server applies a push
 * but its answer is lost (the connection drops after the commit, so the replica resends the same
 * op ids, [S5]); the server answers a pull but the answer is lost (the page is never committed, so
 * the next pull acknowledges an older page and the server undoes this one and sends it again,
 * [S19]: the real server's duplicated delivery); pages are smaller than the replica asks for (the
 * replica always asks for PULL_MAX_OPS, client.ts `pullAll`), so paging is exercised.
 *
 * Unlike the fake transport (fake-server.ts `redeliver`), it never asks for a page from before the
 * replica's cursor: the real server keeps what it delivered to each device ([S11], [S12]) and
 * expects the next pull to start at the page's cursor, so a replica that asked from further back
 * and then went on from its own, later cursor would skip what the server meant to send next.
 */
import { AppError } from '#shared/errors.ts';
import type { SyncTransport } from '../transport.ts';
import type { Rng } from './fake-server.ts';

export type FlakyControl = {
  /** Probability that a push reaches the server and is applied, but its answer is lost. */
  losePush: number;
  /** Probability that a pull is answered by the server, but the answer is lost. */
  losePull: number;
  /** The largest page asked for (null: what the replica asks). */
  pageSize: number | null;
};

export type FlakyTransport = SyncTransport & { control: FlakyControl; lost: { push: number; pull: number } };

export const RELIABLE: FlakyControl = { losePush: 0, losePull: 0, pageSize: null };

export function flakyTransport(
  inner: SyncTransport,
  rng: Rng,
  control: Partial<FlakyControl> = {},
): FlakyTransport {
  const c: FlakyControl = { ...RELIABLE, ...control };
  const lost = { push: 0, pull: 0 };
  const dropped = (what: string) =>
    new AppError('sync-offline', `the connection dropped before the ${what} answer arrived`);
  return {
    control: c,
    lost,
    async push(request) {
      const res = await inner.push(request);
      if (rng() < c.losePush) {
        lost.push += 1;
        throw dropped('push');
      }
      return res;
    },
    async pull(after, limit, ack) {
      const page = await inner.pull(after, c.pageSize === null ? limit : Math.min(limit, c.pageSize), ack);
      if (rng() < c.losePull) {
        lost.pull += 1;
        throw dropped('pull');
      }
      return page;
    },
    me: () => inner.me(),
    hasBlob: (hash) => inner.hasBlob(hash),
    putBlob: (hash, bytes) => inner.putBlob(hash, bytes),
    getBlob: (hash) => inner.getBlob(hash),
  };
}
