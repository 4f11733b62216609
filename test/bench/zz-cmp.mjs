import { runPlainXState } from './plain-xstate.mjs';
import { runTroupe } from './workload.mjs';

const kinds = { troupe: (n) => runTroupe(n), xstate: (n) => runPlainXState(n, 5) };
const res = {};
for (const k in kinds) res[k] = [];
for (let w = 0; w < 2; w++) for (const k in kinds) await kinds[k](2000);
for (let r = 0; r < Number(process.argv[2] ?? 7); r++)
  for (const k in kinds) {
    globalThis.gc?.();
    const c = process.cpuUsage();
    const wall = await kinds[k](2000);
    const u = process.cpuUsage(c);
    res[k].push([wall, (u.user + u.system) / 1000]);
  }
const med = (a, i) => {
  const s = a.map((x) => x[i]).sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)];
};
for (const k in kinds)
  console.log(
    k.padEnd(8),
    'wall',
    (med(res[k], 0) / 10).toFixed(1),
    'cpu',
    (med(res[k], 1) / 10).toFixed(1),
    'µs/turn',
  );
console.log(
  'ratio wall',
  (med(res.troupe, 0) / med(res.xstate, 0)).toFixed(2),
  'cpu',
  (med(res.troupe, 1) / med(res.xstate, 1)).toFixed(2),
);
