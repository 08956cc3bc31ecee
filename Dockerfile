# The app image: the command of `npm start` (run by node directly, no npm process kept in front) serves the app (it applies migrations at start); `npm run worker` runs a worker.
FROM node:20-bookworm
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1 PRISMA_SCHEMA_ENGINE_BINARY=/bin/false
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
ENV HOST=0.0.0.0 PORT=3000
EXPOSE 3000
CMD ["node", "--import", "tsx", "scripts/start.ts"]
