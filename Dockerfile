# Multi-stage build: install and build once, then a runtime image with production dependencies and the built Studio.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY embedded-mongo/package.json embedded-mongo/
COPY server/package.json server/
COPY workers/package.json workers/
COPY web/package.json web/
COPY test/package.json test/
RUN npm ci
COPY . .
RUN npm run build -w @lumibase/web

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY embedded-mongo/package.json embedded-mongo/
COPY server/package.json server/
COPY workers/package.json workers/
COPY web/package.json web/
COPY test/package.json test/
# tsx runs the TypeScript sources directly; it is needed at run time.
RUN npm ci --omit=dev --workspace @lumibase/server --workspace @lumibase/workers --workspace @lumibase/shared --workspace @lumibase/embedded-mongo --include-workspace-root=false \
  && npm install --no-save tsx@4 && npm cache clean --force
COPY shared/src shared/src
COPY embedded-mongo/src embedded-mongo/src
COPY server/src server/src
COPY workers/src workers/src
COPY --from=build /app/web/build web/build
USER node
EXPOSE 3000
CMD ["npm", "run", "start:server"]
