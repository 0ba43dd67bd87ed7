import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vite';

// In development the Studio runs on Vite and proxies the API and the socket to the server.
const apiTarget = process.env.LUMIBASE_API ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [sveltekit()],
  server: {
    proxy: {
      '/api': apiTarget,
      '/socket.io': { target: apiTarget, ws: true },
      '/healthz': apiTarget,
      '/readyz': apiTarget,
    },
  },
});
