// The driver's objects, kept until the process ends. On Node 24 (the container's), better-sqlite3
// 12 aborts the whole process when the garbage collector frees one of them (a connection, a
// statement, an iterator): its destructor asks for a Node environment that a collection does not
// always run in (node::RemoveEnvironmentCleanupHook: "Assertion failed: (env) != nullptr";
// WiseLibs/better-sqlite3#1515, fixed in 13, which needs Node 22). The server's bundle aborted so
// within seconds of starting. Kept, they are freed as the process ends, which is safe. There are
// few: a connection or two per process, its statements by SQL text (about 150 texts), an
// iterator per streamed table copy.

const kept: object[] = [];

/** Returns `driverObject`, never to be collected. */
export function keepUntilExit<T extends object>(driverObject: T): T {
  kept.push(driverObject);
  return driverObject;
}
