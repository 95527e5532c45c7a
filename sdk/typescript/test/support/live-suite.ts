/** The arrangement of every SDK/CLI suite: an api process and a world of rows, stopped and deleted after the suite. */
import { Tierwise } from '@tierwise/sdk';
import { afterAll, beforeAll } from 'vitest';
import { type ApiProcess, startApiProcess } from './api-process.js';
import { createWorld, type World } from './world.js';

export interface LiveSuite {
  api: ApiProcess;
  world: World;
  /** An SDK client of the suite's api with `apiKey`. */
  client(apiKey: string, userAgent?: string): Tierwise;
  /** The client of the world's read key (a viewer), made once. */
  readonly reader: Tierwise;
  /** The client of the world's read-write key (an admin), made once. */
  readonly admin: Tierwise;
}

/**
 * Registers beforeAll/afterAll that start the api (with `env`) and create the world named
 * `name`; the returned object is filled once beforeAll ran.
 */
export function liveSuite(name: string, env: Record<string, string> = {}): LiveSuite {
  const clients = new Map<string, Tierwise>();
  const suite = {
    client: (apiKey: string, userAgent?: string) => new Tierwise({ apiKey, baseUrl: suite.api.url, userAgent }),
    get reader() {
      return clients.get('read') ?? clients.set('read', suite.client(suite.world.readKey)).get('read')!;
    },
    get admin() {
      return clients.get('admin') ?? clients.set('admin', suite.client(suite.world.adminKey)).get('admin')!;
    },
  } as LiveSuite;
  beforeAll(async () => {
    [suite.api, suite.world] = await Promise.all([startApiProcess(env), createWorld(name)]);
  });
  afterAll(async () => {
    await suite.api?.stop();
    await suite.world?.tenants.cleanUp();
  });
  return suite;
}
