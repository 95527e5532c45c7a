// No import cycle between the top-level folders of a part (issue 20): the C++ includes between
// edge-agent/src/* folders, the Java packages of the jobs (io.tierwise.jobs.*), and the folders
// of services/api/src. A cycle fails with the folders that form it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Every file under `dir` whose name matches `pattern`, as paths relative to `dir`. */
function filesUnder(dir, pattern, prefix = '') {
  return readdirSync(path.join(dir, prefix)).flatMap((name) => {
    const relative = path.join(prefix, name);
    if (statSync(path.join(dir, relative)).isDirectory()) return filesUnder(dir, pattern, relative);
    return pattern.test(name) ? [relative] : [];
  });
}

/**
 * The dependency graph between the top-level folders of `dir`: `folderOf(file)` names a file's
 * folder, `targetsOf(file, text)` the folders its imports name (its own folder is dropped).
 */
function folderGraph(dir, pattern, folderOf, targetsOf) {
  const graph = new Map();
  for (const file of filesUnder(dir, pattern)) {
    const from = folderOf(file);
    if (!from) continue;
    const edges = graph.get(from) ?? new Set();
    for (const to of targetsOf(file, readFileSync(path.join(dir, file), 'utf8'))) if (to && to !== from) edges.add(to);
    graph.set(from, edges);
  }
  return graph;
}

/** The strongly connected components of more than one folder (Tarjan), each sorted. */
function cycles(graph) {
  let index = 0;
  const indexOf = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), indexOf.get(w)));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indexOf.has(v)) visit(v);
  return found;
}

const first = (file) => (file.includes(path.sep) ? file.split(path.sep)[0] : '(root)');

const PARTS = {
  'edge-agent/src (C++ includes)': () =>
    folderGraph(path.join(ROOT, 'edge-agent/src'), /\.(cpp|hpp|h)$/, first, (_, text) =>
      [...text.matchAll(/^#include "([^"/]+)\//gm)].map((m) => m[1])),
  'stream-jobs io.tierwise.jobs (Java packages)': () =>
    folderGraph(path.join(ROOT, 'stream-jobs/src/main/java/io/tierwise/jobs'), /\.java$/, first, (file, text) => {
      const targets = [...text.matchAll(/^import (?:static )?io\.tierwise\.jobs\.([a-z]+)\./gm)].map((m) => m[1]);
      // A class of the root package imported by name (io.tierwise.jobs.JobSettings).
      if (/^import (?:static )?io\.tierwise\.jobs\.[A-Z]/m.test(text)) targets.push('(root)');
      return targets;
    }),
  // Unit specs may build the whole AppModule (the root): they are not part of the layering.
  'services/api/src (TypeScript imports)': () =>
    folderGraph(path.join(ROOT, 'services/api/src'), /(?<!\.spec)\.ts$/, first, (file, text) =>
      [...text.matchAll(/from '(\.[^']+)'/g)].map((m) => first(path.normalize(path.join(path.dirname(file), m[1]))))),
};

for (const [part, graphOf] of Object.entries(PARTS)) {
  test(`no import cycle between the folders of ${part}`, () => {
    assert.deepEqual(cycles(graphOf()), [], 'folders that import each other (directly or around a loop)');
  });
}

test('the check finds a planted cycle', () => {
  const graph = new Map([['a', new Set(['b'])], ['b', new Set(['c'])], ['c', new Set(['a'])], ['d', new Set(['a'])]]);
  assert.deepEqual(cycles(graph), [['a', 'b', 'c']]);
});
