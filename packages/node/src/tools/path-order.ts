/**
 * Orders `/`-separated relative paths as a sorted directory walk visits them: segment by segment,
 * so `a/b` comes before `a.txt` (the order ripgrep's `--sort path` gives).
 */
export function comparePaths(a: string, b: string): number {
  const left = a.split('/');
  const right = b.split('/');
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index++) {
    const x = left[index]!;
    const y = right[index]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return left.length - right.length;
}
