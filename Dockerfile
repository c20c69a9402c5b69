# syntax=docker/dockerfile:1
#
# setbot's server image: docker build -t setbot .  (docs/server.md, docs/github-app.md)

# Build. cgo stays on (the default for a native build): solver/z3 binds Z3's C library.
FROM golang:1.26-bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends libz3-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=1 go build -trimpath -o /out/setbot ./cmd/setbot

# Run. libz3-4 is Z3's shared library (the package that libz3-dev's libz3.so points to in
# bookworm); ca-certificates lets the server reach GitHub over HTTPS; graphviz's dot lays out
# the diagrams of the report pages (docs/report-page.md; without it setbot's own layout does). No git: setbot clones and
# fetches with go-git, in the process, over HTTPS; only go-git's file:// transport would look for
# git's binaries, and it is for tests, not for a server.
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends libz3-4 ca-certificates graphviz \
 && rm -rf /var/lib/apt/lists/*
RUN groupadd --system --gid 10001 setbot \
 && useradd --system --uid 10001 --gid 10001 --home-dir /var/lib/setbot --no-create-home \
      --shell /usr/sbin/nologin setbot \
 && mkdir -p /var/lib/setbot /etc/setbot \
 && chown 10001:10001 /var/lib/setbot
COPY --from=build /out/setbot /usr/local/bin/setbot

# The database and the clones live on the volume. The default command reads the configuration
# file /etc/setbot/setbot.yml, which must then be mounted there; to run without a file, give
# "serve" alone as the command and every setting as a SETBOT_* variable (docs/github-app.md).
ENV SETBOT_DATABASE=/var/lib/setbot/setbot.db \
    SETBOT_CLONE_DIR=/var/lib/setbot/repos
USER 10001:10001
WORKDIR /var/lib/setbot
VOLUME /var/lib/setbot
EXPOSE 8080
# Assumes the default listen address, :8080.
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s \
  CMD ["/usr/local/bin/setbot", "healthcheck", "--url", "http://127.0.0.1:8080/healthz"]
ENTRYPOINT ["/usr/local/bin/setbot"]
CMD ["serve", "--config", "/etc/setbot/setbot.yml"]
