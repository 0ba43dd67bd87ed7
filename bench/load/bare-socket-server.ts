// Baseline for P2, P6 and P7's socket hop: a bare socket.io server with no auth, no log, no outbox; each
// socket joins the room its handshake names and `emit` sends a payload to a room, stamped with `sentAt`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { epochMs, serveParent } from './serve-parent.js';

const http = createServer();
const io = new Server(http, { path: '/socket.io', transports: ['websocket'] });
io.on('connection', (socket) => {
  const room = String((socket.handshake.auth as { siteId?: unknown }).siteId ?? 'none');
  void socket.join(room);
});
let seq = 0;

serveParent(
  {
    async listen() {
      await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
      return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}` };
    },
    emit(request) {
      const { room, event, payload } = request as unknown as { room: string; event: string; payload: Record<string, unknown> };
      seq++;
      io.to(room).emit(event, { ...payload, seq, sentAt: epochMs() });
      return { seq };
    },
    sockets() {
      return { sockets: io.engine.clientsCount };
    },
  },
  () => {
    io.close();
  },
);
