// Graceful HTTP shutdown (DESIGN.md, Edges): stop accepting, answer whatever arrives on an open
// connection with `Connection: close`, and close idle keep-alive sockets without racing a client
// that is reusing one.
//
// The race: a keep-alive client may send its next request on an idle socket at the very moment
// the server closes it; the request then meets a closed socket and the client sees a reset.
// Node's server.close() closes every idle socket at once, so a client firing requests back to
// back (a proxy, a load test) loses the ones in flight. Here an idle socket is closed only once
// it has been quiet for a grace period: a client still using it sends its next request within
// that time, gets the answer with `Connection: close`, and closes the socket itself.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import net, { type Socket } from 'node:net';
import tls from 'node:tls';

interface Connection {
  inFlight: number;
  idleSince: number;
  timer?: NodeJS.Timeout;
}

/** Starts the shutdown; resolves once the listening socket and every connection are closed. */
export type Drain = (idleGraceMs: number) => Promise<void>;

export function trackConnections(server: Server): Drain {
  const connections = new Map<Socket, Connection>();
  const responses = new Set<ServerResponse>();
  let draining = false;
  let graceMs = 0;

  const closeWhenQuiet = (socket: Socket, connection: Connection) => {
    clearTimeout(connection.timer);
    if (connection.inFlight > 0 || socket.destroyed) return;
    const wait = connection.idleSince + graceMs - Date.now();
    connection.timer = setTimeout(() => {
      // setImmediate runs right after the poll phase: bytes that arrived meanwhile have been read
      // and a request they started counts as in flight, so the socket is not closed under it.
      setImmediate(() => {
        if (connection.inFlight === 0) socket.destroy();
      });
    }, Math.max(0, wait));
  };

  // Over https (tests only) a request's socket is the TLS one, not the TCP socket under it.
  server.on(server instanceof tls.Server ? 'secureConnection' : 'connection', (socket: Socket) => {
    connections.set(socket, { inFlight: 0, idleSince: Date.now() });
    socket.once('close', () => {
      clearTimeout(connections.get(socket)?.timer);
      connections.delete(socket);
    });
  });

  // Before the app's own listener, so the header is in place whatever the route sends.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    if (draining) res.setHeader('Connection', 'close');
    responses.add(res);
    const connection = connections.get(req.socket);
    if (connection) {
      connection.inFlight += 1;
      clearTimeout(connection.timer);
    }
    res.once('close', () => {
      responses.delete(res);
      if (!connection) return;
      connection.inFlight -= 1;
      connection.idleSince = Date.now();
      if (draining) closeWhenQuiet(req.socket, connection);
    });
  });

  return (idleGraceMs) => {
    draining = true;
    graceMs = idleGraceMs;
    // net's close, not http's: http's would also destroy every idle socket at once (the race).
    const closed = new Promise<void>((resolve) => net.Server.prototype.close.call(server, () => resolve()));
    for (const res of responses) if (!res.headersSent) res.setHeader('Connection', 'close');
    for (const [socket, connection] of connections) closeWhenQuiet(socket, connection);
    return closed;
  };
}
