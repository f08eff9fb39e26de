// Quoting text a project supplies in a message: a short excerpt on one line, with control characters (NULs of
// /proc/self/environ, escape sequences a terminal would act on) shown as spaces, so a message never carries a whole
// file or bytes that rewrite the terminal it is printed to.

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** `text` on one line, control characters as single spaces, cut to `max` characters (an ellipsis marks the cut). */
export function excerpt(text: string, max = 60): string {
  const flat = text.replace(CONTROL, ' ');
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1))}…`;
}

/** The most characters a problem message about a manifest carries. */
export const MAX_PROBLEM_MESSAGE = 240;
