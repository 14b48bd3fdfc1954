/**
 * The RPC server's connections and its lifecycle: the response each connection is answering or last
 * answered, the answer to a client error between responses, and close(), which waits for the calls in
 * flight. Apart from the request handling (RpcRequestHandler.ts): this is kept per connection and per
 * server, and a request only records its response here.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

interface Connection {
  /** The response of the connection's latest request; undefined before its first. */
  res: ServerResponse | undefined;
}

export class RpcConnections {
  // Per connection: the response it is answering or last answered (for clientError and close()).
  // Tracked per connection rather than per request, so a request adds no listener of its own.
  private readonly connections = new Map<Duplex, Connection>();
  private closing: Promise<void> | undefined;
  // While closing: the responses still to be finished, and who waits for the last one.
  private draining: { pending: Set<ServerResponse>; done: () => void } | undefined;

  constructor(
    private readonly server: Server,
    /** How long close() waits for calls in flight before destroying their connections. */
    private readonly closeGraceMs: number,
  ) {}

  /** A new connection, tracked until it closes. */
  opened(socket: Duplex): void {
    this.connections.set(socket, { res: undefined });
    socket.once('close', () => this.connections.delete(socket));
  }

  /** A request on a tracked connection: `res` is now the response it is answering; while closing, the last. */
  requested(req: IncomingMessage, res: ServerResponse): void {
    const connection = this.connections.get(req.socket);
    if (connection !== undefined) connection.res = res;
    if (this.closing) {
      res.shouldKeepAlive = false;
      this.drainTrack(res);
    }
  }

  /** Malformed HTTP, a request timeout, a reset: answer if the connection is between responses, then drop it. */
  clientError(error: NodeJS.ErrnoException, socket: Duplex): void {
    const res = this.connections.get(socket)?.res;
    // Not between responses: one is being written, or the last one closes the connection.
    const betweenResponses = res === undefined || !res.headersSent || (res.writableEnded && res.shouldKeepAlive);
    if (socket.writable && betweenResponses && error.code !== 'ECONNRESET') {
      const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : error.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    }
    socket.destroy();
  }

  /** Stops accepting, closes idle keep-alive connections, waits up to closeGraceMs for calls in flight, then destroys the rest. */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    const server = this.server;
    const stopped = new Promise<void>((resolve) => {
      server.close(() => resolve());
    });
    // Node 20's close() already ends idle keep-alive connections; in-flight ones finish with Connection: close.
    server.closeIdleConnections();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.closeGraceMs);
      const draining = {
        pending: new Set<ServerResponse>(),
        done: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      this.draining = draining;
      for (const { res } of this.connections.values()) {
        if (res === undefined) continue;
        if (!res.headersSent) res.shouldKeepAlive = false;
        this.drainTrack(res);
      }
      if (draining.pending.size === 0) draining.done();
    });
    server.closeAllConnections();
    await stopped;
  }

  /** While closing: `res`, unless finished, is one to wait for. */
  private drainTrack(res: ServerResponse): void {
    if (this.draining === undefined || res.writableEnded || res.destroyed) return;
    const { pending } = this.draining;
    pending.add(res);
    res.once('close', () => {
      pending.delete(res);
      if (pending.size === 0) this.draining?.done();
    });
  }
}
