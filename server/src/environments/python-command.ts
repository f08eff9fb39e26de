// How a Python interpreter is run: a type of its own, so that whoever runs one (the sandbox, the probes) can name it
// without importing each other.

/** The argv prefix that runs a Python interpreter (e.g. ['/usr/bin/python3'] or a Debian root's run-python), with
 *  environment variables it needs (PYTHONPATH, …); they are added to the sandbox's scrubbed environment. */
export interface PythonCommand {
  argv: string[];
  env?: Record<string, string>;
}
