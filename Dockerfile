# Encore in a container: the web app built with Node, the release binary with Rust, and a
# slim Debian runtime with the GStreamer plugins the transcoder loads. The compose file at
# the top level runs two of these behind nginx (README, "Running several instances").

# --- the dashboard (web/dist)
FROM node:20-bookworm-slim AS web
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY web/ ./
# The server's list of common passwords, which the sign-up form reads at build time too.
COPY assets/common-passwords.txt /src/assets/common-passwords.txt
RUN npm run build

# --- the server (release binary)
FROM rust:1.95-bookworm AS server
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      pkg-config libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# build.rs lists the licences with `cargo tree --offline`: fetch first.
RUN cargo fetch --locked \
 && cargo build --release --locked --bin encore

# --- the runtime
FROM debian:bookworm-slim
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      ca-certificates libgstreamer1.0-0 libgstreamer-plugins-base1.0-0 \
      gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad \
      gstreamer1.0-libav \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --home /var/lib/encore --create-home encore
COPY --from=server /src/target/release/encore /usr/local/bin/encore
COPY --from=web /src/web/dist /srv/encore/web
ENV ENCORE_BIND=0.0.0.0:8080 \
    ENCORE_INGEST_BIND=0.0.0.0:8000 \
    ENCORE_DATA_DIR=/var/lib/encore \
    ENCORE_WEB_DIR=/srv/encore/web
USER encore
VOLUME /var/lib/encore
EXPOSE 8080 8000
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/encore"]
CMD ["serve"]
