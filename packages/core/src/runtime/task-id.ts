let counter = 0;
/** Random words for ids, drawn a batch at a time (one call to the system's generator per 256 ids). */
const randomWords = new Uint32Array(1024);
let randomIndex = randomWords.length;

/**
 * A new task id, `t_` then time and a counter (so ids sort by creation within a process: DBOS
 * breaks ties between workflows enqueued in the same millisecond by id, which keeps a cluster
 * session's queue FIFO), then about 100 random bits, so that one session cannot guess another's
 * task ids. The runtime's and the cluster client's default; uses Web Crypto (Node and browsers).
 */
export function createTaskId(): string {
  counter = (counter + 1) % 1_679_616;
  if (randomIndex === randomWords.length) {
    crypto.getRandomValues(randomWords);
    randomIndex = 0;
  }
  let suffix = '';
  for (const end = randomIndex + 4; randomIndex < end; randomIndex++)
    suffix += randomWords[randomIndex]!.toString(36).padStart(7, '0').slice(-5);
  return `t_${Date.now().toString(36)}${counter.toString(36).padStart(4, '0')}${suffix}`;
}
