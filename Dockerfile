# Multi-stage build: compile in the Rust image, run in a slim Debian with only the binary.
# The runtime image expects DATABASE_URL (a PostgreSQL 15+ server with pgvector installed).
FROM rust:1-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY .cargo ./.cargo
COPY .sqlx ./.sqlx
COPY src ./src
COPY crates ./crates
COPY benches ./benches
COPY migrations ./migrations
COPY data ./data
COPY contracts ./contracts
RUN cargo build --release --locked --bin miniclaw

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /var/lib/miniclaw --create-home miniclaw
COPY --from=build /src/target/release/miniclaw /usr/local/bin/miniclaw
USER miniclaw
WORKDIR /var/lib/miniclaw
ENV MINICLAW_ADDR=0.0.0.0:8080 \
    MINICLAW_LOG_FORMAT=json \
    MINICLAW_DATA_DIR=/var/lib/miniclaw
# Mount the MiniLM model files at /models (model.safetensors, tokenizer.json) and set
# MINICLAW_MODEL_DIR=/models, or choose MINICLAW_EMBEDDER=openai.
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080"]
ENTRYPOINT ["miniclaw"]
CMD ["serve"]
