// The perf scripts' options: `--name VALUE` taken out of the argument list, so that what is left are the positional
// arguments.

/** The value after `name` in `args` (both removed from it), or `fallback` where `name` is not there. */
export function takeOption(args, name, fallback) {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
}
