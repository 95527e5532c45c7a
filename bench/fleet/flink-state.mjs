/**
 * The Flink jobs' state per operator, from the job's REST API (the embedded MiniCluster serves it
 * on a port of its own choosing: found among the JVM's listening sockets, /proc/<pid>/fd and
 * /proc/net/tcp6).
 *
 * flinkRestUrl(jvmPid) -> 'http://127.0.0.1:<port>' of the JVM's port answering /jobs/overview, or null
 * stateBytesByOperator(restUrl) -> {operator name: bytes} of the newest completed checkpoint
 *   (its `state_size` per vertex: the full state the checkpoint holds), {} without one
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

const LISTEN = '0A';

function listeningPorts(pid) {
  const inodes = new Set();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode) inodes.add(inode);
    } catch { /* closed meanwhile */ }
  }
  const ports = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length > 9 && fields[3] === LISTEN && inodes.has(fields[9])) ports.push(parseInt(fields[1].split(':')[1], 16));
    }
  }
  return ports;
}

export async function flinkRestUrl(jvmPid) {
  for (const port of listeningPorts(jvmPid)) {
    const url = `http://127.0.0.1:${port}`;
    const ok = await fetch(`${url}/jobs/overview`, { signal: AbortSignal.timeout(1000) }).then((r) => r.ok, () => false);
    if (ok) return url;
  }
  return null;
}

export async function stateBytesByOperator(restUrl) {
  const get = async (path) => (await fetch(`${restUrl}${path}`)).json();
  const job = (await get('/jobs/overview')).jobs.find((j) => j.state === 'RUNNING');
  if (!job) return {};
  const latest = (await get(`/jobs/${job.jid}/checkpoints`)).latest?.completed;
  if (!latest) return {};
  const names = new Map((await get(`/jobs/${job.jid}`)).vertices.map((v) => [v.id, v.name.split(' -> ')[0]]));
  const details = await get(`/jobs/${job.jid}/checkpoints/details/${latest.id}`);
  return Object.fromEntries(Object.entries(details.tasks).map(([id, task]) => [names.get(id) ?? id, task.state_size]));
}
