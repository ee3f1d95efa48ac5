# The product in one image: every process of a scaled-out site (web, worker) runs it (compose.yaml).
FROM python:3.11-slim-bookworm
# libgomp1: the OpenMP runtime LightGBM's library links to (the learned file ranking's trees).
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends git libgomp1 \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY pyproject.toml README.md manage.py ./
COPY agentsite agentsite
COPY chat chat
COPY database_pool database_pool
COPY llm llm
COPY rag rag
COPY templates templates
COPY static static
RUN pip install --no-cache-dir .
ENV HOST=0.0.0.0 PORT=8000
CMD ["python", "manage.py", "serve", "--workers", "0"]
